/// The trend completions of the heart-health coach for one person-day, from the daily
/// tables (docs/engines/heart-coach.md, Coaching rules): weekly metric trends (the recovery trend
/// among them), coaching scenarios, the activity and sleep patterns, and the
/// assessment's status and confidence.
public struct CoachingSignals: Equatable, Sendable {
    public struct Scenario: Equatable, Sendable {
        /// `overtraining`, `high_stress`, `great_recovery`, `missing_activity`,
        /// `improving_trend`, `declining_trend`.
        public let id: String
        public let rule: String
    }

    public enum Status: String, Sendable { case improving, stable, needsAttention = "needs_attention" }
    public enum Confidence: String, Sendable { case low, medium, high }

    public let day: Int
    /// The five metric trends that could be computed, in the order resting HR, SDNN,
    /// activity, recovery, VO2 max.
    public let trends: [MetricTrend]
    public let scenarios: [Scenario]
    /// Whether the day itself is a low-activity day / a short night; nil without the input.
    public let lowActivity: Bool?
    public let shortSleep: Bool?
    /// Low-activity days and short nights among the pattern window ending the day.
    public let lowActivityDays: Int
    public let shortSleepNights: Int
    public let activityPattern: Bool
    public let sleepPattern: Bool
    /// SDNN at or below (1 − hrv_drop_fraction) × its baseline mean.
    public let hrvLow: Bool
    public let status: Status
    public let statusRule: String
    public let confidence: Confidence
    /// Days with resting HR or SDNN among the confidence window ending the day.
    public let dataDays: Int

    public var recoveryTrend: MetricTrend? { trends.first { $0.metric == "recovery" } }
    public func has(_ scenario: String) -> Bool { scenarios.contains { $0.id == scenario } }
}

/// Computes `CoachingSignals` for each day of a subject's history.
public struct CoachingSignalEngine: Sendable {
    public let constants: CoachingConstants

    public init(constants: CoachingConstants = .defaults) {
        self.constants = constants
    }

    private var c: CoachingConstants { constants }

    /// Whether a day is a low-activity day: fewer than `low_activity_steps` steps when it
    /// has steps, else fewer than `low_activity_minutes` of walking and workouts; nil
    /// without either.
    public func isLowActivity(_ r: DailyRow) -> Bool? {
        if let steps = r.snapshot.steps { return steps < c.lowActivitySteps }
        return CoachingHistory.activityMinutes(r).map { $0 < c.lowActivityMinutes }
    }

    /// Week-over-week trend of one metric on `day`: the mean of the `trend_week_days`
    /// ending the day against the mean of as many days before; nil when either week has
    /// fewer than `trend_min_days` values.
    func trend(_ h: CoachingHistory, day: Int, metric: String) -> MetricTrend? {
        let week = DailyWindow.ending(day, count: c.trendWeekDays)
        let before = DailyWindow.before(week.lowerBound, count: c.trendWeekDays)
        let value: (DailyRow) -> Double?
        let unit: String
        let improving: (Double) -> Bool, declining: (Double) -> Bool
        let words: (Double) -> String
        switch metric {
        case "resting_hr":
            value = { $0.snapshot.restingHRBpm }; unit = "bpm"
            improving = { $0 < c.rhrImproving }; declining = { $0 > c.rhrDeclining }
            words = { $0 < c.rhrImproving ? "< \(decimals(c.rhrImproving, 1))" : "> \(decimals(c.rhrDeclining, 1))" }
        case "hrv":
            value = { $0.snapshot.hrvSDNNMs }; unit = "ms"
            improving = { $0 > c.hrvImproving }; declining = { $0 < c.hrvDeclining }
            words = { $0 > c.hrvImproving ? "> \(decimals(c.hrvImproving, 1))" : "< \(decimals(c.hrvDeclining, 1))" }
        case "activity":
            value = CoachingHistory.activityMinutes; unit = "min/day"
            // A rise in activity counts as improving only with a falling resting HR.
            let rhr = weekly(h, week: week, before: before) { $0.snapshot.restingHRBpm }?.change
            improving = { $0 >= c.activityImproving && (rhr ?? 0) < 0 }; declining = { $0 <= c.activityDeclining }
            words = { $0 >= c.activityImproving ? "≥ \(decimals(c.activityImproving, 1)) with resting HR change \(signed(rhr ?? 0, 2)) < 0" : "≤ \(decimals(c.activityDeclining, 1))" }
        case "recovery":
            value = { $0.snapshot.recovery1mBpm }; unit = "bpm"
            improving = { $0 >= c.recoveryImproving }; declining = { $0 <= c.recoveryDeclining }
            words = { $0 >= c.recoveryImproving ? "≥ \(decimals(c.recoveryImproving, 1))" : "≤ \(decimals(c.recoveryDeclining, 1))" }
        default:
            value = { $0.snapshot.vo2Max }; unit = "mL/kg/min"
            improving = { $0 >= c.vo2Improving }; declining = { $0 <= c.vo2Declining }
            words = { $0 >= c.vo2Improving ? "≥ \(decimals(c.vo2Improving, 1))" : "≤ \(decimals(c.vo2Declining, 1))" }
        }
        guard let (change, days, base) = weekly(h, week: week, before: before, value) else { return nil }
        let direction: MetricTrend.Direction = improving(change) ? .improving : declining(change) ? .declining : .stable
        return MetricTrend(metric: metric, unit: unit, change: change, relativeChange: base != 0 ? change / base : 0,
                           days: days, direction: direction,
                           rule: direction == .stable ? "stable" : "change \(signed(change, 2)) \(words(change))")
    }

    /// Mean of `week` minus mean of `before`, the values in `week` and the mean of
    /// `before`; nil when either has fewer than `trend_min_days` values.
    private func weekly(_ h: CoachingHistory, week: ClosedRange<Int>, before: ClosedRange<Int>,
                        _ value: (DailyRow) -> Double?) -> (change: Double, days: Int, base: Double)? {
        let now = h.values(week, value), then = h.values(before, value)
        guard now.count >= Int(c.trendMinDays), then.count >= Int(c.trendMinDays) else { return nil }
        return (Stats.mean(now) - Stats.mean(then), now.count, Stats.mean(then))
    }

    /// The five metric trends of `day` that can be computed.
    public func trends(_ h: CoachingHistory, day: Int) -> [MetricTrend] {
        ["resting_hr", "hrv", "activity", "recovery", "vo2max"].compactMap { trend(h, day: day, metric: $0) }
    }

    /// Mean of `metric` over the `baseline_days` before `firstDay`; nil below `min_baseline_days` values.
    func baseline(_ h: CoachingHistory, before firstDay: Int, _ metric: (DailyRow) -> Double?) -> Double? {
        let v = h.values(DailyWindow.before(firstDay, count: c.baselineDays), metric)
        return v.count >= Int(c.minBaselineDays) ? Stats.mean(v) : nil
    }

    /// Overtraining: resting HR at least `overtraining_rhr_rise_bpm` above its baseline on
    /// each of the `overtraining_days` calendar days ending today, and today's SDNN at most
    /// (1 − `hrv_drop_fraction`) × its baseline; both baselines the days before that run.
    func overtraining(_ h: CoachingHistory, day: Int) -> String? {
        let run = DailyWindow.ending(day, count: c.overtrainingDays)
        guard let rhrBase = baseline(h, before: run.lowerBound, { $0.snapshot.restingHRBpm }),
              let hrvBase = baseline(h, before: run.lowerBound, { $0.snapshot.hrvSDNNMs }),
              let hrv = h.row(day)?.snapshot.hrvSDNNMs else { return nil }
        let rises = run.map { d in h.row(d)?.snapshot.restingHRBpm.map { $0 - rhrBase } }
        guard rises.allSatisfy({ ($0 ?? -.infinity) >= c.overtrainingRHRRiseBpm }),
              hrv <= (1 - c.hrvDropFraction) * hrvBase else { return nil }
        let least = rises.compactMap { $0 }.min() ?? 0
        return "resting HR ≥ +\(decimals(c.overtrainingRHRRiseBpm, 1)) bpm over \(decimals(rhrBase, 1)) on \(run.count) days (least \(signed(least, 1))); "
            + "SDNN \(decimals(hrv, 1)) ms ≤ \(decimals(1 - c.hrvDropFraction, 2)) × \(decimals(hrvBase, 1))"
    }

    /// The signals of every day of `h`.
    public func signals(_ h: CoachingHistory) -> [CoachingSignals] {
        h.rows.map { signals(h, day: $0.snapshot.day) }
    }

    /// The signals of `day` (which must be a day of `h`), from it and the days before.
    public func signals(_ h: CoachingHistory, day: Int) -> CoachingSignals {
        guard let today = h.row(day) else {
            return CoachingSignals(day: day, trends: [], scenarios: [], lowActivity: nil, shortSleep: nil, lowActivityDays: 0,
                                   shortSleepNights: 0, activityPattern: false, sleepPattern: false, hrvLow: false,
                                   status: .stable, statusRule: "no data", confidence: .low, dataDays: 0)
        }
        let window = DailyWindow.ending(day, count: c.patternWindowDays)
        let lowDays = window.filter { d in h.row(d).flatMap(isLowActivity) == true }.count
        let shortNights = window.filter { d in (h.row(d)?.snapshot.sleepHours).map { $0 < c.shortSleepHours } == true }.count
        let trends = self.trends(h, day: day)
        var hrvLow = false
        if let hrv = today.snapshot.hrvSDNNMs, let base = baseline(h, before: day, { $0.snapshot.hrvSDNNMs }) {
            hrvLow = hrv <= (1 - c.hrvDropFraction) * base
        }

        var scenarios: [CoachingSignals.Scenario] = []
        if let rule = overtraining(h, day: day) { scenarios.append(.init(id: "overtraining", rule: rule)) }
        if let s = today.stress, today.stressLevel == StressLevel.elevated.rawValue {
            scenarios.append(.init(id: "high_stress", rule: "stress \(decimals(s, 1)) elevated"))
        }
        if let r = today.readiness, r >= c.greatRecoveryReadiness, let hrv = today.snapshot.hrvSDNNMs,
           let base = baseline(h, before: day, { $0.snapshot.hrvSDNNMs }), hrv >= base {
            scenarios.append(.init(id: "great_recovery", rule: "readiness \(decimals(r, 1)) ≥ \(decimals(c.greatRecoveryReadiness, 0)), SDNN \(decimals(hrv, 1)) ≥ baseline \(decimals(base, 1))"))
        }
        let missing = DailyWindow.ending(day, count: c.missingActivityDays)
        if missing.allSatisfy({ d in h.row(d).map { isLowActivity($0) == true && ($0.snapshot.workoutMinutes ?? 0) == 0 } ?? false }) {
            scenarios.append(.init(id: "missing_activity", rule: "\(missing.count) low-activity days without a workout"))
        }
        let up = trends.filter { $0.direction == .improving }, down = trends.filter { $0.direction == .declining }
        let minMetrics = Int(c.trendScenarioMinMetrics)
        if up.count >= minMetrics, down.isEmpty {
            scenarios.append(.init(id: "improving_trend", rule: "improving: " + up.map(\.metric).joined(separator: ", ")))
        }
        if down.count >= minMetrics, up.isEmpty {
            scenarios.append(.init(id: "declining_trend", rule: "declining: " + down.map(\.metric).joined(separator: ", ")))
        }

        // Status: needs attention on a warning flag or a worrying scenario, improving on an
        // improving trend or a falling week-over-week resting HR, stable otherwise.
        let warnings = today.flags.filter { ["anomaly", "regression", "stress_pattern", "consecutive_elevation"].contains($0) }
            + scenarios.map(\.id).filter { ["overtraining", "declining_trend"].contains($0) }
        let status: CoachingSignals.Status, statusRule: String
        if !warnings.isEmpty {
            (status, statusRule) = (.needsAttention, warnings.joined(separator: ", "))
        } else if scenarios.contains(where: { $0.id == "improving_trend" }) || today.flags.contains("rhr_week_down") {
            (status, statusRule) = (.improving, scenarios.contains { $0.id == "improving_trend" } ? "improving_trend" : "rhr_week_down")
        } else {
            (status, statusRule) = (.stable, "no warning or improving signal")
        }
        let dataDays = DailyWindow.ending(day, count: c.confidenceWindowDays).filter { d in
            h.row(d).map { $0.snapshot.restingHRBpm != nil || $0.snapshot.hrvSDNNMs != nil } ?? false
        }.count
        let confidence: CoachingSignals.Confidence = Double(dataDays) >= c.confidenceHighDays ? .high
            : Double(dataDays) >= c.confidenceMediumDays ? .medium : .low
        return CoachingSignals(day: day, trends: trends, scenarios: scenarios, lowActivity: isLowActivity(today),
                               shortSleep: today.snapshot.sleepHours.map { $0 < c.shortSleepHours }, lowActivityDays: lowDays,
                               shortSleepNights: shortNights, activityPattern: Double(lowDays) >= c.patternMinDays,
                               sleepPattern: Double(shortNights) >= c.patternMinDays, hrvLow: hrvLow, status: status,
                               statusRule: statusRule, confidence: confidence, dataDays: dataDays)
    }
}
