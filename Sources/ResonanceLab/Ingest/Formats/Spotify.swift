import Foundation

/// Spotify listening history from the privacy export (Account → Privacy → Download
/// your data), JSON arrays read object by object (`JSONArrayReader`):
/// - extended streaming history `Streaming_History_Audio_*.json` (older name
///   `endsong_*.json`): `ts`, `ms_played`, `master_metadata_track_name`,
///   `master_metadata_album_artist_name`, `master_metadata_album_album_name`,
///   `spotify_track_uri`, `reason_start`, `reason_end`, `skipped`, `shuffle`;
/// - account data `StreamingHistory*.json`: `endTime` (`yyyy-MM-dd HH:mm`, UTC),
///   `artistName`, `trackName`, `msPlayed`.
///
/// `ts` and `endTime` are when the play *ended* (Spotify's documentation of the
/// extended history: "the date and time of when the stream ended in UTC"), so
/// started_at = end − ms_played. A play is skipped when `skipped` is true or
/// `reason_end` is `fwdbtn` / `backbtn`, or when it was heard 0 % (`ms_played` 0; the
/// manifest counts these). Podcast episodes (`episode_name` / `spotify_episode_uri`;
/// `episodeName` in the account data), audiobooks (`audiobook_title` / `audiobook_uri` /
/// `audiobook_chapter_uri`) and the video podcast episodes of
/// `Streaming_History_Video_*.json` are valid records of kinds the toolkit does not use:
/// counted per kind in the manifest (`unusedRecords`), not rows read. An entry without
/// a track name that is none of these is rejected. The media duration is not in these
/// files and stays empty. The times are UTC and name no zone of the listener; the
/// extended history's `conn_country` of each play is counted (a manifest note) and
/// proposes a zone on stderr (`CountryZones.advice`), never adopted.
enum Spotify: FormatAdapter {
    static let skipReasons: Set<String> = ["fwdbtn", "backbtn"]

    /// The kind of an entry that is not a song — podcast episode, video podcast episode
    /// (in a `Streaming_History_Video` file) or audiobook — from the fields Spotify fills
    /// for it; nil for any other entry.
    static func unusedKind(_ object: [String: Any], video: Bool) -> String? {
        func has(_ key: String) -> Bool { (object[key] as? String).map { !$0.isEmpty } ?? false }
        if has("episode_name") || has("spotify_episode_uri") || has("episodeName") {
            return video ? "video podcast episode (Streaming_History_Video)" : "podcast episode"
        }
        if has("audiobook_title") || has("audiobook_uri") || has("audiobook_chapter_uri") { return "audiobook" }
        return nil
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let file = input.file
        let subject = sink.subject(input.subject, group: input.group)
        let extended = input.format == .spotifyExtended
        let endKey = extended ? "ts" : "endTime"
        let msKey = extended ? "ms_played" : "msPlayed"
        let titleKey = extended ? "master_metadata_track_name" : "trackName"
        let artistKey = extended ? "master_metadata_album_artist_name" : "artistName"
        let video = (input.path as NSString).lastPathComponent.lowercased().contains("video")
        var rows = 0, zeroLength = 0
        var unused: [String: Int] = [:]
        var countries: [String: Int] = [:]
        try JSONArrayReader(path: input.path).forEachObject { object, line in
            func reject(_ reason: String) throws {
                try sink.reject(file, line: line, column: 0, reason: reason, raw: JSONText.compact(object))
            }
            guard let title = object[titleKey] as? String, !title.isEmpty else {
                if let kind = unusedKind(object, video: video) {
                    unused[kind, default: 0] += 1
                    return
                }
                rows += 1
                return try reject("no \(titleKey) and no episode or audiobook: not a song")
            }
            rows += 1
            guard let endText = object[endKey] as? String, let end = endTime(endText, extended: extended) else {
                return try reject("unparsable \(endKey)")
            }
            guard let ms = (object[msKey] as? NSNumber)?.doubleValue, Play.durationRangeS.contains(ms / 1000) else {
                return try reject("\(msKey) not a duration within a week")
            }
            guard let start = Timestamp.instant(ms: Double(end) - ms) else { return try reject("time outside years 0000–9999") }
            if let late = sink.afterExport(start) { return try reject(late) }
            let artist = object[artistKey] as? String ?? ""
            let reasonEnd = extended ? object["reason_end"] as? String ?? "" : ""
            // A play heard 0 % is a skip, whatever the flags say.
            if ms == 0 { zeroLength += 1 }
            let skipped = (object["skipped"] as? Bool ?? false) || skipReasons.contains(reasonEnd) || ms == 0
            let uri = extended ? object["spotify_track_uri"] as? String ?? "" : ""
            let play = Play(
                subject: input.subject, playId: AppleMusic.playId(startMs: start, input: input, line: line),
                songId: uri.isEmpty ? AppleMusic.songId(title: title, artist: artist) : uri,
                title: title, artist: artist, album: extended ? object["master_metadata_album_album_name"] as? String ?? "" : "",
                playlist: "", startedAtMs: start, endedAtMs: end, mediaDurationS: nil, playedS: ms / 1000,
                endReason: reasonEnd, skipped: skipped)
            try sink.play(play, subject: subject, file: file)
            sink.accept(file)
            if let country = object["conn_country"] as? String, !country.isEmpty {
                countries[country, default: 0] += 1
                sink.playCountry(country, subject: input.subject, startMs: start)
            }
        }
        sink.setUnused(file, unused)
        if !countries.isEmpty {
            let counts = countries.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            sink.note(file, "conn_country of the plays: " + counts.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        sink.note(file, "\(endKey) is the end of the play: started_at = \(endKey) − \(msKey)")
        if zeroLength > 0 {
            sink.note(file, "\(plural(zeroLength, "play")) of \(msKey) 0 (heard 0 %): skipped")
        }
        if extended {
            sink.note(file, "skipped = skipped is true or reason_end is fwdbtn/backbtn; song_id = spotify_track_uri")
        } else {
            sink.note(file, "no skip information in this layout: skipped = false; song_id = SHA-256 prefix of normalised 'artist — title'")
        }
        try sink.endSource(input, rowsRead: rows)
    }

    /// `ts` (ISO 8601 with zone) or `endTime` (`yyyy-MM-dd HH:mm`, UTC).
    static func endTime(_ text: String, extended: Bool) -> Int64? {
        guard let (ms, hasZone) = Timestamp.parseISO(text) else { return nil }
        return extended && !hasZone ? nil : ms
    }
}

/// Compact, key-sorted JSON text of an object (the `raw` column of rejects.csv).
enum JSONText {
    static func compact(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return ""
        }
        return String(decoding: data, as: UTF8.self)
    }
}
