import Foundation

/// Readiness bands (docs/engines/heart-coach.md, Readiness).
public enum ReadinessLevel: String, Sendable {
    case primed, ready, moderate, recovering
}

/// One day's readiness: the 0–100 score, its level, whether the elevation cap
/// applied, and the pillars as drivers.
public struct ReadinessResult: Equatable, Sendable {
    public let score: Double
    /// The weighted pillar mean before the elevation cap.
    public let uncappedScore: Double
    public let level: ReadinessLevel
    /// The score was capped because a consecutive-elevation alert was active.
    public let capped: Bool
    public let drivers: [Driver]
    /// 0–1: the nominal weight of the pillars present over that of all five, times the
    /// share of the days of the HRV-trend window (7) before today with data
    /// (docs/engines/health-platform.md, Receipts).
    public var confidence: Double = 0
}

/// Daily readiness (docs/engines/heart-coach.md, Readiness), the weighted mean of five pillars
/// (weights re-normalised over the pillars available that day):
/// - sleep 0.25: 100·exp(−(h − 8)²/(2·1.5²)), the specification's Gaussian;
/// - recovery 0.25: 1-minute HR drop, 10 bpm → 0 to 40 bpm → 100, linear, clamped;
/// - stress 0.20: 100 − the day's stress score;
/// - activity balance 0.15: the product's 7-day patterns of zone minutes
///   (`patternBalance`); with `activity_variant` 1 instead 100·min(1, weekly zone
///   minutes / 150) (WHO 2020), times an overload factor that is 1 while the
///   coupled acute:chronic ratio (7-day over 28-day mean zone minutes) is ≤ 1.3 and
///   falls linearly to 0 at 2.0 (Gabbett 2016);
/// - HRV trend 0.15: today's SDNN against the mean of the 7 days before it, 100 at or
///   above the mean and −20 per 10 % below.
/// The score is capped at 50 while a consecutive-elevation alert is active.
///
/// Sleep-score discrepancy: the specification's examples (7 h ≈ 95, 6 h ≈ 75,
/// 5 h ≈ 41, 10 h ≈ 75) do not follow from its own formula, which gives 7 h → 80.1,
/// 6 h → 41.1, 5 h → 13.5 and 10 h → 41.1, i.e. 15 to 34 points lower. No single σ
/// reproduces the examples (7 h ≈ 95 needs σ ≈ 3.1 h, 6 h ≈ 75 needs σ ≈ 2.6 h). The
/// formula is implemented as written; `sleep_sigma_hours` can be tuned.
public struct ReadinessEngine: Sendable {
    public let constants: ReadinessConstants

    public init(constants: ReadinessConstants = .defaults) {
        self.constants = constants
    }

    private var c: ReadinessConstants { constants }

    /// Sleep pillar, 0–100: Gaussian of the hours slept around the target.
    public func sleepScore(hours: Double) -> Double {
        let d = hours - c.sleepTargetHours, s = c.sleepSigmaHours
        return 100 * exp(-d * d / (2 * s * s))
    }

    /// Recovery pillar, 0–100, from the 1-minute heart-rate drop in bpm.
    public func recoveryScore(dropBpm: Double) -> Double {
        ramp(dropBpm, from: c.recoveryZeroBpm, 0, to: c.recoveryFullBpm, 100)
    }

    public func level(_ score: Double) -> ReadinessLevel {
        score >= c.primedFrom ? .primed : score >= c.readyFrom ? .ready
            : score >= c.moderateFrom ? .moderate : .recovering
    }

    /// Readiness of `today` given the days before it, the day's stress score and
    /// whether a consecutive-elevation alert is active; nil when no pillar is available.
    public func assess(_ today: DailySnapshot, history: ArraySlice<DailySnapshot>,
                       stress: Double?, elevationAlert: Bool) -> ReadinessResult? {
        var pillars: [Component] = []
        if let h = today.sleepHours {
            pillars.append(Component(name: "sleep", score: sleepScore(hours: h), weight: c.weightSleep,
                                     detail: "\(decimals(h, 1)) h asleep", raw: h, unit: "h",
                                     comparedWith: "target \(decimals(c.sleepTargetHours, 1)) h"))
        }
        if let drop = today.recovery1mBpm {
            pillars.append(Component(name: "recovery", score: recoveryScore(dropBpm: drop), weight: c.weightRecovery,
                                     detail: "1-min HR drop \(decimals(drop, 1)) bpm", raw: drop, unit: "bpm",
                                     comparedWith: "\(decimals(c.recoveryZeroBpm, 0))–\(decimals(c.recoveryFullBpm, 0)) bpm scale"))
        }
        if let stress {
            pillars.append(Component(name: "stress", score: 100 - stress, weight: c.weightStress,
                                     detail: "stress \(decimals(stress, 1))", raw: stress, unit: "points",
                                     comparedWith: "the day's stress score"))
        }
        if let activity = activityBalance(today, history: history) {
            pillars.append(activity)
        }
        if let sdnn = today.hrvSDNNMs {
            let recent = DailyWindow.values(history, days: DailyWindow.before(today.day, count: c.hrvTrendDays), \.hrvSDNNMs)
            let mean = Stats.mean(recent)
            if recent.count >= Int(c.hrvTrendMinDays), mean > 0 {
                let pctBelow = max(0, 100 * (mean - sdnn) / mean)
                let score = max(0, 100 - c.hrvTrendPointsPer10Pct * pctBelow / 10)
                pillars.append(Component(name: "hrv_trend", score: score, weight: c.weightHRVTrend,
                                         detail: "SDNN \(decimals(sdnn, 1)) ms vs 7-day mean \(decimals(mean, 1)) ms",
                                         raw: sdnn, unit: "ms", comparedWith: "\(recent.count)-day mean \(decimals(mean, 1)) ms"))
            }
        }
        guard let (value, drivers) = Component.combine(pillars, neutral: 50) else { return nil }
        let capped = elevationAlert && value > c.elevationCap
        let score = capped ? c.elevationCap : value
        let all = c.weightSleep + c.weightRecovery + c.weightStress + c.weightActivity + c.weightHRVTrend
        let present = pillars.reduce(0) { $0 + $1.weight }
        return ReadinessResult(score: score, uncappedScore: value, level: level(score), capped: capped, drivers: drivers,
                               confidence: present / all * min(1, Double(history.filter { $0.day >= today.day - Int(c.hrvTrendDays) }.count) / c.hrvTrendDays))
    }

    /// Activity-balance pillar of the variant in force.
    func activityBalance(_ today: DailySnapshot, history: ArraySlice<DailySnapshot>) -> Component? {
        c.activityVariant == 1 ? workloadBalance(today, history: history) : patternBalance(today, history: history)
    }

    /// The product's 7-day patterns, over the days' zone minutes (`ActivityMinutes`),
    /// first match wins: today and the 2 days before inactive (< 20 min) → 30; active
    /// yesterday and rest today → 85 (smart recovery); else from the mean minutes of
    /// the days with zone minutes among the 7 ending today: 30 at 0 rising linearly to 100 at 20,
    /// 100 through 45, then falling linearly to 50 at 120 and 50 beyond.
    func patternBalance(_ today: DailySnapshot, history: ArraySlice<DailySnapshot>) -> Component? {
        guard let days = ActivityMinutes.window(today, history: history, count: c.activityPatternDays) else { return nil }
        var byDay: [Int: Double] = [:]
        for d in days { byDay[d.day] = d.minutes }
        let mean = Stats.mean(days.map(\.minutes))
        func inactive(_ day: Int) -> Bool { byDay[day].map { $0 < c.activeFromMinutes } ?? false }
        let score: Double, detail: String
        if (0..<max(1, Int(c.inactiveDays))).allSatisfy({ inactive(today.day - $0) }) {
            (score, detail) = (c.sedentaryScore, "\(Int(c.inactiveDays)) inactive days")
        } else if let yesterday = byDay[today.day - 1], yesterday >= c.activeFromMinutes, inactive(today.day) {
            (score, detail) = (c.smartRecoveryScore, "active yesterday (\(decimals(yesterday, 0)) min), rest today")
        } else if mean < c.optimalLowMinutes {
            (score, detail) = (ramp(mean, from: 0, c.sedentaryScore, to: c.optimalLowMinutes, 100), "\(decimals(mean, 1)) zone min/day")
        } else if mean <= c.optimalHighMinutes {
            (score, detail) = (100, "\(decimals(mean, 1)) zone min/day")
        } else {
            (score, detail) = (ramp(mean, from: c.optimalHighMinutes, 100, to: c.excessFullMinutes, c.excessFloorScore),
                               "\(decimals(mean, 1)) zone min/day, above \(decimals(c.optimalHighMinutes, 0))")
        }
        return Component(name: "activity_balance", score: score, weight: c.weightActivity, detail: detail, raw: mean,
                         unit: "min/day", comparedWith: "\(decimals(c.optimalLowMinutes, 0))–\(decimals(c.optimalHighMinutes, 0)) min/day over \(days.count) days")
    }

    /// Variant 1: weekly zone minutes with the acute:chronic overload factor.
    func workloadBalance(_ today: DailySnapshot, history: ArraySlice<DailySnapshot>) -> Component? {
        guard let todayMinutes = today.zoneMinutes else { return nil }
        // The N days ending today: the earlier ones from history (which excludes today), then today.
        let acute = DailyWindow.values(history, days: DailyWindow.ending(today.day, count: c.activityAcuteDays), \.zoneMinutes) + [todayMinutes]
        let chronic = DailyWindow.values(history, days: DailyWindow.ending(today.day, count: c.activityChronicDays), \.zoneMinutes) + [todayMinutes]
        let weekly = Stats.mean(acute) * 7
        let volume = min(1, weekly / c.activityWeekTargetMinutes)
        var overload = 1.0
        var detail = "\(decimals(weekly, 0)) zone min/week"
        if chronic.count >= Int(c.activityChronicMinDays), Stats.mean(chronic) > 0 {
            let acwr = Stats.mean(acute) / Stats.mean(chronic)
            overload = ramp(acwr, from: c.acwrHigh, 1, to: c.acwrZero, 0)
            detail += ", acute:chronic \(decimals(acwr, 2))"
        }
        return Component(name: "activity_balance", score: 100 * volume * overload, weight: c.weightActivity, detail: detail,
                         raw: weekly, unit: "min/week", comparedWith: "target \(decimals(c.activityWeekTargetMinutes, 0)) min/week")
    }
}
