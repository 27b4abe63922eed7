/// The breathing coach's coherence score and the HeartMath ratio (docs/engines/breathing.md, Coherence).
public struct CoherenceConstants: EngineConstants {
    public static let spec = EngineSpec(name: "coherence", version: "1.0.0", constants: [
        ConstantSpec("sample_hz", 4, unit: "Hz", range: 1...32, source: "product specification: coherence from HR sampled at 4 Hz"),
        ConstantSpec("min_samples", 32, unit: "samples", range: 8...100_000, source: "product specification: coherence needs at least 32 samples, else 0"),
        ConstantSpec("window_seconds", 64, unit: "s", range: 16...3600, source: "choice: 64 s windows (native bin 1/64 Hz, ±0.94 breaths/min), tapered; the product scores the last 30 s (pacer.window_samples)"),
        ConstantSpec("step_seconds", 5, unit: "s", range: 1...3600, source: "choice: a window every 5 s; the product rescores every 0.25 s (pacer.step_seconds)"),
        ConstantSpec("breathing_rate_per_min", 6, unit: "breaths/min", range: 2...30, source: "choice: 6 breaths/min, resonance breathing near 0.1 Hz (Lehrer & Gevirtz 2014); the product starts at 5.5 (pacer.default_rate_per_min)"),
        ConstantSpec("breathing_band_bins", 1, unit: "bins", range: 0...10, source: "product specification: the target is the breathing frequency's bin ±1, of the window's native resolution"),
        ConstantSpec("coach_band_low_hz", 0.04, unit: "Hz", range: 0...1, source: "product specification: breathing-band power over power in 0.04–0.15 Hz"),
        ConstantSpec("coach_band_high_hz", 0.15, unit: "Hz", range: 0...1, source: "product specification: breathing-band power over power in 0.04–0.15 Hz"),
        ConstantSpec("heartmath_peak_low_hz", 0.04, unit: "Hz", range: 0...1, source: "McCraty et al. 2009: peak in 0.04–0.26 Hz"),
        ConstantSpec("heartmath_peak_high_hz", 0.26, unit: "Hz", range: 0...1, source: "McCraty et al. 2009: peak in 0.04–0.26 Hz"),
        ConstantSpec("heartmath_peak_width_hz", 0.030, unit: "Hz", range: 0.001...0.5, source: "McCraty et al. 2009: 0.030 Hz window around the peak"),
        ConstantSpec("heartmath_total_low_hz", 0.0033, unit: "Hz", range: 0...1, source: "McCraty et al. 2009: total power 0.0033–0.4 Hz"),
        ConstantSpec("heartmath_total_high_hz", 0.4, unit: "Hz", range: 0...2, source: "McCraty et al. 2009: total power 0.0033–0.4 Hz"),
    ], orderRules: [
        OrderRule(["coach_band_low_hz", "coach_band_high_hz"], strict: true),
        // The HeartMath peak band lies inside the total band.
        OrderRule(["heartmath_total_low_hz", "heartmath_peak_low_hz", "heartmath_peak_high_hz", "heartmath_total_high_hz"]),
        OrderRule(["heartmath_peak_low_hz", "heartmath_peak_high_hz"], strict: true),
    ])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.coherence }

    /// `sample_hz`, Hz.
    public let sampleHz: Double
    /// `min_samples`, samples.
    public let minSamples: Double
    /// `window_seconds`, s.
    public let windowSeconds: Double
    /// `step_seconds`, s.
    public let stepSeconds: Double
    /// `breathing_rate_per_min`, breaths/min.
    public let breathingRatePerMin: Double
    /// `breathing_band_bins`, bins.
    public let breathingBandBins: Double
    /// `coach_band_low_hz`, Hz.
    public let coachBandLowHz: Double
    /// `coach_band_high_hz`, Hz.
    public let coachBandHighHz: Double
    /// `heartmath_peak_low_hz`, Hz.
    public let heartMathPeakLowHz: Double
    /// `heartmath_peak_high_hz`, Hz.
    public let heartMathPeakHighHz: Double
    /// `heartmath_peak_width_hz`, Hz.
    public let heartMathPeakWidthHz: Double
    /// `heartmath_total_low_hz`, Hz.
    public let heartMathTotalLowHz: Double
    /// `heartmath_total_high_hz`, Hz.
    public let heartMathTotalHighHz: Double

    public init(_ c: ConstantReader) throws {
        sampleHz = try c["sample_hz"]
        minSamples = try c["min_samples"]
        windowSeconds = try c["window_seconds"]
        stepSeconds = try c["step_seconds"]
        breathingRatePerMin = try c["breathing_rate_per_min"]
        breathingBandBins = try c["breathing_band_bins"]
        coachBandLowHz = try c["coach_band_low_hz"]
        coachBandHighHz = try c["coach_band_high_hz"]
        heartMathPeakLowHz = try c["heartmath_peak_low_hz"]
        heartMathPeakHighHz = try c["heartmath_peak_high_hz"]
        heartMathPeakWidthHz = try c["heartmath_peak_width_hz"]
        heartMathTotalLowHz = try c["heartmath_total_low_hz"]
        heartMathTotalHighHz = try c["heartmath_total_high_hz"]
    }

    public var coachBand: (Double, Double) { (coachBandLowHz, coachBandHighHz) }
    public var heartMathPeakBand: (Double, Double) { (heartMathPeakLowHz, heartMathPeakHighHz) }
    public var heartMathTotalBand: (Double, Double) { (heartMathTotalLowHz, heartMathTotalHighHz) }

    /// The highest frequency either score reads, Hz: the band tops, and a HeartMath peak
    /// at the top of its band with half its power window above it.
    public var highestHz: Double {
        max(coachBandHighHz, heartMathTotalHighHz, heartMathPeakHighHz + heartMathPeakWidthHz / 2)
    }
}
