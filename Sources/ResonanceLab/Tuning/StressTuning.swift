import Foundation

/// What a tuner maximises on a set of labelled windows.
public enum TuningObjective: String, CaseIterable, Sendable {
    /// ROC AUC of the engine score for stress vs baseline windows.
    case auc
    /// Balanced accuracy of the `elevated` level (score ≥ `elevated_from`).
    case balancedAccuracy = "balanced-accuracy"
    /// Brier score of score / 100 as the probability of stress (lower is better).
    case brier

    /// True when larger values are better.
    public var higherIsBetter: Bool { self != .brier }

    /// The objective of `scores` (0–100) against `isStress`.
    public func value(scores: [Double], isStress: [Bool], elevatedFrom: Double) -> Double {
        switch self {
        case .auc:
            return GroupComparison.auc(scores: scores, isPositive: isStress)
        case .balancedAccuracy:
            var b = BinaryScores()
            b.scores = scores; b.isStress = isStress
            return b.confusion(threshold: elevatedFrom).balancedAccuracy
        case .brier:
            guard !scores.isEmpty else { return .nan }
            var s = 0.0
            for (p, y) in zip(scores, isStress) {
                let e = p / 100 - (y ? 1 : 0)
                s += e * e
            }
            return s / Double(scores.count)
        }
    }
}

/// The windows of labelled workspaces as the stress engine's signals, computed once:
/// every candidate constant set is then a pass over these arrays.
public struct StressTuningData: Sendable {
    /// `workspace/subject` of each subject.
    public var subjects: [String] = []
    /// Per window: its subject (index into `subjects`), the engine's signals, its label.
    public var subjectOf: [Int] = []
    public var signals: [StressSignals] = []
    public var isStress: [Bool] = []
    /// Per workspace: its name and the SHA-256 of the tables the windows come from.
    public var inputs: [(workspace: String, files: [(name: String, sha256: String)])] = []

    public init() {}

    /// The tables the windows come from.
    public static let reads = [Manifest.fileName, LabelInterval.fileName, HRSample.fileName, RRInterval.fileName]

    /// Windows of every subject with stress and baseline labels. The signals depend on
    /// the engine's window-count constants of `engine` (held fixed while tuning) only.
    /// Windows where the engine has no signal are left out. Throws when a workspace has
    /// no labelled subject.
    public init(workspaces: [(name: String, workspace: Workspace)], engine: StressEngine, options: StressScoringOptions,
                jobs: Int = 1) throws {
        for (name, ws) in workspaces {
            let path = ws.path
            let loaded = try StressWindows.load(ws, options: options, jobs: jobs)
            guard !loaded.isEmpty else {
                throw TuningError(message: "\(path): no subject has both 'stress' and 'baseline' intervals in labels.csv; "
                    + "tuning the stress engine needs labelled recordings")
            }
            var files: [(String, String)] = []
            for table in Self.reads.dropFirst() where ws.exists(table) {
                files.append((table, try ws.session?.manifest?.table(table)?.sha256 ?? SHA256.hex(ofFile: ws.file(table))))
            }
            inputs.append((name, files))
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

    /// Indices of the windows of subjects not in `heldOut` (training) and of those in it.
    public func split(heldOut: [Int]) -> (train: [Int], test: [Int]) {
        let out = Set(heldOut)
        var train: [Int] = [], test: [Int] = []
        for i in subjectOf.indices { if out.contains(subjectOf[i]) { test.append(i) } else { train.append(i) } }
        return (train, test)
    }
}

public struct TuningError: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

/// The constants a tuner varies and how the unit cube maps onto them: each constant
/// over its registry range (log scale for a range spanning more than two decades
/// with a positive lower bound), each weight group as shares normalised to sum to 1.
/// Order rules are left to the registry's validation: a candidate breaking one is
/// rejected.
public struct SearchSpace: Sendable {
    public let engine: String
    public let names: [String]
    let specs: [ConstantSpec]
    let groups: [[Int]]

    public init(engine: String, names: [String]) throws {
        guard let spec = ConstantsRegistry.spec(engine) else { throw TuningError(message: "unknown engine '\(engine)'") }
        var specs: [ConstantSpec] = []
        for n in names {
            guard let c = spec.constants.first(where: { $0.name == n }) else {
                throw TuningError(message: "engine '\(engine)' has no constant '\(n)'")
            }
            specs.append(c)
        }
        var groups: [[Int]] = []
        for g in spec.weightGroups {
            let idx = g.compactMap { names.firstIndex(of: $0) }
            guard idx.isEmpty || idx.count == g.count else {
                throw TuningError(message: "weights \(g.joined(separator: ", ")) must be tuned together")
            }
            if !idx.isEmpty { groups.append(idx) }
        }
        self.engine = engine; self.names = names; self.specs = specs; self.groups = groups
    }

    func logScale(_ c: ConstantSpec) -> Bool { c.range.lowerBound > 0 && c.range.upperBound / c.range.lowerBound > 100 }

    /// Constant values of the unit-cube point `u`.
    public func values(_ u: [Double]) -> [String: Double] {
        var out: [String: Double] = [:]
        for (i, c) in specs.enumerated() {
            let t = clamp(u[i], 0...1), lo = c.range.lowerBound, hi = c.range.upperBound
            out[c.name] = logScale(c) ? exp(log(lo) + t * (log(hi) - log(lo))) : lo + t * (hi - lo)
        }
        for g in groups {
            let total = g.reduce(0) { $0 + clamp(u[$1], 0...1) }
            for i in g { out[names[i]] = total > 0 ? clamp(u[i], 0...1) / total : 1 / Double(g.count) }
            // The last share absorbs rounding so that the group sums to 1 exactly.
            if let last = g.last { out[names[last]] = 1 - g.dropLast().reduce(0) { $0 + (out[names[$1]] ?? 0) } }
        }
        return out
    }

    /// The unit-cube point of `values` (weights map to their own shares).
    public func point(_ values: [String: Double]) -> [Double] {
        specs.map { c in
            let v = values[c.name] ?? c.value, lo = c.range.lowerBound, hi = c.range.upperBound
            return clamp(logScale(c) ? (log(v) - log(lo)) / (log(hi) - log(lo)) : (v - lo) / (hi - lo), 0...1)
        }
    }
}

/// One cross-validation fold: who was held out, who the search saw, and the objective
/// of the default and tuned constants on the held-out and training windows.
public struct TuningFold: Sendable {
    public var heldOut: [String]
    /// Subjects whose windows the search evaluated candidates on.
    public var searched: [String]
    public var defaultHeldOut: Double
    public var tunedHeldOut: Double
    public var defaultTrain: Double
    public var tunedTrain: Double
    public var tuned: [String: Double]
}

/// The outcome of tuning: per-fold evidence and the constants chosen on every subject.
public struct TuningResult: Sendable {
    public var folds: [TuningFold]
    public var defaults: [String: Double]
    public var tuned: [String: Double]
    public var evaluations: Int
    public var seconds: Double

    /// Signed so that a positive number means the tuned constants do better.
    public func improvement(_ objective: TuningObjective) -> [Double] {
        folds.map { objective.higherIsBetter ? $0.tunedHeldOut - $0.defaultHeldOut : $0.defaultHeldOut - $0.tunedHeldOut }
    }
}

/// Tunes the stress engine's scoring constants on labelled windows by nested search:
/// in each cross-validation fold, Nelder–Mead (seeded, `budget` evaluations) on the
/// training subjects only, scored on the held-out ones; then one search on every
/// subject gives the shipped constants. The window-count constants (`baseline_days`,
/// `min_baseline_days`, `cv_days`, `cv_min_days`) decide which reference windows form
/// the signals and stay fixed; `relaxed_below` affects no objective and stays fixed.
public struct StressTuner: Sendable {
    public static let defaultNames = [
        "rhr_score_at_baseline", "rhr_points_per_percent", "hrv_score_at_baseline", "hrv_points_per_sd",
        "cv_stable", "cv_unstable", "cv_score_stable", "cv_score_unstable",
        "weight_rhr", "weight_hrv", "weight_cv", "weight_rhr_without_cv", "weight_hrv_without_cv",
        "sigmoid_slope", "sigmoid_center", "elevated_from",
    ]

    public var registry: ConstantsRegistry
    public var space: SearchSpace
    public var objective: TuningObjective
    public var cv: CrossValidation
    public var budget: Int
    public var seed: UInt64

    public init(registry: ConstantsRegistry = .defaults, names: [String] = defaultNames, objective: TuningObjective = .auc,
                cv: CrossValidation = .loso, budget: Int = 500, seed: UInt64 = 1) throws {
        self.registry = registry; self.objective = objective; self.cv = cv; self.budget = budget; self.seed = seed
        space = try SearchSpace(engine: StressConstants.spec.name, names: names)
    }

    /// The objective of `constants` on the windows `indices` of `data`, signed to be
    /// maximised (the Brier score negated).
    func fitness(_ engine: StressEngine, _ data: StressTuningData, _ indices: [Int]) -> Double {
        var scores = [Double](repeating: 0, count: indices.count), labels = [Bool](repeating: false, count: indices.count)
        for (k, i) in indices.enumerated() {
            // With every available signal's weight at zero the engine has no score: neutral.
            scores[k] = engine.score(data.signals[i]) ?? 50
            labels[k] = data.isStress[i]
        }
        let v = objective.value(scores: scores, isStress: labels, elevatedFrom: engine.constants.elevatedFrom)
        return objective.higherIsBetter ? v : -v
    }

    /// The engine of the unit-cube point `u`, or nil when its constants break a rule.
    func engine(_ u: [Double]) -> StressEngine? {
        guard let r = try? registry.replacing(space.engine, with: space.values(u)) else { return nil }
        return StressEngine(constants: StressConstants(registry: r))
    }

    /// The best constants on the windows `indices`, and the evaluations spent.
    func search(_ data: StressTuningData, _ indices: [Int], seed: UInt64) -> ([String: Double], Int) {
        let start = space.point(registry.values(of: space.engine))
        let result = NelderMead(budget: budget, seed: seed).maximise(start: start) { u in
            guard let e = engine(u) else { return -.infinity }
            return fitness(e, data, indices)
        }
        return (space.values(result.point), result.evaluations)
    }

    public func run(_ data: StressTuningData, jobs: Int = 1) throws -> TuningResult {
        guard data.subjects.count >= 2 else { throw TuningError(message: "tuning needs at least two subjects with scored windows") }
        let clock = DispatchTime.now().uptimeNanoseconds
        let defaultEngine = StressEngine(constants: StressConstants(registry: registry))
        let foldSubjects = cv.folds(subjects: data.subjects.count, seed: seed)
        var evaluations = 0
        let folds = try Parallel.map(Array(foldSubjects.enumerated()), jobs: jobs) { f, heldOut -> (TuningFold, Int) in
            let (train, test) = data.split(heldOut: heldOut)
            let (tuned, n) = search(data, train, seed: seed &+ UInt64(f + 1))
            let engine = try StressEngine(constants: StressConstants(registry: registry.replacing(space.engine, with: tuned)))
            func raw(_ e: StressEngine, _ idx: [Int]) -> Double {
                let v = fitness(e, data, idx)
                return objective.higherIsBetter ? v : -v
            }
            let searched = Array(Set(train.map { data.subjectOf[$0] })).sorted().map { data.subjects[$0] }
            return (TuningFold(heldOut: heldOut.map { data.subjects[$0] }, searched: searched,
                               defaultHeldOut: raw(defaultEngine, test), tunedHeldOut: raw(engine, test),
                               defaultTrain: raw(defaultEngine, train), tunedTrain: raw(engine, train), tuned: tuned), n)
        }
        evaluations += folds.reduce(0) { $0 + $1.1 }
        let (tuned, n) = search(data, Array(data.signals.indices), seed: seed)
        evaluations += n
        let defaults = registry.values(of: space.engine).filter { space.names.contains($0.key) }
        return TuningResult(folds: folds.map(\.0), defaults: defaults, tuned: tuned, evaluations: evaluations,
                            seconds: Double(DispatchTime.now().uptimeNanoseconds - clock) / 1e9)
    }
}
