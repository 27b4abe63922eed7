import Foundation

/// ListenBrainz user export (Settings → Export): `user.json` (the account, no listens)
/// and `listens/<year>/<month>.jsonl`, one listen per line (`JSONLinesReader`), in
/// the listen JSON that ListenBrainz documents: `listened_at` (unix seconds, when the
/// track started), `recording_msid`, and `track_metadata` with `track_name`,
/// `artist_name`, `release_name` and `additional_info` (`duration_ms` in ms or
/// `duration` in s, the track's length; `recording_mbid`; `duration_played` in s when
/// the submitting player sends it). `mbid_mapping.recording_mbid`, ListenBrainz's own
/// match to MusicBrainz, stands in for a missing `additional_info.recording_mbid`.
///
/// song_id = `mbid:` + the recording MBID, else `msid:` + `recording_msid`, else the
/// normalised artist and title. The media duration is the track's length; played_s
/// is `duration_played`, else empty (the listen's end is then its length, which
/// `sessions` flags `end_unknown`). A line that is not a JSON object, or has no
/// track name or no `listened_at`, is rejected.
enum ListenBrainz: FormatAdapter {
    static func matches(head: String) -> Bool {
        head.contains("\"listened_at\"") && head.contains("\"track_metadata\"")
    }

    /// Whether `path` is the export's `user.json` (the account, no listens).
    static func isUserFile(path: String) -> Bool {
        (path as NSString).lastPathComponent.lowercased() == "user.json"
            && CSVPeek.headText(path: path, count: 2048).contains("\"user_name\"")
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let file = input.file
        let subject = sink.subject(input.subject, group: input.group)
        var units: Set<String> = []
        let rows = try JSONLinesReader(path: input.path).forEachLine { object, text, line in
            func reject(_ reason: String) throws { try sink.reject(file, line: line, column: 0, reason: reason, raw: text) }
            guard let object else { return try reject("line is not a JSON object") }
            let track = object["track_metadata"] as? [String: Any] ?? [:]
            let info = track["additional_info"] as? [String: Any] ?? [:]
            guard let title = track["track_name"] as? String, !title.isEmpty else { return try reject("no track_name") }
            guard let seconds = number(object["listened_at"]), let start = Timestamp.instant(ms: seconds * 1000) else {
                return try reject("unparsable listened_at")
            }
            if let late = sink.afterExport(start) { return try reject(late) }
            var media: Double?
            if let ms = number(info["duration_ms"]), ms > 0 {
                media = ms / 1000; units.insert("duration_ms (ms)")
            } else if let s = number(info["duration"]), s > 0 {
                media = s; units.insert("duration (s)")
            }
            let played = number(info["duration_played"] ?? track["duration_played"]).flatMap { $0 >= 0 ? $0 : nil }
            if played != nil { units.insert("duration_played (s)") }
            if [media, played].contains(where: { $0.map { !Play.durationRangeS.contains($0) } ?? false }) {
                return try reject("play duration negative or over a week")
            }
            let artist = track["artist_name"] as? String ?? ""
            let mapping = track["mbid_mapping"] as? [String: Any] ?? [:]
            let songId: String
            if let mbid = (info["recording_mbid"] as? String ?? mapping["recording_mbid"] as? String), !mbid.isEmpty {
                songId = "mbid:" + mbid
            } else if let msid = (object["recording_msid"] as? String ?? info["recording_msid"] as? String), !msid.isEmpty {
                songId = "msid:" + msid
            } else {
                songId = AppleMusic.songId(title: title, artist: artist)
            }
            let play = Play(
                subject: input.subject, playId: AppleMusic.playId(startMs: start, input: input, line: line), songId: songId,
                title: title, artist: artist, album: track["release_name"] as? String ?? "", playlist: "",
                startedAtMs: start, endedAtMs: played.map { start + Int64(($0 * 1000).rounded()) },
                mediaDurationS: media, playedS: played, endReason: "", skipped: false)
            try sink.play(play, subject: subject, file: file)
            sink.accept(file)
        }
        sink.note(file, "listened_at (unix s) is the start; durations read: \(units.isEmpty ? "none" : units.sorted().joined(separator: ", ")); "
            + "ended_at = start + duration_played when present, else empty; song_id = mbid:<recording_mbid>, else msid:<recording_msid>")
        try sink.endSource(input, rowsRead: rows)
    }

    /// A JSON number (or a numeric string, as some players submit) as a finite double.
    static func number(_ value: Any?) -> Double? {
        if let n = value as? NSNumber { return n.doubleValue.isFinite ? n.doubleValue : nil }
        if let s = value as? String { return NumberParsing.double(s) }
        return nil
    }
}
