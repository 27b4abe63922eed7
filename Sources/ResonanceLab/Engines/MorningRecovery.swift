/// The health platform's morning recovery (docs/engines.md, Morning recovery): a 0–100
/// score from last night's HRV, sleep and resting heart rate, and the morning decision
/// with and without a planned workout.
public struct MorningRecoveryEngine: Sendable {
    public let constants: MorningRecoveryConstants

    public init(constants: MorningRecoveryConstants) {
        self.constants = constants
    }

    private var c: MorningRecoveryConstants { constants }

    /// What the morning decides: the action and the intensity it suggests (empty for rest).
    public struct Decision: Equatable, Sendable {
        /// `light` (modify the planned workout), `confirm`, `suggest` or `rest`.
        public var action: String
        /// `light`, `moderate`, `high`, or empty.
        public var intensity: String
    }

    /// The score's parts, each 0–1 or nil without its input, and the score.
    public struct Score: Equatable, Sendable {
        public var hrv: Double?
        public var sleep: Double?
        public var restingHR: Double?
        /// Int(composite × 100), the product's truncation; nil without any component.
        public var overall: Int?
    }

    /// HRV component: 0 at or below `hrv_low_ms`, 1 at or above `hrv_high_ms`, linear between.
    public func hrvScore(sdnnMs: Double) -> Double {
        clamp((sdnnMs - c.hrvLowMs) / (c.hrvHighMs - c.hrvLowMs), 0...1)
    }

    /// Sleep component: 0 at or below `sleep_zero_h`, 1 at or above `sleep_full_h`, linear between.
    public func sleepScore(hours: Double) -> Double {
        clamp((hours - c.sleepZeroHours) / (c.sleepFullHours - c.sleepZeroHours), 0...1)
    }

    /// Resting-HR component: 1 at or below the baseline, 0 at `resting_hr_zero_above_bpm`
    /// above it, linear between.
    public func restingHRScore(bpm: Double, baselineBpm: Double) -> Double {
        clamp(1 - (bpm - baselineBpm) / c.restingHRZeroAboveBpm, 0...1)
    }

    /// The composite over the components present, their weights renormalised (the
    /// product weighs all three; a night without one input is scored on the others).
    public func score(sdnnMs: Double?, sleepHours: Double?, restingHRBpm: Double?, baselineBpm: Double?) -> Score {
        let h = sdnnMs.map(hrvScore), s = sleepHours.map(sleepScore)
        let r = restingHRBpm.flatMap { bpm in baselineBpm.map { restingHRScore(bpm: bpm, baselineBpm: $0) } }
        let parts = [(h, c.hrvWeight), (s, c.sleepWeight), (r, c.restingHRWeight)].compactMap { v, w in v.map { ($0, w) } }
        let weight = parts.reduce(0) { $0 + $1.1 }
        guard weight > 0 else { return Score(hrv: h, sleep: s, restingHR: r, overall: nil) }
        let composite = parts.reduce(0) { $0 + $1.0 * $1.1 } / weight
        return Score(hrv: h, sleep: s, restingHR: r, overall: Int(composite * 100))
    }

    /// The morning decision as the product branches it. With a planned workout: below
    /// `light_below` → light, else confirm (high above `high_above`, else moderate).
    /// Without: above `suggest_above` → suggest a session (high above `high_above`, else
    /// moderate), else rest.
    public func decide(overall: Int, plannedWorkout: Bool) -> Decision {
        let score = Double(overall)
        let intensity = score > c.highAbove ? "high" : "moderate"
        if plannedWorkout {
            return score < c.lightBelow ? Decision(action: "light", intensity: "light") : Decision(action: "confirm", intensity: intensity)
        }
        return score > c.suggestAbove ? Decision(action: "suggest", intensity: intensity) : Decision(action: "rest", intensity: "")
    }

    /// The resting-HR baseline of `day`: the median of the days before it within
    /// `resting_hr_baseline_days` that have a resting HR, when at least
    /// `resting_hr_baseline_min_days` do.
    public func baseline(before day: Int, history: [DailySnapshot]) -> Double? {
        let earlier = history.filter { $0.day < day && $0.day >= day - Int(c.restingHRBaselineDays) }.compactMap(\.restingHRBpm)
        return Double(earlier.count) >= c.restingHRBaselineMinDays ? Stats.median(earlier) : nil
    }
}

/// One row of `morning_recovery.csv` (docs/tables.md): a subject's morning — the inputs
/// of the day's snapshot, the components and score, and the decision with a planned
/// workout and without one; `planned` says which applies offline (a recorded workout
/// that day stands in for the plan); beside it the coach's readiness level of the day.
public struct MorningRecoveryRow: Equatable, Sendable {
    public var subject: String
    public var date: String
    public var hrvSDNNMs: Double?
    public var sleepHours: Double?
    public var restingHRBpm: Double?
    public var restingHRBaselineBpm: Double?
    public var score: MorningRecoveryEngine.Score
    public var planned: Bool
    public var withPlan: MorningRecoveryEngine.Decision?
    public var withoutPlan: MorningRecoveryEngine.Decision?
    public var readinessLevel: String
}

extension MorningRecoveryRow: CanonicalRow {
    public static let fileName = "morning_recovery.csv"
    public static let header = [
        "subject", "date", "hrv_sdnn_ms", "sleep_hours", "resting_hr_bpm", "resting_hr_baseline_bpm", "hrv_score", "sleep_score",
        "resting_hr_score", "score", "planned_workout", "with_plan", "with_plan_intensity", "without_plan", "without_plan_intensity",
        "readiness_level",
    ]

    public func write(to w: CSVWriter) {
        w.field(subject); w.field(date); w.field(hrvSDNNMs); w.field(sleepHours); w.field(restingHRBpm); w.field(restingHRBaselineBpm)
        w.field(score.hrv); w.field(score.sleep); w.field(score.restingHR); w.field(score.overall); w.field(planned)
        w.field(withPlan?.action ?? ""); w.field(withPlan?.intensity ?? ""); w.field(withoutPlan?.action ?? "")
        w.field(withoutPlan?.intensity ?? ""); w.field(readinessLevel)
    }

    public init(_ r: CanonicalFieldReader) throws {
        func decision(_ a: String, _ i: String) throws -> MorningRecoveryEngine.Decision? {
            let action = try r.string(a)
            return action.isEmpty ? nil : MorningRecoveryEngine.Decision(action: action, intensity: try r.string(i))
        }
        let overall = try r.optionalDouble("score", in: 0...100)
        self.init(subject: try r.string("subject"), date: try r.string("date"), hrvSDNNMs: try r.optionalDouble("hrv_sdnn_ms"),
                  sleepHours: try r.optionalDouble("sleep_hours"), restingHRBpm: try r.optionalDouble("resting_hr_bpm"),
                  restingHRBaselineBpm: try r.optionalDouble("resting_hr_baseline_bpm"),
                  score: MorningRecoveryEngine.Score(hrv: try r.optionalDouble("hrv_score"), sleep: try r.optionalDouble("sleep_score"),
                                                     restingHR: try r.optionalDouble("resting_hr_score"), overall: overall.map { Int($0) }),
                  planned: try r.string("planned_workout") == "true", withPlan: try decision("with_plan", "with_plan_intensity"),
                  withoutPlan: try decision("without_plan", "without_plan_intensity"), readinessLevel: try r.string("readiness_level"))
    }
}

extension MorningRecoveryEngine {
    /// Every morning of `snapshots` (sorted by subject, then day) with the day's
    /// readiness level (`readiness`, by subject and date).
    public func mornings(_ snapshots: [DailySnapshot], readiness: [String: String]) -> [MorningRecoveryRow] {
        var out: [MorningRecoveryRow] = []
        var bySubject: [String: [DailySnapshot]] = [:]
        var order: [String] = []
        for s in snapshots {
            if bySubject[s.subject] == nil { order.append(s.subject) }
            bySubject[s.subject, default: []].append(s)
        }
        for subject in order {
            let days = bySubject[subject] ?? []
            for d in days {
                let base = baseline(before: d.day, history: days)
                let s = score(sdnnMs: d.hrvSDNNMs, sleepHours: d.sleepHours, restingHRBpm: d.restingHRBpm, baselineBpm: base)
                let planned = (d.workoutMinutes ?? 0) > 0
                out.append(MorningRecoveryRow(
                    subject: subject, date: d.date, hrvSDNNMs: d.hrvSDNNMs, sleepHours: d.sleepHours, restingHRBpm: d.restingHRBpm,
                    restingHRBaselineBpm: base, score: s, planned: planned,
                    withPlan: s.overall.map { decide(overall: $0, plannedWorkout: true) },
                    withoutPlan: s.overall.map { decide(overall: $0, plannedWorkout: false) },
                    readinessLevel: readiness[subject + "\u{0}" + d.date] ?? ""))
            }
        }
        return out
    }
}
