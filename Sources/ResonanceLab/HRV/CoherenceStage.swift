/// How `resonance coherence` scores (docs/methods.md, Coherence).
public enum CoherenceMethod: String, CaseIterable, Sendable {
    /// Coach score and HeartMath ratio on tapered, zero-padded 64 s windows every 5 s,
    /// and the per-subject resonance row.
    case windowed
    /// The breathing product's own score (`ProductCoherence`): raw DFT of the last 30 s
    /// every 0.25 s at the paced rate in force (`breathing.csv`).
    case product
}

/// `resonance coherence`: breathing-coach and HeartMath coherence of each subject's
/// heart rate (from the cleaned R-R, or `hr.csv` for subjects without usable R-R)
/// → `coherence.csv`.
public struct CoherenceStage: Stage {
    /// Window, step and breathing rate; nil takes the registry's `coherence` constants.
    public var options: CoherenceOptions?

    public init(options: CoherenceOptions? = nil) {
        self.options = options
    }

    public var name: String { "coherence" }
    public var version: String { "1.0.0" }
    public var engines: [String] { options?.method == .product ? ["coherence", "pacer", "rr"] : ["coherence", "rr"] }
    public var perSubject: Bool { true }
    public var reads: [String] {
        [RRInterval.fileName, CombinedRR.fileName, HRSample.fileName] + (options?.method == .product ? [BreathingInterval.fileName] : [])
    }
    public var writes: [String] { [CoherenceRow.fileName] }

    public func run(_ ws: Workspace, _ context: StageContext) throws {
        let options = self.options ?? CoherenceOptions(constants: CoherenceConstants(registry: context.registry))
        ws.session?.record(setting: "artifacts", options.artifactMethod.rawValue)
        ws.session?.record(setting: "method", options.method.rawValue)
        var product: ProductCoherenceSeries?
        var paced: [String: [BreathingInterval]] = [:]
        switch options.method {
        case .windowed:
            ws.session?.record(setting: "windows", "\(CSVWriter.format(options.windowSeconds)) s every \(CSVWriter.format(options.stepSeconds)) s")
            ws.session?.record(setting: "breathing_rate_per_min", CSVWriter.format(options.breathingRate))
        case .product:
            ws.session?.record(setting: "rows", options.everyStep ? "every step" : "per minute")
            ws.session?.record(setting: "hr_sampling", options.sampling.rawValue)
            product = ProductCoherenceSeries(coherence: ProductCoherence(coherence: options.constants, pacer: context.registry.pacer),
                                             pacer: context.registry.pacer, everyStep: options.everyStep, sampling: options.sampling)
            paced = Dictionary(grouping: try ws.readIfPresent(BreathingInterval.self) ?? [], by: \.subject)
        }
        let (rr, hr) = try Parallel.both(jobs: context.jobs, { try ws.analysisRRIndex(jobs: context.jobs) },
                                         { try ws.subjectIndex(HRSample.self) })
        let plausible = context.registry.rr
        // Subjects in byte order, as in every table, whichever series each one uses: its
        // cleaned R-R when it has a usable interval, else hr.csv.
        let subjects = Set(rr.subjects).union(hr.subjects).sorted(by: SubjectOrder.precedes)
        let counter = context.progress.counter("coherence", total: subjects.count)
        var fromRR = 0, fromHR = 0
        // Each subject is read, scored and its rows encoded in its worker (2 M rows for the
        // 69 PhysioNet records), and written in subject order as they complete.
        let table = try ws.writer(CoherenceRow.self)
        try Parallel.forEach(subjects, jobs: context.jobs, { subject -> (rows: EncodedRows, rr: Bool)? in
            defer { counter.tick() }
            if product == nil {
                do {
                    return try Self.windowed(subject, rr: rr, hr: hr, options: options, plausible: plausible)
                } catch is OutOfOrder {
                    // Rows that go back in time: the subject is read whole and sorted below.
                }
            }
            if let series = try rr.nnSeries(of: subject, method: options.artifactMethod, plausible: plausible) {
                if let product {
                    return (try Workspace.encode(product.rows(subject: subject, source: "rr", timeMs: series.timeMs,
                                                              bpm: series.nnMs.map { 60000 / $0 }, intervals: paced[subject] ?? [])), true)
                }
                var windows = CoherenceWindows(subject: subject, series: series, options: options)
                return (try Workspace.encode(rowsOf: { try windows.forEachRow($0) }), true)
            }
            guard hr.contains(subject) else { return nil }
            let s = SubjectSeries.hr(try hr.series(HRSample.self, of: subject))
            if let product {
                return (try Workspace.encode(product.rows(subject: subject, source: "hr", timeMs: s.timestampsMs.map(Double.init),
                                                          bpm: s.values, intervals: paced[subject] ?? [])), false)
            }
            var windows = CoherenceWindows(subject: subject, source: "hr", timeMs: s.timestampsMs.map(Double.init), bpm: s.values,
                                           options: options)
            return (try Workspace.encode(rowsOf: { try windows.forEachRow($0) }), false)
        }, inOrder: { out in
            guard let out else { return }
            try table.append(out.rows)
            if out.rr { fromRR += 1 } else { fromHR += 1 }
        })
        context.progress.note("coherence: \(plural(fromRR, "subject")) from RR, \(fromHR) from HR")
        try table.commit()
        context.progress.note("coherence: wrote \(plural(table.rows, "row")) to \(ws.file(CoherenceRow.fileName))")
    }

    /// The windowed rows of `subject` read forward in time, a piece of each table at a
    /// time: its cleaned R-R when it has a usable interval (`rr` true), else its `hr.csv`
    /// samples; nil when it has neither. The rows are those of the whole series, byte for
    /// byte; rows that go back in time throw `OutOfOrder`.
    static func windowed(_ subject: String, rr: SubjectIndex, hr: SubjectIndex, options: CoherenceOptions,
                         plausible: RRConstants) throws -> (rows: EncodedRows, rr: Bool)? {
        let beats = NNStream(rr, subject: subject, method: options.artifactMethod, plausible: plausible)
        var first = try beats.nextBeats()
        if first != nil || beats.anyKept {
            var windows = CoherenceWindows(subject: subject, source: "rr", options: options) {
                guard let next = try first ?? beats.nextBeats() else { return nil }
                first = nil
                return (next.timeMs, next.nnMs.map { 60000 / $0 })
            }
            return (try Workspace.encode(rowsOf: { try windows.forEachRow($0) }), true)
        }
        guard hr.contains(subject) else { return nil }
        var cursor = MeasurementCursor<HRSample>(hr, subject)
        var ready = SubjectSeries.Ready.hr
        var lastReadMs = Int64.min
        var windows = CoherenceWindows(subject: subject, source: "hr", options: options) {
            var timeMs: [Double] = [], bpm: [Double] = []
            while timeMs.isEmpty, try cursor.readPiece({ t, value in
                guard t >= lastReadMs else { throw OutOfOrder() }
                lastReadMs = t
                if ready.keeps(t, value) {
                    timeMs.append(Double(t))
                    bpm.append(value)
                }
            }) {}
            return timeMs.isEmpty ? nil : (timeMs, bpm)
        }
        return (try Workspace.encode(rowsOf: { try windows.forEachRow($0) }), false)
    }
}
