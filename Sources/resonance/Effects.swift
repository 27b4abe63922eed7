import ArgumentParser
import ResonanceLab

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

    @Flag(help: ArgumentHelp("Mixed model: choose the onset time constant (20–120 s) by profile likelihood instead of "
                             + "the mixed_model constant (45 s by default); about seven fits per metric (docs/methods.md)."))
    var estimateOnset = false

    func validate() throws {
        try WorkspaceFolder.requireExisting(workspace)
    }

    func run() throws {
        try EffectsStage(models: model.models, estimateOnset: estimateOnset).runCommitted(Workspace(path: workspace), try global.context())
    }
}
