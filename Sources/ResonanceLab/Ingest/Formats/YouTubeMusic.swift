import Foundation

/// YouTube Music plays from Google Takeout's YouTube history (`YouTube and YouTube
/// Music/history/watch-history.json`), a JSON array read object by object
/// (`JSONArrayReader`), one object per item watched:
/// `{"header": "YouTube Music", "title": "Watched River", "titleUrl":
/// "https://music.youtube.com/watch?v=ID", "subtitles": [{"name": "Joni Mitchell - Topic",
/// "url": …}], "time": "2023-06-01T14:00:00.123Z", "products": ["YouTube"], …}`.
///
/// Only items whose `header` is `YouTube Music` are plays: title = `title` without its
/// leading `Watched `, artist = `subtitles[0].name` without YouTube's ` - Topic` channel
/// suffix, song_id = `youtube:` + the `v` parameter of `titleUrl`, started_at = `time`
/// (UTC). Videos (`header` `YouTube`) and ads (`details` naming `From Google Ads`) are
/// not rows read: the manifest counts them (`unusedRecords`), as they would otherwise
/// fill rejects.csv with every video watched. A YouTube Music item without `titleUrl`
/// (a removed video, "Watched a video that has been removed") or whose title is the
/// bare URL names no song and is rejected. The history has no end and no listened
/// time: plays are start-only, as scrobbles (`LastFM.writeStartOnly`).
enum YouTubeMusic: FormatAdapter {
    static let header = "YouTube Music"
    static let watchedPrefix = "Watched "
    static let topicSuffix = " - Topic"
    static let adMarker = "From Google Ads"

    /// Google's My Activity log of a product (`My Activity/<product>/MyActivity.json`, lower
    /// case): the same items as the product's own history, and every other product's
    /// activity in the same layout, so it is not read.
    static let activityLogName = "myactivity.json"

    /// Whether a JSON file (`fileName` in lower case) is a YouTube watch history: Takeout
    /// items (`header`, `time`) in a file named `watch-history*.json`, or whose first bytes
    /// name YouTube Music. Takeout's other histories in the same layout (search history,
    /// My Activity, other products) are not.
    static func matches(fileName: String, head: String) -> Bool {
        guard head.contains("\"header\""), head.contains("\"time\""), fileName != activityLogName,
              !fileName.hasPrefix("search-history") else { return false }
        return fileName.hasPrefix("watch-history") || head.contains("\"\(header)\"")
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let file = input.file
        let subject = sink.subject(input.subject, group: input.group)
        var rows = 0
        var unused: [String: Int] = [:]
        var plays: [LastFM.Scrobble] = []
        try JSONArrayReader(path: input.path).forEachObject { object, line in
            let details = (object["details"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            if details.contains(where: { $0.contains(adMarker) }) {
                unused["details=\(adMarker): an ad, not a play", default: 0] += 1
                return
            }
            let itemHeader = object["header"] as? String ?? ""
            guard itemHeader == header else {
                unused["header=\(itemHeader.isEmpty ? "(none)" : itemHeader): not YouTube Music", default: 0] += 1
                return
            }
            rows += 1
            func reject(_ reason: String) throws {
                try sink.reject(file, line: line, column: 0, reason: reason, raw: JSONText.compact(object))
            }
            guard let url = object["titleUrl"] as? String, !url.isEmpty else {
                return try reject("no titleUrl: removed video, not a play")
            }
            let title = song(object["title"] as? String ?? "")
            guard !title.isEmpty, !title.hasPrefix("http") else { return try reject("no song title") }
            guard let text = object["time"] as? String, let (ms, hasZone) = Timestamp.parseISO(text), hasZone else {
                return try reject("unparsable time")
            }
            if let late = sink.afterExport(ms) { return try reject(late) }
            let subtitles = object["subtitles"] as? [[String: Any]] ?? []
            let artist = self.artist(subtitles.first?["name"] as? String ?? "")
            plays.append(LastFM.Scrobble(startMs: ms, title: title, artist: artist, album: "", line: line,
                                         songId: videoId(url).map { "youtube:" + $0 }))
            sink.accept(file)
        }
        try LastFM.writeStartOnly(plays, input: input, subject: subject, into: sink)
        sink.setUnused(file, unused)
        sink.note(file, "only header 'YouTube Music' items are plays; time is the start (UTC); ended_at empty, "
            + "played_s = time to the next play, at most \(Int(LastFM.maxPlayS)) s (estimated); song_id = youtube:<video id>")
        try sink.endSource(input, rowsRead: rows)
    }

    /// The song of a title: without the leading `Watched `.
    static func song(_ title: String) -> String {
        let t = title.hasPrefix(watchedPrefix) ? String(title.dropFirst(watchedPrefix.count)) : title
        return t.trimmingCharacters(in: .whitespaces)
    }

    /// The artist of a channel name: without YouTube's ` - Topic` suffix of auto-generated artist channels.
    static func artist(_ channel: String) -> String {
        let a = channel.hasSuffix(topicSuffix) ? String(channel.dropLast(topicSuffix.count)) : channel
        return a.trimmingCharacters(in: .whitespaces)
    }

    /// The `v` query parameter of a watch URL.
    static func videoId(_ url: String) -> String? {
        URLComponents(string: url)?.queryItems?.first { $0.name == "v" }?.value.flatMap { $0.isEmpty ? nil : $0 }
    }
}
