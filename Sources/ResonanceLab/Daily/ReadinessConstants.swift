/// Daily readiness (docs/engines/heart-coach.md, Readiness). The activity-balance pillar follows the
/// product's 7-day patterns by default (`activity_variant` 0), the scores between its
/// anchors chosen; variant 1 is the alternative built from the WHO 2020
/// physical-activity guideline (150 min of moderate activity per week, Bull et al., Br J
/// Sports Med 2020) and the acute:chronic workload ratio (Gabbett, Br J Sports Med 2016:
/// a ratio of 0.8–1.3 is the "sweet spot", above 1.5 the "danger zone").
public struct ReadinessConstants: EngineConstants {
    public static let spec = EngineSpec(name: "readiness", version: "2.0.0", constants: [
        ConstantSpec("sleep_target_hours", 8, unit: "h", range: 0...24, source: "product specification: sleep Gaussian at 8 h"),
        ConstantSpec("sleep_sigma_hours", 1.5, unit: "h", range: 0.01...24, source: "product specification: sleep Gaussian σ 1.5 h"),
        ConstantSpec("recovery_zero_bpm", 10, unit: "bpm", range: 0...100, source: "product specification: 1-min HR drop 10 → 0"),
        ConstantSpec("recovery_full_bpm", 40, unit: "bpm", range: 0...200, source: "product specification: 1-min HR drop 40 → 100"),
        ConstantSpec("hrv_trend_days", 7, unit: "days", range: 1...60, source: "product specification: today vs 7-day mean (the 7 days before today)"),
        ConstantSpec("hrv_trend_min_days", 3, unit: "days", range: 1...60, source: "fewest SDNN values for the 7-day mean (choice)"),
        ConstantSpec("hrv_trend_points_per_10pct", 20, unit: "points", range: 0...100, source: "product specification: −20 per 10 % below"),
        ConstantSpec("activity_variant", 0, unit: "code", range: 0...1, source: "choice: 0 the product's 7-day activity patterns, 1 weekly zone minutes with an acute:chronic overload factor (Gabbett 2016)"),
        ConstantSpec("activity_pattern_days", 7, unit: "days", range: 1...60, source: "product specification: 7-day activity pattern"),
        ConstantSpec("active_from_minutes", 20, unit: "min/day", range: 0...1440, source: "choice: a day with at least 20 zone minutes (heart rate at zone 2 or above) is active, the lower end of the product's 20–45 min/day; less is rest"),
        ConstantSpec("inactive_days", 3, unit: "days", range: 1...60, source: "product specification: 3 days inactive (today and the 2 days before)"),
        ConstantSpec("sedentary_score", 30, unit: "score", range: 0...100, source: "product specification: 3 days inactive = 30; choice: also the score of a 0 min/day average"),
        ConstantSpec("smart_recovery_score", 85, unit: "score", range: 0...100, source: "product specification: active yesterday + rest today = 85 (smart recovery)"),
        ConstantSpec("optimal_low_minutes", 20, unit: "min/day", range: 0...1440, source: "product specification: 20–45 min/day average = 100"),
        ConstantSpec("optimal_high_minutes", 45, unit: "min/day", range: 0...1440, source: "product specification: 20–45 min/day average = 100"),
        ConstantSpec("excess_full_minutes", 120, unit: "min/day", range: 0...1440, source: "choice: excess penalised linearly from 100 at 45 min/day to excess_floor_score at 120 min/day (2 h of training a day)"),
        ConstantSpec("excess_floor_score", 50, unit: "score", range: 0...100, source: "choice: excess alone never scores below 50, the neutral point: volume is not in itself a sign of poor recovery"),
        ConstantSpec("activity_week_target_minutes", 150, unit: "min/week", range: 1...10080, source: "WHO 2020 guideline: ≥150 min/week moderate activity"),
        ConstantSpec("activity_acute_days", 7, unit: "days", range: 1...60, source: "Gabbett 2016: acute load = 1-week mean"),
        ConstantSpec("activity_chronic_days", 28, unit: "days", range: 2...365, source: "Gabbett 2016: chronic load = 4-week mean"),
        ConstantSpec("activity_chronic_min_days", 14, unit: "days", range: 1...365, source: "fewest days for a chronic load (choice)"),
        ConstantSpec("acwr_high", 1.3, unit: "ratio", range: 0...10, source: "Gabbett 2016: sweet spot up to 1.3"),
        ConstantSpec("acwr_zero", 2.0, unit: "ratio", range: 0...10, source: "choice: balance falls linearly to 0 at twice the chronic load (Gabbett's danger zone starts at 1.5)"),
        ConstantSpec("weight_sleep", 0.25, unit: "weight", range: 0...1, source: "product specification: sleep 0.25"),
        ConstantSpec("weight_recovery", 0.25, unit: "weight", range: 0...1, source: "product specification: recovery 0.25"),
        ConstantSpec("weight_stress", 0.20, unit: "weight", range: 0...1, source: "product specification: stress 0.20"),
        ConstantSpec("weight_activity", 0.15, unit: "weight", range: 0...1, source: "product specification: activity balance 0.15"),
        ConstantSpec("weight_hrv_trend", 0.15, unit: "weight", range: 0...1, source: "product specification: HRV trend 0.15"),
        ConstantSpec("elevation_cap", 50, unit: "score", range: 0...100, source: "product specification: readiness capped at 50 during a consecutive-elevation alert"),
        ConstantSpec("primed_from", 80, unit: "score", range: 0...100, source: "product specification: primed ≥ 80"),
        ConstantSpec("ready_from", 60, unit: "score", range: 0...100, source: "product specification: ready ≥ 60"),
        ConstantSpec("moderate_from", 40, unit: "score", range: 0...100, source: "product specification: moderate ≥ 40"),
    ], weightGroups: [["weight_sleep", "weight_recovery", "weight_stress", "weight_activity", "weight_hrv_trend"]], orderRules: [
        OrderRule(["recovery_zero_bpm", "recovery_full_bpm"], strict: true),
        OrderRule(["hrv_trend_min_days", "hrv_trend_days"]),
        OrderRule(["activity_chronic_min_days", "activity_chronic_days"]),
        OrderRule(["activity_acute_days", "activity_chronic_days"]),
        OrderRule(["acwr_high", "acwr_zero"], strict: true),
        OrderRule(["inactive_days", "activity_pattern_days"]),
        OrderRule(["optimal_low_minutes", "optimal_high_minutes"]),
        OrderRule(["optimal_high_minutes", "excess_full_minutes"], strict: true),
        OrderRule(["moderate_from", "ready_from", "primed_from"]),
    ])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.readiness }

    /// `sleep_target_hours`, h.
    public let sleepTargetHours: Double
    /// `sleep_sigma_hours`, h.
    public let sleepSigmaHours: Double
    /// `recovery_zero_bpm`, bpm.
    public let recoveryZeroBpm: Double
    /// `recovery_full_bpm`, bpm.
    public let recoveryFullBpm: Double
    /// `hrv_trend_days`, days.
    public let hrvTrendDays: Double
    /// `hrv_trend_min_days`, days.
    public let hrvTrendMinDays: Double
    /// `hrv_trend_points_per_10pct`, points.
    public let hrvTrendPointsPer10Pct: Double
    /// `activity_variant`: 0 the product's patterns, 1 zone minutes with ACWR.
    public let activityVariant: Double
    /// `activity_pattern_days`, `inactive_days`, days.
    public let activityPatternDays, inactiveDays: Double
    /// `active_from_minutes`, `optimal_low_minutes`, `optimal_high_minutes`, `excess_full_minutes`, min/day.
    public let activeFromMinutes, optimalLowMinutes, optimalHighMinutes, excessFullMinutes: Double
    /// `sedentary_score`, `smart_recovery_score`, `excess_floor_score`, score.
    public let sedentaryScore, smartRecoveryScore, excessFloorScore: Double
    /// `activity_week_target_minutes`, min/week.
    public let activityWeekTargetMinutes: Double
    /// `activity_acute_days`, days.
    public let activityAcuteDays: Double
    /// `activity_chronic_days`, days.
    public let activityChronicDays: Double
    /// `activity_chronic_min_days`, days.
    public let activityChronicMinDays: Double
    /// `acwr_high`, ratio.
    public let acwrHigh: Double
    /// `acwr_zero`, ratio.
    public let acwrZero: Double
    /// `weight_sleep`, weight.
    public let weightSleep: Double
    /// `weight_recovery`, weight.
    public let weightRecovery: Double
    /// `weight_stress`, weight.
    public let weightStress: Double
    /// `weight_activity`, weight.
    public let weightActivity: Double
    /// `weight_hrv_trend`, weight.
    public let weightHRVTrend: Double
    /// `elevation_cap`, score.
    public let elevationCap: Double
    /// `primed_from`, score.
    public let primedFrom: Double
    /// `ready_from`, score.
    public let readyFrom: Double
    /// `moderate_from`, score.
    public let moderateFrom: Double

    public init(_ c: ConstantReader) throws {
        sleepTargetHours = try c["sleep_target_hours"]
        sleepSigmaHours = try c["sleep_sigma_hours"]
        recoveryZeroBpm = try c["recovery_zero_bpm"]
        recoveryFullBpm = try c["recovery_full_bpm"]
        hrvTrendDays = try c["hrv_trend_days"]
        hrvTrendMinDays = try c["hrv_trend_min_days"]
        hrvTrendPointsPer10Pct = try c["hrv_trend_points_per_10pct"]
        activityVariant = try c["activity_variant"]
        activityPatternDays = try c["activity_pattern_days"]
        inactiveDays = try c["inactive_days"]
        activeFromMinutes = try c["active_from_minutes"]
        optimalLowMinutes = try c["optimal_low_minutes"]
        optimalHighMinutes = try c["optimal_high_minutes"]
        excessFullMinutes = try c["excess_full_minutes"]
        sedentaryScore = try c["sedentary_score"]
        smartRecoveryScore = try c["smart_recovery_score"]
        excessFloorScore = try c["excess_floor_score"]
        activityWeekTargetMinutes = try c["activity_week_target_minutes"]
        activityAcuteDays = try c["activity_acute_days"]
        activityChronicDays = try c["activity_chronic_days"]
        activityChronicMinDays = try c["activity_chronic_min_days"]
        acwrHigh = try c["acwr_high"]
        acwrZero = try c["acwr_zero"]
        weightSleep = try c["weight_sleep"]
        weightRecovery = try c["weight_recovery"]
        weightStress = try c["weight_stress"]
        weightActivity = try c["weight_activity"]
        weightHRVTrend = try c["weight_hrv_trend"]
        elevationCap = try c["elevation_cap"]
        primedFrom = try c["primed_from"]
        readyFrom = try c["ready_from"]
        moderateFrom = try c["moderate_from"]
    }
}
