/// The health platform's morning recovery score and decision (docs/engines/health-platform.md, Morning
/// recovery): the composite of its HRV, sleep and resting-HR components and the
/// thresholds of the morning decision. The specification gives the weights, the HRV
/// thresholds and the decision's branches; the component functions are the toolkit's.
public struct MorningRecoveryConstants: EngineConstants, Equatable {
    public static let spec = EngineSpec(name: "morning_recovery", version: "1.1.0", constants: [
        ConstantSpec("hrv_weight", 0.4, unit: "weight", range: 0...1, source: "product specification: composite = 0.4·HRV + 0.4·sleep + 0.2·resting HR"),
        ConstantSpec("sleep_weight", 0.4, unit: "weight", range: 0...1, source: "product specification: composite = 0.4·HRV + 0.4·sleep + 0.2·resting HR"),
        ConstantSpec("resting_hr_weight", 0.2, unit: "weight", range: 0...1, source: "product specification: composite = 0.4·HRV + 0.4·sleep + 0.2·resting HR"),
        ConstantSpec("hrv_low_ms", 30, unit: "ms", range: 0...300, source: "product specification: HRV below 30 ms needs recovery (recovery settings default)"),
        ConstantSpec("hrv_high_ms", 60, unit: "ms", range: 0...300, source: "product specification: HRV above 60 ms is fully recovered (recovery settings default)"),
        ConstantSpec("sleep_zero_h", 4, unit: "h", range: 0...24, source: "choice: sleep scores 0 at 4 h or less, where one night's restriction already impairs next-day performance (Van Dongen et al. 2003, Sleep 26:117)"),
        ConstantSpec("sleep_full_h", 7, unit: "h", range: 0...24, source: "choice: sleep scores 1 from 7 h, the lower end of the adult recommendation of 7–9 h (Hirshkowitz et al. 2015, Sleep Health 1:40)"),
        ConstantSpec("resting_hr_zero_above_bpm", 10, unit: "bpm", range: 0.5...60, source: "choice: resting HR scores 1 at or below its baseline and 0 at 10 bpm above it, a rise well past day-to-day variation that overreaching studies report (Bosquet et al. 2008, Sports Med 38:1)"),
        ConstantSpec("resting_hr_baseline_days", 30, unit: "days", range: 1...365, source: "choice: the baseline is the median resting HR of the 30 days before, as the coach's other baselines"),
        ConstantSpec("resting_hr_baseline_min_days", 3, unit: "days", range: 1...365, source: "choice: at least 3 earlier days before a resting-HR baseline exists"),
        ConstantSpec("light_below", 40, unit: "points", range: 0...100, source: "product specification: with a planned workout, a score below 40 → light movement"),
        ConstantSpec("high_above", 80, unit: "points", range: 0...100, source: "product specification: a score above 80 → high intensity"),
        ConstantSpec("suggest_above", 50, unit: "points", range: 0...100, source: "product specification: without a planned workout, a score above 50 → suggest a session, else rest"),
        ConstantSpec("overnight_start_hour", 21, unit: "h", range: 0...24, source: "product specification: the morning reads its inputs from 9 PM the evening before"),
        ConstantSpec("overnight_cutoff_hour", 12, unit: "h", range: 0...24, source: "choice: the overnight window ends at the last sleep's end before noon of the morning's day, else at noon"),
        ConstantSpec("sleep_debt_days", 7, unit: "days", range: 1...60, source: "product specification: sleep debt over 7 days (recovery settings default)"),
        ConstantSpec("sleep_need_h", 8, unit: "h", range: 0...24, source: "choice: a night short of 8 h, the middle of the adult recommendation of 7–9 h (Hirshkowitz et al. 2015, Sleep Health 1:40), adds its shortfall to the debt"),
        ConstantSpec("strain_days", 14, unit: "days", range: 1...90, source: "product specification: strain accumulated over 14 days (recovery settings default)"),
        ConstantSpec("strain_kcal_per_point", 10, unit: "kcal", range: 0.1...1000, source: "choice: 10 kcal of active energy count as one strain point, as one minute of exercise does (about the energy of a minute at 8–10 METs for 70 kg; Ainsworth et al. 2011, Med Sci Sports Exerc 43:1575)"),
    ], weightGroups: [["hrv_weight", "sleep_weight", "resting_hr_weight"]], orderRules: [
        OrderRule(["hrv_low_ms", "hrv_high_ms"], strict: true),
        OrderRule(["sleep_zero_h", "sleep_full_h"], strict: true),
    ])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.morningRecovery }

    /// Component weights.
    public let hrvWeight: Double, sleepWeight: Double, restingHRWeight: Double
    /// HRV thresholds, ms (SDNN).
    public let hrvLowMs: Double, hrvHighMs: Double
    /// Sleep hours scoring 0 and 1.
    public let sleepZeroHours: Double, sleepFullHours: Double
    /// bpm above the baseline at which resting HR scores 0.
    public let restingHRZeroAboveBpm: Double
    /// Days of the resting-HR baseline and the fewest it needs.
    public let restingHRBaselineDays: Double, restingHRBaselineMinDays: Double
    /// Decision thresholds, points 0–100.
    public let lightBelow: Double, highAbove: Double, suggestAbove: Double
    /// The overnight window: from this hour of the evening before (local clock of the
    /// day, h) to the wake time, at the latest this hour of the morning's day.
    public let overnightStartHour: Double, overnightCutoffHour: Double
    /// Sleep debt: the nights counted and the hours a night should have.
    public let sleepDebtDays: Double, sleepNeedHours: Double
    /// Strain: the days counted, and the active energy (kcal) worth one point.
    public let strainDays: Double, strainKcalPerPoint: Double

    public init(_ c: ConstantReader) throws {
        hrvWeight = try c["hrv_weight"]
        sleepWeight = try c["sleep_weight"]
        restingHRWeight = try c["resting_hr_weight"]
        hrvLowMs = try c["hrv_low_ms"]
        hrvHighMs = try c["hrv_high_ms"]
        sleepZeroHours = try c["sleep_zero_h"]
        sleepFullHours = try c["sleep_full_h"]
        restingHRZeroAboveBpm = try c["resting_hr_zero_above_bpm"]
        restingHRBaselineDays = try c["resting_hr_baseline_days"]
        restingHRBaselineMinDays = try c["resting_hr_baseline_min_days"]
        lightBelow = try c["light_below"]
        highAbove = try c["high_above"]
        suggestAbove = try c["suggest_above"]
        overnightStartHour = try c["overnight_start_hour"]
        overnightCutoffHour = try c["overnight_cutoff_hour"]
        sleepDebtDays = try c["sleep_debt_days"]
        sleepNeedHours = try c["sleep_need_h"]
        strainDays = try c["strain_days"]
        strainKcalPerPoint = try c["strain_kcal_per_point"]
    }
}
