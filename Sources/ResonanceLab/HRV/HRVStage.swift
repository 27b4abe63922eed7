import Foundation

/// `resonance hrv`: each subject's R-R cleaned into NN intervals, then HRV indices over
/// sliding windows and the whole recording → `hrv.csv`.
public struct HRVStage: Stage {
    public var options: HRVOptions
    /// Also write the cleaned NN series to this CSV (`subject,time_ms,nn_ms,artifact,run_start`).
    public var nnOut: String?
    /// Also write each subject's whole-recording PSD to this CSV
    /// (`subject,frequency_hz,power_ms2_hz,band`, 0–0.5 Hz), for the notebooks' figures.
    public var psdOut: String?
    /// Receives the time spent per index family (for `--timing`).
    public var timings: (@Sendable (HRVTimings) -> Void)?

    public init(options: HRVOptions = HRVOptions(), nnOut: String? = nil, psdOut: String? = nil,
                timings: (@Sendable (HRVTimings) -> Void)? = nil) {
        self.options = options; self.nnOut = nnOut; self.psdOut = psdOut; self.timings = timings
    }

    /// The stage as `make validate` runs it: the NN series and whole-recording PSD written
    /// beside hrv.csv (`hrv_nn.csv`, `hrv_psd.csv`) for the notebooks.
    public static func withFigureTables(_ ws: Workspace) -> HRVStage {
        HRVStage(nnOut: ws.file("hrv_nn.csv"), psdOut: ws.file("hrv_psd.csv"))
    }

    public var name: String { "hrv" }
    public var version: String { "1.0.0" }
    public var engines: [String] { ["hrv", "rr"] }
    public var perSubject: Bool { true }
    public var reads: [String] { [RRInterval.fileName, CombinedRR.fileName] }
    public var writes: [String] {
        [HRVRow.fileName] + [nnOut, psdOut].compactMap { $0.map { ($0 as NSString).lastPathComponent } }
    }

    public func run(_ ws: Workspace, _ context: StageContext) throws {
        var options = self.options
        options.maxArtifactPct = options.maxArtifactPct ?? context.registry.hrv.maxArtifactPct
        options.record(in: ws.session)
        let rr = try ws.analysisRRIndex(jobs: context.jobs)
        let plausible = context.registry.rr
        let counter = context.progress.counter("hrv: windows", total: rr.subjects.count)
        // One subject at a time per worker, from reading its R-R to encoding its rows, which
        // are written in subject order (first appearance in rr.csv) as they complete.
        let table = try ws.writer(HRVRow.self)
        let nn = try nnOut.map { try CSVWriter(path: try ws.output(path: $0), header: Self.nnHeader) }
        let psd = try psdOut.map { try CSVWriter(path: try ws.output(path: $0), header: Self.psdHeader) }
        var total = HRVTimings()
        try Parallel.forEach(rr.subjects, jobs: context.jobs, { subject -> SubjectOutput? in
            defer { counter.tick() }
            do {
                let beats = NNStream(rr, subject: subject, method: options.artifactMethod, plausible: plausible)
                return try Self.output(subject, options: options, nn: nn != nil, psd: psd != nil,
                                       beats: { try beats.nextBeats() })
            } catch is OutOfOrder {
                // Rows that go back in time: the subject is read whole, sorted, and handed over as one piece.
                guard var series = try rr.nnSeries(of: subject, method: options.artifactMethod, plausible: plausible) else {
                    return nil
                }
                return try Self.output(subject, options: options, nn: nn != nil, psd: psd != nil, beats: {
                    defer { series = .empty }
                    return series.count > 0 ? series : nil
                })
            }
        }, inOrder: { out in
            guard let out else { return }
            try table.append(out.rows)
            total.add(out.timings)
            if let part = out.nn { try nn?.write(part) }
            if let part = out.psd { try psd?.write(part) }
        })
        try table.commit()
        if let nn { try ws.commit(nn) }
        if let psd { try ws.commit(psd) }
        timings?(total)
        context.progress.note("hrv: wrote \(plural(table.rows, "row")) to \(ws.file(HRVRow.fileName))")
    }

    /// What one subject adds to the stage's outputs.
    struct SubjectOutput {
        var rows: EncodedRows
        var timings: HRVTimings
        var nn: EncodedRows?
        var psd: EncodedRows?
    }

    static let nnHeader = ["subject", "time_ms", "nn_ms", "artifact", "run_start"]
    static let psdHeader = ["subject", "frequency_hz", "power_ms2_hz", "band"]

    /// What `subject` adds to the outputs, from its NN beats handed over in time order by
    /// `next` (nil at the end): its rows, and when asked for its `hrv_nn.csv` rows, encoded
    /// piece by piece, and its whole-recording spectrum.
    static func output(_ subject: String, options: HRVOptions, nn: Bool, psd: Bool,
                       beats next: () throws -> NNSeries?) throws -> SubjectOutput {
        let nnRows = nn ? CSVWriter(spillingAfter: Workspace.encodedBytesHeld) : nil
        var done: (timings: HRVTimings, wholeSpectrum: Spectrum?) = (HRVTimings(), nil)
        let rows = try Workspace.encode(rowsOf: { row in
            done = try HRVWindows.forEachRow(subject: subject, options: options, beats: {
                let piece = try next()
                if let piece, let nnRows { try encodeNN(subject, piece, to: nnRows) }
                return piece
            }, row)
        })
        return SubjectOutput(rows: rows, timings: done.timings, nn: nnRows?.part,
                             psd: psd ? try done.wholeSpectrum.map { try Self.encodePSD(subject, $0) } : nil)
    }

    /// Appends the rows of `hrv_nn.csv` of `beats`, some of `subject`'s, to `out`.
    static func encodeNN(_ subject: String, _ beats: NNSeries, to out: CSVWriter) throws {
        for k in 0..<beats.count {
            out.field(subject); out.field(beats.timeMs[k]); out.field(beats.nnMs[k])
            out.field(beats.artifact[k].label); out.field(beats.runStart[k])
            try out.endRow()
        }
    }

    /// The rows of `hrv_psd.csv` of one subject's whole-recording spectrum, 0–0.5 Hz.
    static func encodePSD(_ subject: String, _ spectrum: Spectrum) throws -> EncodedRows {
        let bands = [("vlf", HRVBand.vlf), ("lf", HRVBand.lf), ("hf", HRVBand.hf)]
        return try Workspace.encode { out in
            guard spectrum.df > 0 else { return }
            for k in spectrum.psd.indices where spectrum.frequency(k) <= 0.5 {
                let f = spectrum.frequency(k)
                out.field(subject); out.field(f); out.field(spectrum.psd[k])
                out.field(bands.first { f >= $0.1.0 && f < $0.1.1 }?.0 ?? "")
                try out.endRow()
            }
        }
    }
}
