import Foundation

/// The outputs of `resonance tune`: the tuned constants file with its provenance, and
/// the decision receipt. Neither holds a wall-clock time, so the same inputs and seed
/// give byte-identical files.
public struct TuningReport {
    public var tuner: Tuner
    public var problem: any TuningProblem
    public var result: TuningResult

    /// Train − held-out gap of the tuned constants beyond that of the defaults, in
    /// objective units, above which over-fitting is suspected.
    public static let overfitGap = 0.05

    public init(tuner: Tuner, problem: any TuningProblem, result: TuningResult) {
        self.tuner = tuner; self.problem = problem; self.result = result
    }

    var objective: TuningObjective { tuner.objective }

    /// Mean over folds with a seeded bootstrap 95 % CI.
    static func summary(_ x: [Double]) -> (mean: Double, ci: (Double, Double)) {
        let finite = x.filter(\.isFinite)
        return (finite.isEmpty ? .nan : Stats.mean(finite), GroupComparison.bootstrapMeanCI(finite))
    }

    public var improvement: (mean: Double, ci: (Double, Double)) { Self.summary(result.improvement(objective)) }

    /// The tuned constants beat the defaults when the mean held-out improvement is positive.
    public var beatsDefaults: Bool { improvement.mean > 0 }

    /// How much more the tuned constants lose from training to held-out folds than the
    /// defaults do (objective units; positive = the tuned constants fit the training
    /// units better than they generalise).
    public var overfitExcess: Double {
        let sign = objective.higherIsBetter ? 1.0 : -1.0
        let tunedGap = result.folds.map { sign * ($0.tunedTrain - $0.tunedHeldOut) }.filter(\.isFinite)
        let defaultGap = result.folds.map { sign * ($0.defaultTrain - $0.defaultHeldOut) }.filter(\.isFinite)
        return Stats.mean(tunedGap) - Stats.mean(defaultGap)
    }

    public var overfitting: Bool { overfitExcess > Self.overfitGap }

    /// `major.minor.patch` with the minor version raised and the patch reset.
    static func minorBump(_ version: String) -> String {
        let parts = version.split(separator: ".").compactMap { Int($0) }
        guard parts.count == 3 else { return version }
        return "\(parts[0]).\(parts[1] + 1).0"
    }

    /// The registry with the tuned constants and the engine's minor version bumped.
    public func tunedRegistry() throws -> ConstantsRegistry {
        let engine = tuner.space.engine
        let version = tuner.registry.engines[engine]?.version ?? ConstantsRegistry.spec(engine)?.version ?? "1.0.0"
        return try tuner.registry.replacing(engine, with: result.tuned, version: Self.minorBump(version))
    }

    /// The constants file: the shape `constants show` prints, plus a `tuning` object.
    public func constantsJSON() throws -> String {
        let registry = try tunedRegistry()
        guard case var .object(fields) = registry.json(), case let .object(provenance) = registry.provenance else {
            return ""
        }
        fields.merge(provenance) { current, _ in current }
        let held = Self.summary(result.folds.map(\.tunedHeldOut)), base = Self.summary(result.folds.map(\.defaultHeldOut))
        let gain = improvement
        let unit = problem.unitNoun
        var tuning: [String: JSONValue] = [
            "engine": .string(tuner.space.engine),
            "from_version": .string(tuner.registry.engines[tuner.space.engine]?.version ?? ""),
            "objective": .string(objective.rawValue),
            "cv": .string(tuner.cv.description), "seed": .int(Int(truncatingIfNeeded: tuner.seed)), "budget": .int(tuner.budget),
            "tuned_constants": .array(tuner.space.names.map(JSONValue.string)),
            "inputs": .array(problem.inputs.map { input in
                .object(["workspace": .string(input.workspace),
                         "sha256": .object(Dictionary(uniqueKeysWithValues: input.files.map { ($0.name, JSONValue.string($0.sha256)) }))])
            }),
            unit: .int(problem.units.count),
            "folds": .array(result.folds.enumerated().map { i, f in
                .object([
                    "fold": .int(i + 1), "held_out": .array(f.heldOut.map(JSONValue.string)),
                    "train_\(unit)": .array(f.searched.map(JSONValue.string)),
                    "default_held_out": .num(f.defaultHeldOut), "tuned_held_out": .num(f.tunedHeldOut),
                    "default_train": .num(f.defaultTrain), "tuned_train": .num(f.tunedTrain),
                ])
            }),
            "held_out": .object([
                "default_mean": .num(base.mean), "default_ci": .array([.num(base.ci.0), .num(base.ci.1)]),
                "tuned_mean": .num(held.mean), "tuned_ci": .array([.num(held.ci.0), .num(held.ci.1)]),
                "improvement_mean": .num(gain.mean), "improvement_ci": .array([.num(gain.ci.0), .num(gain.ci.1)]),
                "folds_improved": .int(result.improvement(objective).filter { $0 > 0 }.count),
            ]),
            "beats_defaults": .bool(beatsDefaults),
            "overfit_excess_gap": .num(overfitExcess), "overfitting_suspected": .bool(overfitting),
        ]
        tuning.merge(problem.provenance) { current, _ in current }
        fields["tuning"] = .object(tuning)
        return JSONValue.object(fields).render()
    }

    /// The decision receipt in Markdown: what changed, by how much, the evidence and
    /// the verdict.
    public func receipt() -> String {
        func f(_ x: Double, _ d: Int = 4) -> String { x.isFinite ? decimals(x, d) : "–" }
        func ci(_ c: (Double, Double)) -> String { "\(f(c.0))–\(f(c.1))" }
        let engine = tuner.space.engine
        let from = tuner.registry.engines[engine]?.version ?? ""
        let held = Self.summary(result.folds.map(\.tunedHeldOut)), base = Self.summary(result.folds.map(\.defaultHeldOut))
        let gain = improvement
        let better = objective.higherIsBetter ? "higher" : "lower"
        var md = "# Tuning receipt: \(engine) \(from) → \(Self.minorBump(from))\n\n"
        let unit = problem.unitNoun
        md += "Objective: \(objective.rawValue) (\(better) is better), cross-validation \(tuner.cv) over \(problem.units.count) "
            + "\(unit) (\(problem.dataSummary)), Nelder–Mead with restarts, \(plural(tuner.budget, "evaluation")) per search, "
            + "seed \(tuner.seed). Constants are chosen on the training \(unit) of each fold only; the shipped constants "
            + "come from one more search on all \(unit).\n\n"
        md += "## Verdict\n\n"
        md += beatsDefaults
            ? "The tuned constants beat the defaults on held-out \(unit): mean improvement \(f(gain.mean)) (95 % CI \(ci(gain.ci))), "
                + "\(result.improvement(objective).filter { $0 > 0 }.count) of \(plural(result.folds.count, "fold")) improved.\n"
            : "The tuned constants do **not** beat the defaults on held-out \(unit) (mean improvement \(f(gain.mean)), "
                + "95 % CI \(ci(gain.ci))): keep the defaults.\n"
        if overfitting {
            md += "\n**Warning: over-fitting suspected.** The tuned constants lose \(f(overfitExcess)) more from training to "
                + "held-out \(unit) than the defaults do (threshold \(f(Self.overfitGap, 2))).\n"
        }
        md += "\n## What changed\n\n"
        md += markdownTable(["constant", "default", "tuned", "change"], tuner.space.names.map { n in
            let a = result.defaults[n] ?? .nan, b = result.tuned[n] ?? .nan
            return [n, f(a), f(b), f(b - a)]
        })
        md += "\n## Evidence: held-out folds\n\n"
        md += "Held-out mean: defaults \(f(base.mean)) (95 % CI \(ci(base.ci))), tuned \(f(held.mean)) (95 % CI \(ci(held.ci))); "
            + "CIs are seeded bootstraps over folds.\n\n"
        md += markdownTable(["fold", "held out", "default (held out)", "tuned (held out)", "default (train)", "tuned (train)"],
                            result.folds.enumerated().map { i, fold in
                                [String(i + 1), fold.heldOut.joined(separator: " "), f(fold.defaultHeldOut), f(fold.tunedHeldOut),
                                 f(fold.defaultTrain), f(fold.tunedTrain)]
                            })
        md += "\n## Inputs\n\n"
        for input in problem.inputs {
            md += "- `\(input.workspace)`: " + input.files.map { "\($0.name) \($0.sha256)" }.joined(separator: ", ") + "\n"
        }
        return md
    }
}
