/// One row of `hrv.csv`: the indices of one subject over one window, or over the whole
/// recording when the window bounds are nil (docs/tables.md, hrv.csv).
public struct HRVRow: OutputRow, Sendable {
    public var subject: String
    public var windowStartMs: Int64?
    public var windowEndMs: Int64?
    public var nBeats: Int
    /// Corrected plus missing beats, % of the beats the span should hold.
    public var artifactPct: Double
    public var reliable: Bool
    public var time: HRVTime
    public var frequency: HRVFrequency
    public var nonlinear: HRVNonlinear
    public var longTerm: HRVLongTerm

    /// `hrv.csv` columns: the required ones of docs/tables.md first, then the rest of the index families.
    public static let header = [
        "subject", "window_start", "window_end", "n_beats", "artifact_pct", "reliable",
        "MeanNN", "SDNN", "RMSSD", "pNN50", "MeanHR", "LF", "HF", "LF_HF", "SD1", "SD2", "DFA_alpha1",
        "SDSD", "pNN20", "SDHR", "CVNN", "HTI", "SDANN", "SDNNI",
        "VLF", "TP", "LnLF", "LnHF", "LFn", "HFn", "VLF_pct", "LF_pct", "HF_pct",
        "VLF_peak", "LF_peak", "HF_peak",
        "SD1_SD2", "DFA_alpha2", "SampEn", "StressIndex",
    ]

    public func write(to w: CSVWriter) {
        w.field(subject)
        w.field(timestampMs: windowStartMs)
        w.field(timestampMs: windowEndMs)
        w.field(nBeats)
        w.field(artifactPct)
        w.field(reliable)
        let t = time, f = frequency, n = nonlinear
        for v in [t.meanNN, t.sdnn, t.rmssd, t.pnn50, t.meanHR, f.lf, f.hf, f.lfHF, n.sd1, n.sd2, n.dfaAlpha1,
                  t.sdsd, t.pnn20, t.sdhr, t.cvnn, t.hti, longTerm.sdann, longTerm.sdnni,
                  f.vlf, f.tp, f.lnLF, f.lnHF, f.lfn, f.hfn, f.vlfPct, f.lfPct, f.hfPct,
                  f.vlfPeak, f.lfPeak, f.hfPeak,
                  n.sd1sd2, n.dfaAlpha2, n.sampEn, n.stressIndex] {
            w.field(v)
        }
    }
}
