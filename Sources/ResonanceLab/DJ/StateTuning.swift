import Foundation

/// The DJ state engine's tuning problem (`resonance tune --engine state`): the 30-s
/// state of labelled workspaces at every tick inside a `stress` or `baseline` interval
/// (`StateLabelScoring`), scored by the ROC AUC of the state's momentary stress for
/// the stress label, pooled over the selected subjects. Subjects are the
/// cross-validation unit. The tuned constants are those that change how stress ranks
/// ticks: the SDNN window, the weight of its trend and the samples the trend needs
/// (the slope and clamp of the mapping are monotone and cannot change an AUC).
public struct StateTuningData: TuningProblem {
    public static let engine = StateConstants.spec.name
    public static let objectives: [TuningObjective] = [.auc]
    public static let defaultNames = ["hrv_window_seconds", "hrv_trend_weight", "trend_min_samples"]
    /// The registry allows windows to 2 hours and trends from up to 100 samples; the
    /// search looks at 1–30 minutes and 2–30 samples.
    public static let searchBounds: [String: ClosedRange<Double>] = ["hrv_window_seconds": 60...1800, "trend_min_samples": 2...30]
    public static let reads = [Manifest.fileName, LabelInterval.fileName, HRSample.fileName, HRVSample.fileName, RRInterval.fileName, CombinedRR.fileName]

    struct Subject: Sendable {
        var hr: [TimedSample], sdnn: [TimedSample], rr: [TimedSample], labels: [LabelInterval]
    }

    var subjects: [Subject] = []
    public private(set) var units: [String] = []
    public private(set) var inputs: [TuningInput] = []

    /// Every subject with both `stress` and `baseline` intervals (one-line error when a
    /// workspace has none).
    public init(workspaces: [(name: String, workspace: Workspace)], registry: ConstantsRegistry) throws {
        let plausible = RRConstants(registry: registry)
        for (name, ws) in workspaces {
            let labels = Dictionary(grouping: try ws.read(LabelInterval.self), by: \.subject)
            let hr = Dictionary(grouping: try ws.read(HRSample.self), by: \.subject)
            let sdnn = Dictionary(grouping: try ws.read(HRVSample.self), by: \.subject)
            let rr = Dictionary(grouping: try ws.analysisRRRows().filter { $0.rrMs >= plausible.rrMinMs && $0.rrMs <= plausible.rrMaxMs },
                                by: \.subject)
            var found = false
            for s in labels.keys.sorted(by: SubjectOrder.precedes) {
                let mine = (labels[s] ?? []).sorted { $0.startMs < $1.startMs }
                guard mine.contains(where: { $0.label == "stress" }), mine.contains(where: { $0.label == "baseline" }) else { continue }
                found = true
                units.append("\(name)/\(s)")
                subjects.append(Subject(
                    hr: (hr[s] ?? []).map { TimedSample(tMs: $0.timestampMs, value: $0.bpm) }.sorted { $0.tMs < $1.tMs },
                    sdnn: (sdnn[s] ?? []).compactMap { x in x.sdnnMs.map { TimedSample(tMs: x.timestampMs, value: $0) } }
                        .sorted { $0.tMs < $1.tMs },
                    rr: (rr[s] ?? []).map { TimedSample(tMs: $0.timestampMs, value: $0.rrMs) }.sorted { $0.tMs < $1.tMs },
                    labels: mine))
            }
            guard found else {
                throw TuningError(message: "\(ws.path): no subject has both 'stress' and 'baseline' intervals in labels.csv; "
                    + "tuning the state engine needs labelled recordings")
            }
            inputs.append(try TuningInput(workspace: name, ws, tables: Self.reads))
        }
    }

    public var unitNoun: String { "subjects" }
    public var dataSummary: String {
        "\(plural(subjects.count, "subject")) with stress and baseline intervals; objective: pooled ROC AUC of the 30-s state's stress "
            + "for the stress label, at every 30-s tick inside a labelled interval"
    }
    public var provenance: [String: JSONValue] {
        ["auc": .string("pooled ROC AUC of the 30-s state stress (fallback baselines) for stress vs baseline ticks")]
    }

    public func select(_ units: [Int]) -> [Int] { units.sorted() }

    public func value(_ objective: TuningObjective, _ registry: ConstantsRegistry, on selection: [Int]) -> Double {
        guard objective == .auc else { return .nan }
        let c = StateConstants(registry: registry)
        var values: [Double] = [], stressed: [Bool] = []
        for i in selection {
            let s = subjects[i]
            let t = StateLabelScoring.ticks(hr: s.hr, sdnn: s.sdnn, rr: s.rr, labels: s.labels, state: c)
            values += t.values[0]; stressed += t.stressed
        }
        return GroupComparison.auc(scores: values, isPositive: stressed)
    }
}
