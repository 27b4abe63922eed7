/// The pulse-onset detector's constants (docs/methods.md, Beats from the pulse wave): the
/// systolic-peak blocks of Elgendi et al. (2013), then each pulse's foot. Times in
/// seconds, so the detector runs at any rate.
public struct PPGBeatConstants: EngineConstants, Equatable {
    public static let spec = EngineSpec(name: "ppg_beats", version: "1.0.0", constants: [
        ConstantSpec("band_low_hz", 0.5, unit: "Hz", range: 0.1...2,
                     source: "Elgendi et al. 2013, PLoS ONE 8(10):e76585: a 0.5–8 Hz band-pass"),
        ConstantSpec("band_high_hz", 8, unit: "Hz", range: 3...20,
                     source: "Elgendi et al. 2013: a 0.5–8 Hz band-pass"),
        ConstantSpec("peak_window_s", 0.111, unit: "s", range: 0.05...0.3,
                     source: "Elgendi et al. 2013: the systolic-peak moving average, 111 ms"),
        ConstantSpec("beat_window_s", 0.667, unit: "s", range: 0.3...1.5,
                     source: "Elgendi et al. 2013: the beat moving average, 667 ms"),
        ConstantSpec("block_offset", 0, unit: "fraction", range: 0...0.2,
                     source: "Elgendi et al. 2013 raise the beat average by 0.02 of the signal's mean; 0 here: that mean is the whole recording's, motion inflates it, and it missed small beats on Stress-Predict S02–S13 (sensitivity 0.987 against 0.993)"),
        ConstantSpec("min_interval_s", 0.3, unit: "s", range: 0.2...0.5,
                     source: "choice: two pulses closer than 300 ms (200 bpm) are one; the higher peak and the earlier foot are kept"),
        ConstantSpec("onset_search_s", 0.6, unit: "s", range: 0.2...1.5,
                     source: "choice: a pulse's foot lies at most 600 ms before its systolic peak (and after the previous peak)"),
        ConstantSpec("foot_tolerance", 0.1, unit: "fraction", range: 0...0.5,
                     source: "choice: the window's lowest sample is the foot when it lies more than 0.1 of the pulse's amplitude below the last minimum before the upstroke (BIDMC 01's flat diastole against the E4's wiggles at the foot)"),
        ConstantSpec("polarity_window_s", 60, unit: "s", range: 10...600,
                     source: "choice: the polarity is voted per minute over the recording (a few minutes in motion at the start mislead a vote on them alone)"),
    ], orderRules: [
        OrderRule(["band_low_hz", "band_high_hz"], strict: true),
        OrderRule(["peak_window_s", "beat_window_s"], strict: true),
    ])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.ppgBeats }

    public let bandLowHz, bandHighHz, peakWindowS, beatWindowS, blockOffset, minIntervalS, onsetSearchS, footTolerance,
               polarityWindowS: Double

    public init(_ c: ConstantReader) throws {
        bandLowHz = try c["band_low_hz"]; bandHighHz = try c["band_high_hz"]
        peakWindowS = try c["peak_window_s"]; beatWindowS = try c["beat_window_s"]; blockOffset = try c["block_offset"]
        minIntervalS = try c["min_interval_s"]; onsetSearchS = try c["onset_search_s"]
        footTolerance = try c["foot_tolerance"]; polarityWindowS = try c["polarity_window_s"]
    }
}
