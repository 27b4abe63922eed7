import Foundation

/// How feature rows find the songs of the plays (docs/import.md, Song features): by
/// track id, else by normalised title + artist.
public enum SongMatching {
    /// A track id without its Spotify wrapping: `spotify:track:ID` and
    /// `https://open.spotify.com/track/ID?si=…` become `ID`; other ids are only trimmed.
    /// Ids are case-sensitive (Spotify's are base 62) and are not folded.
    public static func trackId(_ id: String) -> String {
        let text = id.trimmingCharacters(in: .whitespaces)
        for prefix in ["spotify:track:", "open.spotify.com/track/"] {
            if let range = text.range(of: prefix) {
                return String(text[range.upperBound...].prefix { $0 != "?" && $0 != "/" })
            }
        }
        return text
    }

    /// Words that start a "feat." part (a trailing dot ignored).
    static let featuringWords: Set<String> = ["feat", "ft", "featuring"]

    /// A title or artist as matching compares it: lower case, diacritics folded
    /// (`Café` → `cafe`), "feat." parts removed (a bracketed part holding one of
    /// `featuringWords`, `(feat. X)` or `[ft. X]`, and from an unbracketed ` feat. X`,
    /// ` ft. X` or ` featuring X` to the end), every other character that is not a
    /// letter, digit or space removed (`AC/DC` → `acdc`, `don't` → `dont`), whitespace
    /// collapsed to single spaces and trimmed.
    public static func normalized(_ text: String) -> String {
        let folded = String(String.UnicodeScalarView(text.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars
            .filter { $0.properties.generalCategory != .nonspacingMark }))
        var words = withoutBracketedFeaturing(folded).split(whereSeparator: { $0.isWhitespace })
        if let cut = words.indices.dropFirst().first(where: { featuringWords.contains(words[$0].filter { $0 != "." }) }) {
            words = Array(words[..<cut])
        }
        return words.map { word in
            String(String.UnicodeScalarView(word.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }))
        }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// `text` without its bracketed parts (`(…)`, `[…]`, an unclosed one to the end)
    /// that hold one of `featuringWords`.
    private static func withoutBracketedFeaturing(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(where: { $0 == "(" || $0 == "[" }) {
            out += rest[..<open]
            let close = rest[open...].firstIndex(where: { $0 == ")" || $0 == "]" }).map { rest.index(after: $0) } ?? rest.endIndex
            let words = rest[open..<close].split(whereSeparator: { !$0.isLetter })
            if !words.contains(where: { featuringWords.contains(String($0)) }) { out += rest[open..<close] }
            out += " "
            rest = rest[close...]
        }
        return out + rest
    }

    /// The matching key of a song: normalised title and normalised first artist (the
    /// text before the first `;`, as multi-artist datasets separate them); nil without
    /// a title.
    public static func key(title: String, artist: String) -> String? {
        let t = normalized(title)
        guard !t.isEmpty else { return nil }
        return t + "\u{1F}" + normalized(String(artist.prefix { $0 != ";" }))
    }
}

/// The match of imported song features to the songs played in the same import,
/// recorded in `manifest.json` as `songFeatures` (docs/tables.md).
public struct SongFeatureMatchSummary: Codable, Equatable, Sendable {
    /// Feature rows accepted from every features file.
    public var rows: Int
    /// Accepted rows dropped because an earlier row gave the same song (same track id,
    /// or same title + artist key for rows without an id): the first wins.
    public var duplicates: Int
    /// Rows kept (not duplicates) whose BPM came from the genre table (source `genre_bpm`).
    public var genreBPM: Int
    /// Rows kept without BPM, energy and valence (ranking scores their terms neutral).
    public var withoutFeatures: Int
    /// Distinct song ids in `plays.csv`, and how many of them have a feature row.
    public var songsPlayed: Int
    public var songsWithFeatures: Int
    /// How those songs were matched: by track id, or by normalised title + artist.
    public var matchedById: Int
    public var matchedByTitleArtist: Int
    /// songsWithFeatures / songsPlayed; nil without plays.
    public var songMatchRate: Double?
    /// Plays, and plays of a song with features.
    public var plays: Int
    public var playsCovered: Int
    /// playsCovered / plays; nil without plays.
    public var playMatchRate: Double?
    /// Feature rows no played song matched, kept under their own id.
    public var unmatchedRows: Int
}

/// Collects the songs played and the feature rows of one import, and matches them when
/// it ends (`ImportSink.finish`).
struct SongFeatureImport {
    /// A played song: its title, artist and number of plays.
    private struct Played { var title: String; var artist: String; var plays: Int }
    /// An accepted feature row, with its normalised id and title + artist key.
    private struct Candidate { var row: SongFeatureRow; var id: String?; var key: String?; var file: Int32 }

    private var played: [String: Played] = [:]
    private var candidates: [Candidate] = []

    var isEmpty: Bool { candidates.isEmpty }

    mutating func played(_ play: Play) {
        played[play.songId, default: Played(title: play.title, artist: play.artist, plays: 0)].plays += 1
    }

    /// An accepted feature row; `hasId` when its file has a track id column.
    mutating func add(_ row: SongFeatureRow, hasId: Bool, file: Int32) {
        let id = hasId ? SongMatching.trackId(row.songId) : nil
        candidates.append(Candidate(row: row, id: id.flatMap { $0.isEmpty ? nil : $0 },
                                    key: SongMatching.key(title: row.title, artist: row.artist), file: file))
    }

    /// The rows of `song_features.csv` in byte order of song id, the summary, and the
    /// duplicate rows per source file. A played song takes the first feature row of the
    /// same track id (its `song_id` with the Spotify wrapping removed), else the first of
    /// the same title + artist key; it is written under the play's `song_id`, title and
    /// artist (as in `plays.csv`). Feature rows no played
    /// song took are written under their own id (title + artist rows: the id a play of
    /// that title and artist gets, `AppleMusic.songId`).
    func match() -> (rows: [SongFeatureRow], summary: SongFeatureMatchSummary, duplicates: [Int32: Int]) {
        var byId: [String: Int] = [:], byKey: [String: Int] = [:]
        var duplicates: [Int32: Int] = [:]
        var kept: [Int] = []
        for (i, c) in candidates.enumerated() {
            let isDuplicate: Bool
            if let id = c.id { isDuplicate = byId[id] != nil } else if let key = c.key { isDuplicate = byKey[key] != nil } else { isDuplicate = false }
            if isDuplicate { duplicates[c.file, default: 0] += 1; continue }
            kept.append(i)
            if let id = c.id { byId[id] = i }
            if let key = c.key, byKey[key] == nil { byKey[key] = i }
        }
        var rows: [SongFeatureRow] = []
        var used = Set<Int>()
        var byIdCount = 0, byKeyCount = 0, playsCovered = 0, plays = 0
        for (songId, song) in played.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            plays += song.plays
            let viaId = byId[SongMatching.trackId(songId)]
            guard let index = viaId ?? SongMatching.key(title: song.title, artist: song.artist).flatMap({ byKey[$0] }) else {
                continue
            }
            if viaId != nil { byIdCount += 1 } else { byKeyCount += 1 }
            playsCovered += song.plays
            used.insert(index)
            var row = candidates[index].row
            row.songId = songId; row.title = song.title; row.artist = song.artist
            rows.append(row)
        }
        var written = Set(rows.map(\.songId))
        var unmatched = 0
        for i in kept where !used.contains(i) {
            var row = candidates[i].row
            if row.songId.isEmpty { row.songId = AppleMusic.songId(title: row.title, artist: row.artist) }
            guard written.insert(row.songId).inserted else { duplicates[candidates[i].file, default: 0] += 1; continue }
            unmatched += 1
            rows.append(row)
        }
        rows.sort { $0.songId.utf8.lexicographicallyPrecedes($1.songId.utf8) }
        let matched = byIdCount + byKeyCount
        let first = kept.map { candidates[$0].row }
        let summary = SongFeatureMatchSummary(
            rows: candidates.count, duplicates: duplicates.values.reduce(0, +),
            genreBPM: first.filter { $0.source == SongFeatureRow.genreBPMSource }.count,
            withoutFeatures: first.filter { $0.bpm == nil && $0.energy == nil && $0.valence == nil }.count, songsPlayed: played.count, songsWithFeatures: matched,
            matchedById: byIdCount, matchedByTitleArtist: byKeyCount,
            songMatchRate: played.isEmpty ? nil : Double(matched) / Double(played.count),
            plays: plays, playsCovered: playsCovered, playMatchRate: plays == 0 ? nil : Double(playsCovered) / Double(plays),
            unmatchedRows: unmatched)
        return (rows, summary, duplicates)
    }
}
