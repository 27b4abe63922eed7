/// Listening-session reconstruction and scoring (docs/engines.md, Sessions, Context,
/// "Session score"), plus the per-play physiology windows.
public struct SessionConstants: EngineConstants {
    public static let spec = EngineSpec(name: "sessions", version: "1.1.0", constants: [
        ConstantSpec("gap_minutes", 30, unit: "min", range: 1...1440, source: "product specification: gap 30 min"),
        ConstantSpec("min_session_minutes", 5, unit: "min", range: 0...1440, source: "product specification: minimum session 5 min"),
        ConstantSpec("biometric_window_minutes", 5, unit: "min", range: 0...120, source: "product specification: biometric window ±5 min"),
        ConstantSpec("sleep_window_hours", 12, unit: "h", range: 0...48, source: "product specification: next-night sleep window 12 h"),
        ConstantSpec("nap_max_hours", 3, unit: "h", range: 0...24, source: "product specification: naps < 3 h ignored"),
        ConstantSpec("sleep_target_hours", 8, unit: "h", range: 1...24, source: "product specification: sleep score min(1, hours/8)"),
        ConstantSpec("deep_fraction_target", 0.25, unit: "fraction", range: 0.01...1, source: "product specification: sleep score min(1, deepFraction/0.25)"),
        ConstantSpec("sleep_weight_hours", 0.6, unit: "weight", range: 0...1, source: "product specification: sleep score ·0.6"),
        ConstantSpec("sleep_weight_deep", 0.4, unit: "weight", range: 0...1, source: "product specification: sleep score ·0.4"),
        ConstantSpec("score_weight_skip", 0.25, unit: "weight", range: 0...1, source: "product specification: session score 0.25·(1 − skipRate)"),
        ConstantSpec("score_weight_hrv", 0.30, unit: "weight", range: 0...1, source: "product specification: session score 0.30·clamp(0.5 + ΔHRV/20)"),
        ConstantSpec("score_weight_listen", 0.25, unit: "weight", range: 0...1, source: "product specification: session score 0.25·avgListen"),
        ConstantSpec("score_weight_sleep", 0.20, unit: "weight", range: 0...1, source: "product specification: session score 0.20·sleepScore"),
        ConstantSpec("score_hrv_scale_ms", 20, unit: "ms", range: 0.001...1000, source: "product specification: session score ΔHRV/20"),
        ConstantSpec("unknown_sleep_score", 0.5, unit: "score", range: 0...1, source: "product specification: sleep score 0.5 when unknown"),
        ConstantSpec("workout_overlap_minutes", 5, unit: "min", range: 0...120, source: "product specification: context workout when a workout overlaps ±5 min"),
        ConstantSpec("morning_start_hour", 5, unit: "h", range: 0...24, source: "product specification: context 5–7 morning"),
        ConstantSpec("commute_am_start_hour", 7, unit: "h", range: 0...24, source: "product specification: context 7–9 commute"),
        ConstantSpec("work_start_hour", 9, unit: "h", range: 0...24, source: "product specification: context 9–17 work"),
        ConstantSpec("commute_pm_start_hour", 17, unit: "h", range: 0...24, source: "product specification: context 17–19 commute"),
        ConstantSpec("relaxation_start_hour", 19, unit: "h", range: 0...24, source: "product specification: context 19–22 relaxation"),
        ConstantSpec("presleep_start_hour", 22, unit: "h", range: 0...24, source: "product specification: context 22–5 preSleep"),
        ConstantSpec("play_hr_window_seconds", 30, unit: "s", range: 1...600, source: "choice: median HR of the first and last 30 s of a play"),
        ConstantSpec("play_rr_window_seconds", 60, unit: "s", range: 10...600, source: "RMSSD of the first/last 60 s of a play (ultra-short RMSSD, Munoz et al. 2015)"),
        ConstantSpec("play_hrv_sample_max_minutes", 5, unit: "min", range: 0...120, source: "choice: nearest HRV SDNN sample within 5 min, as the biometric window"),
        ConstantSpec("play_min_beats", 30, unit: "beats", range: 2...1000, source: "choice: fewest beats for a 60 s RMSSD"),
        ConstantSpec("play_min_hr_samples", 3, unit: "samples", range: 1...1000, source: "choice: fewest HR samples for a 30 s median"),
        ConstantSpec("sleep_merge_gap_minutes", 60, unit: "min", range: 0...720, source: "choice: sleep stage rows less than 60 min apart form one sleep period (nap vs night decided on the period)"),
        ConstantSpec("rr_min_ms", 300, unit: "ms", range: 100...1000, source: "physiological RR range 300–2000 ms (Task Force 1996 artifact screening)"),
        ConstantSpec("rr_max_ms", 2000, unit: "ms", range: 1000...5000, source: "physiological RR range 300–2000 ms (Task Force 1996 artifact screening)"),
        ConstantSpec("rr_max_change_fraction", 0.2, unit: "fraction", range: 0.01...1, source: "beat differing > 20 % from the previous one is an artifact (Malik et al. 1989)"),
        ConstantSpec("play_max_artifact_pct", 5, unit: "%", range: 0...100, source: "choice: the 5 % artifact threshold of a reliable window in hrv.csv"),
    ], weightGroups: [
        ["sleep_weight_hours", "sleep_weight_deep"],
        ["score_weight_skip", "score_weight_hrv", "score_weight_listen", "score_weight_sleep"],
    ], orderRules: [
        OrderRule(["morning_start_hour", "commute_am_start_hour", "work_start_hour", "commute_pm_start_hour", "relaxation_start_hour", "presleep_start_hour"]),
    ])

    public let values: EngineValues
    public init(_ values: EngineValues) { self.values = values }

    public var gapMs: Int64 { Int64(values["gap_minutes"] * 60_000) }
    public var minSessionMs: Int64 { Int64(values["min_session_minutes"] * 60_000) }
    public var biometricWindowMs: Int64 { Int64(values["biometric_window_minutes"] * 60_000) }
    public var sleepWindowMs: Int64 { Int64(values["sleep_window_hours"] * 3_600_000) }
    public var napMaxMs: Int64 { Int64(values["nap_max_hours"] * 3_600_000) }
    public var sleepMergeGapMs: Int64 { Int64(values["sleep_merge_gap_minutes"] * 60_000) }
    public var workoutOverlapMs: Int64 { Int64(values["workout_overlap_minutes"] * 60_000) }
    public var playHRWindowMs: Int64 { Int64(values["play_hr_window_seconds"] * 1000) }
    public var playRRWindowMs: Int64 { Int64(values["play_rr_window_seconds"] * 1000) }
    public var playHRVSampleMaxMs: Int64 { Int64(values["play_hrv_sample_max_minutes"] * 60_000) }
}
