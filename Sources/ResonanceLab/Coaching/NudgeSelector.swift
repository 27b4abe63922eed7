/// Daily nudge selection (the heart-health coach's nudge generator), replayed from the
/// daily tables: the primary nudge comes from the first tier that fires in the order
/// stress → regression → low data → negative feedback → positive → default; secondary
/// nudges from the readiness, sleep, activity, HRV and positive signals; at most
/// `max_nudges`, one per category. Each tier picks from a small library of variations,
/// rotated by the day of the month among the variations the readiness gate allows.
public enum NudgeSelector {
    /// What the day's readiness allows: `recovering` (below `gate_recovering_below`)
    /// rest or breathing only; `moderate` (below `gate_moderate_below`) a walk and nothing
    /// else, as the product specification allows (docs/engines/heart-coach.md); `full` the
    /// whole library; `ungated` without a readiness score.
    public enum Gate: String, Sendable {
        case recovering, moderate, full, ungated

        public init(readiness: Double?, constants c: CoachingConstants) {
            guard let r = readiness else { self = .ungated; return }
            self = r < c.gateRecoveringBelow ? .recovering : r < c.gateModerateBelow ? .moderate : .full
        }

        public func allows(_ category: String) -> Bool {
            switch self {
            case .recovering: return category == "rest" || category == "breathing"
            case .moderate: return category == "walk"
            case .full, .ungated: return true
            }
        }
    }

    public struct Variation: Equatable, Sendable {
        public let id: String
        /// `rest`, `breathing`, `walk`, `moderate`, `hard`, `sleep`, `hydration`, `checkin`, `celebrate`.
        public let category: String
    }

    public struct Nudge: Equatable, Sendable {
        public let tier: String
        public let variation: Variation
        public let rule: String
    }

    /// The primary tiers in priority order, then the secondary ones.
    public static let primaryTiers = ["stress", "regression", "low_data", "negative_feedback", "positive", "default"]
    public static let secondaryTiers = ["readiness_recovery", "sleep", "activity", "hrv", "positive"]

    /// The variations of each tier (ids and categories; the wording is the app's).
    public static let library: [String: [Variation]] = {
        func v(_ pairs: [(String, String)]) -> [Variation] { pairs.map { Variation(id: $0.0, category: $0.1) } }
        return [
            "stress": v([("stress_box_breathing", "breathing"), ("stress_slow_exhale", "breathing"), ("stress_quiet_break", "rest"),
                         ("stress_nature_walk", "walk")]),
            "regression": v([("regression_rest_day", "rest"), ("regression_easy_walk", "walk"), ("regression_breathing", "breathing"),
                             ("regression_early_night", "sleep")]),
            "low_data": v([("low_data_wear_overnight", "checkin"), ("low_data_morning_reading", "checkin"), ("low_data_sync", "checkin")]),
            "negative_feedback": v([("feedback_gentler_plan", "rest"), ("feedback_different_activity", "walk"), ("feedback_check_in", "checkin")]),
            "positive": v([("positive_celebrate", "celebrate"), ("positive_tempo_run", "moderate"), ("positive_intervals", "hard"),
                           ("positive_long_walk", "walk")]),
            "default": v([("default_walk", "walk"), ("default_hydrate", "hydration"), ("default_strength", "moderate"),
                          ("default_stretch", "rest"), ("default_cycle", "moderate")]),
            "readiness_recovery": v([("recovery_rest", "rest"), ("recovery_breathing", "breathing"), ("recovery_nap", "rest")]),
            "sleep": v([("sleep_wind_down", "sleep"), ("sleep_earlier_bedtime", "sleep"), ("sleep_no_screens", "sleep")]),
            "activity": v([("activity_short_walk", "walk"), ("activity_brisk_walk", "walk"), ("activity_workout", "moderate")]),
            "hrv": v([("hrv_breathing", "breathing"), ("hrv_easy_day", "rest"), ("hrv_hydrate", "hydration")]),
        ]
    }()

    /// The rule that makes `tier` fire on the day, nil when it does not. Negative feedback
    /// never fires: the daily tables carry no feedback on earlier nudges.
    static func fires(_ tier: String, _ today: DailyRow, _ s: CoachingSignals, constants c: CoachingConstants) -> String? {
        switch tier {
        case "stress":
            if let x = s.scenarios.first(where: { $0.id == "high_stress" }) { return "scenario high_stress: " + x.rule }
            return today.flags.contains("stress_pattern") ? "flag stress_pattern" : nil
        case "regression":
            return today.flags.first { $0 == "regression" || $0 == "consecutive_elevation" }.map { "flag " + $0 }
        case "low_data":
            return s.confidence == .low ? "confidence low: \(s.dataDays) data days < \(Int(c.confidenceMediumDays))" : nil
        case "negative_feedback":
            return nil
        case "positive":
            if s.status == .improving { return "status improving (\(s.statusRule))" }
            return s.scenarios.first { $0.id == "great_recovery" }.map { "scenario great_recovery: " + $0.rule }
        case "default":
            return "no earlier tier fired"
        case "readiness_recovery":
            return today.readiness.flatMap { $0 < c.gateRecoveringBelow ? "readiness \(decimals($0, 1)) < \(decimals(c.gateRecoveringBelow, 0))" : nil }
        case "sleep":
            return s.shortSleep == true ? "sleep \(decimals(today.snapshot.sleepHours ?? 0, 2)) h < \(decimals(c.shortSleepHours, 1))" : nil
        case "activity":
            return s.lowActivity == true ? "low-activity day" : nil
        case "hrv":
            return s.hrvLow ? "SDNN ≤ \(decimals(1 - c.hrvDropFraction, 2)) × baseline" : nil
        default:
            return nil
        }
    }

    /// The variation of `tier` for the day: among those `gate` allows, number
    /// (day of month − 1) mod count; nil when the gate allows none.
    public static func rotate(_ tier: String, dayOfMonth: Int, gate: Gate) -> Variation? {
        let allowed = (library[tier] ?? []).filter { gate.allows($0.category) }
        guard !allowed.isEmpty else { return nil }
        return allowed[(dayOfMonth - 1) % allowed.count]
    }

    /// The day's nudges, primary first. A tier whose variations the gate removes passes
    /// to the next; a secondary nudge of a category already chosen is skipped.
    public static func select(_ today: DailyRow, _ s: CoachingSignals, constants c: CoachingConstants) -> (gate: Gate, nudges: [Nudge]) {
        let gate = Gate(readiness: today.readiness, constants: c)
        let dayOfMonth = CoachingHistory.calendar(today.snapshot.day).dayOfMonth
        var out: [Nudge] = []
        for tier in primaryTiers {
            guard let rule = fires(tier, today, s, constants: c), let v = rotate(tier, dayOfMonth: dayOfMonth, gate: gate) else { continue }
            out.append(Nudge(tier: tier, variation: v, rule: rule))
            break
        }
        for tier in secondaryTiers where out.count < Int(c.maxNudges) && !out.contains(where: { $0.tier == tier }) {
            guard let rule = fires(tier, today, s, constants: c), let v = rotate(tier, dayOfMonth: dayOfMonth, gate: gate),
                  !out.contains(where: { $0.variation.category == v.category }) else { continue }
            out.append(Nudge(tier: tier, variation: v, rule: rule))
        }
        return (gate, Array(out.prefix(Int(c.maxNudges))))
    }
}
