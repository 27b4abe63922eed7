/// The responses both models estimate (`metric` column, docs/tables.md, song_effects.csv).
public enum EffectMetric: String, CaseIterable, Sendable {
    case deltaHR = "delta_hr_bpm"
    case deltaRMSSD = "delta_rmssd_ms"
    case skip
}

/// An estimate with its standard error and interval (all nil when unknown; the
/// `ema` model has point estimates only). Columns `estimate,se,ci_low,ci_high`.
public struct EffectEstimate: Equatable, Sendable {
    public var value: Double?
    public var se: Double?
    public var ciLow: Double?
    public var ciHigh: Double?

    public init(value: Double?, se: Double? = nil, ciLow: Double? = nil, ciHigh: Double? = nil) {
        self.value = value; self.se = se; self.ciLow = ciLow; self.ciHigh = ciHigh
    }

    /// value ± z·se (normal approximation).
    public static func normal(_ value: Double, se: Double, z: Double) -> EffectEstimate {
        EffectEstimate(value: value, se: se, ciLow: value - z * se, ciHigh: value + z * se)
    }

    func write(to w: CSVWriter) {
        w.field(value); w.field(se); w.field(ciLow); w.field(ciHigh)
    }

    init(_ r: CanonicalFieldReader) throws {
        self.init(value: try r.optionalDouble("estimate"), se: try r.optionalDouble("se"),
                  ciLow: try r.optionalDouble("ci_low"), ciHigh: try r.optionalDouble("ci_high"))
    }
}

/// One song (or song × context) effect. `song_effects.csv` (docs/tables.md, song_effects.csv); after
/// `confidence`: `shrinkage` (mixed: prior weight), `listeners`, `familiarity` (ema).
public struct SongEffectRow: Equatable, Sendable {
    public var model: String
    public var songId: String
    /// The song's title and artist, from its first play in `plays.csv` (`EffectsStage`).
    public var title = ""
    public var artist = ""
    /// A `ListeningContext` raw value, or `any` for the song aggregate.
    public var context: String
    public var metric: String
    public var effect: EffectEstimate
    public var plays: Int
    public var scores: PlayScores?
    public var confidence: Double?
    public var shrinkage: Double?
    public var listeners: Int
    public var familiarity: Double?
}

/// One listener's response. `persona_effects.csv`; after `plays`: `kind`
/// (`sensitivity`: multiplier of the population song effects, mean 1;
/// `skip_probability`; `mean`: the ema model's average).
public struct PersonaEffectRow: Equatable, Sendable {
    public var model: String
    public var subject: String
    public var metric: String
    public var effect: EffectEstimate
    public var plays: Int
    public var kind: String
}

/// One playlist's aggregated effect. `playlist_effects.csv`; after `focus`: `plays`.
public struct PlaylistEffectRow: Equatable, Sendable {
    public var model: String
    public var playlist: String
    public var metric: String
    public var effect: EffectEstimate
    public var songs: Int
    public var calm: Double?
    public var energy: Double?
    public var focus: Double?
    public var plays: Int
}

extension SongEffectRow: CanonicalRow {
    public static let fileName = "song_effects.csv"
    public static let header = ["model", "song_id", "title", "artist", "context", "metric", "estimate", "se", "ci_low", "ci_high",
                                "plays", "calm", "energy", "focus", "mood_lift", "confidence", "shrinkage", "listeners",
                                "familiarity"]
    public func write(to w: CSVWriter) {
        w.field(model); w.field(songId); w.field(title); w.field(artist); w.field(context); w.field(metric)
        effect.write(to: w); w.field(plays)
        w.field(scores?.calm); w.field(scores?.energy); w.field(scores?.focus); w.field(scores?.moodLift)
        w.field(confidence); w.field(shrinkage); w.field(listeners); w.field(familiarity)
    }
    public init(_ r: CanonicalFieldReader) throws {
        let calm = try r.optionalDouble("calm"), energy = try r.optionalDouble("energy")
        let focus = try r.optionalDouble("focus"), mood = try r.optionalDouble("mood_lift")
        var scores: PlayScores?
        if let calm, let energy, let focus, let mood { scores = PlayScores(calm: calm, energy: energy, focus: focus, moodLift: mood) }
        self.init(model: try r.string("model"), songId: try r.string("song_id"), title: try r.string("title"),
                  artist: try r.string("artist"), context: try r.string("context"),
                  metric: try r.string("metric"), effect: try EffectEstimate(r),
                  plays: try r.count("plays"), scores: scores, confidence: try r.optionalDouble("confidence"),
                  shrinkage: try r.optionalDouble("shrinkage"), listeners: try r.count("listeners"),
                  familiarity: try r.optionalDouble("familiarity"))
    }
}

extension PersonaEffectRow: CanonicalRow {
    public static let fileName = "persona_effects.csv"
    public static let header = ["model", "subject", "metric", "estimate", "se", "ci_low", "ci_high", "plays", "kind"]
    public func write(to w: CSVWriter) {
        w.field(model); w.field(subject); w.field(metric); effect.write(to: w); w.field(plays); w.field(kind)
    }
    public init(_ r: CanonicalFieldReader) throws {
        self.init(model: try r.string("model"), subject: try r.string("subject"), metric: try r.string("metric"),
                  effect: try EffectEstimate(r), plays: try r.count("plays"), kind: try r.string("kind"))
    }
}

extension PlaylistEffectRow: CanonicalRow {
    public static let fileName = "playlist_effects.csv"
    public static let header = ["model", "playlist", "metric", "estimate", "se", "ci_low", "ci_high", "songs",
                                "calm", "energy", "focus", "plays"]
    public func write(to w: CSVWriter) {
        w.field(model); w.field(playlist); w.field(metric); effect.write(to: w)
        w.field(songs); w.field(calm); w.field(energy); w.field(focus); w.field(plays)
    }
    public init(_ r: CanonicalFieldReader) throws {
        self.init(model: try r.string("model"), playlist: try r.string("playlist"), metric: try r.string("metric"),
                  effect: try EffectEstimate(r), songs: try r.count("songs"), calm: try r.optionalDouble("calm"),
                  energy: try r.optionalDouble("energy"), focus: try r.optionalDouble("focus"),
                  plays: try r.count("plays"))
    }
}

/// Tables of one model (or both, concatenated).
public struct EffectTables: Sendable {
    public var songs: [SongEffectRow] = []
    public var personas: [PersonaEffectRow] = []
    public var playlists: [PlaylistEffectRow] = []
    /// The mixed model's onset per metric (empty without the mixed model).
    public var onsets: [OnsetSelection] = []

    public init() {}

    public static func + (a: EffectTables, b: EffectTables) -> EffectTables {
        var out = a
        out.songs += b.songs; out.personas += b.personas; out.playlists += b.playlists; out.onsets += b.onsets
        return out
    }
}

/// How the mixed model takes the onset time constant behind exposure, carry-over and
/// the start share (docs/methods.md, Effects).
public enum OnsetChoice: String, CaseIterable, Sendable {
    /// The `mixed_model` constant `onset_time_constant_s`.
    case fixed
    /// The profile's best onset when it beats the constant by more than
    /// `onset_test_lr` (2·Δℓ), each song's variance adding its weighted shift from the
    /// constant's estimate (`onset_shift_weight`); the constant otherwise.
    case profiled
    /// The profile-likelihood best of the grid, with the model's intervals.
    case estimated
}

/// The onset the mixed model used for one metric, and the evidence for it.
public struct OnsetSelection: Equatable, Sendable {
    public var metric: EffectMetric
    public var choice: OnsetChoice
    /// The onset the estimates use (s) and the profile's best (s).
    public var onsetS: Double
    public var bestOnsetS: Double
    /// 2·(ℓ(best) − ℓ(constant)), 0 when the constant is best.
    public var likelihoodRatio: Double
    /// Whether the song variances carry the shift from the constant's estimates.
    public var widened: Bool

    /// For the manifest: `54 s (best 54 s, 2Δℓ 31.2, widened)`.
    public var description: String {
        "\(Int(onsetS)) s (best \(Int(bestOnsetS)) s, 2Δℓ \(String(format: "%.1f", likelihoodRatio))\(widened ? ", widened" : ""))"
    }
}
