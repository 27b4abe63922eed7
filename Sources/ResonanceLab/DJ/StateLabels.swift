import Foundation

/// One row of `dj_state_auc.csv` (docs/tables.md): how well one 30-s score tells the
/// labelled `stress` intervals from the `baseline` ones — ROC AUC pooled over every
/// subject's ticks, or the median of the per-subject AUCs — with its 95 % interval
/// (subjects resampled), the subjects and the ticks.
public struct DJStateAUCRow: Equatable, Sendable {
    public var score: String
    public var scope: String
    public var auc: Double?
    public var ciLow: Double?
    public var ciHigh: Double?
    public var subjects: Int
    public var ticks: Int
}

extension DJStateAUCRow: CanonicalRow {
    public static let fileName = "dj_state_auc.csv"
    public static let header = ["score", "scope", "auc", "ci_low", "ci_high", "subjects", "ticks"]

    public func write(to w: CSVWriter) {
        w.field(score); w.field(scope); w.field(auc); w.field(ciLow); w.field(ciHigh); w.field(subjects); w.field(ticks)
    }

    public init(_ r: CanonicalFieldReader) throws {
        self.init(score: try r.string("score"), scope: try r.string("scope"), auc: try r.optionalDouble("auc"),
                  ciLow: try r.optionalDouble("ci_low"), ciHigh: try r.optionalDouble("ci_high"), subjects: try r.count("subjects"),
                  ticks: try r.count("ticks"))
    }
}

/// The state engine against labelled physiology (docs/dj.md, State engine on labels):
/// at every 30-s tick inside a `stress` or `baseline` interval, the state from the
/// samples before it; each score is judged by ROC AUC against the label.
public enum StateLabelScoring {
    /// The scores compared: the specification's state stress and arousal, the reference
    /// variant's, and the naive baseline of the latest raw HR.
    public static let scores = ["stress", "arousal", "reference_stress", "reference_arousal", "raw_hr"]

    /// One subject's heart rate (bpm), SDNN samples (ms) and plausible beats (R-R ms), sorted by time.
    public struct Series: Sendable {
        public var hr: [TimedSample] = []
        public var sdnn: [TimedSample] = []
        public var rr: [TimedSample] = []
    }

    /// The state of `engine` at `tick` from the samples before it, with the fallback
    /// baselines and the beats' SDNN over the HRV window, and the latest raw HR; nil
    /// without an HR sample in the HR window.
    public static func state(at tick: Int64, _ s: Series, engine: DJStateEngine) -> (state: DJState, latestHR: Double)? {
        let c = engine.constants
        guard let latest = DJStateEngine.window(s.hr, endingAt: tick, seconds: c.hrWindowSeconds).last else { return nil }
        let beats = DJStateEngine.window(s.rr, endingAt: tick, seconds: c.hrvWindowSeconds).map(\.value)
        let beatSDNN = beats.count >= 2 ? Stats.sd(beats) : nil
        return (engine.state(at: tick, hr: s.hr, sdnn: s.sdnn, beatSDNNMs: beatSDNN, baseline: .fallback(c), context: .relaxation),
                latest.value)
    }

    /// One subject's ticks: per score its values, and whether each tick is in stress.
    public static func ticks(hr: [TimedSample], sdnn: [TimedSample], rr: [TimedSample], labels: [LabelInterval],
                             state c: StateConstants) -> (values: [[Double]], stressed: [Bool]) {
        let series = Series(hr: hr, sdnn: sdnn, rr: rr)
        let spec = DJStateEngine(constants: c), reference = DJStateEngine(constants: c, variant: .reference)
        let stepMs = Int64(c.stepSeconds * 1000)
        var values = [[Double]](repeating: [], count: scores.count), stressed: [Bool] = []
        for interval in labels where interval.label == "stress" || interval.label == "baseline" {
            var tick = (Timestamp.floorDivMod(interval.startMs, stepMs).0 + 1) * stepMs
            while tick <= interval.endMs {
                defer { tick += stepMs }
                guard let s = state(at: tick, series, engine: spec), let r = state(at: tick, series, engine: reference) else { continue }
                for (k, v) in [s.state.stress, s.state.arousal, r.state.stress, r.state.arousal, s.latestHR].enumerated() { values[k].append(v) }
                stressed.append(interval.label == "stress")
            }
        }
        return (values, stressed)
    }

    /// Every labelled subject's series: from the workspace's `hr.csv`, `hrv_samples.csv`
    /// (SDNN) and `rr.csv` (beats within the registry's plausible R-R range), or with the
    /// state engine's `hr_input` 1 from the reliable beats of `beats.csv` (`beatSeries`).
    public static func series(_ ws: Workspace, registry: ConstantsRegistry) throws -> (labels: [String: [LabelInterval]], series: [String: Series]) {
        let plausible = RRConstants(registry: registry)
        let labels = Dictionary(grouping: try ws.read(LabelInterval.self), by: \.subject)
        if StateConstants(registry: registry).hrInput.rounded() == 1 {
            return (labels, beatSeries(try ws.readIfPresent(DetectedBeat.self) ?? [], subjects: Set(labels.keys)))
        }
        let hr = Dictionary(grouping: try ws.read(HRSample.self), by: \.subject)
        let sdnn = Dictionary(grouping: try ws.read(HRVSample.self), by: \.subject)
        let rr = Dictionary(grouping: try ws.analysisRRRows().filter { $0.rrMs >= plausible.rrMinMs && $0.rrMs <= plausible.rrMaxMs },
                            by: \.subject)
        var out: [String: Series] = [:]
        for s in labels.keys {
            out[s] = Series(
                hr: (hr[s] ?? []).map { TimedSample(tMs: $0.timestampMs, value: $0.bpm) }.sorted { $0.tMs < $1.tMs },
                sdnn: (sdnn[s] ?? []).compactMap { x in x.sdnnMs.map { TimedSample(tMs: x.timestampMs, value: $0) } }.sorted { $0.tMs < $1.tMs },
                rr: (rr[s] ?? []).map { TimedSample(tMs: $0.timestampMs, value: $0.rrMs) }.sorted { $0.tMs < $1.tMs })
        }
        return (labels, out)
    }

    /// Per subject, the series of its reliable detected beats: a heart-rate sample of
    /// 60 000 / interval (bpm) and the interval (ms) at each beat, no SDNN samples (the
    /// state's HRV is then the beats' SDNN over its HRV window).
    static func beatSeries(_ beats: [DetectedBeat], subjects: Set<String>) -> [String: Series] {
        var out: [String: Series] = [:]
        for b in beats where b.reliable && subjects.contains(b.subject) {
            guard let rr = b.intervalMs, rr > 0 else { continue }
            out[b.subject, default: Series()].hr.append(TimedSample(tMs: b.timestampMs, value: 60_000 / rr))
            out[b.subject, default: Series()].rr.append(TimedSample(tMs: b.timestampMs, value: rr))
        }
        return out.mapValues { s in
            Series(hr: s.hr.sorted { $0.tMs < $1.tMs }, sdnn: [], rr: s.rr.sorted { $0.tMs < $1.tMs })
        }
    }

    /// The rows of a workspace: every labelled subject's ticks, scored with `registry`.
    public static func rows(_ ws: Workspace, registry: ConstantsRegistry, jobs: Int) throws -> [DJStateAUCRow] {
        let c = StateConstants(registry: registry)
        let (labels, series) = try series(ws, registry: registry)
        let subjects = labels.keys.sorted(by: SubjectOrder.precedes)
        let ticks = try Parallel.map(subjects, jobs: jobs) { s in
            let x = series[s] ?? Series()
            return Self.ticks(hr: x.hr, sdnn: x.sdnn, rr: x.rr, labels: (labels[s] ?? []).sorted { $0.startMs < $1.startMs }, state: c)
        }
        return rows(ticks)
    }

    /// Pooled and per-subject-median AUC of every score, subjects resampled for the
    /// intervals (seeded percentile bootstrap, as the validation report does).
    public static func rows(_ subjects: [(values: [[Double]], stressed: [Bool])]) -> [DJStateAUCRow] {
        let usable = subjects.filter { $0.stressed.contains(true) && $0.stressed.contains(false) }
        let ticks = usable.reduce(0) { $0 + $1.stressed.count }
        var out: [DJStateAUCRow] = []
        for k in scores.indices {
            func pooled(_ picks: [Int]) -> Double {
                var v: [Double] = [], y: [Bool] = []
                for i in picks { v += usable[i].values[k]; y += usable[i].stressed }
                return GroupComparison.auc(scores: v, isPositive: y)
            }
            let per = usable.map { GroupComparison.auc(scores: $0.values[k], isPositive: $0.stressed) }
            func median(_ picks: [Int]) -> Double { Stats.median(picks.map { per[$0] }) }
            let all = Array(usable.indices)
            let p = GroupComparison.bootstrapCI(clusters: usable.count, pooled)
            let m = GroupComparison.bootstrapCI(clusters: usable.count, median)
            func finite(_ x: Double) -> Double? { x.isFinite ? x : nil }
            out.append(DJStateAUCRow(score: scores[k], scope: "pooled", auc: usable.isEmpty ? nil : finite(pooled(all)),
                                     ciLow: finite(p.0), ciHigh: finite(p.1), subjects: usable.count, ticks: ticks))
            out.append(DJStateAUCRow(score: scores[k], scope: "subject_median", auc: usable.isEmpty ? nil : finite(median(all)),
                                     ciLow: finite(m.0), ciHigh: finite(m.1), subjects: usable.count, ticks: ticks))
        }
        return out
    }
}

/// `resonance dj state WS`: the 30-s state against the workspace's stress labels.
public struct DJStateStage: Stage {
    public init() {}

    public var name: String { "dj state" }
    public var version: String { "1.0.0" }
    public var reads: [String] {
        [LabelInterval.fileName, HRSample.fileName, HRVSample.fileName, RRInterval.fileName, CombinedRR.fileName, DetectedBeat.fileName]
    }
    public var writes: [String] { [DJStateAUCRow.fileName] }
    public var engines: [String] { ["rr", "state"] }
    public var perSubject: Bool { false }

    public func run(_ ws: Workspace, _ context: StageContext) throws {
        let rows = try StateLabelScoring.rows(ws, registry: context.registry, jobs: context.jobs)
        try ws.write(rows)
        context.progress.note("dj state: " + rows.filter { $0.scope == "pooled" }
            .map { "\($0.score) AUC \($0.auc.map { String(format: "%.3f", $0) } ?? "–")" }.joined(separator: ", "))
    }
}
