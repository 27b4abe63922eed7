/// BioAge (docs/engines/heart-coach.md, BioAge): the product specification's weights, years per
/// unit and clamp; the norms each input is compared with are a table
/// (`BioAgeNorms`), not constants, because they vary by age and sex.
public struct BioAgeConstants: EngineConstants {
    public static let spec = EngineSpec(name: "bio_age", version: "1.0.0", constants: [
        ConstantSpec("weight_vo2max", 0.20, unit: "weight", range: 0...1, source: "product specification: VO2 max 0.20"),
        ConstantSpec("weight_resting_hr", 0.22, unit: "weight", range: 0...1, source: "product specification: resting HR 0.22"),
        ConstantSpec("weight_hrv", 0.22, unit: "weight", range: 0...1, source: "product specification: HRV 0.22"),
        ConstantSpec("weight_sleep", 0.12, unit: "weight", range: 0...1, source: "product specification: sleep 0.12"),
        ConstantSpec("weight_activity", 0.12, unit: "weight", range: 0...1, source: "product specification: activity 0.12"),
        ConstantSpec("weight_bmi", 0.12, unit: "weight", range: 0...1, source: "product specification: BMI 0.12"),
        ConstantSpec("years_per_vo2max", 0.8, unit: "years per mL/kg/min", range: 0...10, source: "product specification: 0.8 years per mL/kg/min"),
        ConstantSpec("years_per_resting_hr", 0.4, unit: "years/bpm", range: 0...10, source: "product specification: 0.4 years per bpm"),
        ConstantSpec("years_per_hrv", 0.15, unit: "years/ms", range: 0...10, source: "product specification: 0.15 years per ms of SDNN"),
        ConstantSpec("years_per_sleep_hour", 1.5, unit: "years/h", range: 0...20, source: "product specification: 1.5 years per hour outside 7–9 h"),
        ConstantSpec("sleep_low_hours", 7, unit: "h", range: 0...24, source: "product specification: no sleep offset within 7–9 h"),
        ConstantSpec("sleep_high_hours", 9, unit: "h", range: 0...24, source: "product specification: no sleep offset within 7–9 h"),
        ConstantSpec("years_per_10_activity_minutes", 0.05, unit: "years per 10 min/day", range: 0...10, source: "product specification: 0.05 years per 10 min"),
        ConstantSpec("activity_norm_minutes", 30, unit: "min/day", range: 0...1440, source: "choice: 30 zone minutes a day, the WHO 2020 and AHA 150 min/week spread over 5 days (Bull et al. 2020)"),
        ConstantSpec("activity_days", 7, unit: "days", range: 1...60, source: "choice: activity is the mean zone minutes of the days with them among the 7 ending the day, as the readiness activity pattern"),
        ConstantSpec("years_per_bmi", 0.6, unit: "years per kg/m²", range: 0...10, source: "product specification: 0.6 years per BMI point from optimal"),
        ConstantSpec("bmi_optimal", 22, unit: "kg/m²", range: 15...35, source: "choice: 22 kg/m², the middle of the WHO normal range 18.5–24.9 (WHO 2000, TRS 894)"),
        ConstantSpec("height_male_m", 1.75, unit: "m", range: 1...2.5, source: "product specification: male average height 1.75 m when none is known"),
        ConstantSpec("height_female_m", 1.63, unit: "m", range: 1...2.5, source: "product specification: female average height 1.63 m when none is known"),
        ConstantSpec("offset_clamp_years", 8, unit: "years", range: 0...100, source: "product specification: each input's offset clamped to ±8 years"),
        ConstantSpec("excellent_at_most", -5, unit: "years", range: -100...100, source: "product specification: excellent ≤ −5 years"),
        ConstantSpec("good_at_most", -2, unit: "years", range: -100...100, source: "product specification: good −5 to −2 (choice: −2 itself is good)"),
        ConstantSpec("watchful_from", 2, unit: "years", range: -100...100, source: "product specification: watchful +2 to +5 (choice: +2 itself is watchful)"),
        ConstantSpec("needs_work_from", 5, unit: "years", range: -100...100, source: "product specification: needs work ≥ +5 years"),
    ], weightGroups: [["weight_vo2max", "weight_resting_hr", "weight_hrv", "weight_sleep", "weight_activity", "weight_bmi"]],
    orderRules: [
        OrderRule(["sleep_low_hours", "sleep_high_hours"]),
        OrderRule(["excellent_at_most", "good_at_most", "watchful_from", "needs_work_from"], strict: true),
    ])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.bioAge }

    /// Weights of the six inputs.
    public let weightVO2Max, weightRestingHR, weightHRV, weightSleep, weightActivity, weightBMI: Double
    /// Years of offset per unit away from the norm: mL/kg/min, bpm, ms, hour, 10 min/day, kg/m².
    public let yearsPerVO2Max, yearsPerRestingHR, yearsPerHRV, yearsPerSleepHour, yearsPer10ActivityMinutes, yearsPerBMI: Double
    /// `sleep_low_hours`, `sleep_high_hours`, h.
    public let sleepLowHours, sleepHighHours: Double
    /// `activity_norm_minutes`, min/day; `activity_days`, days.
    public let activityNormMinutes, activityDays: Double
    /// `bmi_optimal`, kg/m².
    public let bmiOptimal: Double
    /// `height_male_m`, `height_female_m`, m.
    public let heightMaleM, heightFemaleM: Double
    /// `offset_clamp_years`, years.
    public let offsetClampYears: Double
    /// Category edges on BioAge − age, years.
    public let excellentAtMost, goodAtMost, watchfulFrom, needsWorkFrom: Double

    public init(_ c: ConstantReader) throws {
        weightVO2Max = try c["weight_vo2max"]
        weightRestingHR = try c["weight_resting_hr"]
        weightHRV = try c["weight_hrv"]
        weightSleep = try c["weight_sleep"]
        weightActivity = try c["weight_activity"]
        weightBMI = try c["weight_bmi"]
        yearsPerVO2Max = try c["years_per_vo2max"]
        yearsPerRestingHR = try c["years_per_resting_hr"]
        yearsPerHRV = try c["years_per_hrv"]
        yearsPerSleepHour = try c["years_per_sleep_hour"]
        sleepLowHours = try c["sleep_low_hours"]
        sleepHighHours = try c["sleep_high_hours"]
        yearsPer10ActivityMinutes = try c["years_per_10_activity_minutes"]
        activityNormMinutes = try c["activity_norm_minutes"]
        activityDays = try c["activity_days"]
        yearsPerBMI = try c["years_per_bmi"]
        bmiOptimal = try c["bmi_optimal"]
        heightMaleM = try c["height_male_m"]
        heightFemaleM = try c["height_female_m"]
        offsetClampYears = try c["offset_clamp_years"]
        excellentAtMost = try c["excellent_at_most"]
        goodAtMost = try c["good_at_most"]
        watchfulFrom = try c["watchful_from"]
        needsWorkFrom = try c["needs_work_from"]
    }
}
