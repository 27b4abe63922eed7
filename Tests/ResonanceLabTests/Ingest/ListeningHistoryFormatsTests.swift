import XCTest
@testable import ResonanceLab

/// Spotify and Last.fm listening histories, fixtures written from the exports'
/// documented fields: format detected, rows read / accepted / rejected, plays
/// worked by hand.
final class ListeningHistoryFormatsTests: XCTestCase {
    static let june1 = Timestamp.parseISO("2023-06-01T14:00:00Z")!.ms

    func testSpotifyExtendedHistoryEndsAndSkips() throws {
        let path = try writeFixture("""
            [
            {"ts": "2023-06-01T14:03:20Z", "platform": "ios", "ms_played": 200000, "conn_country": "US", "master_metadata_track_name": "River", "master_metadata_album_artist_name": "Joni Mitchell", "master_metadata_album_album_name": "Blue", "spotify_track_uri": "spotify:track:4Ju2", "episode_name": null, "episode_show_name": null, "spotify_episode_uri": null, "reason_start": "trackdone", "reason_end": "trackdone", "shuffle": false, "skipped": false, "offline": false, "incognito_mode": false},
            {"ts": "2023-06-01T14:03:35Z", "ms_played": 15000, "master_metadata_track_name": "Carey", "master_metadata_album_artist_name": "Joni Mitchell", "master_metadata_album_album_name": "Blue", "spotify_track_uri": "spotify:track:7aa", "reason_start": "trackdone", "reason_end": "fwdbtn", "shuffle": false, "skipped": null},
            {"ts": "2023-06-01T15:00:00Z", "ms_played": 1800000, "master_metadata_track_name": null, "master_metadata_album_artist_name": null, "episode_name": "Ep 1", "reason_start": "clickrow", "reason_end": "trackdone", "skipped": null},
            {"ts": "2023-06-01T15:05:00Z", "ms_played": 60000, "master_metadata_track_name": "Help!", "master_metadata_album_artist_name": "The Beatles", "master_metadata_album_album_name": "Help!", "spotify_track_uri": "spotify:track:1", "reason_start": "clickrow", "reason_end": "endplay", "skipped": true}
            ]

            """, to: try makeTempDir() + "/ana/Streaming_History_Audio_2023.json")
        let (ws, m) = try importSources([path])
        let s = m.sources[0]
        XCTAssertEqual(s.format, "spotify-extended")
        // The podcast episode is a valid record of a kind not used: counted, not a row read, not rejected.
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [3, 3, 0])
        XCTAssertEqual(s.unusedRecords, ["podcast episode": 1])
        XCTAssertEqual(try ws.read(Reject.self), [])
        let plays = try ws.read(Play.self)
        XCTAssertEqual(plays.map(\.title), ["River", "Carey", "Help!"])
        // ts is the end: River 14:00:00–14:03:20, Carey 14:03:20–14:03:35, Help! 15:04–15:05.
        XCTAssertEqual(plays.map { $0.startedAtMs - Self.june1 }, [0, 200_000, 3_840_000])
        XCTAssertEqual(plays.map { ($0.endedAtMs ?? 0) - Self.june1 }, [200_000, 215_000, 3_900_000])
        XCTAssertEqual(plays.map(\.skipped), [false, true, true])
        XCTAssertEqual(plays.map(\.songId), ["spotify:track:4Ju2", "spotify:track:7aa", "spotify:track:1"])
        XCTAssertEqual(plays.map(\.playedS), [200, 15, 60])
        XCTAssertEqual(m.subjects.map(\.subject), ["ana"])
    }

    func testSpotifyAccountDataLayout() throws {
        let path = try writeFixture("""
            [
              {
                "endTime" : "2023-06-01 14:03",
                "artistName" : "Joni Mitchell",
                "trackName" : "River",
                "msPlayed" : 180000
              },
              {
                "endTime" : "2023-06-01 14:05",
                "artistName" : "Joni Mitchell",
                "trackName" : "Carey",
                "msPlayed" : 120000
              },
              {
                "endTime" : "yesterday",
                "artistName" : "X",
                "trackName" : "Y",
                "msPlayed" : 1
              }
            ]

            """, to: try makeTempDir() + "/ana/StreamingHistory0.json")
        let (ws, m) = try importSources([path])
        let s = m.sources[0]
        XCTAssertEqual(s.format, "spotify-account")
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [3, 2, 1])
        XCTAssertEqual(try ws.read(Reject.self).map(\.line), [14])
        XCTAssertEqual(try ws.read(Reject.self).map(\.reason), ["unparsable endTime"])
        let plays = try ws.read(Play.self)
        XCTAssertEqual(plays.map { $0.startedAtMs - Self.june1 }, [0, 180_000])
        XCTAssertEqual(plays.map(\.songId), [AppleMusic.songId(title: "River", artist: "Joni Mitchell"),
                                              AppleMusic.songId(title: "Carey", artist: "Joni Mitchell")])
        XCTAssertEqual(plays.map(\.skipped), [false, false])
    }

    func testLastFMWithoutHeader() throws {
        let path = try writeFixture("""
            Joni Mitchell,Blue,Carey,01 Jun 2023 14:03
            Joni Mitchell,Blue,River,01 Jun 2023 14:00
            The Beatles,Help!,,01 Jun 2023 15:00
            The Beatles,Help!,Help!,01 Jun 2023 25:00

            """, to: try makeTempDir() + "/ana/scrobbles.csv")
        let (ws, m) = try importSources([path])
        let s = m.sources[0]
        XCTAssertEqual(s.format, "lastfm")
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [4, 2, 2])
        XCTAssertEqual(try ws.read(Reject.self).map(\.reason), ["no track name", "unparsable time"])
        let plays = try ws.read(Play.self)
        XCTAssertEqual(plays.map(\.title), ["River", "Carey"])
        XCTAssertEqual(plays.map { $0.startedAtMs - Self.june1 }, [0, 180_000])
        // Estimated listening: to the next scrobble (180 s), the last one capped at 600 s.
        XCTAssertEqual(plays.map(\.playedS), [180, 600])
        XCTAssertEqual(plays.map(\.endedAtMs), [nil, nil])
        XCTAssertTrue(s.notes.contains { $0.hasPrefix("scrobbles carry a start only") })
    }

    func testLastFMWithHeader() throws {
        let path = try writeFixture("""
            uts,utc_time,artist,artist_mbid,album,album_mbid,track,track_mbid
            1685628180,"01 Jun 2023, 14:03",Joni Mitchell,,Blue,,Carey,
            1685628000,"01 Jun 2023, 14:00",Joni Mitchell,,Blue,,River,

            """, to: try makeTempDir() + "/ana/recenttracks.csv")
        let (ws, m) = try importSources([path])
        XCTAssertEqual(m.sources[0].format, "lastfm")
        XCTAssertEqual([m.sources[0].rowsRead, m.sources[0].accepted, m.sources[0].rejected], [2, 2, 0])
        let plays = try ws.read(Play.self)
        XCTAssertEqual(plays.map(\.title), ["River", "Carey"])
        XCTAssertEqual(plays.map(\.album), ["Blue", "Blue"])
        XCTAssertEqual(plays.map { $0.startedAtMs - Self.june1 }, [0, 180_000])
    }
}
