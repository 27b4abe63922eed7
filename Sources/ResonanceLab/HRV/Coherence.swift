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
    /// resolution) of the breathing frequency, over power in 0.04–0.15 Hz. The
    /// numerator is taken inside the band, so the score lies in [0, 1]; 0 for no power.
    public static func coachScore(_ s: Spectrum, breathingHz: Double, binHz: Double) -> Double {
        let band = bandSum(s, coachBand.0, coachBand.1)
        guard band > 0 else { return 0 }
        let lo = max(coachBand.0, breathingHz - binHz), hi = min(coachBand.1, breathingHz + binHz)
        return hi >= lo ? closedSum(s, lo, hi) / band : 0
    }

    /// HeartMath coherence ratio: peak in 0.04–0.26 Hz; peak power = power in the 0.030 Hz
    /// window centred on it; ratio = peak power / (total 0.0033–0.4 Hz − peak power).
    public static func heartMath(_ s: Spectrum) -> (peakHz: Double, ratio: Double) {
        let peak = s.peak(heartMathPeakBand.0, heartMathPeakBand.1)
        guard peak.isFinite else { return (.nan, .nan) }
        let p = closedSum(s, peak - heartMathPeakWidth / 2, peak + heartMathPeakWidth / 2)
        let total = bandSum(s, heartMathTotalBand.0, heartMathTotalBand.1)
        return (peak, total > p ? p / (total - p) : .nan)
    }

    /// Σ PSD over bins lo ≤ f < hi (the common bin width cancels in every ratio).
    static func bandSum(_ s: Spectrum, _ lo: Double, _ hi: Double) -> Double {
        var sum = 0.0
        for k in s.bins(lo, hi) { sum += s.psd[k] }
        return sum
    }

    /// Σ PSD over bins lo ≤ f ≤ hi.
    static func closedSum(_ s: Spectrum, _ lo: Double, _ hi: Double) -> Double {
        var sum = 0.0
        for k in s.bins(lo, hi + s.df * 1e-9) { sum += s.psd[k] }
        return sum
    }
}
