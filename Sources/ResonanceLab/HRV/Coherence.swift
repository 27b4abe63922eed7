/// Spectral coherence scores of a heart-rate spectrum (docs/methods.md, Coherence). Bands come from
/// the registry's `coherence` engine; the HeartMath ones follow McCraty et al. 2009,
/// "The coherent heart", Integral Review 5(2), appendix.
public enum Coherence {

    /// Breathing coach score: power within ±`binHz` (one bin of the window's native
    /// resolution) of the breathing frequency, over power in 0.04–0.15 Hz, both integrated
    /// exactly over their bands on the (zero-padded) spectrum. The numerator is taken inside
    /// the band, so the score lies in [0, 1]; 0 for no power. A flat spectrum scores the
    /// width ratio 2·binHz / 0.11 Hz (≈ 0.28 for 64 s windows).
    public static func coachScore(_ s: Spectrum, breathingHz: Double, binHz: Double,
                                  constants c: CoherenceConstants = .defaults) -> Double {
        let coachBand = c.coachBand
        let band = s.integral(coachBand.0, coachBand.1)
        guard band > 0 else { return 0 }
        let lo = max(coachBand.0, breathingHz - binHz), hi = min(coachBand.1, breathingHz + binHz)
        return hi > lo ? min(1, s.integral(lo, hi) / band) : 0
    }

    /// HeartMath coherence ratio: peak in 0.04–0.26 Hz; peak power = power in the 0.030 Hz
    /// window centred on it; ratio = peak power / (total 0.0033–0.4 Hz − peak power).
    public static func heartMath(_ s: Spectrum, constants c: CoherenceConstants = .defaults) -> (peakHz: Double, ratio: Double) {
        let peak = s.peak(c.heartMathPeakBand.0, c.heartMathPeakBand.1)
        guard peak.isFinite else { return (.nan, .nan) }
        let width = c.heartMathPeakWidthHz
        let p = s.integral(peak - width / 2, peak + width / 2)
        let total = s.integral(c.heartMathTotalBand.0, c.heartMathTotalBand.1)
        return (peak, total > p ? p / (total - p) : .nan)
    }
}
