/// The canonical tables of a workspace (docs/tables.md). Every importer produces them and
/// every later stage reads them, so real imports and synthetic personas look alike.

/// One heart-rate sample. `hr.csv`: `subject,timestamp,bpm,source`.
public struct HRSample: Equatable, Sendable {
    public var subject: String
    public var timestampMs: Int64
    public var bpm: Double
    public var source: String

    public init(subject: String, timestampMs: Int64, bpm: Double, source: String) {
        self.subject = subject; self.timestampMs = timestampMs; self.bpm = bpm; self.source = source
    }
}

/// One R-R interval, stamped at the beat that closes it.
/// `rr.csv`: `subject,timestamp,rr_ms,source`.
public struct RRInterval: Equatable, Sendable {
    public var subject: String
    public var timestampMs: Int64
    public var rrMs: Double
    public var source: String

    public init(subject: String, timestampMs: Int64, rrMs: Double, source: String) {
        self.subject = subject; self.timestampMs = timestampMs; self.rrMs = rrMs; self.source = source
    }
}

/// One play of a song. `plays.csv` (docs/tables.md, plays.csv).
public struct Play: Equatable, Sendable {
    public var subject: String
    public var playId: String
    public var songId: String
    public var title: String
    public var artist: String
    public var album: String
    public var playlist: String
    public var startedAtMs: Int64
    /// Nil when the export does not say when the play ended.
    public var endedAtMs: Int64?
    public var mediaDurationS: Double?
    public var playedS: Double?
    public var endReason: String
    public var skipped: Bool
    /// The listener's offset from UTC at the start, minutes (e.g. −480 for PST),
    /// when the export carries it; nil otherwise.
    public var utcOffsetMin: Int?

    public init(subject: String, playId: String, songId: String, title: String, artist: String,
                album: String, playlist: String, startedAtMs: Int64, endedAtMs: Int64?,
                mediaDurationS: Double?, playedS: Double?, endReason: String, skipped: Bool,
                utcOffsetMin: Int? = nil) {
        self.subject = subject; self.playId = playId; self.songId = songId; self.title = title
        self.artist = artist; self.album = album; self.playlist = playlist
        self.startedAtMs = startedAtMs; self.endedAtMs = endedAtMs
        self.mediaDurationS = mediaDurationS; self.playedS = playedS
        self.endReason = endReason; self.skipped = skipped; self.utcOffsetMin = utcOffsetMin
    }
}

/// A labelled interval. `labels.csv`: `subject,start,end,label`.
public struct LabelInterval: Equatable, Sendable {
    public var subject: String
    public var startMs: Int64
    public var endMs: Int64
    public var label: String

    public init(subject: String, startMs: Int64, endMs: Int64, label: String) {
        self.subject = subject; self.startMs = startMs; self.endMs = endMs; self.label = label
    }
}

/// Sleep stages of `sleep.csv` (docs/tables.md, sleep.csv).
public enum SleepStage: String, CaseIterable, Sendable {
    case core, deep, rem, asleep, awake
    case inBed = "in_bed"
}

/// A sleep episode. `sleep.csv`: `subject,start,end,stage,source`.
public struct SleepEpisode: Equatable, Sendable {
    public var subject: String
    public var startMs: Int64
    public var endMs: Int64
    public var stage: SleepStage
    /// The device or app that recorded it when the export names one (Apple Health's
    /// `sourceName`), else the format; overlapping sources are resolved by `SleepNight`.
    public var source: String

    public init(subject: String, startMs: Int64, endMs: Int64, stage: SleepStage, source: String = "") {
        self.subject = subject; self.startMs = startMs; self.endMs = endMs; self.stage = stage; self.source = source
    }
}

/// A workout. `workouts.csv`: `subject,start,end,activity`.
public struct Workout: Equatable, Sendable {
    public var subject: String
    public var startMs: Int64
    public var endMs: Int64
    public var activity: String

    public init(subject: String, startMs: Int64, endMs: Int64, activity: String) {
        self.subject = subject; self.startMs = startMs; self.endMs = endMs; self.activity = activity
    }
}

/// A row of `rejects.csv`: an input row that was not imported, and why.
public struct Reject: Equatable, Sendable {
    public var sourceFile: String
    public var line: Int
    /// 1-based column of the offending field; 0 when the whole row is at fault.
    public var column: Int
    public var reason: String
    public var raw: String

    public init(sourceFile: String, line: Int, column: Int, reason: String, raw: String) {
        self.sourceFile = sourceFile; self.line = line; self.column = column
        self.reason = reason; self.raw = raw
    }
}

/// An HRV value as a wearable reports it for a short window: SDNN (Apple Health's
/// HeartRateVariabilitySDNN) and/or RMSSD (Fitbit's 5-minute HRV details,
/// EmbracePlus's per-minute `prv_rmssd_ms`); at least one is present.
/// `hrv_samples.csv`: `subject,timestamp,sdnn_ms,rmssd_ms,source`.
public struct HRVSample: Equatable, Sendable {
    public var subject: String
    public var timestampMs: Int64
    public var sdnnMs: Double?
    public var rmssdMs: Double?
    public var source: String

    public init(subject: String, timestampMs: Int64, sdnnMs: Double? = nil, rmssdMs: Double? = nil, source: String) {
        self.subject = subject; self.timestampMs = timestampMs; self.sdnnMs = sdnnMs; self.rmssdMs = rmssdMs
        self.source = source
    }
}
