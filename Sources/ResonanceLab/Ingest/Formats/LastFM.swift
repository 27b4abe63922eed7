import Foundation

/// Last.fm scrobbles as the common export tools write them:
/// - without header, `artist,album,track,date` with `date` like `31 Jan 2021 12:34`
///   (UTC; lastfm-to-csv);
/// - with a header naming `artist`, `track`, optionally `album`, and the time as
///   `uts` (unix seconds) or `utc_time` / `date` (`31 Jan 2021, 12:34`, UTC).
///
/// A scrobble carries its start only. The end is left empty and the listened time
/// is estimated as the time to the next scrobble, at most `maxPlayS` (a track
/// scrobbled and then a long silence is not a long listen); the manifest says so,
/// and `sessions` flags these plays `end_unknown`.
enum LastFM: FormatAdapter {
    static let maxPlayS = 600.0
    static let timeNames = ["uts", "utc_time", "date", "timestamp", "time"]

    static func matches(header: [String]) -> Bool {
        let names = Set(header.map(ColumnName.normalized))
        if names.isSuperset(of: ["artist", "track"]), timeNames.contains(where: names.contains) { return true }
        return header.count == 4 && dayMonthYear(header[3]) != nil
    }

    /// A play known by its start only.
    struct Scrobble {
        var startMs: Int64
        var title, artist, album: String
        var line: Int
        /// The service's own id of the song; nil for the normalised artist and title.
        var songId: String? = nil
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let file = input.file
        let subject = sink.subject(input.subject, group: input.group)
        var col = (artist: 0, album: Int?.some(1), track: 2, time: 3, unix: false)
        let first = try CSVPeek.records(path: input.path, count: 1, delimiter: input.delimiter).first ?? []
        let hasHeader = first.count != 4 || dayMonthYear(first[3]) == nil
        var scrobbles: [Scrobble] = []
        let rows = try input.forEachRow(headerLines: hasHeader ? 1 : 0, header: { record, _ in
            let map = ColumnName.index(record)
            guard let a = map["artist"], let t = map["track"],
                  let name = timeNames.first(where: { map[$0] != nil }), let time = map[name] else {
                throw ImportError.unknownFormat(path: input.path, columns: record.strings)
            }
            col = (a, map["album"], t, time, name == "uts")
        }) { record in
            func text(_ i: Int?) -> String { i.flatMap { $0 < record.count ? record.trimmed($0) : nil } ?? "" }
            let title = text(col.track)
            guard !title.isEmpty else { return try sink.reject(file, record, column: col.track + 1, reason: "no track name") }
            let start: Int64?
            if col.unix {
                start = input.times.parse(record, col.time, unix: .seconds)
            } else {
                start = dayMonthYear(text(col.time)) ?? input.times.parse(record, col.time)
            }
            guard let start else { return try sink.reject(file, record, column: col.time + 1, reason: "unparsable time") }
            if try sink.rejectedAfterExport(file, record, column: col.time + 1, start) { return }
            scrobbles.append(Scrobble(startMs: start, title: title, artist: text(col.artist), album: text(col.album), line: record.line))
            sink.accept(file)
        }
        try writeStartOnly(scrobbles, input: input, subject: subject, into: sink)
        sink.note(file, "scrobbles carry a start only: ended_at empty, played_s = time to the next scrobble, at most \(Int(maxPlayS)) s (estimated)")
        try sink.endSource(input, rowsRead: rows)
    }

    /// Writes plays known by their start only (scrobbles, YouTube Music history), in
    /// time order: ended_at empty, played_s the time to the next play, at most
    /// `maxPlayS`.
    static func writeStartOnly(_ scrobbles: [Scrobble], input: SourceInput, subject: Int, into sink: ImportSink) throws {
        let sorted = scrobbles.sorted { ($0.startMs, $0.line) < ($1.startMs, $1.line) }
        for (k, s) in sorted.enumerated() {
            let next = k + 1 < sorted.count ? Double(sorted[k + 1].startMs - s.startMs) / 1000 : maxPlayS
            let play = Play(
                subject: input.subject, playId: AppleMusic.playId(startMs: s.startMs, input: input, line: s.line),
                songId: s.songId ?? AppleMusic.songId(title: s.title, artist: s.artist), title: s.title, artist: s.artist,
                album: s.album, playlist: "", startedAtMs: s.startMs, endedAtMs: nil, mediaDurationS: nil,
                playedS: min(maxPlayS, next), endReason: "", skipped: false)
            try sink.play(play, subject: subject, file: input.file)
        }
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// `31 Jan 2021 12:34` or `31 Jan 2021, 12:34` (UTC) as epoch ms.
    static func dayMonthYear(_ text: String) -> Int64? {
        let parts = text.replacingOccurrences(of: ",", with: " ").split(separator: " ")
        guard parts.count == 4, let day = Int(parts[0]), let month = months.firstIndex(of: parts[1].lowercased()),
              let year = Int(parts[2]), year >= 1, year <= 9999, day >= 1, day <= Timestamp.daysInMonth(year, month + 1) else { return nil }
        let hm = parts[3].split(separator: ":")
        guard hm.count == 2, let h = Int(hm[0]), let m = Int(hm[1]), (0..<24).contains(h), (0..<60).contains(m) else { return nil }
        let days = Int64(Timestamp.daysFromCivil(year, month + 1, day))
        return (days * 86_400 + Int64(h * 3600 + m * 60)) * 1000
    }
}
