/// Buddy recommendations (the heart-health coach's prioritised actions): every rule
/// that fires proposes one recommendation with a priority and a category; only the
/// highest-priority one of each category is kept (on a tie, the earlier rule), and the
/// first `max_recommendations` by priority are returned.
public enum BuddyRecommendations {
    public enum Priority: Int, Comparable, Sendable, CaseIterable {
        case critical = 0, high, medium, low
        public var name: String { ["critical", "high", "medium", "low"][rawValue] }
        public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }
    }

    public struct Recommendation: Equatable, Sendable {
        public let id: String
        public let category: String
        public let priority: Priority
        public let rule: String
    }

    /// Every recommendation whose rule fires on the day, in rule order:
    /// - critical: `consecutive_elevation` flag (rest);
    /// - high: the overtraining (rest), high-stress (stress) and declining-trend (general)
    ///   scenarios, the `rhr_week_up` (rest) and `regression` (recovery) flags;
    /// - medium: a declining recovery trend (recovery), missing activity and the activity
    ///   pattern (activity), the sleep pattern (sleep), readiness below the recovering gate (rest);
    /// - low: the great-recovery and improving-trend scenarios (positive), general wellness (general, always).
    public static func candidates(_ today: DailyRow, _ s: CoachingSignals, constants c: CoachingConstants) -> [Recommendation] {
        var out: [Recommendation] = []
        func add(_ id: String, _ category: String, _ priority: Priority, _ rule: String) {
            out.append(Recommendation(id: id, category: category, priority: priority, rule: rule))
        }
        func scenario(_ id: String) -> CoachingSignals.Scenario? { s.scenarios.first { $0.id == id } }
        if today.flags.contains("consecutive_elevation") { add("rest_elevated_rhr", "rest", .critical, "flag consecutive_elevation") }
        if let x = scenario("overtraining") { add("overtraining_rest", "rest", .high, "scenario overtraining: " + x.rule) }
        if let x = scenario("high_stress") { add("stress_relief", "stress", .high, "scenario high_stress: " + x.rule) }
        if let x = scenario("declining_trend") { add("declining_trend_checkin", "general", .high, "scenario declining_trend: " + x.rule) }
        if today.flags.contains("rhr_week_up") { add("rhr_week_elevation", "rest", .high, "flag rhr_week_up") }
        if today.flags.contains("regression") { add("regression_recovery", "recovery", .high, "flag regression") }
        if let r = s.recoveryTrend, r.direction == .declining { add("recovery_dip", "recovery", .medium, "recovery trend " + r.rule) }
        if let x = scenario("missing_activity") { add("missing_activity", "activity", .medium, "scenario missing_activity: " + x.rule) }
        if s.activityPattern {
            add("activity_pattern", "activity", .medium,
                "\(s.lowActivityDays) low-activity days of \(Int(c.patternWindowDays)) ≥ \(Int(c.patternMinDays))")
        }
        if s.sleepPattern {
            add("sleep_pattern", "sleep", .medium,
                "\(s.shortSleepNights) nights < \(decimals(c.shortSleepHours, 1)) h of \(Int(c.patternWindowDays)) ≥ \(Int(c.patternMinDays))")
        }
        if let r = today.readiness, r < c.gateRecoveringBelow {
            add("readiness_recovery", "rest", .medium, "readiness \(decimals(r, 1)) < \(decimals(c.gateRecoveringBelow, 0))")
        }
        if let x = scenario("great_recovery") { add("great_recovery", "positive", .low, "scenario great_recovery: " + x.rule) }
        if let x = scenario("improving_trend") { add("improving_trend", "positive", .low, "scenario improving_trend: " + x.rule) }
        add("general_wellness", "general", .low, "always")
        return out
    }

    /// The highest-priority recommendation of each category (the earlier on a tie), by
    /// priority then rule order.
    public static func deduplicateByCategory(_ recs: [Recommendation]) -> [Recommendation] {
        var best: [String: Int] = [:]
        for (i, r) in recs.enumerated() {
            if let j = best[r.category], recs[j].priority <= r.priority { continue }
            best[r.category] = i
        }
        return best.values.sorted { (recs[$0].priority, $0) < (recs[$1].priority, $1) }.map { recs[$0] }
    }

    /// The day's recommendations: deduplicated, at most `max_recommendations`.
    public static func recommend(_ today: DailyRow, _ s: CoachingSignals, constants c: CoachingConstants) -> [Recommendation] {
        Array(deduplicateByCategory(candidates(today, s, constants: c)).prefix(Int(c.maxRecommendations)))
    }
}
