/// `resonance hrv`: each subject's R-R cleaned into NN intervals, then HRV indices over
/// sliding windows and the whole recording → `hrv.csv`.
public struct HRVStage: Stage {
    public var options: HRVOptions
    /// Also write the cleaned NN series to this CSV (`subject,time_ms,nn_ms,artifact,run_start`).
    public var nnOut: String?
    /// Receives the time spent per index family (for `--timing`).
    public var timings: (@Sendable (HRVTimings) -> Void)?

    public init(options: HRVOptions = HRVOptions(), nnOut: String? = nil, timings: (@Sendable (HRVTimings) -> Void)? = nil) {
        self.options = options; self.nnOut = nnOut; self.timings = timings
    }

    public var name: String { "hrv" }
    public var reads: [String] { [RRInterval.fileName] }
    public var writes: [String] { [HRVRow.fileName] }

    public func run(_ ws: Workspace, _ context: StageContext) throws {
        let subjects = try NNCache.series(ws, method: options.artifactMethod, context: context, label: name)
        let options = self.options
        let counter = context.progress.counter("hrv: windows", total: subjects.count)
        let results = try Parallel.map(subjects, jobs: context.jobs) { s -> ([HRVRow], HRVTimings) in
            defer { counter.tick() }
            var windows = HRVWindows(subject: s.subject, series: s.series, options: options)
            return (windows.rows(), windows.timings)
        }
        try ws.write(results.lazy.flatMap(\.0))
        if let nnOut {
            let nn = try CSVWriter(path: nnOut, header: ["subject", "time_ms", "nn_ms", "artifact", "run_start"])
            for s in subjects {
                for k in 0..<s.series.count {
                    nn.field(s.subject); nn.field(s.series.timeMs[k]); nn.field(s.series.nnMs[k])
                    nn.field(s.series.artifact[k].label); nn.field(s.series.runStart[k])
                    try nn.endRow()
                }
            }
            try nn.commit()
        }
        if let timings {
            var total = HRVTimings()
            for (_, t) in results { total.add(t) }
            timings(total)
        }
        context.progress.note("hrv: wrote \(results.reduce(0) { $0 + $1.0.count }) row(s) to \(ws.file(HRVRow.fileName))")
    }
}
