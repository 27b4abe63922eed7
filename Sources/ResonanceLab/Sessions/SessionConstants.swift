/// Listening-session reconstruction and scoring (docs/engines/toolkit.md, Sessions, Context,
/// "Session score"), plus the per-play physiology windows.
public struct SessionConstants: EngineConstants {
    public static let spec = EngineSpec(name: "sessions", version: "3.0.0", constants: [
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
        ConstantSpec("play_hr_nearest_max_minutes", 5, unit: "min", range: 0...120, source: "choice: sparse heart rate (a watch at rest samples every few minutes) read from the nearest sample within 5 min of a play's start or end, as the biometric window"),
        ConstantSpec("play_min_beats", 30, unit: "beats", range: 2...1000, source: "choice: fewest beats for a 60 s RMSSD"),
        ConstantSpec("play_min_hr_samples", 3, unit: "samples", range: 1...1000, source: "choice: fewest HR samples for a 30 s median"),
        ConstantSpec("sleep_merge_gap_minutes", 60, unit: "min", range: 0...720, source: "choice: sleep stage rows less than 60 min apart form one sleep period (nap vs night decided on the period)"),
        ConstantSpec("play_max_artifact_pct", 5, unit: "%", range: 0...100, source: "choice: at most 5 % of a play window's NN intervals corrected, the artifact threshold of a reliable window in hrv.csv"),
        ConstantSpec("skip_listen_fraction", 0.3, unit: "fraction", range: 0...1, source: "product specification: a play is skipped when less than 30 % of the song was heard"),
        ConstantSpec("skip_export_flag_counts", 0, unit: "flag", range: 0...1, source: "choice: 0 = the product's listened-fraction rule alone; 1 = the variant `export_flag_counts`, where the export's skip flag also makes a play heard past 30 % a skip (the product's verification list has a skip press set the flag)"),
    ], weightGroups: [
        ["sleep_weight_hours", "sleep_weight_deep"],
        ["score_weight_skip", "score_weight_hrv", "score_weight_listen", "score_weight_sleep"],
    ], orderRules: [
        OrderRule(["morning_start_hour", "commute_am_start_hour", "work_start_hour", "commute_pm_start_hour", "relaxation_start_hour", "presleep_start_hour"]),
    ])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.sessions }

    /// `gap_minutes`, min.
    public let gapMinutes: Double
    /// `min_session_minutes`, min.
    public let minSessionMinutes: Double
    /// `biometric_window_minutes`, min.
    public let biometricWindowMinutes: Double
    /// `sleep_window_hours`, h.
    public let sleepWindowHours: Double
    /// `nap_max_hours`, h.
    public let napMaxHours: Double
    /// `sleep_target_hours`, h.
    public let sleepTargetHours: Double
    /// `deep_fraction_target`, fraction.
    public let deepFractionTarget: Double
    /// `sleep_weight_hours`, weight.
    public let sleepWeightHours: Double
    /// `sleep_weight_deep`, weight.
    public let sleepWeightDeep: Double
    /// `score_weight_skip`, weight.
    public let scoreWeightSkip: Double
    /// `score_weight_hrv`, weight.
    public let scoreWeightHRV: Double
    /// `score_weight_listen`, weight.
    public let scoreWeightListen: Double
    /// `score_weight_sleep`, weight.
    public let scoreWeightSleep: Double
    /// `score_hrv_scale_ms`, ms.
    public let scoreHRVScaleMs: Double
    /// `unknown_sleep_score`, score.
    public let unknownSleepScore: Double
    /// `workout_overlap_minutes`, min.
    public let workoutOverlapMinutes: Double
    /// `morning_start_hour`, h.
    public let morningStartHour: Double
    /// `commute_am_start_hour`, h.
    public let commuteAmStartHour: Double
    /// `work_start_hour`, h.
    public let workStartHour: Double
    /// `commute_pm_start_hour`, h.
    public let commutePmStartHour: Double
    /// `relaxation_start_hour`, h.
    public let relaxationStartHour: Double
    /// `presleep_start_hour`, h.
    public let presleepStartHour: Double
    /// `play_hr_window_seconds`, s.
    public let playHRWindowSeconds: Double
    /// `play_rr_window_seconds`, s.
    public let playRRWindowSeconds: Double
    /// `play_hrv_sample_max_minutes`, min.
    public let playHRVSampleMaxMinutes: Double
    /// `play_hr_nearest_max_minutes`, min.
    public let playHRNearestMaxMinutes: Double
    /// `play_min_beats`, beats.
    public let playMinBeats: Double
    /// `play_min_hr_samples`, samples.
    public let playMinHRSamples: Double
    /// `sleep_merge_gap_minutes`, min.
    public let sleepMergeGapMinutes: Double
    /// `play_max_artifact_pct`, %.
    public let playMaxArtifactPct: Double
    /// `skip_listen_fraction`, fraction.
    public let skipListenFraction: Double
    /// `skip_export_flag_counts`, flag (≥ 0.5: the export's skip flag also counts as a skip).
    public let skipExportFlagCounts: Double

    public init(_ c: ConstantReader) throws {
        gapMinutes = try c["gap_minutes"]
        minSessionMinutes = try c["min_session_minutes"]
        biometricWindowMinutes = try c["biometric_window_minutes"]
        sleepWindowHours = try c["sleep_window_hours"]
        napMaxHours = try c["nap_max_hours"]
        sleepTargetHours = try c["sleep_target_hours"]
        deepFractionTarget = try c["deep_fraction_target"]
        sleepWeightHours = try c["sleep_weight_hours"]
        sleepWeightDeep = try c["sleep_weight_deep"]
        scoreWeightSkip = try c["score_weight_skip"]
        scoreWeightHRV = try c["score_weight_hrv"]
        scoreWeightListen = try c["score_weight_listen"]
        scoreWeightSleep = try c["score_weight_sleep"]
        scoreHRVScaleMs = try c["score_hrv_scale_ms"]
        unknownSleepScore = try c["unknown_sleep_score"]
        workoutOverlapMinutes = try c["workout_overlap_minutes"]
        morningStartHour = try c["morning_start_hour"]
        commuteAmStartHour = try c["commute_am_start_hour"]
        workStartHour = try c["work_start_hour"]
        commutePmStartHour = try c["commute_pm_start_hour"]
        relaxationStartHour = try c["relaxation_start_hour"]
        presleepStartHour = try c["presleep_start_hour"]
        playHRWindowSeconds = try c["play_hr_window_seconds"]
        playRRWindowSeconds = try c["play_rr_window_seconds"]
        playHRVSampleMaxMinutes = try c["play_hrv_sample_max_minutes"]
        playHRNearestMaxMinutes = try c["play_hr_nearest_max_minutes"]
        playMinBeats = try c["play_min_beats"]
        playMinHRSamples = try c["play_min_hr_samples"]
        sleepMergeGapMinutes = try c["sleep_merge_gap_minutes"]
        playMaxArtifactPct = try c["play_max_artifact_pct"]
        skipListenFraction = try c["skip_listen_fraction"]
        skipExportFlagCounts = try c["skip_export_flag_counts"]
    }

    public var gapMs: Int64 { Int64(gapMinutes * 60_000) }
    public var minSessionMs: Int64 { Int64(minSessionMinutes * 60_000) }
    public var biometricWindowMs: Int64 { Int64(biometricWindowMinutes * 60_000) }
    public var sleepWindowMs: Int64 { Int64(sleepWindowHours * 3_600_000) }
    public var napMaxMs: Int64 { Int64(napMaxHours * 3_600_000) }
    public var sleepMergeGapMs: Int64 { Int64(sleepMergeGapMinutes * 60_000) }
    public var workoutOverlapMs: Int64 { Int64(workoutOverlapMinutes * 60_000) }
    public var playHRWindowMs: Int64 { Int64(playHRWindowSeconds * 1000) }
    public var playRRWindowMs: Int64 { Int64(playRRWindowSeconds * 1000) }
    public var playHRVSampleMaxMs: Int64 { Int64(playHRVSampleMaxMinutes * 60_000) }
    public var playHRNearestMaxMs: Int64 { Int64(playHRNearestMaxMinutes * 60_000) }
}
