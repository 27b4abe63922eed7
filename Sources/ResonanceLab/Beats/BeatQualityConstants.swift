/// When a detected beat is reliable (docs/methods.md, Beat quality): its shape against
/// the recent beats' template (Orphanidou et al. 2015, "Signal-quality indices for the
/// electrocardiogram and photoplethysmogram", IEEE J Biomed Health Inform 19(3):832–838,
/// judge ECG and PPG by the correlation of each beat with the average beat), the motion
/// at the wrist where an accelerometer was worn, and its interval's plausibility; and the
/// chunks the beats stage reads a recording in (docs/methods.md, Beats in chunks).
public struct BeatQualityConstants: EngineConstants, Equatable {
    public static let spec = EngineSpec(name: "beat_quality", version: "1.1.0", constants: [
        ConstantSpec("template_s", 10, unit: "s", range: 3...60,
                     source: "Orphanidou et al. 2015: the template is the mean beat of a 10-s stretch (here the 10 s up to the beat)"),
        ConstantSpec("template_min_beats", 5, unit: "beats", range: 2...30,
                     source: "choice: a template needs 5 beats; a beat in a stretch with fewer is not judged reliable"),
        ConstantSpec("beat_before_s", 0.10, unit: "s", range: 0...0.5,
                     source: "choice: a beat's shape is compared from 100 ms before its fiducial point"),
        ConstantSpec("beat_after_s", 0.40, unit: "s", range: 0.1...1,
                     source: "choice: to 400 ms after it (the QRS and ST segment; the pulse's upstroke and peak)"),
        ConstantSpec("correlation_min", 0.85, unit: "r", range: 0.5...0.99,
                     source: "choice: tuned on Stress-Predict S02–S13 for the pulse wave (coverage against the RMSSD error, docs/methods.md); Orphanidou et al. 2015 accept an ECG stretch at a mean correlation of 0.66, a PPG stretch at 0.86"),
        ConstantSpec("motion_max_g", 0.05, unit: "g", range: 0.005...1,
                     source: "choice: the accelerometer magnitude's SD over the trailing 2 s; tuned on Stress-Predict S02–S13 (it mattered by ±2 % of coverage)"),
        ConstantSpec("motion_window_s", 2, unit: "s", range: 0.5...10,
                     source: "choice: the trailing window of the motion SD"),
        ConstantSpec("interval_min_s", 0.3, unit: "s", range: 0.2...0.5,
                     source: "choice: 200 bpm, the fastest interval kept"),
        ConstantSpec("interval_max_s", 2.0, unit: "s", range: 1.2...3,
                     source: "choice: 30 bpm, the slowest interval kept"),
        ConstantSpec("interval_tolerance", 0.30, unit: "fraction", range: 0.05...0.6,
                     source: "choice: an interval within 30 % of the median of the last 9 detected intervals; tuned on Stress-Predict S02–S13 (20–25 % tripled the RMSSD error)"),
        ConstantSpec("interval_median_beats", 9, unit: "beats", range: 3...31,
                     source: "choice: the running median's length, the current interval included"),
        ConstantSpec("summary_min_intervals", 5, unit: "intervals", range: 2...60,
                     source: "choice: beat_segments.csv gives a segment's mean heart rate (and RMSSD) from at least 5 reliable intervals (successive differences); Munoz et al. 2015 found RMSSD from 10 s of beats valid"),
        ConstantSpec("chunk_s", 300, unit: "s", range: 60...3600,
                     source: "choice: a recording is detected in chunks of 5 min, each owning the beats it places in its span, so memory stays bounded and chunks run on every core"),
        ConstantSpec("chunk_lead_s", 15, unit: "s", range: 5...120,
                     source: "choice: each chunk starts this far before its span, so the detector's levels are learnt and the quality template is full before its first owned beat"),
        ConstantSpec("chunk_tail_s", 5, unit: "s", range: 2...60,
                     source: "choice: each chunk ends this far after its span, beyond the ECG's search-back (1.66 × a 3-s interval) for its last owned beat"),
    ], orderRules: [
        OrderRule(["interval_min_s", "interval_max_s"], strict: true),
        OrderRule(["template_s", "chunk_lead_s", "chunk_s"], strict: true),
    ])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.beatQuality }

    public let templateS, beatBeforeS, beatAfterS, correlationMin, motionMaxG, motionWindowS: Double
    public let intervalMinS, intervalMaxS, intervalTolerance: Double
    public let chunkS, chunkLeadS, chunkTailS: Double
    /// Reliable intervals (and successive differences) a segment's summary indices need (a whole number).
    public let summaryMinIntervals: Double
    /// Counts of beats and intervals (whole numbers).
    public let templateMinBeats, intervalMedianBeats: Double

    public init(_ c: ConstantReader) throws {
        templateS = try c["template_s"]
        templateMinBeats = try c["template_min_beats"]
        beatBeforeS = try c["beat_before_s"]; beatAfterS = try c["beat_after_s"]
        correlationMin = try c["correlation_min"]
        motionMaxG = try c["motion_max_g"]; motionWindowS = try c["motion_window_s"]
        intervalMinS = try c["interval_min_s"]; intervalMaxS = try c["interval_max_s"]
        intervalTolerance = try c["interval_tolerance"]
        intervalMedianBeats = try c["interval_median_beats"]
        chunkS = try c["chunk_s"]; chunkLeadS = try c["chunk_lead_s"]; chunkTailS = try c["chunk_tail_s"]
        summaryMinIntervals = try c["summary_min_intervals"]
    }
}
