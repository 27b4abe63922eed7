/// Real-time state (docs/engines/dj.md, State): the AI DJ's state vector every 30 s from
/// the heart rate of the last 5 minutes and the SDNN of the last 10, the listener's
/// context, and the music need that follows from them (product specification, state
/// estimation and need inference; the simpler reference variant is `StateVariant.reference`).
public struct StateConstants: EngineConstants {
    public static let spec = EngineSpec(name: "state", version: "3.1.0", constants: [
        ConstantSpec("max_hr_intercept", 220, unit: "bpm", range: 100...300, source: "product specification: max = 220 − age"),
        ConstantSpec("max_hr_age_slope", 1, unit: "bpm/year", range: 0...5, source: "product specification: max = 220 − age"),
        ConstantSpec("hrv_stress_slope", 0.6, unit: "1/ratio", range: 0...10, source: "product specification: stress = clamp(1 − 0.6·HRV/baseline)"),
        ConstantSpec("step_seconds", 30, unit: "s", range: 5...600, source: "product specification: the state vector is updated every 30 s"),
        ConstantSpec("hr_window_seconds", 300, unit: "s", range: 30...3600, source: "product specification: heart-rate samples of the last 5 minutes"),
        ConstantSpec("hrv_window_seconds", 600, unit: "s", range: 60...7200, source: "product specification: HRV samples of the last 10 minutes"),
        ConstantSpec("trend_min_samples", 3, unit: "samples", range: 2...100, source: "product specification: trend term when a window holds ≥ 3 samples"),
        ConstantSpec("hr_trend_weight", 0.1, unit: "arousal per bpm/min", range: 0...1, source: "product specification: arousal + 0.1 × trend; choice: the trend is the least-squares slope of HR in bpm per minute"),
        ConstantSpec("hrv_trend_weight", 0.05, unit: "stress per ms/min", range: 0...1, source: "product specification: stress − 0.05 × trend; choice: the trend is the least-squares slope of SDNN in ms per minute"),
        ConstantSpec("hr_full_samples", 10, unit: "samples", range: 1...1000, source: "product specification: arousal confidence = min(1, n/10) × mean sample quality"),
        ConstantSpec("hrv_full_samples", 5, unit: "samples", range: 1...1000, source: "product specification: stress confidence = min(1, n/5)"),
        ConstantSpec("empty_arousal", 0.5, unit: "0–1", range: 0...1, source: "product specification: arousal 0.5 with confidence 0 when the window is empty"),
        ConstantSpec("empty_stress", 0.5, unit: "0–1", range: 0...1, source: "product specification: stress 0.5 with confidence 0 when the window is empty"),
        ConstantSpec("energy_arousal_weight", 0.6, unit: "weight", range: 0...1, source: "product specification: energy = 0.6·arousal + 0.4·(1 − stress)"),
        ConstantSpec("energy_calm_weight", 0.4, unit: "weight", range: 0...1, source: "product specification: energy = 0.6·arousal + 0.4·(1 − stress)"),
        ConstantSpec("energy_pattern_weight", 0.2, unit: "weight", range: 0...1, source: "product specification: energy blended 0.2 toward the usual energy of the weekday and hour"),
        ConstantSpec("pattern_min_states", 10, unit: "states", range: 1...10000, source: "choice: the usual energy of a weekday and hour exists once 10 earlier states (5 minutes) fall in it"),
        ConstantSpec("deep_work_focus", 0.8, unit: "0–1", range: 0...1, source: "product specification: focus = 0.8 − 0.3·stress in deep work"),
        ConstantSpec("deep_work_focus_stress_slope", 0.3, unit: "1", range: 0...1, source: "product specification: focus = 0.8 − 0.3·stress in deep work"),
        ConstantSpec("workout_focus", 0.3, unit: "0–1", range: 0...1, source: "product specification: focus 0.3 during a workout"),
        ConstantSpec("base_focus", 0.5, unit: "0–1", range: 0...1, source: "product specification: focus = 0.5 − 0.2·stress (+ 0.1 at low arousal)"),
        ConstantSpec("focus_stress_slope", 0.2, unit: "1", range: 0...1, source: "product specification: focus = 0.5 − 0.2·stress (+ 0.1 at low arousal)"),
        ConstantSpec("low_arousal_focus_bonus", 0.1, unit: "0–1", range: 0...1, source: "product specification: focus + 0.1 at low arousal"),
        ConstantSpec("low_arousal_threshold", 0.4, unit: "0–1", range: 0...1, source: "choice: low arousal is arousal < 0.4, the need rule's own bound"),
        ConstantSpec("valence_base", 0.5, unit: "0–1", range: 0...1, source: "product specification: valence = 0.5 − 0.3·stress"),
        ConstantSpec("valence_stress_slope", 0.3, unit: "1", range: 0...1, source: "product specification: valence = 0.5 − 0.3·stress"),
        ConstantSpec("fallback_resting_hr", 60, unit: "bpm", range: 30...120, source: "product specification: resting HR 60 when the profile has none"),
        ConstantSpec("fallback_sdnn_baseline", 50, unit: "ms", range: 5...300, source: "product specification: baseline HRV 50 ms when the profile has none"),
        ConstantSpec("fallback_age", 30, unit: "years", range: 10...100, source: "product specification: age 30 when the profile has none"),
        ConstantSpec("baseline_days", 14, unit: "days", range: 1...365, source: "choice: resting HR and SDNN baseline from the last 14 earlier days"),
        ConstantSpec("baseline_min_days", 3, unit: "days", range: 1...365, source: "choice: own baselines once 3 earlier days have samples, else the fallbacks"),
        ConstantSpec("resting_hr_quantile", 0.05, unit: "quantile", range: 0...0.5, source: "choice: a day's resting HR is its 5th-percentile HR sample; the baseline is the median over days"),
        ConstantSpec("post_workout_minutes", 15, unit: "min", range: 0...120, source: "product specification: post-workout within 15 min of a workout's end"),
        ConstantSpec("workout_energize_below", 0.5, unit: "0–1", range: 0...1, source: "product specification: in a workout, energize when energy < 0.5, else maintain"),
        ConstantSpec("calm_stress_above", 0.7, unit: "0–1", range: 0...1, source: "product specification: calm when stress > 0.7"),
        ConstantSpec("energize_energy_below", 0.3, unit: "0–1", range: 0...1, source: "product specification: energize when energy < 0.3 and arousal < 0.4"),
        ConstantSpec("energize_arousal_below", 0.4, unit: "0–1", range: 0...1, source: "product specification: energize when energy < 0.3 and arousal < 0.4"),
        ConstantSpec("focus_above", 0.6, unit: "0–1", range: 0...1, source: "product specification: focus when focus > 0.6 at work"),
        ConstantSpec("significant_change", 0.2, unit: "0–1", range: 0...1, source: "choice: a significant state change is energy or stress moving by ≥ 0.2 since the previous decision"),
        ConstantSpec("significant_change_minutes", 10, unit: "min", range: 0...240, source: "choice: the previous decision counts when it was at most 10 min earlier"),
        ConstantSpec("reference_empty_hr", 72, unit: "bpm", range: 30...220, source: "product specification, reference variant: HR 72 when no sample is recent"),
        ConstantSpec("reference_empty_sdnn", 50, unit: "ms", range: 5...300, source: "product specification, reference variant: HRV 50 ms when no sample is recent"),
        ConstantSpec("reference_source_confidence", 0.5, unit: "0–1", range: 0...1, source: "product specification, reference variant: confidence 0.5 per source with a recent sample"),
        ConstantSpec("input_method", 0, unit: "code", range: 0...1, source: "choice: the inputs of arousal and stress; 0 the specification's (resting HR and SDNN baselines, SDNN as HRV), 1 personal rolling reference (resting HR = median HR of the person's own last minutes, HRV/baseline replaced by the heart-period ratio reference/HR, as the stress engine's adaptive range)"),
        ConstantSpec("personal_reference_minutes", 20, unit: "min", range: 1...1440, source: "input method 1: the reference is the HR samples of the 20 min before the HR window (choice: the stress engine's reference_minutes)"),
        ConstantSpec("personal_min_samples", 180, unit: "samples", range: 1...100000, source: "input method 1: fewest reference HR samples, else the baseline's resting HR (choice: 3 min at 1 Hz)"),
        ConstantSpec("hr_input", 0, unit: "code", range: 0...1, source: "choice: where arousal's heart rate and stress's HRV come from when the state is scored on labelled recordings (dj state, validate); 0 the device's heart-rate samples (hr.csv) with SDNN from hrv_samples.csv or the analysis R-R, 1 the reliable beats detected from the waveform (beats.csv): a heart-rate sample of 60 000 / interval at each beat and the SDNN of those beats over the HRV window; the formulas are the same"),
    ], weightGroups: [["energy_arousal_weight", "energy_calm_weight"]])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.state }

    public let maxHRIntercept: Double, maxHRAgeSlope: Double, hrvStressSlope: Double
    /// Seconds.
    public let stepSeconds: Double, hrWindowSeconds: Double, hrvWindowSeconds: Double
    public let trendMinSamples: Double, hrTrendWeight: Double, hrvTrendWeight: Double
    public let hrFullSamples: Double, hrvFullSamples: Double, emptyArousal: Double, emptyStress: Double
    public let energyArousalWeight: Double, energyCalmWeight: Double, energyPatternWeight: Double, patternMinStates: Double
    public let deepWorkFocus: Double, deepWorkFocusStressSlope: Double, workoutFocus: Double, baseFocus: Double
    public let focusStressSlope: Double, lowArousalFocusBonus: Double, lowArousalThreshold: Double
    public let valenceBase: Double, valenceStressSlope: Double
    public let fallbackRestingHR: Double, fallbackSDNNBaseline: Double, fallbackAge: Double
    public let baselineDays: Double, baselineMinDays: Double, restingHRQuantile: Double
    /// Minutes.
    public let postWorkoutMinutes: Double
    public let workoutEnergizeBelow: Double, calmStressAbove: Double, energizeEnergyBelow: Double, energizeArousalBelow: Double
    public let focusAbove: Double, significantChange: Double, significantChangeMinutes: Double
    public let referenceEmptyHR: Double, referenceEmptySDNN: Double, referenceSourceConfidence: Double
    /// `input_method`, code (0 specification, 1 personal rolling reference); `personal_reference_minutes`, min;
    /// `personal_min_samples`, samples.
    public let inputMethod: Double, personalReferenceMinutes: Double, personalMinSamples: Double
    /// `hr_input`, code (0 the device's heart rate and HRV, 1 the detected beats of beats.csv).
    public let hrInput: Double

    public init(_ c: ConstantReader) throws {
        maxHRIntercept = try c["max_hr_intercept"]
        maxHRAgeSlope = try c["max_hr_age_slope"]
        hrvStressSlope = try c["hrv_stress_slope"]
        stepSeconds = try c["step_seconds"]
        hrWindowSeconds = try c["hr_window_seconds"]
        hrvWindowSeconds = try c["hrv_window_seconds"]
        trendMinSamples = try c["trend_min_samples"]
        hrTrendWeight = try c["hr_trend_weight"]
        hrvTrendWeight = try c["hrv_trend_weight"]
        hrFullSamples = try c["hr_full_samples"]
        hrvFullSamples = try c["hrv_full_samples"]
        emptyArousal = try c["empty_arousal"]
        emptyStress = try c["empty_stress"]
        energyArousalWeight = try c["energy_arousal_weight"]
        energyCalmWeight = try c["energy_calm_weight"]
        energyPatternWeight = try c["energy_pattern_weight"]
        patternMinStates = try c["pattern_min_states"]
        deepWorkFocus = try c["deep_work_focus"]
        deepWorkFocusStressSlope = try c["deep_work_focus_stress_slope"]
        workoutFocus = try c["workout_focus"]
        baseFocus = try c["base_focus"]
        focusStressSlope = try c["focus_stress_slope"]
        lowArousalFocusBonus = try c["low_arousal_focus_bonus"]
        lowArousalThreshold = try c["low_arousal_threshold"]
        valenceBase = try c["valence_base"]
        valenceStressSlope = try c["valence_stress_slope"]
        fallbackRestingHR = try c["fallback_resting_hr"]
        fallbackSDNNBaseline = try c["fallback_sdnn_baseline"]
        fallbackAge = try c["fallback_age"]
        baselineDays = try c["baseline_days"]
        baselineMinDays = try c["baseline_min_days"]
        restingHRQuantile = try c["resting_hr_quantile"]
        postWorkoutMinutes = try c["post_workout_minutes"]
        workoutEnergizeBelow = try c["workout_energize_below"]
        calmStressAbove = try c["calm_stress_above"]
        energizeEnergyBelow = try c["energize_energy_below"]
        energizeArousalBelow = try c["energize_arousal_below"]
        focusAbove = try c["focus_above"]
        significantChange = try c["significant_change"]
        significantChangeMinutes = try c["significant_change_minutes"]
        referenceEmptyHR = try c["reference_empty_hr"]
        referenceEmptySDNN = try c["reference_empty_sdnn"]
        referenceSourceConfidence = try c["reference_source_confidence"]
        inputMethod = try c["input_method"]
        personalReferenceMinutes = try c["personal_reference_minutes"]
        personalMinSamples = try c["personal_min_samples"]
        hrInput = try c["hr_input"]
    }
}
