/// Daily HR-primary stress (docs/engines/heart-coach.md, Stress). The mappings of the HRV z-score and
/// of the 7-day HRV coefficient of variation to score points are not given by the
/// product specification; they are chosen so that a person at their own baseline
/// scores the same on every signal as on resting HR (40 points), and one standard
/// deviation moves each signal by about as much as one SD of resting HR moves the RHR
/// score (day-to-day RHR SD ≈ 5 % of baseline → 20 points).
public struct StressConstants: EngineConstants {
    public static let spec = EngineSpec(name: "stress", version: "1.4.0", constants: [
        ConstantSpec("baseline_days", 28, unit: "days", range: 2...365, source: "personal baseline: trailing 28 days before the day (choice; the specification names no window)"),
        ConstantSpec("min_baseline_days", 3, unit: "days", range: 2...365, source: "fewest baseline days for a deviation (choice)"),
        ConstantSpec("rhr_score_at_baseline", 40, unit: "points", range: 0...100, source: "product specification: RHR score = 40 + 4·(% above baseline)"),
        ConstantSpec("rhr_points_per_percent", 4, unit: "points/%", range: 0...100, source: "product specification: RHR score = 40 + 4·(% above baseline)"),
        ConstantSpec("hrv_score_at_baseline", 40, unit: "points", range: 0...100, source: "choice: equal to the RHR score at baseline"),
        ConstantSpec("hrv_points_per_sd", 20, unit: "points/SD", range: 0...100, source: "choice: 1 SD of ln(SDNN) ≈ 1 SD of RHR (≈5 % → 20 points)"),
        ConstantSpec("cv_days", 7, unit: "days", range: 2...60, source: "product specification: HRV coefficient of variation over 7 days"),
        ConstantSpec("cv_min_days", 3, unit: "days", range: 2...60, source: "fewest SDNN values for a coefficient of variation (choice)"),
        ConstantSpec("cv_stable", 0.15, unit: "ratio", range: 0...10, source: "product specification: CV < 0.15 stable"),
        ConstantSpec("cv_unstable", 0.30, unit: "ratio", range: 0...10, source: "product specification: CV > 0.30 unstable"),
        ConstantSpec("cv_score_stable", 40, unit: "points", range: 0...100, source: "choice: a stable HRV scores as a baseline day"),
        ConstantSpec("cv_score_unstable", 100, unit: "points", range: 0...100, source: "choice: an unstable HRV scores the maximum"),
        ConstantSpec("weight_rhr", 0.50, unit: "weight", range: 0...1, source: "product specification: weights 0.50 / 0.30 / 0.20"),
        ConstantSpec("weight_hrv", 0.30, unit: "weight", range: 0...1, source: "product specification: weights 0.50 / 0.30 / 0.20"),
        ConstantSpec("weight_cv", 0.20, unit: "weight", range: 0...1, source: "product specification: weights 0.50 / 0.30 / 0.20"),
        ConstantSpec("weight_rhr_without_cv", 0.60, unit: "weight", range: 0...1, source: "product specification: RHR + HRV only → 0.60 / 0.40"),
        ConstantSpec("weight_hrv_without_cv", 0.40, unit: "weight", range: 0...1, source: "product specification: RHR + HRV only → 0.60 / 0.40"),
        ConstantSpec("sigmoid_slope", 0.08, unit: "1/points", range: 0.0001...10, source: "product specification: 100 / (1 + exp(−0.08·(x − 50)))"),
        ConstantSpec("sigmoid_center", 50, unit: "points", range: 0...100, source: "product specification: 100 / (1 + exp(−0.08·(x − 50)))"),
        ConstantSpec("relaxed_below", 35, unit: "score", range: 0...100, source: "product specification: relaxed < 35"),
        ConstantSpec("elevated_from", 65, unit: "score", range: 0...100, source: "product specification: elevated ≥ 65"),
        ConstantSpec("circadian_h00", 1.14, unit: "ratio", range: 1.10...1.20, source: "product specification: night hours ×1.10–1.20 (HRV higher during sleep); night = 00–05 h and this hour's value a choice (peak 1.20 at 03 h)"),
        ConstantSpec("circadian_h01", 1.17, unit: "ratio", range: 1.10...1.20, source: "product specification: night hours ×1.10–1.20 (HRV higher during sleep); night = 00–05 h and this hour's value a choice (peak 1.20 at 03 h)"),
        ConstantSpec("circadian_h02", 1.19, unit: "ratio", range: 1.10...1.20, source: "product specification: night hours ×1.10–1.20 (HRV higher during sleep); night = 00–05 h and this hour's value a choice (peak 1.20 at 03 h)"),
        ConstantSpec("circadian_h03", 1.2, unit: "ratio", range: 1.10...1.20, source: "product specification: night hours ×1.10–1.20 (HRV higher during sleep); night = 00–05 h and this hour's value a choice (peak 1.20 at 03 h)"),
        ConstantSpec("circadian_h04", 1.18, unit: "ratio", range: 1.10...1.20, source: "product specification: night hours ×1.10–1.20 (HRV higher during sleep); night = 00–05 h and this hour's value a choice (peak 1.20 at 03 h)"),
        ConstantSpec("circadian_h05", 1.14, unit: "ratio", range: 1.10...1.20, source: "product specification: night hours ×1.10–1.20 (HRV higher during sleep); night = 00–05 h and this hour's value a choice (peak 1.20 at 03 h)"),
        ConstantSpec("circadian_h06", 1.08, unit: "ratio", range: 0.90...1.10, source: "choice: morning (06–12 h) is not given by the specification; a fall from the night's level to the afternoon's, within 0.90–1.10"),
        ConstantSpec("circadian_h07", 1.04, unit: "ratio", range: 0.90...1.10, source: "choice: morning (06–12 h) is not given by the specification; a fall from the night's level to the afternoon's, within 0.90–1.10"),
        ConstantSpec("circadian_h08", 1.0, unit: "ratio", range: 0.90...1.10, source: "choice: morning (06–12 h) is not given by the specification; a fall from the night's level to the afternoon's, within 0.90–1.10"),
        ConstantSpec("circadian_h09", 0.97, unit: "ratio", range: 0.90...1.10, source: "choice: morning (06–12 h) is not given by the specification; a fall from the night's level to the afternoon's, within 0.90–1.10"),
        ConstantSpec("circadian_h10", 0.94, unit: "ratio", range: 0.90...1.10, source: "choice: morning (06–12 h) is not given by the specification; a fall from the night's level to the afternoon's, within 0.90–1.10"),
        ConstantSpec("circadian_h11", 0.92, unit: "ratio", range: 0.90...1.10, source: "choice: morning (06–12 h) is not given by the specification; a fall from the night's level to the afternoon's, within 0.90–1.10"),
        ConstantSpec("circadian_h12", 0.9, unit: "ratio", range: 0.90...1.10, source: "choice: morning (06–12 h) is not given by the specification; a fall from the night's level to the afternoon's, within 0.90–1.10"),
        ConstantSpec("circadian_h13", 0.88, unit: "ratio", range: 0.82...0.90, source: "product specification: afternoon ×0.82–0.90 (lowest HRV); afternoon = 13–17 h and this hour's value a choice (trough 0.82 at 15 h)"),
        ConstantSpec("circadian_h14", 0.85, unit: "ratio", range: 0.82...0.90, source: "product specification: afternoon ×0.82–0.90 (lowest HRV); afternoon = 13–17 h and this hour's value a choice (trough 0.82 at 15 h)"),
        ConstantSpec("circadian_h15", 0.82, unit: "ratio", range: 0.82...0.90, source: "product specification: afternoon ×0.82–0.90 (lowest HRV); afternoon = 13–17 h and this hour's value a choice (trough 0.82 at 15 h)"),
        ConstantSpec("circadian_h16", 0.84, unit: "ratio", range: 0.82...0.90, source: "product specification: afternoon ×0.82–0.90 (lowest HRV); afternoon = 13–17 h and this hour's value a choice (trough 0.82 at 15 h)"),
        ConstantSpec("circadian_h17", 0.87, unit: "ratio", range: 0.82...0.90, source: "product specification: afternoon ×0.82–0.90 (lowest HRV); afternoon = 13–17 h and this hour's value a choice (trough 0.82 at 15 h)"),
        ConstantSpec("circadian_h18", 0.95, unit: "ratio", range: 0.95...1.10, source: "product specification: evening ×0.95–1.10 (recovery); evening = 18–23 h and this hour's value a choice (rising to the night)"),
        ConstantSpec("circadian_h19", 0.99, unit: "ratio", range: 0.95...1.10, source: "product specification: evening ×0.95–1.10 (recovery); evening = 18–23 h and this hour's value a choice (rising to the night)"),
        ConstantSpec("circadian_h20", 1.02, unit: "ratio", range: 0.95...1.10, source: "product specification: evening ×0.95–1.10 (recovery); evening = 18–23 h and this hour's value a choice (rising to the night)"),
        ConstantSpec("circadian_h21", 1.05, unit: "ratio", range: 0.95...1.10, source: "product specification: evening ×0.95–1.10 (recovery); evening = 18–23 h and this hour's value a choice (rising to the night)"),
        ConstantSpec("circadian_h22", 1.08, unit: "ratio", range: 0.95...1.10, source: "product specification: evening ×0.95–1.10 (recovery); evening = 18–23 h and this hour's value a choice (rising to the night)"),
        ConstantSpec("circadian_h23", 1.1, unit: "ratio", range: 0.95...1.10, source: "product specification: evening ×0.95–1.10 (recovery); evening = 18–23 h and this hour's value a choice (rising to the night)"),
        ConstantSpec("trend_days", 7, unit: "days", range: 2...90, source: "choice: the stress trend direction is the least-squares slope of the stress scores of the 7 days ending the day (the specification names no window)"),
        ConstantSpec("trend_min_days", 3, unit: "days", range: 2...90, source: "choice: fewest scored days in the window for a slope"),
        ConstantSpec("trend_slope_points_per_day", 0.5, unit: "points/day", range: 0...100, source: "product specification: slope threshold ±0.5 points/day (rising above +0.5, falling below −0.5, else steady)"),
        ConstantSpec("window_method", 0, unit: "code", range: 0...10, source: "choice: the window score; 0 the daily formula against a reference period, 1 personal adaptive reference range, 2 heart-rate onset, 3 HRV from the beats present with a coverage confidence, 4 respiration rate from the R-R series; from the wristband's channels: 5 pulse-wave HR, 6 pulse-wave HR and RMSSD, 7 skin conductance level, 8 phasic responses, 9 skin temperature change, 10 pulse-wave HR and skin conductance level (StressWindowMethod); methods 5–10 were frozen at stress 1.3.0 and run once, nested leave-one-subject-out, on the 25 labelled Stress-Predict subjects S02–S26 (ledger row stress_channels, commit b04b42c; docs/methods/validation.md, Stress scoring protocol)"),
        ConstantSpec("reference_minutes", 20, unit: "min", range: 1...1440, source: "methods 1–4: the rolling reference is the windows of the last 20 min before the scored window (choice; after Iqbal et al. 2022, reference ranges from each person's own recording)"),
        ConstantSpec("reference_step_seconds", 30, unit: "s", range: 1...3600, source: "methods 1–4: reference windows start every 30 s (choice: the scoring step)"),
        ConstantSpec("reference_min_windows", 6, unit: "windows", range: 1...10000, source: "methods 1–4: fewest reference windows with a heart rate for a percentile (choice: 3 min of history)"),
        ConstantSpec("reference_min_hrv_windows", 3, unit: "windows", range: 1...10000, source: "methods 1, 3, 4: fewest reference windows with the beat measure for its percentile (choice)"),
        ConstantSpec("onset_minutes", 3, unit: "min", range: 0.5...120, source: "method 2: HR change = window mean HR − mean HR of the 3 min before the window (choice: the acute sympathetic response rises within 1–3 min; Kudielka et al. 2004)"),
        ConstantSpec("onset_points_per_bpm", 5, unit: "points/bpm", range: 0...100, source: "method 2: score = 50 + 5·ΔHR, clamped to 0–100 (choice: the RHR rule's 4 points per % at a resting 80 bpm)"),
        ConstantSpec("beat_gap_tolerance_ms", 50, unit: "ms", range: 0...1000, source: "methods 3–4: two beats are consecutive when their time difference is within 50 ms of the later R-R interval (choice: the E4's 1/64-s timing is 15.6 ms)"),
        ConstantSpec("beat_min_pairs", 10, unit: "pairs", range: 2...10000, source: "method 3: fewest successive beat pairs for an RMSSD (choice; ultra-short RMSSD from 10 s is usable, Munoz et al. 2015)"),
        ConstantSpec("beat_coverage_min", 0.3, unit: "ratio", range: 0...1, source: "method 3: HRV confidence 0 at beat coverage (Σ R-R / window) ≤ 0.3, the score is then the HR percentile (choice)"),
        ConstantSpec("beat_coverage_full", 0.8, unit: "ratio", range: 0...1, source: "method 3: HRV confidence 1 at beat coverage ≥ 0.8, linear between (choice)"),
        ConstantSpec("respiration_coverage_min", 0.6, unit: "ratio", range: 0...1, source: "method 4: respiration rate only from windows whose beats cover ≥ 60 % of them (choice: the RSA peak needs several breaths of consecutive beats)"),
        ConstantSpec("respiration_min_hz", 0.1, unit: "Hz", range: 0.01...2, source: "method 4: RSA peak searched from 0.1 Hz (6 breaths/min; Schäfer & Kratky 2008)"),
        ConstantSpec("respiration_max_hz", 0.5, unit: "Hz", range: 0.01...2, source: "method 4: RSA peak searched up to 0.5 Hz (30 breaths/min; Schäfer & Kratky 2008)"),
        ConstantSpec("pulse_min_beats", 5, unit: "beats", range: 2...10000, source: "methods 5, 6, 10: fewest reliable pulse-wave beats (beats.csv) in a window for its pulse HR (choice: a run of 5 plausible intervals)"),
        ConstantSpec("motion_gate_g", 0.05, unit: "g", range: 0.005...1, source: "methods 5–10: a second is moving when the accelerometer magnitude's SD in it exceeds 0.05 g (the beats stage's motion_max_g; wrist motion corrupts PPG and EDA, Kleckner et al. 2018)"),
        ConstantSpec("motion_gate_fraction", 0.5, unit: "ratio", range: 0...1, source: "methods 5–10: a window with ≥ 50 % moving seconds is dominated by movement and scores 50 (choice)"),
        ConstantSpec("scl_cutoff_hz", 0.05, unit: "Hz", range: 0.001...1, source: "methods 7, 8, 10: skin conductance level = EDA through a first-order causal low-pass at 0.05 Hz, the phasic part the rest (Boucsein et al. 2012: tonic changes are slower than 20 s responses)"),
        ConstantSpec("scr_min_amplitude_us", 0.01, unit: "µS", range: 0.001...1, source: "method 8: a phasic response rises ≥ 0.01 µS from its trough (Boucsein et al. 2012, the customary minimum amplitude)"),
        ConstantSpec("window_input", 0, unit: "code", range: 0...1, source: "choice: where window mode's heart rate and SDNN come from (the product formula and methods 1–4); 0 the device's heart-rate samples (hr.csv) and the SDNN of the analysis R-R when reliable, 1 the reliable beats detected from the waveform (beats.csv): HR = 60 000 / their mean interval with at least pulse_min_beats of them, SDNN of those beats; the formulas are the same"),
        ConstantSpec("temp_cutoff_hz", 0.05, unit: "Hz", range: 0.001...1, source: "method 9: skin temperature through a first-order causal low-pass at 0.05 Hz against its print resolution (choice)"),
    ], weightGroups: [
        ["weight_rhr", "weight_hrv", "weight_cv"],
        ["weight_rhr_without_cv", "weight_hrv_without_cv"],
    ], orderRules: [
        OrderRule(["min_baseline_days", "baseline_days"]),
        OrderRule(["cv_min_days", "cv_days"]),
        OrderRule(["cv_stable", "cv_unstable"], strict: true),
        OrderRule(["relaxed_below", "elevated_from"]),
        OrderRule(["trend_min_days", "trend_days"]),
        OrderRule(["beat_coverage_min", "beat_coverage_full"], strict: true),
        OrderRule(["respiration_min_hz", "respiration_max_hz"], strict: true),
    ])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.stress }

    /// `baseline_days`, days.
    public let baselineDays: Double
    /// `min_baseline_days`, days.
    public let minBaselineDays: Double
    /// `rhr_score_at_baseline`, points.
    public let rhrScoreAtBaseline: Double
    /// `rhr_points_per_percent`, points/%.
    public let rhrPointsPerPercent: Double
    /// `hrv_score_at_baseline`, points.
    public let hrvScoreAtBaseline: Double
    /// `hrv_points_per_sd`, points/SD.
    public let hrvPointsPerSD: Double
    /// `cv_days`, days.
    public let cvDays: Double
    /// `cv_min_days`, days.
    public let cvMinDays: Double
    /// `cv_stable`, ratio.
    public let cvStable: Double
    /// `cv_unstable`, ratio.
    public let cvUnstable: Double
    /// `cv_score_stable`, points.
    public let cvScoreStable: Double
    /// `cv_score_unstable`, points.
    public let cvScoreUnstable: Double
    /// `weight_rhr`, weight.
    public let weightRHR: Double
    /// `weight_hrv`, weight.
    public let weightHRV: Double
    /// `weight_cv`, weight.
    public let weightCV: Double
    /// `weight_rhr_without_cv`, weight.
    public let weightRHRWithoutCV: Double
    /// `weight_hrv_without_cv`, weight.
    public let weightHRVWithoutCV: Double
    /// `sigmoid_slope`, 1/points.
    public let sigmoidSlope: Double
    /// `sigmoid_center`, points.
    public let sigmoidCenter: Double
    /// `relaxed_below`, score.
    public let relaxedBelow: Double
    /// `elevated_from`, score.
    public let elevatedFrom: Double
    /// `circadian_h00` … `circadian_h23`, ratio: the multiplier on the day's HRV at each
    /// local hour (index = hour 0–23).
    public let circadianMultipliers: [Double]
    /// `trend_days`, days.
    public let trendDays: Double
    /// `trend_min_days`, days.
    public let trendMinDays: Double
    /// `trend_slope_points_per_day`, points/day.
    public let trendSlopePointsPerDay: Double
    /// `window_method`, code (`StressWindowMethod`, as `method`).
    public let windowMethod: Double
    /// The window method `window_method` selects (an unknown code: the product formula).
    public var method: StressWindowMethod { StressWindowMethod(rawValue: Int(windowMethod.rounded())) ?? .product }
    /// `reference_minutes`, min; `reference_step_seconds`, s.
    public let referenceMinutes: Double, referenceStepSeconds: Double
    /// `reference_min_windows`, `reference_min_hrv_windows`, windows.
    public let referenceMinWindows: Double, referenceMinHRVWindows: Double
    /// `onset_minutes`, min; `onset_points_per_bpm`, points/bpm.
    public let onsetMinutes: Double, onsetPointsPerBpm: Double
    /// `beat_gap_tolerance_ms`, ms; `beat_min_pairs`, pairs.
    public let beatGapToleranceMs: Double, beatMinPairs: Double
    /// `beat_coverage_min`, `beat_coverage_full`, `respiration_coverage_min`, ratio.
    public let beatCoverageMin: Double, beatCoverageFull: Double, respirationCoverageMin: Double
    /// `respiration_min_hz`, `respiration_max_hz`, Hz.
    public let respirationMinHz: Double, respirationMaxHz: Double
    /// `pulse_min_beats`, beats; `motion_gate_g`, g; `motion_gate_fraction`, ratio.
    public let pulseMinBeats: Double, motionGateG: Double, motionGateFraction: Double
    /// `scl_cutoff_hz`, `temp_cutoff_hz`, Hz; `scr_min_amplitude_us`, µS.
    public let sclCutoffHz: Double, tempCutoffHz: Double, scrMinAmplitudeMicroS: Double
    /// `window_input`, code (0 the device's heart rate and R-R, 1 the detected beats of beats.csv).
    public let windowInput: Double

    public init(_ c: ConstantReader) throws {
        baselineDays = try c["baseline_days"]
        minBaselineDays = try c["min_baseline_days"]
        rhrScoreAtBaseline = try c["rhr_score_at_baseline"]
        rhrPointsPerPercent = try c["rhr_points_per_percent"]
        hrvScoreAtBaseline = try c["hrv_score_at_baseline"]
        hrvPointsPerSD = try c["hrv_points_per_sd"]
        cvDays = try c["cv_days"]
        cvMinDays = try c["cv_min_days"]
        cvStable = try c["cv_stable"]
        cvUnstable = try c["cv_unstable"]
        cvScoreStable = try c["cv_score_stable"]
        cvScoreUnstable = try c["cv_score_unstable"]
        weightRHR = try c["weight_rhr"]
        weightHRV = try c["weight_hrv"]
        weightCV = try c["weight_cv"]
        weightRHRWithoutCV = try c["weight_rhr_without_cv"]
        weightHRVWithoutCV = try c["weight_hrv_without_cv"]
        sigmoidSlope = try c["sigmoid_slope"]
        sigmoidCenter = try c["sigmoid_center"]
        relaxedBelow = try c["relaxed_below"]
        elevatedFrom = try c["elevated_from"]
        circadianMultipliers = try (0..<24).map { try c[Self.circadianName($0)] }
        trendDays = try c["trend_days"]
        trendMinDays = try c["trend_min_days"]
        trendSlopePointsPerDay = try c["trend_slope_points_per_day"]
        windowMethod = try c["window_method"]
        referenceMinutes = try c["reference_minutes"]
        referenceStepSeconds = try c["reference_step_seconds"]
        referenceMinWindows = try c["reference_min_windows"]
        referenceMinHRVWindows = try c["reference_min_hrv_windows"]
        onsetMinutes = try c["onset_minutes"]
        onsetPointsPerBpm = try c["onset_points_per_bpm"]
        beatGapToleranceMs = try c["beat_gap_tolerance_ms"]
        beatMinPairs = try c["beat_min_pairs"]
        beatCoverageMin = try c["beat_coverage_min"]
        beatCoverageFull = try c["beat_coverage_full"]
        respirationCoverageMin = try c["respiration_coverage_min"]
        respirationMinHz = try c["respiration_min_hz"]
        respirationMaxHz = try c["respiration_max_hz"]
        pulseMinBeats = try c["pulse_min_beats"]
        motionGateG = try c["motion_gate_g"]
        motionGateFraction = try c["motion_gate_fraction"]
        sclCutoffHz = try c["scl_cutoff_hz"]
        tempCutoffHz = try c["temp_cutoff_hz"]
        scrMinAmplitudeMicroS = try c["scr_min_amplitude_us"]
        windowInput = try c["window_input"]
    }

    /// The constant holding local hour `hour`'s circadian multiplier.
    static func circadianName(_ hour: Int) -> String {
        "circadian_h" + (hour < 10 ? "0" : "") + String(hour)
    }
}
