/// Everything the daily engines say about one person-day.
public struct DailyAssessment: Equatable, Sendable {
    public let snapshot: DailySnapshot
    public let stress: StressResult?
    public let readiness: ReadinessResult?
    public let trend: TrendResult

    /// Every flag a day can carry, in the order `flags` lists them.
    public static let flagNames = [
        "anomaly", "regression", "stress_pattern", "rhr_week_up", "rhr_week_down", "consecutive_elevation",
        "readiness_capped",
    ]

    /// Trend flags, then `readiness_capped` when the elevation cap applied.
    public var flags: [String] {
        trend.flags + (readiness?.capped == true ? ["readiness_capped"] : [])
    }

    /// The `daily.csv` row of this day.
    public var row: DailyRow {
        DailyRow(snapshot: snapshot, stress: stress?.score, stressLevel: stress?.level.rawValue ?? "",
                 readiness: readiness?.score, readinessLevel: readiness?.level.rawValue ?? "",
                 anomaly: trend.anomaly, flags: flags)
    }
}

/// The daily engines run together over people's histories: trend first (its
/// consecutive-elevation alert caps readiness), then stress, then readiness (which
/// takes the day's stress as a pillar).
public enum DailyEngines {
    /// The registry engines they run on.
    public static let engines = ["readiness", "stress", "trend"]

    /// One assessment per snapshot. Snapshots may hold several subjects in any order;
    /// the result lists subjects in order of first appearance, each by ascending day.
    /// Each day sees only its own snapshot and the days before it.
    public static func assess(history: [DailySnapshot], registry: ConstantsRegistry = .defaults) -> [DailyAssessment] {
        let stressEngine = StressEngine(constants: StressConstants(registry: registry))
        let readinessEngine = ReadinessEngine(constants: ReadinessConstants(registry: registry))
        let trendEngine = HeartTrendEngine(constants: TrendConstants(registry: registry))
        var order: [String] = []
        var bySubject: [String: [DailySnapshot]] = [:]
        for s in history {
            if bySubject[s.subject] == nil { order.append(s.subject) }
            bySubject[s.subject, default: []].append(s)
        }
        var out: [DailyAssessment] = []
        for subject in order {
            let days = (bySubject[subject] ?? []).sorted { $0.day < $1.day }
            for (i, today) in days.enumerated() {
                let before = days[..<i]
                let trend = trendEngine.assess(today, history: before)
                let stress = stressEngine.assess(today, history: before)
                let readiness = readinessEngine.assess(today, history: before, stress: stress?.score,
                                                       elevationAlert: trend.elevationAlert)
                out.append(DailyAssessment(snapshot: today, stress: stress, readiness: readiness, trend: trend))
            }
        }
        return out
    }
}
