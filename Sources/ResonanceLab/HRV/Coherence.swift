/// Spectral coherence scores of a heart-rate spectrum (DESIGN §5).
public enum Coherence {
    /// Band in which the breathing coach looks for resonance, Hz.
    public static let coachBand = (0.04, 0.15)
    /// HeartMath: peak search band, peak window width and total-power band, Hz
    /// (McCraty et al. 2009, "The coherent heart", Integral Review 5(2), appendix).
    public static let heartMathPeakBand = (0.04, 0.26)
    public static let heartMathPeakWidth = 0.030
    public static let heartMathTotalBand = (0.0033, 0.4)

    /// Breathing coach score: power within ±`binHz` (one bin of the window's native
    /// resolution) of the breathing frequency, over power in 0.04–0.15 Hz, both integrated
    /// exactly over their bands on the (zero-padded) spectrum. The numerator is taken inside
    /// the band, so the score lies in [0, 1]; 0 for no power. A flat spectrum scores the
    /// width ratio 2·binHz / 0.11 Hz (≈ 0.28 for 64 s windows).
    public static func coachScore(_ s: Spectrum, breathingHz: Double, binHz: Double) -> Double {
        let band = s.integral(coachBand.0, coachBand.1)
        guard band > 0 else { return 0 }
        let lo = max(coachBand.0, breathingHz - binHz), hi = min(coachBand.1, breathingHz + binHz)
        return hi > lo ? min(1, s.integral(lo, hi) / band) : 0
    }

    /// HeartMath coherence ratio: peak in 0.04–0.26 Hz; peak power = power in the 0.030 Hz
    /// window centred on it; ratio = peak power / (total 0.0033–0.4 Hz − peak power).
    public static func heartMath(_ s: Spectrum) -> (peakHz: Double, ratio: Double) {
        let peak = s.peak(heartMathPeakBand.0, heartMathPeakBand.1)
        guard peak.isFinite else { return (.nan, .nan) }
        let p = s.integral(peak - heartMathPeakWidth / 2, peak + heartMathPeakWidth / 2)
        let total = s.integral(heartMathTotalBand.0, heartMathTotalBand.1)
        return (peak, total > p ? p / (total - p) : .nan)
    }
}
