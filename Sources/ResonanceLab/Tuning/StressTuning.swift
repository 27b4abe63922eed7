import Foundation

/// The stress engine's tuning problem: the windows of labelled workspaces as the
/// engine's signals, computed once, so every candidate constant set is a pass over
/// these arrays. Subjects are the cross-validation unit. The window-count constants
/// (`baseline_days`, `min_baseline_days`, `cv_days`, `cv_min_days`) decide which
/// reference windows form the signals and stay fixed; `relaxed_below` affects no
/// objective and stays fixed.
public struct StressTuningData: TuningProblem {
    public static let engine = StressConstants.spec.name
    public static let objectives: [TuningObjective] = [.auc, .balancedAccuracy, .brier]
    public static let defaultNames = [
        "rhr_score_at_baseline", "rhr_points_per_percent", "hrv_score_at_baseline", "hrv_points_per_sd",
        "cv_stable", "cv_unstable", "cv_score_stable", "cv_score_unstable",
        "weight_rhr", "weight_hrv", "weight_cv", "weight_rhr_without_cv", "weight_hrv_without_cv",
        "sigmoid_slope", "sigmoid_center", "elevated_from",
    ]
    public static let searchBounds: [String: ClosedRange<Double>] = [:]

    /// `workspace/subject` of each subject.
    public var subjects: [String] = []
    /// Per window: its subject (index into `subjects`), the engine's signals, its label.
    public var subjectOf: [Int] = []
    public var signals: [StressSignals] = []
    public var isStress: [Bool] = []
    /// Per workspace: its name and the SHA-256 of the tables the windows come from.
    public var inputs: [TuningInput] = []
    public var options = StressScoringOptions()

    public init() {}

    /// The tables the windows come from.
    public static let reads = [Manifest.fileName, LabelInterval.fileName, HRSample.fileName, RRInterval.fileName, CombinedRR.fileName]

    /// Windows of every subject with stress and baseline labels. The signals depend on
    /// the engine's window-count constants of `engine` (held fixed while tuning) only.
    /// Windows where the engine has no signal are left out. Throws when a workspace has
    /// no labelled subject.
    public init(workspaces: [(name: String, workspace: Workspace)], engine: StressEngine, options: StressScoringOptions,
                jobs: Int = 1) throws {
        self.options = options
        for (name, ws) in workspaces {
            let path = ws.path
            let loaded = try StressWindows.load(ws, options: options, jobs: jobs)
            guard !loaded.isEmpty else {
                throw TuningError(message: "\(path): no subject has both 'stress' and 'baseline' intervals in labels.csv; "
                    + "tuning the stress engine needs labelled recordings")
            }
            inputs.append(try TuningInput(workspace: name, ws, tables: Self.reads))
            for s in loaded {
                let index = subjects.count
                subjects.append("\(name)/\(s.subject)")
                for w in s.windows {
                    let sig = StressWindowMode.signals(engine, window: w.signals, reference: s.reference)
                    guard sig.rhrPercentAbove != nil || sig.hrvZ != nil || sig.sdnnCV != nil else { continue }
                    subjectOf.append(index); signals.append(sig); isStress.append(w.stress)
                }
            }
        }
    }

    public var units: [String] { subjects }
    public var unitNoun: String { "subjects" }
    public var dataSummary: String {
        "\(plural(signals.count, "window")) of \(decimals(options.windowSeconds, 0)) s every \(decimals(options.stepSeconds, 0)) s"
    }
    public var provenance: [String: JSONValue] {
        ["windows": .int(signals.count), "window_s": .num(options.windowSeconds), "step_s": .num(options.stepSeconds)]
    }

    /// Indices of the windows of the subjects `units`.
    public func select(_ units: [Int]) -> [Int] {
        let chosen = Set(units)
        return subjectOf.indices.filter { chosen.contains(subjectOf[$0]) }
    }

    public func value(_ objective: TuningObjective, _ registry: ConstantsRegistry, on windows: [Int]) -> Double {
        let engine = StressEngine(constants: StressConstants(registry: registry))
        var scores = [Double](repeating: 0, count: windows.count), labels = [Bool](repeating: false, count: windows.count)
        for (k, i) in windows.enumerated() {
            // With every available signal's weight at zero the engine has no score: neutral.
            scores[k] = engine.score(signals[i]) ?? 50
            labels[k] = isStress[i]
        }
        switch objective {
        case .auc:
            return GroupComparison.auc(scores: scores, isPositive: labels)
        case .balancedAccuracy:
            var b = BinaryScores()
            b.scores = scores; b.isStress = labels
            return b.confusion(threshold: engine.constants.elevatedFrom).balancedAccuracy
        case .brier:
            guard !scores.isEmpty else { return .nan }
            var s = 0.0
            for (p, y) in zip(scores, labels) {
                let e = p / 100 - (y ? 1 : 0)
                s += e * e
            }
            return s / Double(scores.count)
        case .correlation, .lockedRateError, .alarmSensitivity, .regret:
            return .nan
        }
    }
}
