import XCTest
@testable import ResonanceLab

/// YouTube Music (Google Takeout) and ListenBrainz listening histories, fixtures
/// written from each export's documented layout: detection, rows read / accepted /
/// rejected, first and last plays to the millisecond, and each format's trap.
final class MusicServiceFormatsTests: XCTestCase {
    func testYouTubeMusicKeepsOnlyMusicItems() throws {
        // Takeout lists newest first; videos, an ad and a removed video sit among the songs.
        let path = try writeFixture("""
            [{
              "header": "YouTube Music",
              "title": "Watched Carey",
              "titleUrl": "https://music.youtube.com/watch?v=car3y",
              "subtitles": [{"name": "Joni Mitchell - Topic", "url": "https://www.youtube.com/channel/UC1"}],
              "time": "2023-06-01T14:03:20.250Z",
              "products": ["YouTube"],
              "activityControls": ["YouTube watch history"]
            },{
              "header": "YouTube",
              "title": "Watched How to bake bread",
              "titleUrl": "https://www.youtube.com/watch?v=bread",
              "subtitles": [{"name": "Baking Channel"}],
              "time": "2023-06-01T14:02:00Z",
              "products": ["YouTube"]
            },{
              "header": "YouTube",
              "title": "Watched Summer sale",
              "titleUrl": "https://www.youtube.com/watch?v=ad1",
              "time": "2023-06-01T14:01:00Z",
              "details": [{"name": "From Google Ads"}],
              "products": ["YouTube"]
            },{
              "header": "YouTube Music",
              "title": "Watched a video that has been removed",
              "time": "2023-06-01T14:00:30Z",
              "products": ["YouTube"]
            },{
              "header": "YouTube Music",
              "title": "Watched River",
              "titleUrl": "https://music.youtube.com/watch?v=r1ver",
              "subtitles": [{"name": "Joni Mitchell - Topic"}],
              "time": "2023-06-01T14:00:00.125Z",
              "products": ["YouTube"]
            }]
            """, to: try makeTempDir() + "/ana/watch-history.json")
        let (ws, m) = try importSources([path])
        let s = m.sources[0]
        XCTAssertEqual(s.format, "youtube-music")
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [3, 2, 1])
        XCTAssertEqual(s.unusedRecords, ["header=YouTube: not YouTube Music": 1,
                                         "details=From Google Ads: an ad, not a play": 1])
        let rejects = try ws.read(Reject.self)
        XCTAssertEqual(rejects.map(\.reason), ["no titleUrl: removed video, not a play"])
        XCTAssertEqual(rejects.map(\.line), [23], "the line the element starts on (its `},{` line)")
        let plays = try ws.read(Play.self)
        XCTAssertEqual(plays.count, 2)
        XCTAssertEqual(plays.map(\.title), ["River", "Carey"])
        XCTAssertEqual(plays.map(\.artist), ["Joni Mitchell", "Joni Mitchell"])
        XCTAssertEqual(plays.map(\.songId), ["youtube:r1ver", "youtube:car3y"])
        XCTAssertEqual(plays.map { Timestamp.iso($0.startedAtMs) }, ["2023-06-01T14:00:00.125Z", "2023-06-01T14:03:20.250Z"])
        // Start-only: the first play lasts until the next (200.125 s), the last the cap.
        XCTAssertEqual(plays.map(\.playedS), [200.125, LastFM.maxPlayS])
        XCTAssertEqual(plays.map(\.endedAtMs), [nil, nil])
        XCTAssertEqual(m.subjects.map(\.subject), ["ana"])
    }

    func testYouTubeMusicTitleAndArtistCleaning() {
        XCTAssertEqual(YouTubeMusic.song("Watched Watched Over Me"), "Watched Over Me")
        XCTAssertEqual(YouTubeMusic.artist("Sault - Topic"), "Sault")
        XCTAssertEqual(YouTubeMusic.artist("Topic - Topic"), "Topic")
        XCTAssertEqual(YouTubeMusic.artist("Lo-Fi Girl"), "Lo-Fi Girl")
        XCTAssertEqual(YouTubeMusic.videoId("https://music.youtube.com/watch?v=abc&list=RD1"), "abc")
        XCTAssertNil(YouTubeMusic.videoId("https://www.youtube.com/channel/UC1"))
    }

    func testListenBrainzListensWithDurationsAndIds() throws {
        let dir = try makeTempDir() + "/ana"
        try writeFixture(#"{"user_id": 7, "user_name": "ana"}"# + "\n", to: dir + "/user.json")
        let path = try writeFixture("""
            {"listened_at": 1685628000, "recording_msid": "msid-1", "track_metadata": {"artist_name": "Joni Mitchell", "track_name": "River", "release_name": "Blue", "additional_info": {"duration_ms": 244120, "recording_mbid": "mbid-river"}}}
            {"listened_at": 1685628244, "recording_msid": "msid-2", "track_metadata": {"artist_name": "Joni Mitchell", "track_name": "Carey", "additional_info": {"duration": 182, "duration_played": 60.5}}}

            not json
            {"listened_at": 1685628500, "recording_msid": "msid-3", "track_metadata": {"artist_name": "X", "additional_info": {}}}
            {"listened_at": 1685629000, "recording_msid": "msid-4", "track_metadata": {"artist_name": "The Beatles", "track_name": "Help!", "additional_info": {}, "mbid_mapping": {"recording_mbid": "mbid-help"}}}

            """, to: dir + "/6.jsonl")
        let (ws, m) = try importSources([dir])
        XCTAssertEqual(m.skipped?.map(\.path), ["ana/user.json"])
        XCTAssertEqual(m.skipped?.map(\.reason), ["ListenBrainz user.json: the account, no listens"])
        let s = try XCTUnwrap(m.sources.first)
        XCTAssertEqual(m.sources.count, 1)
        XCTAssertEqual(s.format, "listenbrainz")
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [5, 3, 2])
        let rejects = try ws.read(Reject.self)
        XCTAssertEqual(rejects.map(\.line), [4, 5])
        XCTAssertEqual(rejects.map(\.reason), ["line is not a JSON object", "no track_name"])
        let plays = try ws.read(Play.self)
        XCTAssertEqual(plays.map(\.title), ["River", "Carey", "Help!"])
        XCTAssertEqual(plays.map(\.songId), ["mbid:mbid-river", "msid:msid-2", "mbid:mbid-help"])
        XCTAssertEqual(plays.map { Timestamp.iso($0.startedAtMs) },
                       ["2023-06-01T14:00:00.000Z", "2023-06-01T14:04:04.000Z", "2023-06-01T14:16:40.000Z"])
        XCTAssertEqual(plays.map(\.mediaDurationS), [244.12, 182, nil])
        XCTAssertEqual(plays.map(\.playedS), [nil, 60.5, nil])
        XCTAssertEqual(plays.map { $0.endedAtMs.map(Timestamp.iso) }, [nil, "2023-06-01T14:05:04.500Z", nil])
        XCTAssertEqual(plays.map(\.album), ["Blue", "", ""])
        XCTAssertTrue(s.notes.contains { $0.contains("durations read: duration (s), duration_ms (ms), duration_played (s)") }, "\(s.notes)")
    }

    /// JSON Lines: a byte-order mark, CRLF line ends, blank lines and a last line without
    /// newline read the same whatever the chunk size.
    func testJSONLinesReaderIsIndependentOfChunkSize() throws {
        let path = try writeFixture("\u{FEFF}{\"a\": 1}\r\n\r\n  \n[2]\n{\"b\": \"x\\ny\"}", to: try makeTempDir() + "/l.jsonl")
        func lines(_ chunk: Int) throws -> [String] {
            var out: [String] = []
            let n = try JSONLinesReader(path: path, chunkSize: chunk).forEachLine { object, _, line in
                out.append("\(line):\(object.map { JSONText.compact($0) } ?? "nil")")
            }
            XCTAssertEqual(n, 3)
            return out
        }
        XCTAssertEqual(try lines(1 << 20), ["1:{\"a\":1}", "4:nil", "5:{\"b\":\"x\\ny\"}"])
        XCTAssertEqual(try lines(3), try lines(1 << 20))
    }
}
