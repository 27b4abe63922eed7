import Foundation

/// The trend engine's tuning problem: the measured days of persona workspaces with
/// planted health events (`resonance personas generate --events planned`), the flags
/// the product shows the user (regression, stress pattern, consecutive elevation)
/// recomputed for each candidate and counted against the events as `AlarmAnalysis`
/// counts them. Personas are the cross-validation unit.
///
/// Objective (`sensitivity-at-1-false-alarm`): maximise the share of deterioration
/// events (illness, overreaching, regression) found within their window plus the grace,
/// subject to at most `maxFalseAlarmsPerMonth` false alarms per person-month: the value
/// is sensitivity − max(0, false alarms per person-month − 1), pooled over the units.
/// `regression_method` is not searched (it picks a rule, give it with --constants);
/// the anomaly and week-over-week constants do not enter the shown flags and stay fixed.
public struct TrendTuningData: TuningProblem {
    public static let engine = TrendConstants.spec.name
    public static let objectives: [TuningObjective] = [.alarmSensitivity]
    public static let defaultNames = [
        "rhr_slope_threshold", "hrv_slope_threshold", "slope_days", "slope_min_days", "slope_t_min", "ewma_lambda",
        "ewma_limit", "pattern_rhr_z", "pattern_hrv_z", "pattern_recovery_z", "elevation_sd", "elevation_min_days",
    ]
    public static let searchBounds: [String: ClosedRange<Double>] = [
        "rhr_slope_threshold": 0...3, "hrv_slope_threshold": -10...0, "slope_days": 3...28, "slope_min_days": 3...28,
        "slope_t_min": 0...8, "ewma_lambda": 0.05...1, "ewma_limit": 0.5...8, "pattern_rhr_z": 0...5,
        "pattern_hrv_z": -5...0, "pattern_recovery_z": -5...0, "elevation_sd": 0.5...5, "elevation_min_days": 1...10,
    ]
    /// The constraint of the objective: false alarms per person-month.
    public static let maxFalseAlarmsPerMonth = 1.0

    /// The tables the days and the events come from.
    public static let reads = [Manifest.fileName, DailyRow.fileName, PlantedEffect.fileName]

    /// Per unit: its measured days (sorted) and its planted events.
    var days: [[DailySnapshot]] = []
    var events: [[PlantedEvent]] = []
    public private(set) var units: [String] = []
    public private(set) var inputs: [TuningInput] = []

    /// From each workspace's `daily.csv` (measured columns) and `truth.csv`; a one-line
    /// error when a workspace has no planted health event.
    public init(workspaces: [(name: String, workspace: Workspace)]) throws {
        for (name, ws) in workspaces {
            let planted = PlantedEvent.events(in: try ws.read(PlantedEffect.self))
            guard !planted.isEmpty else {
                throw TuningError(message: "\(ws.file(PlantedEffect.fileName)): no health_event rows; tuning the trend engine "
                    + "needs persona workspaces with planted events (`resonance personas generate --events planned`)")
            }
            add(name, days: try ws.read(DailyRow.self).map(\.snapshot), events: planted)
            inputs.append(try TuningInput(workspace: name, ws, tables: Self.reads))
        }
    }

    /// From days and events in memory, one entry per workspace.
    init(parts: [(name: String, days: [DailySnapshot], events: [PlantedEvent])]) {
        for part in parts { add(part.name, days: part.days, events: part.events) }
    }

    /// Every subject of `snapshots` becomes a unit `name/subject`, subjects in byte order.
    mutating func add(_ name: String, days snapshots: [DailySnapshot], events planted: [PlantedEvent]) {
        let bySubject = Dictionary(grouping: snapshots, by: \.subject)
        for subject in bySubject.keys.sorted(by: SubjectOrder.precedes) {
            units.append("\(name)/\(subject)")
            days.append((bySubject[subject] ?? []).sorted { $0.day < $1.day })
            events.append(planted.filter { $0.subject == subject })
        }
    }

    public var unitNoun: String { "personas" }
    public var dataSummary: String {
        let n = events.flatMap { $0 }.filter(\.isDeterioration).count
        return "\(plural(days.reduce(0) { $0 + $1.count }, "person-day")), \(plural(n, "deterioration event")); objective: sensitivity of the shown "
            + "flags − false alarms per person-month above \(decimals(Self.maxFalseAlarmsPerMonth, 0)), grace "
            + "\(AlarmCounting.graceDays) days"
    }
    public var provenance: [String: JSONValue] {
        ["person_days": .int(days.reduce(0) { $0 + $1.count }), "events": .int(events.reduce(0) { $0 + $1.count }),
         "grace_days": .int(AlarmCounting.graceDays), "max_false_alarms_per_person_month": .num(Self.maxFalseAlarmsPerMonth),
         "flags": .array(AlarmSignal.shownFlags.map(JSONValue.string))]
    }

    public func select(_ units: [Int]) -> [Int] { units }

    /// The pooled tally of the shown flags over `units` with `registry`'s trend constants.
    public func tally(_ registry: ConstantsRegistry, on units: [Int]) -> AlarmTally {
        let engine = HeartTrendEngine(constants: TrendConstants(registry: registry))
        return units.reduce(AlarmTally()) { total, u in
            let d = days[u]
            let flagged = d.indices.map { i in
                (day: d[i].day, on: engine.assess(d[i], history: d[..<i]).flags.contains { AlarmSignal.shownFlags.contains($0) })
            }
            return total + AlarmCounting.tally(days: flagged, events: events[u])
        }
    }

    public func value(_ objective: TuningObjective, _ registry: ConstantsRegistry, on units: [Int]) -> Double {
        guard objective == .alarmSensitivity else { return .nan }
        let t = tally(registry, on: units)
        return t.sensitivity() - max(0, t.falseAlarmsPerMonth - Self.maxFalseAlarmsPerMonth)
    }
}
