import Foundation

/// Frequency bands of short-term HRV (Task Force 1996), Hz.
public enum HRVBand {
    public static let vlf = (0.0033, 0.04)
    public static let lf = (0.04, 0.15)
    public static let hf = (0.15, 0.4)
}

/// Frequency-domain HRV indices from the PSD of the NN series (ms²/Hz), named as in
/// NeuroKit2 and Kubios. Powers in ms², peaks in Hz.
public struct HRVFrequency: Sendable {
    public var vlf = Double.nan, lf = Double.nan, hf = Double.nan
    /// Total power VLF + LF + HF (0.0033–0.4 Hz).
    public var tp = Double.nan
    public var lnLF = Double.nan, lnHF = Double.nan
    /// Normalised units LF/(LF + HF)·100 and HF/(LF + HF)·100 (Task Force).
    public var lfn = Double.nan, hfn = Double.nan
    /// Relative powers, % of total power.
    public var vlfPct = Double.nan, lfPct = Double.nan, hfPct = Double.nan
    public var lfHF = Double.nan
    public var vlfPeak = Double.nan, lfPeak = Double.nan, hfPeak = Double.nan

    public init() {}

    public init(_ s: Spectrum) {
        guard !s.psd.isEmpty, s.df > 0 else { return }
        vlf = s.power(HRVBand.vlf.0, HRVBand.vlf.1)
        lf = s.power(HRVBand.lf.0, HRVBand.lf.1)
        hf = s.power(HRVBand.hf.0, HRVBand.hf.1)
        tp = vlf + lf + hf
        lnLF = log(lf); lnHF = log(hf)
        lfn = 100 * lf / (lf + hf); hfn = 100 * hf / (lf + hf)
        vlfPct = 100 * vlf / tp; lfPct = 100 * lf / tp; hfPct = 100 * hf / tp
        lfHF = lf / hf
        vlfPeak = s.peak(HRVBand.vlf.0, HRVBand.vlf.1)
        lfPeak = s.peak(HRVBand.lf.0, HRVBand.lf.1)
        hfPeak = s.peak(HRVBand.hf.0, HRVBand.hf.1)
    }
}
