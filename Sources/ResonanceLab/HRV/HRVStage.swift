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
        let tables = try Tables(self, ws, context)
        try tables.writeEach()
        try tables.commit()
    }

    /// One run of the stage on a workspace: its options in force, the R-R index it reads
    /// and the writers of its tables.
    final class Tables {
        let stage: HRVStage
        let ws: Workspace
        let context: StageContext
        let options: HRVOptions
        let rr: SubjectIndex
        let table: TableWriter<HRVRow>
        let nn: CSVWriter?, psd: CSVWriter?
        private var total = HRVTimings()

        /// `rr`: the index of the analysis R-R when already built (else built here).
        init(_ stage: HRVStage, _ ws: Workspace, _ context: StageContext, rr: SubjectIndex? = nil) throws {
            self.stage = stage; self.ws = ws; self.context = context
            var options = stage.options
            options.maxArtifactPct = options.maxArtifactPct ?? context.registry.hrv.maxArtifactPct
            options.record(in: ws.session)
            self.options = options
            self.rr = try rr ?? ws.analysisRRIndex(jobs: context.jobs)
            table = try ws.writer(HRVRow.self)
            nn = try stage.nnOut.map { try CSVWriter(path: try ws.output(path: $0), header: HRVStage.nnHeader) }
            psd = try stage.psdOut.map { try CSVWriter(path: try ws.output(path: $0), header: HRVStage.psdHeader) }
        }

        /// What `subject` adds, its R-R read and cleaned forward in time; `passing` sees each
        /// piece of its NN beats as it goes by. Rows that go back in time throw `OutOfOrder`.
        func streamed(_ subject: String, _ beats: NNStream, passing: (NNSeries) throws -> Void) throws -> SubjectOutput {
            try HRVStage.output(subject, options: options, nn: nn != nil, psd: psd != nil, beats: {
                let piece = try beats.nextBeats()
                if let piece { try passing(piece) }
                return piece
            })
        }

        /// What `subject` adds, its R-R read whole and sorted (rows that go back in time).
        func whole(_ subject: String) throws -> SubjectOutput? {
            guard var series = try rr.nnSeries(of: subject, method: options.artifactMethod, plausible: context.registry.rr) else {
                return nil
            }
            return try HRVStage.output(subject, options: options, nn: nn != nil, psd: psd != nil, beats: {
                defer { series = .empty }
                return series.count > 0 ? series : nil
            })
        }

        /// Every subject of the R-R, one at a time per worker, from reading its R-R to
        /// encoding its rows, which are written in subject order (first appearance in
        /// rr.csv) as they complete.
        func writeEach() throws {
            let counter = context.progress.counter("hrv: windows", total: rr.subjects.count)
            try Parallel.forEach(rr.subjects, jobs: context.jobs, { subject -> SubjectOutput? in
                defer { counter.tick() }
                return try self.output(subject)
            }, inOrder: { try self.append($0) })
        }

        func output(_ subject: String) throws -> SubjectOutput? {
            do {
                return try streamed(subject, stream(subject), passing: { _ in })
            } catch is OutOfOrder {
                return try whole(subject)
            }
        }

        /// `subject`'s NN beats, cleaned as its R-R rows are read.
        func stream(_ subject: String) -> NNStream {
            NNStream(rr, subject: subject, method: options.artifactMethod, plausible: context.registry.rr)
        }

        /// Writes a subject's output, in subject order.
        func append(_ out: SubjectOutput?) throws {
            guard let out else { return }
            try table.append(out.rows)
            total.add(out.timings)
            if let part = out.nn { try nn?.write(part) }
            if let part = out.psd { try psd?.write(part) }
        }

        func commit() throws {
            try table.commit()
            if let nn { try ws.commit(nn) }
            if let psd { try ws.commit(psd) }
            stage.timings?(total)
            context.progress.note("hrv: wrote \(plural(table.rows, "row")) to \(ws.file(HRVRow.fileName))")
        }
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
