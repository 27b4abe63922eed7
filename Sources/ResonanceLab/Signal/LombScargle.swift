import Foundation

/// Lomb–Scargle periodogram (Lomb 1976; Scargle 1982) of an unevenly sampled series,
/// for spectra straight from the NN intervals without resampling (Clifford & Tarassenko
/// 2005). Scaled to a one-sided density such that Σ PSD·df ≈ variance, like `Welch`.
public enum LombScargle {
    /// `timesS` seconds, `values` any unit; grid from 0 to `maxHz` in steps of
    /// 1/(oversampling · span).
    public static func psd(timesS: [Double], values: [Double], maxHz: Double = 0.5, oversampling: Int = 4) -> Spectrum {
        let n = values.count
        guard n >= 3, let t0 = timesS.first, let t1 = timesS.last, t1 > t0 else { return Spectrum(df: 0, psd: []) }
        let span = t1 - t0
        let mean = values.reduce(0, +) / Double(n)
        let y = values.map { $0 - mean }
        let df = 1 / (span * Double(oversampling))
        let bins = Int(maxHz / df) + 1
        var psd = [Double](repeating: 0, count: bins)
        for k in 1..<bins {
            let w = 2 * Double.pi * Double(k) * df
            // τ makes the sine and cosine terms orthogonal (Lomb 1976, eq. 4).
            var s2 = 0.0, c2 = 0.0
            for t in timesS { s2 += sin(2 * w * t); c2 += cos(2 * w * t) }
            let tau = atan2(s2, c2) / (2 * w)
            var yc = 0.0, ys = 0.0, cc = 0.0, ss = 0.0
            for i in 0..<n {
                let a = w * (timesS[i] - tau)
                let c = cos(a), s = sin(a)
                yc += y[i] * c; ys += y[i] * s; cc += c * c; ss += s * s
            }
            let p = 0.5 * (yc * yc / cc + ys * ys / ss)
            // For even sampling P ≈ |X_k|²/N, and the one-sided density is 2|X_k|²/(N·fs)
            // = 2P/fs with fs = N/span.
            psd[k] = 2 * p * span / Double(n)
        }
        return Spectrum(df: df, psd: psd)
    }
}
