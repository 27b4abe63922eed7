/// Which effects model(s) to run.
public enum EffectModel: String, CaseIterable, Sendable {
    case ema, mixed
}

/// Song, listener and playlist effects from the per-play physiology of
/// `session_plays.csv` (docs/methods.md, Effects): a pure function of that table and the constants.
/// Plays without physiology nearby stay in (behaviour: skip, listen, the product's
/// score without biometrics) but are left out of the ΔHR / ΔRMSSD fits.
public struct EffectsStage: Stage {
    public var models: [EffectModel]
    /// How the mixed model takes its onset time constant (`MixedEffects.profiledOnset`).
    public var onset: OnsetChoice

    public init(models: [EffectModel] = EffectModel.allCases, onset: OnsetChoice = .profiled) {
        self.models = models
        self.onset = onset
    }

    public var name: String { "effects" }
    public var version: String { "1.1.0" }
    public var engines: [String] { ["impact", "mixed_model", "sessions", "song_effect"] }
    public var perSubject: Bool { false }
    public var reads: [String] { [SessionPlayRow.fileName] }
    public var writes: [String] { [SongEffectRow.fileName, PersonaEffectRow.fileName, PlaylistEffectRow.fileName] }

    /// Needs `session_plays.csv`: an error naming it when `sessions` has not run.
    public func run(_ ws: Workspace, _ context: StageContext) throws {
        guard ws.exists(SessionPlayRow.fileName) else {
            throw TableError(path: ws.file(SessionPlayRow.fileName), line: 0, column: 0,
                             message: "missing; run `resonance sessions` first")
        }
        let plays = try ws.read(SessionPlayRow.self)
        ws.session?.record(setting: "models", models.map(\.rawValue).joined(separator: ","))
        let out = try Self.run(plays: plays, models: models, registry: context.registry, jobs: context.jobs, onset: onset)
        if !out.onsets.isEmpty { ws.session?.record(setting: "onset", onset.rawValue) }
        for selection in out.onsets {
            ws.session?.record(setting: "onset_\(selection.metric.rawValue)", selection.description)
            context.progress.note("effects: \(selection.metric.rawValue) onset \(selection.description)")
        }
        try ws.write(out.songs)
        try ws.write(out.personas)
        try ws.write(out.playlists)
        context.progress.note("effects: \(plays.count) plays → \(out.songs.count) song, \(out.personas.count) persona and "
            + "\(out.playlists.count) playlist rows (\(models.map(\.rawValue).joined(separator: "+")))")
    }

    public static func run(plays: [SessionPlayRow], models: [EffectModel], registry: ConstantsRegistry,
                           jobs: Int = 1, onset: OnsetChoice = .profiled) throws -> EffectTables {
        let index = PlayIndex(plays)
        // The models are independent: run them side by side, outputs in `models` order.
        let tables = try Parallel.map(models, jobs: jobs) { model -> EffectTables in
            switch model {
            case .ema: return EMAEffects.run(index, registry: registry)
            case .mixed: return try MixedEffects.run(index, registry: registry, jobs: jobs, onset: onset)
            }
        }
        return tables.reduce(EffectTables(), +)
    }
}
