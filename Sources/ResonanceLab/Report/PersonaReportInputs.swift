/// What the persona report reads from a persona workspace: `daily.csv` (required),
/// `plays.csv`, and when the stages have run, `hrv.csv`, `coherence.csv`, and the
/// generator's `truth.csv`, `subjects.csv` and `zones.csv`.
public struct PersonaReportInputs: Sendable {
    public var daily: [DailyRow]
    public var plays: [Play]
    /// Nil when the stage output is absent.
    public var hrv: [HRVRow]?
    public var coherence: [CoherenceRow]?
    /// `receipts.csv`, written with `daily.csv`; nil when absent (the report then
    /// explains the engines re-run with the constants in force).
    public var receipts: [ReceiptRow]?
    /// `truth.csv` persona sensitivities: subject → [(metric, value)].
    public var sensitivities: [String: [(metric: String, value: Double)]]
    /// `subjects.csv` (age, sex, height for the engines re-run), empty when absent.
    public var subjectRows: [SubjectRow]
    /// `zones.csv`; nil when absent.
    public var zones: [ZoneDayRow]?

    public init(daily: [DailyRow], plays: [Play] = [], hrv: [HRVRow]? = nil, coherence: [CoherenceRow]? = nil,
                receipts: [ReceiptRow]? = nil, sensitivities: [String: [(metric: String, value: Double)]] = [:],
                subjectRows: [SubjectRow] = [], zones: [ZoneDayRow]? = nil) {
        self.daily = daily; self.plays = plays; self.hrv = hrv; self.coherence = coherence
        self.receipts = receipts; self.sensitivities = sensitivities; self.subjectRows = subjectRows; self.zones = zones
    }

    /// Subjects in the order `daily.csv` first lists them.
    public var subjects: [String] {
        var seen: [String] = []
        for row in daily where !seen.contains(row.snapshot.subject) { seen.append(row.snapshot.subject) }
        return seen
    }

    /// The tables read.
    public static let reads = [DailyRow.fileName, Play.fileName, HRVRow.fileName, CoherenceRow.fileName, ReceiptRow.fileName,
                               PlantedEffect.fileName, SubjectRow.fileName, ZoneDayRow.fileName]

    /// Reads the workspace; `daily.csv` must exist, the other tables are optional.
    public init(workspace ws: Workspace) throws {
        guard ws.exists(DailyRow.fileName) else {
            throw TableError(path: ws.file(DailyRow.fileName), line: 0, column: 0,
                             message: "no daily.csv: not a persona workspace (run `resonance personas generate`)")
        }
        daily = try ws.read(DailyRow.self)
        plays = try ws.read(Play.self)
        hrv = try ws.readIfPresent(HRVRow.self)
        coherence = try ws.readIfPresent(CoherenceRow.self)
        receipts = try ws.readIfPresent(ReceiptRow.self)
        subjectRows = try ws.read(SubjectRow.self)
        zones = try ws.readIfPresent(ZoneDayRow.self)
        sensitivities = [:]
        for row in try ws.read(PlantedEffect.self) where row.kind == .personaSensitivity {
            sensitivities[row.subject, default: []].append((row.metric, row.value))
        }
    }
}
