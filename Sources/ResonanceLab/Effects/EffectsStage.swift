/// Which effects model(s) to run.
public enum EffectModel: String, CaseIterable, Sendable {
    case ema, mixed
}

/// Song, listener and playlist effects from the per-play physiology of
/// `session_plays.csv` (docs/methods.md, Effects): a pure function of that table and the constants;
/// each song row named by the title and artist of `plays.csv`.
/// Plays without physiology nearby stay in (behaviour: skip, listen, the product's
/// score without biometrics) but are left out of the ΔHR / ΔRMSSD fits; a song, listener
/// or playlist without an estimate of a metric has no row for it, and a metric no play
/// has is not fitted (no onset is chosen for it).
public struct EffectsStage: Stage {
    public var models: [EffectModel]
    /// How the mixed model takes its onset time constant (`MixedEffects.profiledOnset`).
    public var onset: OnsetChoice

    public init(models: [EffectModel] = EffectModel.allCases, onset: OnsetChoice = .profiled) {
        self.models = models
        self.onset = onset
    }

    public var name: String { "effects" }
    /// 1.2.0: each song row named by title and artist; 1.3.0: no row without an estimate,
    /// no onset chosen for a metric no play has.
    public var version: String { "1.3.0" }
    public var engines: [String] { ["impact", "mixed_model", "sessions", "song_effect"] }
    public var perSubject: Bool { false }
    public var reads: [String] { [SessionPlayRow.fileName, Play.fileName] }
    public var writes: [String] { [SongEffectRow.fileName, PersonaEffectRow.fileName, PlaylistEffectRow.fileName] }

    /// Needs `session_plays.csv`: an error naming it when `sessions` has not run.
    public func run(_ ws: Workspace, _ context: StageContext) throws {
        guard ws.exists(SessionPlayRow.fileName) else {
            throw TableError(path: ws.file(SessionPlayRow.fileName), line: 0, column: 0,
                             message: "missing; run `resonance sessions` first")
        }
        let plays = try PlayIndex(reading: ws)
        ws.session?.record(setting: "models", models.map(\.rawValue).joined(separator: ","))
        let out = try Self.run(plays, models: models, registry: context.registry, jobs: context.jobs, onset: onset)
        let onsets = out.flatMap(\.onsets)
        if !onsets.isEmpty { ws.session?.record(setting: "onset", onset.rawValue) }
        for selection in onsets {
            ws.session?.record(setting: "onset_\(selection.metric.rawValue)", selection.description)
            context.progress.note("effects: \(selection.metric.rawValue) onset \(selection.description)")
        }
        // Each model's rows in turn, never concatenated: the tables can be as long as the plays.
        let names = try Self.songNames(ws)
        try ws.write(out.lazy.flatMap(\.songs).map { row in
            var named = row
            if let name = names[row.songId] { (named.title, named.artist) = name }
            return named
        })
        try ws.write(out.lazy.flatMap(\.personas))
        try ws.write(out.lazy.flatMap(\.playlists))
        func rows(_ count: (EffectTables) -> Int) -> Int { out.reduce(0) { $0 + count($1) } }
        let withHeartData = (0..<plays.count).filter { plays.measures[$0].hrDelta != nil }.count
        context.progress.note("effects: \(plural(plays.count, "play")) (\(withHeartData) with heart data) → \(rows { $0.songs.count }) song, "
            + "\(rows { $0.personas.count }) persona and \(plural(rows { $0.playlists.count }, "playlist row")) "
            + "(\(models.map(\.rawValue).joined(separator: "+")))")
    }

    /// The title and artist of each song, as its first play in `plays.csv` gives them
    /// (none without that table).
    static func songNames(_ ws: Workspace) throws -> [String: (title: String, artist: String)] {
        var names: [String: (title: String, artist: String)] = [:]
        try ws.forEachRow(Play.self) { play in
            if names[play.songId] == nil { names[play.songId] = (play.title, play.artist) }
        }
        return names
    }

    /// Each model's tables, in `models` order (`+` joins them).
    public static func run(_ index: PlayIndex, models: [EffectModel], registry: ConstantsRegistry,
                           jobs: Int = 1, onset: OnsetChoice = .profiled) throws -> [EffectTables] {
        // One model at a time: the mixed model fits its metrics side by side (a parallel map
        // nested in another runs on one thread), and the EMA model costs little beside it.
        try models.map { model -> EffectTables in
            switch model {
            case .ema: return EMAEffects.run(index, registry: registry)
            case .mixed: return try MixedEffects.run(index, registry: registry, jobs: jobs, onset: onset)
            }
        }
    }
}
