import ArgumentParser
import ResonanceLab

extension OnsetChoice: ExpressibleByArgument {}

/// `resonance effects WS`: per-song, per-listener and per-playlist effects.
struct Effects: ParsableCommand {
    enum ModelChoice: String, ExpressibleByArgument, CaseIterable {
        case ema, mixed, both
        var models: [EffectModel] { self == .both ? EffectModel.allCases : [EffectModel(rawValue: rawValue) ?? .mixed] }
    }

    static let configuration = CommandConfiguration(
        abstract: "Estimate what each song does to each listener's heart, and how sure we are.",
        discussion: """
            Reads session_plays.csv (run `resonance sessions` first) and writes song_effects.csv, \
            persona_effects.csv and playlist_effects.csv, with a `model` column. `ema` replays the \
            product's learning rule in play order; `mixed` fits a random-effects model of each play's \
            ΔHR, ΔRMSSD and skip with shrinkage and 95 % intervals. A song's ΔHR / ΔRMSSD effect is the \
            expected change over a full play of it (last 30 s / 60 s minus first); a listener's \
            sensitivity multiplies it (mean 1).
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Workspace folder.", valueName: "workspace"))
    var workspace: String

    @Option(help: "ema (the product's learning rule), mixed (random-effects model) or both.")
    var model: ModelChoice = .both

    @Option(help: ArgumentHelp("Mixed model's onset time constant: profiled (the profile-likelihood best of 15–134 s "
                               + "where it beats the mixed_model constant by 2Δℓ > onset_test_lr, intervals widened by "
                               + "onset_shift_weight × each song's shift from the constant's estimate; else the constant), "
                               + "fixed (the constant, 45 s) or estimated (the best, model intervals). Default: profiled.",
                               valueName: "mode"))
    var onset: OnsetChoice = .profiled

    func validate() throws {
        try WorkspaceFolder.requireExisting(workspace)
    }

    func run() throws {
        try EffectsStage(models: model.models, onset: onset).runCommitted(Workspace(path: workspace), try global.context())
    }
}
