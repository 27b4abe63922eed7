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
    public var reads: [String] { [RRInterval.fileName] }
    public var writes: [String] {
        [HRVRow.fileName] + [nnOut, psdOut].compactMap { $0.map { ($0 as NSString).lastPathComponent } }
    }

    public func run(_ ws: Workspace, _ context: StageContext) throws {
        var options = self.options
        options.maxArtifactPct = options.maxArtifactPct ?? context.registry.hrv.maxArtifactPct
        options.record(in: ws.session)
        let subjects = try NNCache.series(ws, method: options.artifactMethod, context: context, label: name)
        let counter = context.progress.counter("hrv: windows", total: subjects.count)
        // Rows are encoded in the workers and written in subject order as they complete.
        let table = try ws.writer(HRVRow.self)
        var spectra: [Spectrum?] = []
        var total = HRVTimings()
        try Parallel.forEach(subjects, jobs: context.jobs, { s -> (EncodedRows, HRVTimings, Spectrum?) in
            defer { counter.tick() }
            var windows = HRVWindows(subject: s.subject, series: s.series, options: options)
            return (try Workspace.encode(windows.rows()), windows.timings, windows.wholeSpectrum)
        }, inOrder: { part, timings, spectrum in
            try table.append(part)
            total.add(timings)
            spectra.append(spectrum)
        })
        try table.commit()
        if let nnOut {
            let nn = try CSVWriter(path: try ws.output(path: nnOut), header: ["subject", "time_ms", "nn_ms", "artifact", "run_start"])
            for s in subjects {
                for k in 0..<s.series.count {
                    nn.field(s.subject); nn.field(s.series.timeMs[k]); nn.field(s.series.nnMs[k])
                    nn.field(s.series.artifact[k].label); nn.field(s.series.runStart[k])
                    try nn.endRow()
                }
            }
            try ws.commit(nn)
        }
        if let psdOut {
            let out = try CSVWriter(path: try ws.output(path: psdOut), header: ["subject", "frequency_hz", "power_ms2_hz", "band"])
            let bands = [("vlf", HRVBand.vlf), ("lf", HRVBand.lf), ("hf", HRVBand.hf)]
            for (s, spectrum) in zip(subjects, spectra) {
                guard let spectrum, spectrum.df > 0 else { continue }
                for k in spectrum.psd.indices where spectrum.frequency(k) <= 0.5 {
                    let f = spectrum.frequency(k)
                    out.field(s.subject); out.field(f); out.field(spectrum.psd[k])
                    out.field(bands.first { f >= $0.1.0 && f < $0.1.1 }?.0 ?? "")
                    try out.endRow()
                }
            }
            try ws.commit(out)
        }
        timings?(total)
        context.progress.note("hrv: wrote \(table.rows) row(s) to \(ws.file(HRVRow.fileName))")
    }
}
