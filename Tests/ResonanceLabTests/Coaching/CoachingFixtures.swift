@testable import ResonanceLab

/// Hand-made `daily.csv` rows for the coaching rule tests; a stress score carries the
/// stress engine's level, as in `daily.csv`.
enum CoachingFixtures {
    /// 2026-01-05, a Monday.
    static let monday = Timestamp.daysFromCivil(2026, 1, 5)
    static let c = CoachingConstants.defaults

    static func row(_ day: Int, subject: String = "s", rhr: Double? = nil, hrv: Double? = nil, recovery: Double? = nil,
                    vo2: Double? = nil, steps: Double? = nil, walk: Double? = nil, workout: Double? = nil, sleep: Double? = nil,
                    stress: Double? = nil, readiness: Double? = nil, anomaly: Double? = nil, flags: [String] = []) -> DailyRow {
        DailyRow(snapshot: DailySnapshot(subject: subject, day: day, restingHRBpm: rhr, hrvSDNNMs: hrv, recovery1mBpm: recovery, vo2Max: vo2,
                                         steps: steps, walkMinutes: walk, workoutMinutes: workout, sleepHours: sleep),
                 stress: stress, stressLevel: stress.map { StressEngine().level($0).rawValue } ?? "", readiness: readiness, readinessLevel: "", anomaly: anomaly, flags: flags)
    }

    /// `count` days from `start` with the same values.
    static func days(_ start: Int, _ count: Int, rhr: Double? = 60, hrv: Double? = 50, sleep: Double? = 7, walk: Double? = 30) -> [DailyRow] {
        (0..<count).map { row(start + $0, rhr: rhr, hrv: hrv, walk: walk, sleep: sleep) }
    }

    static func signals(_ rows: [DailyRow], day: Int? = nil) -> CoachingSignals {
        let h = CoachingHistory(rows: rows)
        return CoachingSignalEngine(constants: c).signals(h, day: day ?? h.rows.last?.snapshot.day ?? 0)
    }
}
