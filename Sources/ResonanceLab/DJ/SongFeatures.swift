import Foundation

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
                  bpm: try r.optionalDouble("bpm", in: SongFeatureRow.bpmRange), energy: try r.optionalDouble("energy", in: SongFeatureRow.unitRange),
                  valence: try r.optionalDouble("valence", in: SongFeatureRow.unitRange), genre: try r.string("genre"), source: try r.string("source"))
    }
}

extension SongFeatureRow {
    /// Plausible song tempo, beats per minute; energy and valence lie in `unitRange`.
    public static let bpmRange = 30.0...250.0
    public static let unitRange = 0.0...1.0

    /// Source value of a row whose BPM was taken from `genreBPM`.
    public static let genreBPMSource = "genre_bpm"

    /// Typical tempo (beats per minute) of a genre, for songs whose BPM is unknown
    /// (the product specification's genre heuristic for song features). Keys are genre
    /// names folded by `genreKey` ("hip-hop", "Hip Hop" and "hiphop" are one genre).
    public static let genreBPM: [String: Double] = [
        "ambient": 70, "classical": 80, "jazz": 100, "pop": 120, "rock": 130, "electronic": 128, "hiphop": 90, "metal": 140,
    ]

    /// A genre name in lower case with everything but letters and digits removed.
    public static func genreKey(_ genre: String) -> String {
        String(String.UnicodeScalarView(genre.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }))
    }

    /// The genre table's BPM for `genre`, nil when the genre is not in it.
    public static func bpm(ofGenre genre: String) -> Double? {
        genreBPM[genreKey(genre)]
    }
}
