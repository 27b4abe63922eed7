/// One row of `truth.csv` (docs/tables.md, truth.csv): one planted truth of a synthetic
/// workspace, in the long form every kind of truth shares —
/// `kind,subject,entity,metric,value,start,end`:
/// - `song_effect` rows (subject empty, entity = the song id) give a song's effect at
///   sensitivity 1 — the expected measured delta of a full-length play (see
///   `MusicResponse`);
/// - `persona_sensitivity` rows (entity empty) give the listener's multiplier, once per
///   metric. A song's true effect on a listener is song_effect × sensitivity;
/// - `health_event` rows (entity = the event id, e.g. `illness-1`) give a planted
///   health event's peak change of each metric it moves, from `start` to `end`.
/// `start` and `end` (ISO 8601 dates or times) bound a dated truth and are empty for a
/// constant one. Later kinds (dated events, per-listener rates, song features) add rows
/// of a new `kind`; a reader keeps the kinds it does not know and uses those it does.
public struct PlantedEffect: Equatable, Sendable {
    /// The kind of truth; any name is accepted, so that a table with kinds a reader does
    /// not know still reads.
    public struct Kind: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let songEffect = Kind(rawValue: "song_effect")
        public static let personaSensitivity = Kind(rawValue: "persona_sensitivity")
        /// A dated health event of a persona (`HealthEvent`): entity = the event's id,
        /// one row per metric it moves with the peak change, start and end its first
        /// and last day.
        public static let healthEvent = Kind(rawValue: "health_event")
        /// A parameter of the simulated response law (`ResponseLaw`): entity = the law's
        /// label (`drift/severe`), metric = the parameter; subject empty for the law,
        /// a persona for its realised value.
        public static let responseLaw = Kind(rawValue: "response_law")
        /// A song's drift a under a drifting law: the effect of a play at time t of a
        /// study of length T is song_effect × (1 + a·(2t/T − 1)).
        public static let songEffectDrift = Kind(rawValue: "song_effect_drift")
        /// A listener × song interaction (subject, entity = song), added to
        /// song_effect × sensitivity.
        public static let listenerSongInteraction = Kind(rawValue: "listener_song_interaction")
    }

    public static let metrics = ["delta_hr_bpm", "delta_rmssd_ms"]

    public var kind: Kind
    public var subject: String
    /// What the truth is about besides the subject: the song of a `song_effect`.
    public var entity: String
    public var metric: String
    public var value: Double
    /// Bounds of a dated truth (ISO 8601), empty for a constant one.
    public var start: String
    public var end: String

    public init(kind: Kind, subject: String, entity: String, metric: String, value: Double, start: String = "", end: String = "") {
        self.kind = kind; self.subject = subject; self.entity = entity; self.metric = metric; self.value = value
        self.start = start; self.end = end
    }

    /// The song of a `song_effect` row.
    public var songId: String { entity }

    /// The planted effects of `metric` in `truth`: per song at sensitivity 1, and per
    /// listener the sensitivity (a row for this metric wins over one for another or no
    /// metric). A song's true effect on a listener is their product.
    public static func planted(_ truth: [PlantedEffect], metric: String) -> (songs: [String: Double], sensitivity: [String: Double]) {
        var songs: [String: Double] = [:], sensitivity: [String: Double] = [:]
        for t in truth {
            if t.kind == .songEffect && t.metric == metric { songs[t.songId] = t.value }
            if t.kind == .personaSensitivity && (t.metric == metric || sensitivity[t.subject] == nil) {
                sensitivity[t.subject] = t.value
            }
        }
        return (songs, sensitivity)
    }
}

extension PlantedEffect: CanonicalRow {
    public static let fileName = "truth.csv"
    public static let header = ["kind", "subject", "entity", "metric", "value", "start", "end"]

    public func write(to w: CSVWriter) {
        w.field(kind.rawValue); w.field(subject); w.field(entity); w.field(metric); w.field(value)
        w.field(start); w.field(end)
    }

    public init(_ r: CanonicalFieldReader) throws {
        let text = try r.string("kind")
        guard !text.isEmpty else { throw r.fail("kind", "empty kind") }
        self.init(kind: Kind(rawValue: text), subject: try r.string("subject"), entity: try r.string("entity"),
                  metric: try r.string("metric"), value: try r.double("value"), start: try r.string("start"),
                  end: try r.string("end"))
    }
}
