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
        let tables = try Tables(self, ws, context)
        try tables.writeEach()
        try tables.commit()
    }

    /// The options in force: the stage's, else the registry's `coherence` constants.
    func options(_ registry: ConstantsRegistry) -> CoherenceOptions {
        options ?? CoherenceOptions(constants: CoherenceConstants(registry: registry))
    }

    /// A subject's encoded rows, and whether they come from its R-R (else `hr.csv`).
    typealias SubjectRows = (rows: EncodedRows, rr: Bool)

    /// One run of the stage on a workspace: its options in force, the indexes it reads,
    /// the subjects in the order they are written, and the writer of `coherence.csv`.
    final class Tables {
        let ws: Workspace
        let context: StageContext
        let options: CoherenceOptions
        let rr: SubjectIndex, hr: SubjectIndex
        /// Subjects in byte order, as in every table, whichever series each one uses: its
        /// cleaned R-R when it has a usable interval, else hr.csv.
        let subjects: [String]
        private let product: ProductCoherenceSeries?
        private let paced: [String: [BreathingInterval]]
        private let table: TableWriter<CoherenceRow>
        private var fromRR = 0, fromHR = 0

        /// `rr`: the index of the analysis R-R when already built (else built here).
        init(_ stage: CoherenceStage, _ ws: Workspace, _ context: StageContext, rr known: SubjectIndex? = nil) throws {
            self.ws = ws; self.context = context
            let options = stage.options(context.registry)
            self.options = options
            ws.session?.record(setting: "artifacts", options.artifactMethod.rawValue)
            ws.session?.record(setting: "method", options.method.rawValue)
            switch options.method {
            case .windowed:
                ws.session?.record(setting: "windows", "\(CSVWriter.format(options.windowSeconds)) s every \(CSVWriter.format(options.stepSeconds)) s")
                ws.session?.record(setting: "breathing_rate_per_min", CSVWriter.format(options.breathingRate))
                (product, paced) = (nil, [:])
            case .product:
                ws.session?.record(setting: "rows", options.everyStep ? "every step" : "per minute")
                ws.session?.record(setting: "hr_sampling", options.sampling.rawValue)
                product = ProductCoherenceSeries(coherence: ProductCoherence(coherence: options.constants, pacer: context.registry.pacer),
                                                 pacer: context.registry.pacer, everyStep: options.everyStep, sampling: options.sampling)
                paced = Dictionary(grouping: try ws.readIfPresent(BreathingInterval.self) ?? [], by: \.subject)
            }
            (rr, hr) = try Parallel.both(jobs: context.jobs, { try known ?? ws.analysisRRIndex(jobs: context.jobs) },
                                         { try ws.subjectIndex(HRSample.self) })
            subjects = Set(rr.subjects).union(hr.subjects).sorted(by: SubjectOrder.precedes)
            table = try ws.writer(CoherenceRow.self)
        }

        /// Every subject, each read, scored and its rows encoded in its worker (2 M rows for
        /// the 69 PhysioNet records), and written in subject order as they complete.
        func writeEach() throws {
            let counter = context.progress.counter("coherence", total: subjects.count)
            try Parallel.forEach(subjects, jobs: context.jobs, { subject in
                defer { counter.tick() }
                return try self.rows(subject)
            }, inOrder: { try self.append($0) })
        }

        /// The rows of `subject`; `streaming` false reads its R-R whole and sorted at once
        /// (its rows go back in time).
        func rows(_ subject: String, streaming: Bool = true) throws -> SubjectRows? {
            let plausible = context.registry.rr
            if product == nil && streaming {
                do {
                    return try CoherenceStage.windowed(subject, rr: rr, hr: hr, options: options, plausible: plausible)
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
        }

        /// Writes a subject's rows, in subject order.
        func append(_ out: SubjectRows?) throws {
            guard let out else { return }
            try table.append(out.rows)
            if out.rr { fromRR += 1 } else { fromHR += 1 }
        }

        func commit() throws {
            context.progress.note("coherence: \(plural(fromRR, "subject")) from RR, \(fromHR) from HR")
            try table.commit()
            context.progress.note("coherence: wrote \(plural(table.rows, "row")) to \(ws.file(CoherenceRow.fileName))")
        }
    }

    /// The windowed rows of `subject` read forward in time, a piece of each table at a
    /// time: its cleaned R-R when it has a usable interval (`rr` true), else its `hr.csv`
    /// samples; nil when it has neither. The rows are those of the whole series, byte for
    /// byte; rows that go back in time throw `OutOfOrder`.
    static func windowed(_ subject: String, rr: SubjectIndex, hr: SubjectIndex, options: CoherenceOptions,
                         plausible: RRConstants) throws -> SubjectRows? {
        let beats = NNStream(rr, subject: subject, method: options.artifactMethod, plausible: plausible)
        var first = try beats.nextBeats()
        guard first != nil || beats.anyKept else { return try windowed(subject, hr: hr, options: options) }
        return try windowed(subject, options: options) {
            guard let next = try first ?? beats.nextBeats() else { return nil }
            first = nil
            return (next.timeMs, next.nnMs)
        }
    }

    /// The windowed rows of the cleaned NN beats `next` hands over in time order, a
    /// stretch at a time (nil at the end).
    static func windowed(_ subject: String, options: CoherenceOptions,
                         beats next: @escaping () throws -> (timeMs: [Double], nnMs: [Double])?) throws -> SubjectRows {
        var windows = CoherenceWindows(subject: subject, source: "rr", options: options) {
            try next().map { ($0.timeMs, $0.nnMs.map { 60000 / $0 }) }
        }
        return (try Workspace.encode(rowsOf: { try windows.forEachRow($0) }), true)
    }

    /// The windowed rows of `subject`'s `hr.csv` samples read forward in time; nil when it
    /// has none.
    static func windowed(_ subject: String, hr: SubjectIndex, options: CoherenceOptions) throws -> SubjectRows? {
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
