/// Heart trend (anomaly, regression, stress pattern, week-over-week and consecutive
/// elevation of the product's heart-health coach; docs/engines/heart-coach.md, Trend).
public struct TrendConstants: EngineConstants {
    public static let spec = EngineSpec(name: "trend", version: "2.0.0", constants: [
        ConstantSpec("baseline_days", 28, unit: "days", range: 2...365, source: "trailing 28-day personal baseline before the day (choice, as the week-over-week baseline)"),
        ConstantSpec("min_baseline_days", 7, unit: "days", range: 2...365, source: "fewest baseline days for a robust z (choice)"),
        ConstantSpec("mad_scale", 1.4826, unit: "factor", range: 0.0001...100, source: "MAD × 1.4826 estimates σ for normal data (Rousseeuw & Croux 1993)"),
        ConstantSpec("weight_rhr", 0.25, unit: "weight", range: 0...1, source: "product specification: anomaly RHR 0.25"),
        ConstantSpec("weight_hrv", 0.25, unit: "weight", range: 0...1, source: "product specification: anomaly HRV 0.25 (negated)"),
        ConstantSpec("weight_recovery_1m", 0.20, unit: "weight", range: 0...1, source: "product specification: anomaly recovery 1 min 0.20"),
        ConstantSpec("weight_recovery_2m", 0.10, unit: "weight", range: 0...1, source: "product specification: anomaly recovery 2 min 0.10"),
        ConstantSpec("weight_vo2max", 0.20, unit: "weight", range: 0...1, source: "product specification: anomaly VO2 max 0.20"),
        ConstantSpec("anomaly_flag_z", 1.5, unit: "z", range: 0...100, source: "choice: the ±1.5 significance used by the other trend rules"),
        ConstantSpec("slope_days", 7, unit: "days", range: 2...60, source: "product specification: 7-day slopes"),
        ConstantSpec("slope_min_days", 4, unit: "days", range: 2...60, source: "fewest points for a slope (choice)"),
        ConstantSpec("rhr_slope_threshold", 0.3, unit: "bpm/day", range: -100...100, source: "product specification writes \"RHR slope > −0.3 (increasing)\", which fires on a flat RHR; +0.3 bpm/day is the increasing reading"),
        ConstantSpec("hrv_slope_threshold", -0.3, unit: "ms/day", range: -100...100, source: "product specification: HRV slope < −0.3 (decreasing)"),
        ConstantSpec("regression_method", 0, unit: "code", range: 0...3, source: "choice: 0 the product's least-squares slope, 1 the same slope only when significant, 2 Theil–Sen slope, 3 EWMA chart on the personal baseline"),
        ConstantSpec("slope_t_min", 2.015, unit: "t", range: 0...100, source: "method 1: |t| of the slope at least the one-sided 95 % Student t with 5 degrees of freedom (7 days)"),
        ConstantSpec("ewma_lambda", 0.3, unit: "weight", range: 0.01...1, source: "method 3: EWMA weight of the newest day (Lucas & Saccucci 1990 range 0.05–0.3)"),
        ConstantSpec("ewma_limit", 2.5, unit: "SD", range: 0...100, source: "method 3: control limit in asymptotic SDs of the EWMA of robust z-scores (Roberts 1959)"),
        ConstantSpec("pattern_rhr_z", 1.5, unit: "z", range: -100...100, source: "product specification: stress pattern RHR z ≥ 1.5"),
        ConstantSpec("pattern_hrv_z", -1.5, unit: "z", range: -100...100, source: "product specification: stress pattern HRV z ≤ −1.5"),
        ConstantSpec("pattern_recovery_z", -1.5, unit: "z", range: -100...100, source: "product specification: stress pattern recovery z ≤ −1.5"),
        ConstantSpec("week_days", 7, unit: "days", range: 1...60, source: "product specification: current 7-day mean"),
        ConstantSpec("week_baseline_days", 28, unit: "days", range: 2...365, source: "product specification: 28-day baseline excluding the current week"),
        ConstantSpec("week_min_baseline_days", 14, unit: "days", range: 2...365, source: "fewest baseline days for the week-over-week z (choice)"),
        ConstantSpec("week_significant_z", 1.5, unit: "z", range: 0...100, source: "product specification: week-over-week ±1.5 significant"),
        ConstantSpec("elevation_sd", 2, unit: "SD", range: 0...100, source: "product specification: RHR > mean + 2σ"),
        ConstantSpec("elevation_min_days", 3, unit: "days", range: 1...365, source: "product specification: 3 or more consecutive days"),
        ConstantSpec("elevation_max_gap_days", 1.5, unit: "days", range: 1...365, source: "product specification: a gap over 1.5 days breaks the streak"),
    ], weightGroups: [["weight_rhr", "weight_hrv", "weight_recovery_1m", "weight_recovery_2m", "weight_vo2max"]], orderRules: [
        OrderRule(["min_baseline_days", "baseline_days"]),
        OrderRule(["slope_min_days", "slope_days"]),
        OrderRule(["week_min_baseline_days", "week_baseline_days"]),
    ])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.trend }

    /// `baseline_days`, days.
    public let baselineDays: Double
    /// `min_baseline_days`, days.
    public let minBaselineDays: Double
    /// `mad_scale`, factor.
    public let madScale: Double
    /// `weight_rhr`, weight.
    public let weightRHR: Double
    /// `weight_hrv`, weight.
    public let weightHRV: Double
    /// `weight_recovery_1m`, weight.
    public let weightRecovery1m: Double
    /// `weight_recovery_2m`, weight.
    public let weightRecovery2m: Double
    /// `weight_vo2max`, weight.
    public let weightVO2max: Double
    /// `anomaly_flag_z`, z.
    public let anomalyFlagZ: Double
    /// `slope_days`, days.
    public let slopeDays: Double
    /// `slope_min_days`, days.
    public let slopeMinDays: Double
    /// `rhr_slope_threshold`, bpm/day.
    public let rhrSlopeThreshold: Double
    /// `hrv_slope_threshold`, ms/day.
    public let hrvSlopeThreshold: Double
    /// `regression_method`, code: 0 least-squares slope, 1 significant slope, 2 Theil–Sen, 3 EWMA.
    public let regressionMethod: Double
    /// `slope_t_min`, t.
    public let slopeTMin: Double
    /// `ewma_lambda`, weight.
    public let ewmaLambda: Double
    /// `ewma_limit`, SD.
    public let ewmaLimit: Double
    /// `pattern_rhr_z`, z.
    public let patternRHRZ: Double
    /// `pattern_hrv_z`, z.
    public let patternHRVZ: Double
    /// `pattern_recovery_z`, z.
    public let patternRecoveryZ: Double
    /// `week_days`, days.
    public let weekDays: Double
    /// `week_baseline_days`, days.
    public let weekBaselineDays: Double
    /// `week_min_baseline_days`, days.
    public let weekMinBaselineDays: Double
    /// `week_significant_z`, z.
    public let weekSignificantZ: Double
    /// `elevation_sd`, SD.
    public let elevationSD: Double
    /// `elevation_min_days`, days.
    public let elevationMinDays: Double
    /// `elevation_max_gap_days`, days.
    public let elevationMaxGapDays: Double

    public init(_ c: ConstantReader) throws {
        baselineDays = try c["baseline_days"]
        minBaselineDays = try c["min_baseline_days"]
        madScale = try c["mad_scale"]
        weightRHR = try c["weight_rhr"]
        weightHRV = try c["weight_hrv"]
        weightRecovery1m = try c["weight_recovery_1m"]
        weightRecovery2m = try c["weight_recovery_2m"]
        weightVO2max = try c["weight_vo2max"]
        anomalyFlagZ = try c["anomaly_flag_z"]
        slopeDays = try c["slope_days"]
        slopeMinDays = try c["slope_min_days"]
        rhrSlopeThreshold = try c["rhr_slope_threshold"]
        hrvSlopeThreshold = try c["hrv_slope_threshold"]
        regressionMethod = try c["regression_method"]
        slopeTMin = try c["slope_t_min"]
        ewmaLambda = try c["ewma_lambda"]
        ewmaLimit = try c["ewma_limit"]
        patternRHRZ = try c["pattern_rhr_z"]
        patternHRVZ = try c["pattern_hrv_z"]
        patternRecoveryZ = try c["pattern_recovery_z"]
        weekDays = try c["week_days"]
        weekBaselineDays = try c["week_baseline_days"]
        weekMinBaselineDays = try c["week_min_baseline_days"]
        weekSignificantZ = try c["week_significant_z"]
        elevationSD = try c["elevation_sd"]
        elevationMinDays = try c["elevation_min_days"]
        elevationMaxGapDays = try c["elevation_max_gap_days"]
    }
}
