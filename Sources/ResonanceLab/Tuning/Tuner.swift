import Foundation

/// What a tuner maximises (or minimises) on held-out data.
public enum TuningObjective: String, CaseIterable, Sendable {
    /// Stress: ROC AUC of the engine score for stress vs baseline windows.
    case auc
    /// Stress: balanced accuracy of the `elevated` level (score ≥ `elevated_from`).
    case balancedAccuracy = "balanced-accuracy"
    /// Stress: Brier score of score / 100 as the probability of stress (lower is better).
    case brier
    /// Song effect: Pearson r of learned vs planted per-(listener, song) effects.
    case correlation
    /// Pacer: mean |locked − planted| resonance rate of simulated sessions (0 on a flat curve's
    /// plateau), breaths/min (lower is better).
    case lockedRateError = "locked-rate-error"
    /// Trend: share of planted deterioration events the shown flags find, less the
    /// false alarms per person-month above 1 (`TrendTuningData`).
    case alarmSensitivity = "sensitivity-at-1-false-alarm"
    /// Ranking: mean regret of the DJ's picks against the oracle in closed loop (bpm, lower is better).
    case regret
    /// True when larger values are better.
    public var higherIsBetter: Bool { self != .brier && self != .lockedRateError && self != .regret }
}

/// The SHA-256 of the tables one workspace contributes to a tuning problem.
public struct TuningInput: Sendable {
    public var workspace: String
    public var files: [(name: String, sha256: String)]

    /// Digests of the tables `names` of `ws` that exist (the manifest itself left out):
    /// the SHA-256 the manifest records, else that of the file.
    init(workspace: String, _ ws: Workspace, tables names: [String]) throws {
        self.workspace = workspace
        files = try names.filter { $0 != Manifest.fileName && ws.exists($0) }.map { name in
            (name, try ws.session?.manifest?.table(name)?.sha256 ?? SHA256.hex(ofFile: ws.file(name)))
        }
    }
}

/// One engine's tuning problem: data computed once, split into cross-validation units
/// (subjects or listeners), and an objective of a candidate registry on the data of
/// some units. The tuner, its search, cross-validation, report and constants file are
/// shared by every problem.
public protocol TuningProblem: Sendable {
    /// What `select` hands to `value`: the part of the data of some units.
    associatedtype Selection: Sendable
    /// The engine whose constants are tuned.
    static var engine: String { get }
    /// The objectives this problem can evaluate; the first is the default.
    static var objectives: [TuningObjective] { get }
    /// The constants tuned unless others are named.
    static var defaultNames: [String] { get }
    /// The workspace tables the problem reads (opened and verified by the caller).
    static var reads: [String] { get }
    /// Search bounds narrower than the registry range, for constants whose registry
    /// range is far wider than any sensible value.
    static var searchBounds: [String: ClosedRange<Double>] { get }

    /// The cross-validation units, `workspace/name`.
    var units: [String] { get }
    /// What a unit is, plural (`subjects`, `listeners`): a key of the constants file.
    var unitNoun: String { get }
    var inputs: [TuningInput] { get }
    /// One sentence on the data, for the receipt.
    var dataSummary: String { get }
    /// Problem-specific provenance for the constants file's `tuning` object.
    var provenance: [String: JSONValue] { get }

    /// The data of the units `units` (indices into `units`).
    func select(_ units: [Int]) -> Selection
    /// The raw objective of `registry`'s constants on `selection` (NaN when undefined).
    func value(_ objective: TuningObjective, _ registry: ConstantsRegistry, on selection: Selection) -> Double
}

public struct TuningError: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

/// The constants a tuner varies and how the unit cube maps onto them: each constant
/// over its registry range, or the narrower search bounds given (log scale for a range
/// spanning more than two decades with a positive lower bound), each weight group as
/// shares normalised to sum to 1. Order rules are left to the registry's validation:
/// a candidate breaking one is rejected.
public struct SearchSpace: Sendable {
    public let engine: String
    public let names: [String]
    /// Per name: the searched range.
    let ranges: [ClosedRange<Double>]
    let groups: [[Int]]

    public init(engine: String, names: [String], bounds: [String: ClosedRange<Double>] = [:]) throws {
        guard let spec = ConstantsRegistry.spec(engine) else { throw TuningError(message: "unknown engine '\(engine)'") }
        var ranges: [ClosedRange<Double>] = []
        for n in names {
            guard let c = spec.constants.first(where: { $0.name == n }) else {
                throw TuningError(message: "engine '\(engine)' has no constant '\(n)'")
            }
            let b = bounds[n] ?? c.range
            ranges.append(max(b.lowerBound, c.range.lowerBound)...min(b.upperBound, c.range.upperBound))
        }
        var groups: [[Int]] = []
        for g in spec.weightGroups {
            let idx = g.compactMap { names.firstIndex(of: $0) }
            guard idx.isEmpty || idx.count == g.count else {
                throw TuningError(message: "weights \(g.joined(separator: ", ")) must be tuned together")
            }
            if !idx.isEmpty { groups.append(idx) }
        }
        self.engine = engine; self.names = names; self.ranges = ranges; self.groups = groups
    }

    func logScale(_ r: ClosedRange<Double>) -> Bool { r.lowerBound > 0 && r.upperBound / r.lowerBound > 100 }

    /// Constant values of the unit-cube point `u`.
    public func values(_ u: [Double]) -> [String: Double] {
        var out: [String: Double] = [:]
        for (i, r) in ranges.enumerated() {
            let t = clamp(u[i], 0...1), lo = r.lowerBound, hi = r.upperBound
            out[names[i]] = logScale(r) ? exp(log(lo) + t * (log(hi) - log(lo))) : lo + t * (hi - lo)
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
        zip(names, ranges).map { n, r in
            let v = values[n] ?? r.lowerBound, lo = r.lowerBound, hi = r.upperBound
            return clamp(logScale(r) ? (log(v) - log(lo)) / (log(hi) - log(lo)) : (v - lo) / (hi - lo), 0...1)
        }
    }
}

/// One cross-validation fold: who was held out, who the search saw, and the objective
/// of the default and tuned constants on the held-out and training units.
public struct TuningFold: Sendable {
    public var heldOut: [String]
    /// Units whose data the search evaluated candidates on.
    public var searched: [String]
    public var defaultHeldOut: Double
    public var tunedHeldOut: Double
    public var defaultTrain: Double
    public var tunedTrain: Double
    public var tuned: [String: Double]
}

/// The outcome of tuning: per-fold evidence and the constants chosen on every unit.
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

/// Tunes an engine's constants by nested search: in each cross-validation fold,
/// Nelder–Mead (seeded, `budget` evaluations) on the training units only, scored on the
/// held-out ones; then one search on every unit gives the shipped constants.
public struct Tuner: Sendable {
    public var registry: ConstantsRegistry
    public var space: SearchSpace
    public var objective: TuningObjective
    public var cv: CrossValidation
    public var budget: Int
    public var seed: UInt64

    /// A tuner of `problem`'s engine; `names` defaults to the problem's, `objective` to
    /// its first. Throws for an objective the problem cannot evaluate.
    public init<P: TuningProblem>(_ problem: P.Type, registry: ConstantsRegistry = .defaults, names: [String]? = nil,
                                  objective: TuningObjective? = nil, cv: CrossValidation = .loso, budget: Int = 500,
                                  seed: UInt64 = 1) throws {
        let objective = objective ?? P.objectives[0]
        guard P.objectives.contains(objective) else {
            throw TuningError(message: "the \(P.engine) engine is tuned on \(P.objectives.map(\.rawValue).joined(separator: ", ")), "
                + "not \(objective.rawValue)")
        }
        self.registry = registry; self.objective = objective; self.cv = cv; self.budget = budget; self.seed = seed
        space = try SearchSpace(engine: P.engine, names: names ?? P.defaultNames, bounds: P.searchBounds)
    }

    /// `registry` with the constants of the unit-cube point `u`, or nil when they break a rule.
    func candidate(_ u: [Double]) -> ConstantsRegistry? {
        try? registry.replacing(space.engine, with: space.values(u))
    }

    /// The objective signed to be maximised (a Brier score negated).
    func fitness<P: TuningProblem>(_ problem: P, _ registry: ConstantsRegistry, _ selection: P.Selection) -> Double {
        let v = problem.value(objective, registry, on: selection)
        return objective.higherIsBetter ? v : -v
    }

    /// The best constants on `selection`, and the evaluations spent.
    func search<P: TuningProblem>(_ problem: P, _ selection: P.Selection, seed: UInt64) -> ([String: Double], Int) {
        let start = space.point(registry.values(of: space.engine))
        let result = NelderMead(budget: budget, seed: seed).maximise(start: start) { u in
            guard let r = candidate(u) else { return -.infinity }
            return fitness(problem, r, selection)
        }
        return (space.values(result.point), result.evaluations)
    }

    public func run<P: TuningProblem>(_ problem: P, jobs: Int = 1) throws -> TuningResult {
        guard P.engine == space.engine else { throw TuningError(message: "a \(P.engine) problem given to a \(space.engine) tuner") }
        let units = problem.units
        guard units.count >= 2 else {
            throw TuningError(message: "tuning needs at least two \(problem.unitNoun) with data")
        }
        let clock = DispatchTime.now().uptimeNanoseconds
        let foldUnits = cv.folds(subjects: units.count, seed: seed)
        let folds = try Parallel.map(Array(foldUnits.enumerated()), jobs: jobs) { f, heldOut -> (TuningFold, Int) in
            let held = Set(heldOut)
            let trainUnits = units.indices.filter { !held.contains($0) }
            let train = problem.select(trainUnits), test = problem.select(heldOut)
            let (tuned, n) = search(problem, train, seed: seed &+ UInt64(f + 1))
            let tunedRegistry = try registry.replacing(space.engine, with: tuned)
            return (TuningFold(heldOut: heldOut.map { units[$0] }, searched: trainUnits.map { units[$0] },
                               defaultHeldOut: problem.value(objective, registry, on: test),
                               tunedHeldOut: problem.value(objective, tunedRegistry, on: test),
                               defaultTrain: problem.value(objective, registry, on: train),
                               tunedTrain: problem.value(objective, tunedRegistry, on: train), tuned: tuned), n)
        }
        let (tuned, n) = search(problem, problem.select(Array(units.indices)), seed: seed)
        let defaults = registry.values(of: space.engine).filter { space.names.contains($0.key) }
        return TuningResult(folds: folds.map(\.0), defaults: defaults, tuned: tuned, evaluations: folds.reduce(n) { $0 + $1.1 },
                            seconds: Double(DispatchTime.now().uptimeNanoseconds - clock) / 1e9)
    }
}
