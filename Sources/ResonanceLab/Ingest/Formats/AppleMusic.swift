import Foundation

/// `Apple Music Play Activity.csv` from Apple's privacy export (Data & Privacy →
/// Apple Media Services). Of its many columns only these are used: `Song Name`,
/// `Artist Name` (or `Container Artist Name`), `Album Name` (or `Container Album
/// Name`), `Container Name` when `Container Type` is a playlist, `Event Start
/// Timestamp`, `Event End Timestamp`, `Media Duration In Milliseconds`,
/// `Play Duration Milliseconds`, `End Reason Type`, `Event Type` and `UTC Offset In
/// Seconds`. Older exports name the song `Content Name` instead of `Song Name`.
///
/// Rows whose `Event Type` is not a play (`PLAY_START`, which the matching
/// `PLAY_END` row repeats, and `FAILED_TO_LOAD`) are rejected with the event type
/// as the reason. An empty `Event End Timestamp` means the end is unknown (the
/// sessions stage estimates it). When the artist is missing, the song id is taken
/// from the title with the album (or container) and media duration, so two songs
/// sharing a title stay two songs; the manifest counts those rows.
enum AppleMusic: FormatAdapter {
    /// Event types that are not a play.
    static let notPlays: Set<String> = ["PLAY_START", "FAILED_TO_LOAD"]

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let file = input.file
        let subject = sink.subject(input.subject, group: input.group)
        var columns: [String: Int] = [:]
        func column(_ names: String...) -> Int? { names.lazy.compactMap { columns[$0] }.first }
        var c = (title: 0, artist: Int?.none, album: Int?.none, container: Int?.none, containerType: Int?.none,
                 start: 0, end: Int?.none, media: Int?.none, played: Int?.none, reason: Int?.none,
                 event: Int?.none, offset: Int?.none)
        var withoutArtist = 0
        let rows = try input.forEachRow(headerLines: 1, header: { record, _ in
            columns = ColumnName.index(record)
            guard let title = column("song_name", "content_name"),
                  let start = column("event_start_timestamp", "event_timestamp") else {
                throw ImportError.unknownFormat(path: input.path, columns: record.strings)
            }
            c = (title, column("artist_name", "container_artist_name"), column("album_name", "container_album_name"),
                 column("container_name"), column("container_type"), start, column("event_end_timestamp"),
                 column("media_duration_in_milliseconds"), column("play_duration_milliseconds"),
                 column("end_reason_type"), column("event_type"), column("utc_offset_in_seconds"))
        }, rejectingWiderRowsInto: sink) { record in
            func text(_ i: Int?) -> String { i.flatMap { $0 < record.count ? record.trimmed($0) : nil } ?? "" }
            let event = text(c.event).uppercased()
            if notPlays.contains(event) {
                return try sink.reject(file, record, column: (c.event ?? -1) + 1, reason: "event type \(event) is not a play")
            }
            let title = text(c.title)
            guard !title.isEmpty else { return try sink.reject(file, record, column: c.title + 1, reason: "no song name") }
            guard let media = c.media.flatMap({ record.double($0) }), media > 0 else {
                return try sink.reject(file, record, column: (c.media ?? -1) + 1, reason: "zero media duration")
            }
            guard Play.durationRangeS.contains(media / 1000) else {
                return try sink.reject(file, record, column: (c.media ?? -1) + 1, reason: "media duration over a week")
            }
            guard let start = input.times.parse(record, c.start) else {
                return try sink.reject(file, record, column: c.start + 1, reason: "unparsable time")
            }
            if try sink.rejectedAfterExport(file, record, column: c.start + 1, start) { return }
            var end: Int64?
            if let e = c.end, e < record.count, !record.bytes(e).isEmpty {
                guard let t = input.times.parse(record, e) else {
                    return try sink.reject(file, record, column: e + 1, reason: "unparsable time")
                }
                guard t >= start else { return try sink.reject(file, record, column: e + 1, reason: "end before start") }
                end = t
            }
            var played: Double?
            if let p = c.played, p < record.count, !record.bytes(p).isEmpty {
                guard let v = record.double(p) else {
                    return try sink.reject(file, record, column: p + 1, reason: "unparsable play duration")
                }
                guard Play.durationRangeS.contains(v / 1000) else {
                    return try sink.reject(file, record, column: p + 1, reason: "play duration negative or over a week")
                }
                played = v / 1000
            }
            var offsetMin: Int?
            if let o = c.offset, o < record.count, !record.bytes(o).isEmpty {
                guard let seconds = record.double(o), Play.utcOffsetRangeMin.contains(seconds / 60) else {
                    return try sink.reject(file, record, column: o + 1, reason: "utc offset not a number of seconds within ±14 h")
                }
                offsetMin = Int((seconds / 60).rounded())
            }
            let artist = text(c.artist)
            let reason = text(c.reason)
            let isPlaylist = text(c.containerType).uppercased().contains("PLAYLIST")
            var id = songId(title: title, artist: artist)
            if artist.isEmpty {
                withoutArtist += 1
                let album = text(c.album).isEmpty ? text(c.container) : text(c.album)
                id = songId(title: title, artist: "", extra: "\(album) — \(Int((media / 1000).rounded())) s")
            }
            let play = Play(
                subject: input.subject, playId: playId(startMs: start, input: input, line: record.line),
                songId: id, title: title, artist: artist, album: text(c.album),
                playlist: isPlaylist ? text(c.container) : "", startedAtMs: start, endedAtMs: end,
                mediaDurationS: media / 1000, playedS: played, endReason: reason, skipped: isSkip(reason),
                utcOffsetMin: offsetMin)
            try sink.play(play, subject: subject, file: file)
            sink.accept(file)
        }
        sink.note(file, "skipped = End Reason Type contains SKIPPED; song_id = SHA-256 prefix of normalised 'artist — title'")
        if withoutArtist > 0 {
            sink.note(file, "\(plural(withoutArtist, "play")) without artist: song_id from title, album (or container) and media duration")
        }
        if c.offset != nil { sink.note(file, "utc_offset_min from UTC Offset In Seconds") }
        try sink.endSource(input, rowsRead: rows)
    }

    /// Skips are the end reasons Apple names TRACK_SKIPPED_FORWARDS / _BACKWARDS.
    static func isSkip(_ endReason: String) -> Bool {
        endReason.uppercased().contains("SKIPPED")
    }

    /// Stable song id: first 16 hex digits of SHA-256 of "artist — title",
    /// lower-cased with runs of white space collapsed, so the same song gets the
    /// same id in every export and on every machine.
    /// `extra` (album and duration, for songs without artist) is appended as
    /// " — extra" when given.
    static func songId(title: String, artist: String, extra: String? = nil) -> String {
        func norm(_ s: String) -> String {
            s.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        }
        let key = norm(artist) + " — " + norm(title) + (extra.map { " — " + norm($0) } ?? "")
        return String(SHA256.hex(key).prefix(16))
    }

    /// Play id that sorts by start time: compact UTC start + digest of file and line.
    static func playId(startMs: Int64, input: SourceInput, line: Int) -> String {
        let iso = Timestamp.iso(startMs).filter { $0 != "-" && $0 != ":" && $0 != "." }
        return iso + "-" + SHA256.hex("\(input.display):\(line)").prefix(8)
    }
}
