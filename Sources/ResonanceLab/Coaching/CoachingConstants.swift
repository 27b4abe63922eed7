/// The heart-health coach's rule layers replayed from the daily tables: coaching
/// scenarios and assessment, buddy recommendations, nudges, the nudge schedule, the
/// weekly coaching report, correlations and the health-profile phases
/// (docs/engines/heart-coach.md, Coaching rules).
public struct CoachingConstants: EngineConstants {
    public static let spec = EngineSpec(name: "coaching", version: "1.0.0", constants: [
        ConstantSpec("baseline_days", 28, unit: "days", range: 2...365, source: "choice: a scenario's baseline is the mean of the 28 days before the days it looks at, as the trend's baseline"),
        ConstantSpec("min_baseline_days", 7, unit: "days", range: 1...365, source: "choice: at least 7 baseline values, as the trend's robust z"),
        ConstantSpec("overtraining_rhr_rise_bpm", 7, unit: "bpm", range: 0...60, source: "product specification: overtraining = resting HR +7 bpm over baseline"),
        ConstantSpec("overtraining_days", 3, unit: "days", range: 1...30, source: "product specification: overtraining = the rise on 3 days"),
        ConstantSpec("hrv_drop_fraction", 0.2, unit: "fraction", range: 0...1, source: "product specification: overtraining = HRV −20 % (also the HRV nudge signal and the phases' decline indicators)"),
        ConstantSpec("great_recovery_readiness", 80, unit: "points", range: 0...100, source: "choice: great recovery = readiness ≥ 80 (the readiness level primed) with SDNN at or above its baseline"),
        ConstantSpec("low_activity_steps", 5000, unit: "steps", range: 0...100000, source: "choice: fewer than 5 000 steps is the sedentary band of Tudor-Locke & Bassett 2004 (Sports Med 34:1)"),
        ConstantSpec("low_activity_minutes", 10, unit: "min", range: 0...1440, source: "choice: without steps, under 10 min of walking and workouts (the WHO 2010 minimum bout)"),
        ConstantSpec("pattern_window_days", 3, unit: "days", range: 1...30, source: "choice: activity and sleep patterns look at the 3 days ending today"),
        ConstantSpec("pattern_min_days", 2, unit: "days", range: 1...30, source: "product specification: 2+ days of low activity, 2+ nights short"),
        ConstantSpec("short_sleep_hours", 6, unit: "h", range: 0...24, source: "product specification: a night under 6 hours is short"),
        ConstantSpec("missing_activity_days", 3, unit: "days", range: 1...30, source: "choice: missing activity = 3 low-activity days in a row without a workout"),
        ConstantSpec("trend_week_days", 7, unit: "days", range: 1...60, source: "product specification: weekly comparison (this week against the one before)"),
        ConstantSpec("trend_min_days", 3, unit: "days", range: 1...60, source: "choice: a week's mean needs 3 values"),
        ConstantSpec("rhr_improving_change", -1.5, unit: "bpm", range: -100...100, source: "product specification: resting HR change < −1.5 bpm improving"),
        ConstantSpec("rhr_declining_change", 2, unit: "bpm", range: -100...100, source: "product specification: resting HR change > 2.0 bpm declining"),
        ConstantSpec("hrv_improving_change", 3, unit: "ms", range: -100...100, source: "product specification: SDNN change > 3 ms improving"),
        ConstantSpec("hrv_declining_change", -5, unit: "ms", range: -100...100, source: "product specification: SDNN change < −5 ms declining"),
        ConstantSpec("activity_improving_change", 5, unit: "min/day", range: -1440...1440, source: "product specification: +5 min/day of activity with a falling resting HR improving"),
        ConstantSpec("activity_declining_change", -5, unit: "min/day", range: -1440...1440, source: "choice: −5 min/day of activity declining (the product gives only the rise)"),
        ConstantSpec("recovery_improving_change", 2, unit: "bpm", range: -100...100, source: "product specification: 1-minute recovery +2 bpm improving"),
        ConstantSpec("recovery_declining_change", -3, unit: "bpm", range: -100...100, source: "product specification: 1-minute recovery −3 bpm declining"),
        ConstantSpec("vo2_improving_change", 0.5, unit: "mL/kg/min", range: -100...100, source: "product specification: VO2 max +0.5 improving"),
        ConstantSpec("vo2_declining_change", -0.5, unit: "mL/kg/min", range: -100...100, source: "product specification: VO2 max −0.5 declining"),
        ConstantSpec("trend_scenario_min_metrics", 2, unit: "metrics", range: 1...5, source: "choice: improving (declining) trend = at least 2 metrics improving (declining) and none the other way"),
        ConstantSpec("confidence_window_days", 28, unit: "days", range: 1...365, source: "choice: confidence counts the days with resting HR or SDNN among the 28 ending today"),
        ConstantSpec("confidence_medium_days", 7, unit: "days", range: 1...365, source: "choice: medium confidence from 7 data days (the trend's minimum baseline)"),
        ConstantSpec("confidence_high_days", 14, unit: "days", range: 1...365, source: "choice: high confidence from 14 data days (the health profile's baseline)"),
        ConstantSpec("max_recommendations", 4, unit: "count", range: 1...20, source: "product specification: up to 4 buddy recommendations"),
        ConstantSpec("max_nudges", 3, unit: "count", range: 1...20, source: "product specification: up to 3 nudges"),
        ConstantSpec("gate_recovering_below", 40, unit: "points", range: 0...100, source: "product specification: readiness < 40 → rest or breathing only"),
        ConstantSpec("gate_moderate_below", 60, unit: "points", range: 0...100, source: "product specification: readiness 40–59 → walk only; ≥ 60 full library"),
        ConstantSpec("stress_rising_points", 10, unit: "points", range: 0...100, source: "choice: stress rising = today's stress 10 points above the mean of the days before"),
        ConstantSpec("stress_rising_days", 3, unit: "days", range: 1...30, source: "choice: stress rising compares with the 3 days before"),
        ConstantSpec("weekday_bedtime_hour", 22, unit: "h", range: 0...24, source: "product specification: weekday bedtime default 22:00"),
        ConstantSpec("weekday_wake_hour", 7, unit: "h", range: 0...24, source: "product specification: weekday wake default 7:00"),
        ConstantSpec("weekend_bedtime_hour", 23, unit: "h", range: 0...24, source: "product specification: weekend bedtime default 23:00"),
        ConstantSpec("weekend_wake_hour", 8, unit: "h", range: 0...24, source: "product specification: weekend wake default 8:00"),
        ConstantSpec("schedule_min_observations", 3, unit: "nights", range: 1...60, source: "product specification: 3 observations of a weekday before trusting its pattern"),
        ConstantSpec("late_wake_hours", 1.5, unit: "h", range: 0...12, source: "product specification: late wake = more than 1.5 h past the typical wake"),
        ConstantSpec("morning_delay_hours", 0.5, unit: "h", range: 0...12, source: "choice: the morning nudge is delivered 30 min after the typical wake"),
        ConstantSpec("wind_down_lead_hours", 1, unit: "h", range: 0...12, source: "choice: the evening nudge (near bedtime) is delivered 1 h before the typical bedtime"),
        ConstantSpec("correlation_window_days", 28, unit: "days", range: 7...366, source: "choice: correlations over the 28 days ending the report day"),
        ConstantSpec("correlation_min_pairs", 7, unit: "pairs", range: 3...366, source: "product specification: at least 7 paired values"),
        ConstantSpec("band_noticeable", 0.2, unit: "abs r", range: 0...1, source: "product specification: |r| 0.2–0.4 noticeable"),
        ConstantSpec("band_clear", 0.4, unit: "abs r", range: 0...1, source: "product specification: |r| 0.4–0.6 clear"),
        ConstantSpec("band_strong", 0.6, unit: "abs r", range: 0...1, source: "product specification: |r| 0.6–0.8 strong"),
        ConstantSpec("band_very_consistent", 0.8, unit: "abs r", range: 0...1, source: "product specification: |r| 0.8–1.0 very consistent"),
        ConstantSpec("phase_baseline_days", 14, unit: "days", range: 1...365, source: "product specification: 14 days of data complete the baseline phase"),
        ConstantSpec("phase_adaptation_days", 30, unit: "days", range: 1...365, source: "product specification: at least 30 days in adaptation"),
        ConstantSpec("phase_min_confidence", 0.8, unit: "fraction", range: 0...1, source: "product specification: pattern confidence ≥ 0.8 for maintenance"),
        ConstantSpec("phase_accurate_streak", 10, unit: "days", range: 1...365, source: "product specification: 10 consecutive accurate predictions for maintenance"),
        ConstantSpec("phase_prediction_tolerance_bpm", 3, unit: "bpm", range: 0...60, source: "choice: a prediction (the baseline median resting HR) is accurate within 3 bpm of the day's value"),
        ConstantSpec("phase_confidence_window", 14, unit: "predictions", range: 1...365, source: "choice: pattern confidence = share of accurate predictions among the last 14 in the phase"),
        ConstantSpec("phase_indicator_count", 2, unit: "indicators", range: 1...3, source: "product specification: 2 regression indicators move maintenance to regression"),
        ConstantSpec("phase_severity", 0.7, unit: "fraction", range: 0...1, source: "product specification: or one indicator of severity > 0.7"),
        ConstantSpec("phase_regression_days", 7, unit: "days", range: 1...365, source: "product specification: 7+ days in regression without indicators return to adaptation"),
    ], orderRules: [
        OrderRule(["min_baseline_days", "baseline_days"]),
        OrderRule(["pattern_min_days", "pattern_window_days"]),
        OrderRule(["trend_min_days", "trend_week_days"]),
        OrderRule(["rhr_improving_change", "rhr_declining_change"], strict: true),
        OrderRule(["hrv_declining_change", "hrv_improving_change"], strict: true),
        OrderRule(["activity_declining_change", "activity_improving_change"], strict: true),
        OrderRule(["recovery_declining_change", "recovery_improving_change"], strict: true),
        OrderRule(["vo2_declining_change", "vo2_improving_change"], strict: true),
        OrderRule(["confidence_medium_days", "confidence_high_days", "confidence_window_days"]),
        OrderRule(["gate_recovering_below", "gate_moderate_below"]),
        OrderRule(["band_noticeable", "band_clear", "band_strong", "band_very_consistent"], strict: true),
    ])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.coaching }

    public let baselineDays, minBaselineDays, overtrainingRHRRiseBpm, overtrainingDays, hrvDropFraction: Double
    public let greatRecoveryReadiness, lowActivitySteps, lowActivityMinutes: Double
    public let patternWindowDays, patternMinDays, shortSleepHours, missingActivityDays: Double
    public let trendWeekDays, trendMinDays: Double
    /// Improving and declining change thresholds of the weekly metric trends, in the metric's unit.
    public let rhrImproving, rhrDeclining, hrvImproving, hrvDeclining, activityImproving, activityDeclining: Double
    public let recoveryImproving, recoveryDeclining, vo2Improving, vo2Declining: Double
    public let trendScenarioMinMetrics, confidenceWindowDays, confidenceMediumDays, confidenceHighDays: Double
    public let maxRecommendations, maxNudges, gateRecoveringBelow, gateModerateBelow: Double
    public let stressRisingPoints, stressRisingDays: Double
    /// Default bedtime and wake, hours after midnight.
    public let weekdayBedtimeHour, weekdayWakeHour, weekendBedtimeHour, weekendWakeHour: Double
    public let scheduleMinObservations, lateWakeHours, morningDelayHours, windDownLeadHours: Double
    public let correlationWindowDays, correlationMinPairs: Double
    /// Lower |r| edges of the strength bands.
    public let bandNoticeable, bandClear, bandStrong, bandVeryConsistent: Double
    public let phaseBaselineDays, phaseAdaptationDays, phaseMinConfidence, phaseAccurateStreak: Double
    public let phasePredictionToleranceBpm, phaseConfidenceWindow, phaseIndicatorCount, phaseSeverity, phaseRegressionDays: Double

    public init(_ c: ConstantReader) throws {
        baselineDays = try c["baseline_days"]; minBaselineDays = try c["min_baseline_days"]
        overtrainingRHRRiseBpm = try c["overtraining_rhr_rise_bpm"]; overtrainingDays = try c["overtraining_days"]
        hrvDropFraction = try c["hrv_drop_fraction"]
        greatRecoveryReadiness = try c["great_recovery_readiness"]; lowActivitySteps = try c["low_activity_steps"]
        lowActivityMinutes = try c["low_activity_minutes"]; patternWindowDays = try c["pattern_window_days"]
        patternMinDays = try c["pattern_min_days"]; shortSleepHours = try c["short_sleep_hours"]
        missingActivityDays = try c["missing_activity_days"]; trendWeekDays = try c["trend_week_days"]
        trendMinDays = try c["trend_min_days"]
        rhrImproving = try c["rhr_improving_change"]; rhrDeclining = try c["rhr_declining_change"]
        hrvImproving = try c["hrv_improving_change"]; hrvDeclining = try c["hrv_declining_change"]
        activityImproving = try c["activity_improving_change"]; activityDeclining = try c["activity_declining_change"]
        recoveryImproving = try c["recovery_improving_change"]; recoveryDeclining = try c["recovery_declining_change"]
        vo2Improving = try c["vo2_improving_change"]; vo2Declining = try c["vo2_declining_change"]
        trendScenarioMinMetrics = try c["trend_scenario_min_metrics"]; confidenceWindowDays = try c["confidence_window_days"]
        confidenceMediumDays = try c["confidence_medium_days"]; confidenceHighDays = try c["confidence_high_days"]
        maxRecommendations = try c["max_recommendations"]; maxNudges = try c["max_nudges"]
        gateRecoveringBelow = try c["gate_recovering_below"]; gateModerateBelow = try c["gate_moderate_below"]
        stressRisingPoints = try c["stress_rising_points"]; stressRisingDays = try c["stress_rising_days"]
        weekdayBedtimeHour = try c["weekday_bedtime_hour"]; weekdayWakeHour = try c["weekday_wake_hour"]
        weekendBedtimeHour = try c["weekend_bedtime_hour"]; weekendWakeHour = try c["weekend_wake_hour"]
        scheduleMinObservations = try c["schedule_min_observations"]; lateWakeHours = try c["late_wake_hours"]
        morningDelayHours = try c["morning_delay_hours"]; windDownLeadHours = try c["wind_down_lead_hours"]
        correlationWindowDays = try c["correlation_window_days"]; correlationMinPairs = try c["correlation_min_pairs"]
        bandNoticeable = try c["band_noticeable"]; bandClear = try c["band_clear"]
        bandStrong = try c["band_strong"]; bandVeryConsistent = try c["band_very_consistent"]
        phaseBaselineDays = try c["phase_baseline_days"]; phaseAdaptationDays = try c["phase_adaptation_days"]
        phaseMinConfidence = try c["phase_min_confidence"]; phaseAccurateStreak = try c["phase_accurate_streak"]
        phasePredictionToleranceBpm = try c["phase_prediction_tolerance_bpm"]
        phaseConfidenceWindow = try c["phase_confidence_window"]; phaseIndicatorCount = try c["phase_indicator_count"]
        phaseSeverity = try c["phase_severity"]; phaseRegressionDays = try c["phase_regression_days"]
    }
}
