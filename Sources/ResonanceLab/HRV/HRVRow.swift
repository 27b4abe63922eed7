/// One row of `hrv.csv`: the indices of one subject over one window, or over the whole
/// recording when the window bounds are nil (docs/tables.md, hrv.csv).
public struct HRVRow: Sendable {
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

    public init(subject: String, windowStartMs: Int64?, windowEndMs: Int64?, nBeats: Int, artifactPct: Double,
                reliable: Bool, time: HRVTime = HRVTime(), frequency: HRVFrequency = HRVFrequency(),
                nonlinear: HRVNonlinear = HRVNonlinear(), longTerm: HRVLongTerm = HRVLongTerm()) {
        self.subject = subject; self.windowStartMs = windowStartMs; self.windowEndMs = windowEndMs
        self.nBeats = nBeats; self.artifactPct = artifactPct; self.reliable = reliable
        self.time = time; self.frequency = frequency; self.nonlinear = nonlinear; self.longTerm = longTerm
    }

    /// The index columns of `hrv.csv`, in order (ms, ms², bpm, ratios; NaN written empty):
    /// the common indices first, then the rest of each family.
    public static let indices: [(name: String, key: WritableKeyPath<HRVRow, Double>)] = [
        ("MeanNN", \.time.meanNN), ("SDNN", \.time.sdnn), ("RMSSD", \.time.rmssd), ("pNN50", \.time.pnn50),
        ("MeanHR", \.time.meanHR), ("LF", \.frequency.lf), ("HF", \.frequency.hf), ("LF_HF", \.frequency.lfHF),
        ("SD1", \.nonlinear.sd1), ("SD2", \.nonlinear.sd2), ("DFA_alpha1", \.nonlinear.dfaAlpha1),
        ("SDSD", \.time.sdsd), ("pNN20", \.time.pnn20), ("SDHR", \.time.sdhr), ("CVNN", \.time.cvnn),
        ("HTI", \.time.hti), ("SDANN", \.longTerm.sdann), ("SDNNI", \.longTerm.sdnni),
        ("VLF", \.frequency.vlf), ("TP", \.frequency.tp), ("LnLF", \.frequency.lnLF), ("LnHF", \.frequency.lnHF),
        ("LFn", \.frequency.lfn), ("HFn", \.frequency.hfn), ("VLF_pct", \.frequency.vlfPct),
        ("LF_pct", \.frequency.lfPct), ("HF_pct", \.frequency.hfPct),
        ("VLF_peak", \.frequency.vlfPeak), ("LF_peak", \.frequency.lfPeak), ("HF_peak", \.frequency.hfPeak),
        ("SD1_SD2", \.nonlinear.sd1sd2), ("DFA_alpha2", \.nonlinear.dfaAlpha2), ("SampEn", \.nonlinear.sampEn),
        ("StressIndex", \.nonlinear.stressIndex),
    ]

    /// The index column `name`'s key path (nil for an unknown name).
    public static func index(_ name: String) -> WritableKeyPath<HRVRow, Double>? {
        indices.first { $0.name == name }?.key
    }

    /// A whole-recording row (no window bounds).
    public var isWhole: Bool { windowStartMs == nil }
}

extension HRVRow: CanonicalRow {
    public static let fileName = "hrv.csv"
    public static let header = ["subject", "window_start", "window_end", "n_beats", "artifact_pct", "reliable"]
        + indices.map(\.name)

    public func write(to w: CSVWriter) {
        w.field(subject)
        w.field(timestampMs: windowStartMs)
        w.field(timestampMs: windowEndMs)
        w.field(nBeats)
        w.field(artifactPct)
        w.field(reliable)
        for index in Self.indices { w.field(self[keyPath: index.key]) }
    }

    public init(_ r: CanonicalFieldReader) throws {
        self.init(subject: try r.string("subject"), windowStartMs: try r.optionalTimestamp("window_start"),
                  windowEndMs: try r.optionalTimestamp("window_end"), nBeats: try r.count("n_beats"),
                  artifactPct: try r.double("artifact_pct"), reliable: try r.bool("reliable"))
        for index in Self.indices { self[keyPath: index.key] = try r.doubleOrNaN(index.name) }
    }
}
