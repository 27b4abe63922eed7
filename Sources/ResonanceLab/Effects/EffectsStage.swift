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
    /// Whether the mixed model estimates its onset time constant from the data
    /// (`MixedEffects.profiledOnset`) instead of using the constant in force.
    public var estimateOnset: Bool

    public init(models: [EffectModel] = EffectModel.allCases, estimateOnset: Bool = false) {
        self.models = models
        self.estimateOnset = estimateOnset
    }

    public var name: String { "effects" }
    public var version: String { "1.0.0" }
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
        if estimateOnset { ws.session?.record(setting: "onset", "estimated") }
        let out = try Self.run(plays: plays, models: models, registry: context.registry, jobs: context.jobs,
                               estimateOnset: estimateOnset)
        try ws.write(out.songs)
        try ws.write(out.personas)
        try ws.write(out.playlists)
        context.progress.note("effects: \(plays.count) plays → \(out.songs.count) song, \(out.personas.count) persona and "
            + "\(out.playlists.count) playlist rows (\(models.map(\.rawValue).joined(separator: "+")))")
    }

    public static func run(plays: [SessionPlayRow], models: [EffectModel], registry: ConstantsRegistry,
                           jobs: Int = 1, estimateOnset: Bool = false) throws -> EffectTables {
        let index = PlayIndex(plays)
        // The models are independent: run them side by side, outputs in `models` order.
        let tables = try Parallel.map(models, jobs: jobs) { model -> EffectTables in
            switch model {
            case .ema: return EMAEffects.run(index, registry: registry)
            case .mixed: return try MixedEffects.run(index, registry: registry, jobs: jobs, estimateOnset: estimateOnset)
            }
        }
        return tables.reduce(EffectTables(), +)
    }
}
