import Foundation

/// Song audio features (docs/import.md, Song features) from a CSV in the common
/// layouts: the canonical `song_features.csv`, Spotify's audio-features API as CSV
/// (`id`, `uri`, `tempo`, `energy`, `valence`), the Kaggle Spotify tracks dataset
/// (`track_id`, `track_name`, `artists`, `tempo`, `energy`, `valence`, `track_genre`).
/// Columns are found by their loose names (`ColumnName.normalized`). A file is one of
/// features when it names at least two of tempo/BPM, energy and valence; its key is a
/// track id column, or title and artist columns.
///
/// Rows with a BPM outside 30–250, an energy or valence outside 0–1 or a number that
/// does not parse are rejected. A row without BPM whose genre is in the genre table
/// (`SongFeatureRow.genreBPM`) takes that BPM and the source `genre_bpm`; a row without
/// any feature is kept with empty values. The rows are matched to the plays of the same
/// import when it ends (`SongFeatureImport`).
enum SongFeaturesCSV: FormatAdapter {
    static let idNames = ["song_id", "track_id", "spotify_track_uri", "track_uri", "uri", "id", "spotify_id"]
    static let titleNames = ["title", "track_name", "song_name", "name", "track", "song"]
    static let artistNames = ["artist", "artists", "artist_name", "artist_names"]
    static let bpmNames = ["bpm", "tempo"]
    static let genreNames = ["genre", "track_genre", "genres", "top_genre"]

    /// Column indices of a features header.
    struct Columns {
        var id, title, artist, bpm, energy, valence, genre, source: Int?

        /// Nil unless the header names two of tempo/BPM, energy and valence.
        init?(header: [String]) {
            var map: [String: Int] = [:]
            for (i, name) in header.enumerated().reversed() { map[ColumnName.normalized(name)] = i }
            func first(_ names: [String]) -> Int? { names.lazy.compactMap { map[$0] }.first }
            bpm = first(SongFeaturesCSV.bpmNames); energy = map["energy"]; valence = map["valence"]
            guard [bpm, energy, valence].compactMap({ $0 }).count >= 2 else { return nil }
            id = first(SongFeaturesCSV.idNames); title = first(SongFeaturesCSV.titleNames)
            artist = first(SongFeaturesCSV.artistNames); genre = first(SongFeaturesCSV.genreNames); source = map["source"]
        }

        var hasKey: Bool { id != nil || (title != nil && artist != nil) }
    }

    /// Whether `header` is one of song features: true with a key column; a features
    /// header without one is an error naming the key columns expected (unless it is a
    /// heart-rate CSV with a time column, `GenericCSV`, that happens to have such names).
    static func matches(header: [String], path: String) throws -> Bool {
        guard let columns = Columns(header: header) else { return false }
        if columns.hasKey { return true }
        if GenericCSV.Columns(header: header) != nil { return false }
        throw ImportError.badMetadata(path: path, line: 1, column: 0, message: missingKey)
    }

    static let missingKey = "song features without a key column: expected a track id column ("
        + idNames.joined(separator: ", ") + ") or a title column (" + titleNames.joined(separator: ", ")
        + ") and an artist column (" + artistNames.joined(separator: ", ") + ")"

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let file = input.file
        var c: Columns?
        let rows = try input.forEachRow(headerLines: 1, header: { record, _ in
            c = Columns(header: record.strings)
            guard let columns = c, columns.hasKey else {
                if c != nil { throw ImportError.badMetadata(path: input.display, line: record.line, column: 0, message: missingKey) }
                throw ImportError.unknownFormat(path: input.path, columns: record.strings)
            }
        }, rejectingWiderRowsInto: sink) { record in
            guard let c else { return }
            func text(_ i: Int?) -> String { i.flatMap { $0 < record.count ? record.trimmed($0) : nil } ?? "" }
            /// The number in column `i`: nil when empty; rejected when unparsable or outside `range`.
            func number(_ i: Int?, _ name: String, _ range: ClosedRange<Double>, _ shown: String) throws -> Double?? {
                let raw = text(i)
                guard let i, !raw.isEmpty else { return .some(nil) }
                guard let value = NumberParsing.double(raw) else {
                    try sink.reject(file, record, column: i + 1, reason: "unparsable \(name)")
                    return nil
                }
                guard range.contains(value) else {
                    try sink.reject(file, record, column: i + 1, reason: "\(name) outside \(shown)")
                    return nil
                }
                return .some(value)
            }
            let id = text(c.id), title = text(c.title)
            guard !id.isEmpty || !title.isEmpty else {
                return try sink.reject(file, record, column: (c.id ?? c.title ?? 0) + 1, reason: "no song id and no title")
            }
            guard let bpm = try number(c.bpm, "bpm", SongFeatureRow.bpmRange, "30–250"),
                  let energy = try number(c.energy, "energy", SongFeatureRow.unitRange, "0–1"),
                  let valence = try number(c.valence, "valence", SongFeatureRow.unitRange, "0–1") else { return }
            let genre = text(c.genre)
            var source = text(c.source).isEmpty ? input.display : text(c.source)
            var tempo = bpm
            if tempo == nil, let fromGenre = SongFeatureRow.bpm(ofGenre: genre) {
                tempo = fromGenre
                source = SongFeatureRow.genreBPMSource
            }
            let row = SongFeatureRow(songId: id, title: title, artist: text(c.artist), bpm: tempo, energy: energy,
                                     valence: valence, genre: genre, source: source)
            sink.songFeature(row, hasId: c.id != nil, file: file)
            sink.accept(file)
        }
        sink.note(file, "song features: key \(c.flatMap { $0.id != nil ? "track id" : nil } ?? "title + artist"); "
            + "bpm from the genre table (source genre_bpm) where missing; matched to the plays of this import when it ends")
        try sink.endSource(input, rowsRead: rows)
    }
}
