/// The R-peak detector's constants (docs/methods.md, Beats from the ECG): a Pan & Tompkins
/// (1985) pipeline with Hamilton's (2002) threshold and a QRS band of 8–20 Hz
/// (Elgendi et al. 2010 use 8–20 Hz; Hamilton 8–16 Hz). Times in seconds, so the detector
/// runs at any rate.
public struct ECGBeatConstants: EngineConstants, Equatable {
    public static let spec = EngineSpec(name: "ecg_beats", version: "1.0.0", constants: [
        ConstantSpec("band_low_hz", 8, unit: "Hz", range: 1...20,
                     source: "Hamilton 2002 (8 Hz); Elgendi et al. 2010: the QRS band's lower edge, above the T wave and baseline wander"),
        ConstantSpec("band_high_hz", 20, unit: "Hz", range: 10...60,
                     source: "Elgendi et al. 2010 (8–20 Hz): Pan & Tompkins' 15 Hz missed more beats under motion noise on MIT-BIH 100 (docs/methods.md)"),
        ConstantSpec("integration_s", 0.150, unit: "s", range: 0.05...0.3,
                     source: "Pan & Tompkins 1985: the moving-window integration spans a wide QRS"),
        ConstantSpec("refractory_s", 0.200, unit: "s", range: 0.1...0.4,
                     source: "Pan & Tompkins 1985; Hamilton 2002: no second QRS within 200 ms"),
        ConstantSpec("learning_s", 2.0, unit: "s", range: 0.5...10,
                     source: "Pan & Tompkins 1985: the first 2 s set the signal and noise peak levels"),
        ConstantSpec("t_wave_s", 0.360, unit: "s", range: 0.2...0.5,
                     source: "Pan & Tompkins 1985: a peak within 360 ms of a QRS is tested as a T wave"),
        ConstantSpec("t_wave_slope_ratio", 0.5, unit: "ratio", range: 0.1...0.9,
                     source: "Pan & Tompkins 1985: a T wave's maximal slope is below half the QRS's"),
        ConstantSpec("slope_margin_s", 0.075, unit: "s", range: 0...0.2,
                     source: "choice: the slope test looks this far before the integration window that made the peak"),
        ConstantSpec("signal_weight", 0.125, unit: "weight", range: 0.01...0.5,
                     source: "Pan & Tompkins 1985: SPKI = 0.125 peak + 0.875 SPKI"),
        ConstantSpec("searchback_signal_weight", 0.25, unit: "weight", range: 0.01...0.5,
                     source: "Pan & Tompkins 1985: a beat found by search-back updates SPKI with weight 0.25"),
        ConstantSpec("noise_weight", 0.125, unit: "weight", range: 0.01...0.5,
                     source: "Pan & Tompkins 1985: NPKI = 0.125 peak + 0.875 NPKI"),
        ConstantSpec("threshold_fraction", 0.3125, unit: "fraction", range: 0.1...0.6,
                     source: "Hamilton 2002: THR1 = NPKI + 0.3125 (SPKI − NPKI)"),
        ConstantSpec("searchback_threshold_fraction", 0.5, unit: "fraction", range: 0.2...0.9,
                     source: "Pan & Tompkins 1985: THR2 = 0.5 THR1"),
        ConstantSpec("searchback_rr_factor", 1.66, unit: "ratio", range: 1.2...3,
                     source: "Pan & Tompkins 1985: search back after 166 % of the mean R-R without a beat"),
        ConstantSpec("rr_mean_beats", 8, unit: "beats", range: 1...32,
                     source: "Pan & Tompkins 1985: the mean of the last 8 R-R intervals"),
        ConstantSpec("rr_min_s", 0.2, unit: "s", range: 0.1...0.5,
                     source: "choice: the shortest R-R entering the mean (300 bpm)"),
        ConstantSpec("rr_max_s", 3.0, unit: "s", range: 1.5...6,
                     source: "choice: the longest R-R entering the mean (20 bpm)"),
        ConstantSpec("rr_initial_s", 1.0, unit: "s", range: 0.3...2,
                     source: "choice: the mean R-R assumed before the first interval (60 bpm)"),
        ConstantSpec("locate_window_s", 0.250, unit: "s", range: 0.05...0.5,
                     source: "choice: the QRS is sought in the band-passed signal this far before the integrated peak"),
        ConstantSpec("refine_window_s", 0.050, unit: "s", range: 0.01...0.15,
                     source: "choice: the R peak is the extreme of the raw signal within ±50 ms of the QRS centre"),
        ConstantSpec("baseline_window_s", 0.150, unit: "s", range: 0.05...0.5,
                     source: "choice: the polarity vote's local baseline is the mean over ±150 ms"),
        ConstantSpec("polarity_weight", 0.05, unit: "weight", range: 0.001...1,
                     source: "choice: each beat's polarity vote enters an exponential average with this weight"),
    ], orderRules: [
        OrderRule(["band_low_hz", "band_high_hz"], strict: true),
        OrderRule(["refractory_s", "t_wave_s"], strict: true),
        OrderRule(["rr_min_s", "rr_initial_s", "rr_max_s"], strict: true),
    ])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.ecgBeats }

    public let bandLowHz, bandHighHz, integrationS, refractoryS, learningS, tWaveS, tWaveSlopeRatio, slopeMarginS: Double
    public let signalWeight, searchbackSignalWeight, noiseWeight, thresholdFraction, searchbackThresholdFraction: Double
    public let searchbackRRFactor: Double
    /// Beats in the running mean R-R (a whole number).
    public let rrMeanBeats: Double
    public let rrMinS, rrMaxS, rrInitialS, locateWindowS, refineWindowS, baselineWindowS, polarityWeight: Double

    public init(_ c: ConstantReader) throws {
        bandLowHz = try c["band_low_hz"]; bandHighHz = try c["band_high_hz"]
        integrationS = try c["integration_s"]; refractoryS = try c["refractory_s"]; learningS = try c["learning_s"]
        tWaveS = try c["t_wave_s"]; tWaveSlopeRatio = try c["t_wave_slope_ratio"]; slopeMarginS = try c["slope_margin_s"]
        signalWeight = try c["signal_weight"]; searchbackSignalWeight = try c["searchback_signal_weight"]
        noiseWeight = try c["noise_weight"]; thresholdFraction = try c["threshold_fraction"]
        searchbackThresholdFraction = try c["searchback_threshold_fraction"]; searchbackRRFactor = try c["searchback_rr_factor"]
        rrMeanBeats = try c["rr_mean_beats"]
        rrMinS = try c["rr_min_s"]; rrMaxS = try c["rr_max_s"]; rrInitialS = try c["rr_initial_s"]
        locateWindowS = try c["locate_window_s"]; refineWindowS = try c["refine_window_s"]
        baselineWindowS = try c["baseline_window_s"]; polarityWeight = try c["polarity_weight"]
    }
}
