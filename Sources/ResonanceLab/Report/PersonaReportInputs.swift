/// What the persona report reads from a persona workspace: `daily.csv` (required),
/// `plays.csv`, and when the stages have run, `hrv.csv`, `coherence.csv`, and the
/// generator's `truth.csv`.
public struct PersonaReportInputs: Sendable {
    /// One analysed HRV window of `hrv.csv` (ms, bpm).
    public struct HRVWindow: Equatable, Sendable {
        public var subject: String
        public var reliable: Bool
        public var sdnnMs: Double?
        public var rmssdMs: Double?
        public var meanHRBpm: Double?
    }

    /// One window of `coherence.csv`.
    public struct CoherenceWindow: Equatable, Sendable {
        public var subject: String
        public var method: String
        public var coherence: Double?
    }

    public var daily: [DailyRow]
    public var plays: [Play]
    /// Nil when the stage output is absent.
    public var hrv: [HRVWindow]?
    public var coherence: [CoherenceWindow]?
    /// `truth.csv` persona sensitivities: subject → [(metric, value)].
    public var sensitivities: [String: [(metric: String, value: Double)]]

    public init(daily: [DailyRow], plays: [Play] = [], hrv: [HRVWindow]? = nil, coherence: [CoherenceWindow]? = nil,
                sensitivities: [String: [(metric: String, value: Double)]] = [:]) {
        self.daily = daily; self.plays = plays; self.hrv = hrv; self.coherence = coherence
        self.sensitivities = sensitivities
    }

    /// Subjects in the order `daily.csv` first lists them.
    public var subjects: [String] {
        var seen: [String] = []
        for row in daily where !seen.contains(row.snapshot.subject) { seen.append(row.snapshot.subject) }
        return seen
    }

    /// Reads the workspace; `daily.csv` must exist, the other tables are optional.
    public init(workspace ws: Workspace) throws {
        guard ws.exists(DailyRow.fileName) else {
            throw TableError(path: ws.file(DailyRow.fileName), line: 0, column: 0,
                             message: "no daily.csv: not a persona workspace (run `resonance personas generate`)")
        }
        daily = try ws.read(DailyRow.self)
        plays = try ws.read(Play.self)
        hrv = try Self.columns(ws, "hrv.csv", ["subject", "reliable", "SDNN", "RMSSD", "MeanHR"]).map { rows in
            rows.map { HRVWindow(subject: $0[0], reliable: $0[1] == "true" || $0[1] == "1", sdnnMs: Double($0[2]),
                                 rmssdMs: Double($0[3]), meanHRBpm: Double($0[4])) }
        }
        coherence = try Self.columns(ws, "coherence.csv", ["subject", "method", "coherence"]).map { rows in
            rows.map { CoherenceWindow(subject: $0[0], method: $0[1], coherence: Double($0[2])) }
        }
        sensitivities = [:]
        for row in try Self.columns(ws, "truth.csv", ["kind", "subject", "metric", "value"]) ?? []
        where row[0] == "persona_sensitivity" {
            if let v = Double(row[3]) { sensitivities[row[1], default: []].append((row[2], v)) }
        }
    }

    /// The named columns of every data row of an optional table (nil when absent).
    static func columns(_ ws: Workspace, _ name: String, _ names: [String]) throws -> [[String]]? {
        guard ws.exists(name) else { return nil }
        let path = ws.file(name)
        var rows: [[String]] = []
        var index: [Int]?
        try CSVReader(path: path).forEachRecord { record in
            guard let index else {
                let header = (0..<record.count).map(record.trimmed)
                index = try names.map { n in
                    guard let i = header.firstIndex(of: n) else {
                        throw TableError(path: path, line: record.line, column: 0, message: "header lacks column '\(n)'")
                    }
                    return i
                }
                return
            }
            rows.append(index.map { $0 < record.count ? record.trimmed($0) : "" })
        }
        return rows
    }
}
