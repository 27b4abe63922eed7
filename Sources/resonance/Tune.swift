import ArgumentParser
import Foundation
import ResonanceLab

/// `resonance tune WS... --engine stress --out FILE.json`: engine constants chosen offline
/// by cross-validation on labelled recordings.
struct Tune: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Tune an engine's constants on labelled workspaces, by cross-validation over subjects.",
        discussion: """
            --engine stress: every subject with `stress` and `baseline` intervals in labels.csv is cut \
            into 60-s windows every 30 s and scored by the stress engine in window mode (as in \
            `resonance validate`). The search varies the engine's scoring constants (signal points, \
            weights, logistic, the `elevated` threshold) within the registry's ranges, weight groups and \
            order rules, with Nelder–Mead and restarts (seeded; --budget evaluations per search).

            Cross-validation has subjects as the unit: --cv loso (default) holds out one subject per \
            fold, kfold:K splits subjects into K folds. In each fold constants are chosen on the training \
            subjects only and scored on the held-out ones; one final search on every subject gives the \
            written constants. Objectives: auc (ROC AUC, unitless), balanced-accuracy (of the `elevated` \
            level, 0–1), brier (score/100 as the probability of stress; lower is better).

            The output has the shape `constants show` prints, with the engine's minor version raised and a \
            `tuning` object: input digests, subjects per fold, seed, budget, objective, and the default vs \
            tuned held-out objective per fold with mean and bootstrap 95 % CI. When the tuned constants do \
            not beat the defaults on held-out folds, nothing is written unless --force and the exit code \
            is 3. The same inputs and seed give a byte-identical file.
            """
    )

    /// Exit code when the tuned constants do not beat the defaults and nothing is written.
    static let notBetterExitCode: Int32 = 3

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Labelled workspaces (from `resonance import`).", valueName: "workspace"))
    var workspaces: [String]

    @Option(help: ArgumentHelp("Engine to tune: stress.", valueName: "name"))
    var engine: String

    @Option(help: ArgumentHelp("Tuned constants JSON to write.", valueName: "file"))
    var out: String

    @Option(help: ArgumentHelp("Cross-validation over subjects: loso or kfold:K.", valueName: "scheme"))
    var cv: String = "loso"

    @Option(help: ArgumentHelp("auc, balanced-accuracy or brier.", valueName: "name"))
    var objective: String = "auc"

    @Option(help: ArgumentHelp("Objective evaluations per search (per fold, and once more on all subjects).",
                               valueName: "n"))
    var budget: Int = 500

    @Option(help: ArgumentHelp("Seed of the search and the fold assignment.", valueName: "n"))
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("Report folder for the decision receipt (tuning.md).", valueName: "dir"))
    var reportDir: String?

    @Flag(help: "Write the tuned constants even when they do not beat the defaults on held-out folds.")
    var force = false

    func validate() throws {
        for ws in workspaces { try WorkspaceFolder.requireExisting(ws) }
        guard !workspaces.isEmpty else { throw ValidationError("give at least one workspace.") }
        guard engine == "stress" else {
            throw ValidationError("--engine must be stress (got '\(engine)').")
        }
        guard CrossValidation(argument: cv) != nil else { throw ValidationError("--cv must be loso or kfold:K with K ≥ 2 (got '\(cv)').") }
        guard TuningObjective(rawValue: objective) != nil else {
            throw ValidationError("--objective must be one of \(TuningObjective.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        guard budget >= 20, budget <= 1_000_000 else { throw ValidationError("--budget must be between 20 and 1000000 evaluations.") }
    }

    func run() throws {
        let progress = global.reporter
        let written = try { () -> Bool in
            let registry = try global.registry()
            let tuner = try StressTuner(registry: registry, objective: TuningObjective(rawValue: objective) ?? .auc,
                                        cv: CrossValidation(argument: cv) ?? .loso, budget: budget, seed: seed)
            var options = StressScoringOptions()
            options.rr = registry.rr
            let inputs = workspaces.map { (name: ((($0 as NSString).standardizingPath) as NSString).lastPathComponent, path: $0) }
            let data = try StressTuningData(workspaces: inputs, engine: StressEngine(constants: StressConstants(registry: registry)),
                                            options: options, jobs: global.workers)
            progress.note("tune: \(data.subjects.count) subjects, \(data.signals.count) windows; cv \(tuner.cv), objective \(objective)")
            let result = try tuner.run(data, jobs: global.workers)
            progress.note(String(format: "tune: %d candidate evaluations in %.2f s (%.3f ms per candidate)",
                                   result.evaluations, result.seconds, 1000 * result.seconds / Double(max(1, result.evaluations))))
            let tuningReport = TuningReport(tuner: tuner, data: data, result: result, options: options)
            if let reportDir {
                try AtomicFile.write(tuningReport.receipt(), to: (reportDir as NSString).appendingPathComponent("tuning.md"))
            }
            let gain = tuningReport.improvement
            if tuningReport.overfitting {
                progress.note(String(format: "tune: warning: over-fitting suspected (train–held-out gap %.3f above the defaults')",
                                       tuningReport.overfitExcess))
            }
            guard tuningReport.beatsDefaults || force else {
                FileHandle.standardError.write(Data(("tune: tuned constants do not beat the defaults on held-out folds "
                    + "(mean improvement \(String(format: "%.4f", gain.mean))); nothing written to \(out) "
                    + "(use --force to write them anyway)\n").utf8))
                return false
            }
            try AtomicFile.write(try tuningReport.constantsJSON(), to: out)
            progress.note("tune: held-out \(objective) improvement "
                + String(format: "%.4f (95 %% CI %.4f–%.4f)", gain.mean, gain.ci.0, gain.ci.1) + "; wrote \(out)")
            return true
        }()
        if !written { throw ExitCode(Self.notBetterExitCode) }
    }
}
