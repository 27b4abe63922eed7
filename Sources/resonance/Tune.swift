import ArgumentParser
import Foundation
import ResonanceLab

/// `resonance tune WS... --engine stress|song_effect|trend|pacer --out FILE.json`: engine
/// constants chosen offline by cross-validation, on labelled recordings (stress), on
/// persona workspaces with planted song effects (song_effect) or with planted health
/// events (trend), or on simulated breathing sessions (pacer).
struct Tune: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Tune an engine's constants offline, by cross-validation over subjects or listeners.",
        discussion: """
            --engine stress: every subject with `stress` and `baseline` intervals in labels.csv is cut \
            into 60-s windows every 30 s and scored by the stress engine in window mode (as in \
            `resonance validate`). The search varies the engine's scoring constants (signal points, \
            weights, logistic, the `elevated` threshold). Subjects are the cross-validation unit. \
            Objectives: auc (ROC AUC, unitless; default), balanced-accuracy (of the `elevated` level, \
            0–1), brier (score/100 as the probability of stress; lower is better).

            --engine song_effect: on persona workspaces (`resonance personas generate`, then \
            `resonance sessions`), the product's song learning is replayed over every play's measured \
            ΔHR (bpm) and ΔRMSSD (ms) from session_plays.csv and compared with truth.csv. The search \
            varies alpha_early and alpha_late (EMA weights, 0–1), early_plays (plays, searched 0–30), \
            confidence_full_plays (plays, searched 1–100) and no_biometrics_confidence_cap (0–1). \
            Listeners are the cross-validation unit. Objective: correlation (Pearson r, unitless): per \
            metric, the learned effect of each (listener, song) pair with ≥ 5 plays measuring it vs the \
            planted song effect × listener sensitivity, pooled over the fold's listeners; the mean of \
            the ΔHR and ΔRMSSD r.

            --engine trend: on persona workspaces with planted health events (`resonance personas \
            generate --events planned`), the trend engine is re-run over the measured days of \
            daily.csv and the flags the product shows (regression, stress_pattern, \
            consecutive_elevation) are counted against truth.csv as `resonance validate` counts \
            them (a flag episode overlapping an event or the 3 days after it is a true alarm). The \
            search varies the slope thresholds (bpm/day, ms/day), slope window and minimum days, \
            slope_t_min, ewma_lambda, ewma_limit, the stress-pattern z thresholds and the elevation \
            SD and days; regression_method is the one in force (--constants). Personas are the \
            cross-validation unit. Objective: sensitivity-at-1-false-alarm: the share of illness, \
            overreaching and regression events found, less the false alarms per person-month above 1.
            --engine pacer: on workspaces of `resonance breathing simulate`, every session of \
            breathing_sim_sessions.csv (its seed, persona and strategy) is simulated again, closed loop, \
            with the candidate constants, on the same person and noise. The search varies the exploration \
            rules' constants: score_seconds (s, searched 1–15), hill_dwell_seconds (s, 5–60), \
            hill_reversals (1–10), sweep_step_per_min (breaths/min, 0.25–1.25) and settle_seconds \
            (s, 0–20). Personas are the cross-validation unit. Objective: locked-rate-error (mean \
            |locked − planted| resonance rate, 0 on a flat curve's plateau, breaths/min; lower is better).
            --engine state: the AI DJ's 30-s state at every 30-s tick inside a `stress` or \
            `baseline` interval of labelled workspaces (as `resonance dj state`, fallback baselines). \
            The search varies hrv_window_seconds (s, searched 60–1800), hrv_trend_weight (stress per \
            ms/min) and trend_min_samples (samples, searched 2–30). Subjects are the cross-validation \
            unit. Objective: auc (pooled ROC AUC of the state's stress for the stress label, unitless).

            --engine ranking: on workspaces from `resonance dj simulate`, the closed-loop simulation is \
            re-run with the options their manifest records, the DJ policy only. The search varies the \
            five ranking weights (summing to 1), recency_weight (score) and context_prior_plays (plays, \
            searched 0–20). Personas are the cross-validation unit (a fold holds out every replica of \
            its personas). Objective: regret (mean regret of the DJ's picks against the oracle, bpm of \
            planted need fulfilment; lower is better).

            Every engine: Nelder–Mead with restarts (seeded; --budget evaluations per search) within \
            the registry's ranges, weight groups and order rules. --cv loso (default) holds out one \
            subject or listener per fold, kfold:K splits them into K folds. In each fold constants are \
            chosen on the training units only and scored on the held-out ones; one final search on all \
            of them gives the written constants.

            The output has the shape `constants show` prints, with the engine's minor version raised and a \
            `tuning` object: input digests, subjects or listeners per fold, seed, budget, objective, and \
            the default vs tuned held-out objective per fold with mean and bootstrap 95 % CI. When the \
            tuned constants do not beat the defaults on held-out folds, nothing is written unless --force \
            and the exit code is 3. The same inputs and seed give a byte-identical file.
            """
    )

    /// Exit code when the tuned constants do not beat the defaults and nothing is written.
    static let notBetterExitCode: Int32 = 3

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Workspaces: labelled (stress, from `resonance import`) or persona workspaces after "
                                 + "`resonance sessions` (song_effect), or `resonance breathing simulate` workspaces (pacer).", valueName: "workspace"))
    var workspaces: [String]

    @Option(help: ArgumentHelp("Engine to tune: stress, song_effect, state, ranking, trend or pacer.", valueName: "name"))
    var engine: String

    @Option(help: ArgumentHelp("Tuned constants JSON to write.", valueName: "file"))
    var out: String

    @Option(help: ArgumentHelp("Cross-validation over subjects (stress) or listeners (song_effect): loso (one held out "
                               + "per fold) or kfold:K.", valueName: "scheme"))
    var cv: String = "loso"

    @Option(help: ArgumentHelp("stress: auc (default), balanced-accuracy or brier; song_effect: correlation (default); "
                               + "trend: sensitivity-at-1-false-alarm (default); "
                               + "pacer: locked-rate-error (default).",
                               valueName: "name"))
    var objective: String?

    @Option(help: ArgumentHelp("Objective evaluations per search (per fold, and once more on all units).",
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
        guard let objectives = Self.objectives[engine] else {
            throw ValidationError("--engine must be stress, song_effect, state, ranking, trend or pacer (got '\(engine)').")
        }
        guard CrossValidation(argument: cv) != nil else { throw ValidationError("--cv must be loso or kfold:K with K ≥ 2 (got '\(cv)').") }
        if let objective, !objectives.map(\.rawValue).contains(objective) {
            let names = objectives.map(\.rawValue)
            throw ValidationError("--objective for --engine \(engine) must be "
                + (names.count == 1 ? names[0] : "one of \(names.joined(separator: ", "))") + ".")
        }
        guard budget >= 20, budget <= 1_000_000 else { throw ValidationError("--budget must be between 20 and 1000000 evaluations.") }
    }

    /// Per engine, the objectives it is tuned on (the first is the default).
    static let objectives: [String: [TuningObjective]] = [
        StressTuningData.engine: StressTuningData.objectives, SongEffectTuningData.engine: SongEffectTuningData.objectives,
        PacerTuningData.engine: PacerTuningData.objectives,
        TrendTuningData.engine: TrendTuningData.objectives,
        StateTuningData.engine: StateTuningData.objectives, RankingTuningData.engine: RankingTuningData.objectives,
    ]

    func run() throws {
        let registry = try global.registry()
        func open(_ reads: [String]) throws -> [(name: String, workspace: Workspace)] {
            try workspaces.map {
                (name: ((($0 as NSString).standardizingPath) as NSString).lastPathComponent, workspace: try global.open($0, reads: reads))
            }
        }
        let cv = CrossValidation(argument: cv) ?? .loso, objective = objective.flatMap(TuningObjective.init(rawValue:))
        let written: Bool
        if engine == PacerTuningData.engine {
            let tuner = try Tuner(PacerTuningData.self, registry: registry, objective: objective, cv: cv, budget: budget, seed: seed)
            written = try tune(PacerTuningData(workspaces: open(PacerTuningData.reads)), tuner)
        } else if engine == TrendTuningData.engine {
            let tuner = try Tuner(TrendTuningData.self, registry: registry, objective: objective, cv: cv, budget: budget, seed: seed)
            written = try tune(TrendTuningData(workspaces: open(TrendTuningData.reads)), tuner)
        } else if engine == RankingTuningData.engine {
            let tuner = try Tuner(RankingTuningData.self, registry: registry, objective: objective, cv: cv, budget: budget, seed: seed)
            written = try tune(RankingTuningData(workspaces: open(RankingTuningData.reads)), tuner)
        } else if engine == StateTuningData.engine {
            let tuner = try Tuner(StateTuningData.self, registry: registry, objective: objective, cv: cv, budget: budget, seed: seed)
            written = try tune(StateTuningData(workspaces: open(StateTuningData.reads), registry: registry), tuner)
        } else if engine == SongEffectTuningData.engine {
            let tuner = try Tuner(SongEffectTuningData.self, registry: registry, objective: objective, cv: cv, budget: budget, seed: seed)
            written = try tune(SongEffectTuningData(workspaces: open(SongEffectTuningData.reads), registry: registry), tuner)
        } else {
            let tuner = try Tuner(StressTuningData.self, registry: registry, objective: objective, cv: cv, budget: budget, seed: seed)
            var options = StressScoringOptions()
            options.rr = registry.rr
            written = try tune(StressTuningData(workspaces: open(StressTuningData.reads), engine: StressEngine(constants: StressConstants(registry: registry)),
                                                options: options, jobs: global.workers), tuner)
        }
        if !written { throw ExitCode(Self.notBetterExitCode) }
    }

    /// Tunes, writes the receipt and (when better, or forced) the constants file.
    func tune<P: TuningProblem>(_ problem: P, _ tuner: Tuner) throws -> Bool {
        let progress = global.reporter
        progress.note("tune: \(problem.units.count) \(problem.unitNoun), \(problem.dataSummary); cv \(tuner.cv), "
            + "objective \(tuner.objective.rawValue)")
        let result = try tuner.run(problem, jobs: global.workers)
        progress.note(String(format: "tune: %d candidate evaluations in %.2f s (%.3f ms per candidate)",
                               result.evaluations, result.seconds, 1000 * result.seconds / Double(max(1, result.evaluations))))
        let tuningReport = TuningReport(tuner: tuner, problem: problem, result: result)
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
        progress.note("tune: held-out \(tuner.objective.rawValue) improvement "
            + String(format: "%.4f (95 %% CI %.4f–%.4f)", gain.mean, gain.ci.0, gain.ci.1) + "; wrote \(out)")
        return true
    }
}
