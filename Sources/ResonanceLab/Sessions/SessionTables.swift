/// One listening session. `sessions.csv` (docs/tables.md, sessions.csv), extra columns after
/// `session_score`: HR average/min/max over the session ± the biometric window,
/// the HRV source and data-quality notes.
public struct SessionRow: Equatable, Sendable {
    public var subject: String
    public var sessionId: String
    public var startMs: Int64
    public var endMs: Int64
    public var context: String
    public var timeSlot: String
    public var plays: Int
    public var skips: Int
    public var skipRate: Double
    /// Mean listened fraction of the session's plays whose song length the export gives;
    /// nil when none does (Spotify, Last.fm: the fraction is unknown).
    public var avgListen: Double?
    public var biometrics: WindowBiometrics
    public var sleepScore: Double?
    public var sessionScore: Double
    public var hrAvg: Double?
    public var hrMin: Double?
    public var hrMax: Double?
}

/// One play with its physiology. `session_plays.csv` (docs/tables.md, session_plays.csv); extra columns after
/// `quality` carry what the effects models need. `session_id` is empty for plays of
/// sessions dropped as too short (they still count in behaviour).
public struct SessionPlayRow: Equatable, Sendable {
    public var subject: String
    public var sessionId: String
    public var playId: String
    public var songId: String
    public var biometrics: WindowBiometrics
    /// `ok`, or `;`-separated notes (timing notes of the play + data-quality notes).
    public var quality: String
    public var playlist: String
    public var startedAtMs: Int64
    public var endedAtMs: Int64
    public var playedS: Double
    /// played / the song's length; nil when the export gives no length (Spotify, Last.fm).
    public var listenFraction: Double?
    /// Skip by the product's rule (`TimedPlay.skipped`).
    public var skipped: Bool
    public var context: String
    public var timeSlot: String
    /// The skip flag of the export (`plays.csv` `skipped`), kept beside the rule.
    public var exportSkipped: Bool
    /// Context of the play's session, the key the product learns under; empty for
    /// plays of sessions dropped as too short.
    public var sessionContext: String

    public init(subject: String, sessionId: String, playId: String, songId: String, biometrics: WindowBiometrics,
                quality: String, playlist: String, startedAtMs: Int64, endedAtMs: Int64, playedS: Double,
                listenFraction: Double?, skipped: Bool, context: String, timeSlot: String,
                exportSkipped: Bool? = nil, sessionContext: String? = nil) {
        self.subject = subject; self.sessionId = sessionId; self.playId = playId; self.songId = songId
        self.biometrics = biometrics; self.quality = quality; self.playlist = playlist
        self.startedAtMs = startedAtMs; self.endedAtMs = endedAtMs; self.playedS = playedS
        self.listenFraction = listenFraction; self.skipped = skipped; self.context = context; self.timeSlot = timeSlot
        self.exportSkipped = exportSkipped ?? skipped
        self.sessionContext = sessionContext ?? (sessionId.isEmpty ? "" : context)
    }
}

/// `;`-joined notes, `ok` when there are none; and back.
enum QualityNotes {
    static func join(_ notes: [String]) -> String { notes.isEmpty ? "ok" : notes.joined(separator: ";") }
    static func split(_ text: String) -> [String] { text == "ok" || text.isEmpty ? [] : text.split(separator: ";").map(String.init) }
}

extension WindowBiometrics {
    func write(to w: CSVWriter) {
        w.field(hrStart); w.field(hrEnd); w.field(hrDelta)
        w.field(hrvStart); w.field(hrvEnd); w.field(hrvDelta)
    }

    init(_ r: CanonicalFieldReader, notes: [String]) throws {
        self.init(hrStart: try r.optionalDouble("hr_start"), hrEnd: try r.optionalDouble("hr_end"),
                  hrvStart: try r.optionalDouble("hrv_start"), hrvEnd: try r.optionalDouble("hrv_end"),
                  hrvSource: try r.string("hrv_source"), notes: notes)
    }
}

extension SessionRow: CanonicalRow {
    public static let fileName = "sessions.csv"
    public static let header = [
        "subject", "session_id", "start", "end", "context", "time_slot", "plays", "skips", "skip_rate", "avg_listen",
        "hr_start", "hr_end", "hr_delta", "hrv_start", "hrv_end", "hrv_delta", "sleep_score", "session_score",
        "hr_avg", "hr_min", "hr_max", "hrv_source", "quality",
    ]
    public func write(to w: CSVWriter) {
        w.field(subject); w.field(sessionId); w.field(timestampMs: startMs); w.field(timestampMs: endMs)
        w.field(context); w.field(timeSlot); w.field(plays); w.field(skips); w.field(skipRate); w.field(avgListen)
        biometrics.write(to: w)
        w.field(sleepScore); w.field(sessionScore); w.field(hrAvg); w.field(hrMin); w.field(hrMax)
        w.field(biometrics.hrvSource); w.field(QualityNotes.join(biometrics.notes))
    }
    public init(_ r: CanonicalFieldReader) throws {
        self.init(subject: try r.string("subject"), sessionId: try r.string("session_id"),
                  startMs: try r.timestamp("start"), endMs: try r.timestamp("end"),
                  context: try r.string("context"), timeSlot: try r.string("time_slot"),
                  plays: try r.count("plays"), skips: try r.count("skips"),
                  skipRate: try r.double("skip_rate"), avgListen: try r.optionalDouble("avg_listen"),
                  biometrics: try WindowBiometrics(r, notes: QualityNotes.split(try r.string("quality"))),
                  sleepScore: try r.optionalDouble("sleep_score"), sessionScore: try r.double("session_score"),
                  hrAvg: try r.optionalDouble("hr_avg"), hrMin: try r.optionalDouble("hr_min"),
                  hrMax: try r.optionalDouble("hr_max"))
    }
}

extension SessionPlayRow: CanonicalRow {
    public static let fileName = "session_plays.csv"
    public static let header = [
        "subject", "session_id", "play_id", "song_id", "hr_start", "hr_end", "hr_delta", "hrv_start", "hrv_end",
        "hrv_delta", "hrv_source", "quality", "playlist", "started_at", "ended_at", "played_s", "listen_fraction",
        "skipped", "context", "time_slot", "export_skipped", "session_context",
    ]
    public func write(to w: CSVWriter) {
        w.field(subject); w.field(sessionId); w.field(playId); w.field(songId)
        biometrics.write(to: w)
        w.field(biometrics.hrvSource); w.field(quality); w.field(playlist)
        w.field(timestampMs: startedAtMs); w.field(timestampMs: endedAtMs); w.field(playedS); w.field(listenFraction)
        w.field(skipped); w.field(context); w.field(timeSlot); w.field(exportSkipped); w.field(sessionContext)
    }
    public init(_ r: CanonicalFieldReader) throws {
        let quality = try r.string("quality")
        self.init(subject: try r.string("subject"), sessionId: try r.string("session_id"),
                  playId: try r.string("play_id"), songId: try r.string("song_id"),
                  biometrics: try WindowBiometrics(r, notes: QualityNotes.split(quality)), quality: quality,
                  playlist: try r.string("playlist"), startedAtMs: try r.timestamp("started_at"),
                  endedAtMs: try r.timestamp("ended_at"), playedS: try r.double("played_s"),
                  listenFraction: try r.optionalDouble("listen_fraction"), skipped: try r.bool("skipped"),
                  context: try r.string("context"), timeSlot: try r.string("time_slot"),
                  exportSkipped: try r.bool("export_skipped"), sessionContext: try r.string("session_context"))
    }
}
