/// One row of `truth.csv` (docs/tables.md, truth.csv): an effect planted in a synthetic workspace.
/// `song_effect` rows (subject empty) give a song's effect at sensitivity 1 — the
/// expected measured delta of a full-length play (see `MusicResponse`);
/// `persona_sensitivity` rows (song_id empty) give the listener's multiplier, once per
/// metric. A song's true effect on a listener is song_effect × sensitivity.
public struct PlantedEffect: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case songEffect = "song_effect"
        case personaSensitivity = "persona_sensitivity"
    }

    public static let metrics = ["delta_hr_bpm", "delta_rmssd_ms"]

    public var kind: Kind
    public var subject: String
    public var songId: String
    public var metric: String
    public var value: Double

    public init(kind: Kind, subject: String, songId: String, metric: String, value: Double) {
        self.kind = kind; self.subject = subject; self.songId = songId; self.metric = metric; self.value = value
    }

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
    public static let header = ["kind", "subject", "song_id", "metric", "value"]

    public func write(to w: CSVWriter) {
        w.field(kind.rawValue); w.field(subject); w.field(songId); w.field(metric); w.field(value)
    }

    public init(_ r: CanonicalFieldReader) throws {
        let text = try r.string("kind")
        guard let kind = Kind(rawValue: text) else { throw r.fail("kind", "unknown kind '\(text)'") }
        self.init(kind: kind, subject: try r.string("subject"), songId: try r.string("song_id"),
                  metric: try r.string("metric"), value: try r.double("value"))
    }
}
