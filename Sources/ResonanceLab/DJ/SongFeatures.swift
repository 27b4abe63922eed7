/// One row of `song_features.csv` (docs/tables.md): what ranking knows of a song's
/// sound — BPM (beats per minute), energy and valence (0–1), genre — and where it came
/// from (`simulated`, the name of an imported file, or `genre_bpm` when the BPM was
/// taken from the genre table).
public struct SongFeatureRow: Equatable, Sendable {
    public var songId: String
    public var title: String
    public var artist: String
    public var bpm: Double?
    public var energy: Double?
    public var valence: Double?
    public var genre: String
    public var source: String

    public init(songId: String, title: String, artist: String, bpm: Double?, energy: Double?, valence: Double?, genre: String,
                source: String) {
        self.songId = songId; self.title = title; self.artist = artist; self.bpm = bpm; self.energy = energy
        self.valence = valence; self.genre = genre; self.source = source
    }
}

extension SongFeatureRow: CanonicalRow {
    public static let fileName = "song_features.csv"
    public static let header = ["song_id", "title", "artist", "bpm", "energy", "valence", "genre", "source"]

    public func write(to w: CSVWriter) {
        w.field(songId); w.field(title); w.field(artist); w.field(bpm); w.field(energy); w.field(valence)
        w.field(genre); w.field(source)
    }

    public init(_ r: CanonicalFieldReader) throws {
        self.init(songId: try r.string("song_id"), title: try r.string("title"), artist: try r.string("artist"),
                  bpm: try r.optionalDouble("bpm", in: 30...250), energy: try r.optionalDouble("energy", in: 0...1),
                  valence: try r.optionalDouble("valence", in: 0...1), genre: try r.string("genre"), source: try r.string("source"))
    }
}
