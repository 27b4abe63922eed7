import XCTest
@testable import ResonanceLab

/// Apple Music Play Activity, current and legacy layouts (Apple's privacy export,
/// Apple Media Services): event types, empty end times, UTC offsets and songs
/// without artist.
final class AppleMusicLayoutsTests: XCTestCase {
    func testCurrentLayoutEventTypesOffsetsAndSongsWithoutArtist() throws {
        let header = "Album Name,Artist Name,Container Name,Container Type,End Reason Type,Event End Timestamp,Event Start Timestamp,"
            + "Event Type,Media Duration In Milliseconds,Play Duration Milliseconds,Song Name,UTC Offset In Seconds"
        let path = try writeFixture("""
            \(header)
            Blue,Joni Mitchell,Blue,ALBUM,,,2024-03-01T14:00:00.000Z,PLAY_START,180000,,River,-28800
            Blue,Joni Mitchell,Blue,ALBUM,NATURAL_END_OF_TRACK,2024-03-01T14:03:00.000Z,2024-03-01T14:00:00.000Z,PLAY_END,180000,180000,River,-28800
            Blue,Joni Mitchell,Blue,ALBUM,,,2024-03-01T14:03:00.000Z,PLAY_END,180000,60000,Carey,-28800
            Lost,,Mix,PLAYLIST,FAILED_TO_LOAD,,2024-03-01T14:10:00.000Z,FAILED_TO_LOAD,200000,,Intro,-28800
            One,,Mix,PLAYLIST,NATURAL_END_OF_TRACK,2024-03-01T14:13:20.000Z,2024-03-01T14:10:00.000Z,PLAY_END,200000,200000,Intro,-28800
            Two,,Mix,PLAYLIST,NATURAL_END_OF_TRACK,2024-03-01T14:16:00.000Z,2024-03-01T14:13:20.000Z,PLAY_END,160000,160000,Intro,-28800

            """, to: try makeTempDir() + "/alice/Apple Music Play Activity.csv")
        let (ws, m) = try importSources([path])
        let s = m.sources[0]
        XCTAssertEqual(s.format, "apple-music")
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [6, 4, 2])
        XCTAssertEqual(try ws.read(Reject.self).map(\.reason),
                       ["event type PLAY_START is not a play", "event type FAILED_TO_LOAD is not a play"])
        XCTAssertEqual(try ws.read(Reject.self).map(\.column), [8, 8])
        let plays = try ws.read(Play.self)
        XCTAssertEqual(plays.map(\.title), ["River", "Carey", "Intro", "Intro"])
        XCTAssertEqual(plays.map(\.utcOffsetMin), [-480, -480, -480, -480])
        XCTAssertNil(plays[1].endedAtMs, "an empty end time is an unknown end, not a reject")
        XCTAssertEqual(plays[0].songId, AppleMusic.songId(title: "River", artist: "Joni Mitchell"))
        // Two songs titled Intro on different albums, no artist: two songs.
        XCTAssertNotEqual(plays[2].songId, plays[3].songId)
        XCTAssertEqual(plays[2].songId, AppleMusic.songId(title: "Intro", artist: "", extra: "One — 200 s"))
        XCTAssertTrue(s.notes.contains("2 plays without artist: song_id from title, album (or container) and media duration"), "\(s.notes)")
        let text = try String(contentsOfFile: ws.file(Play.fileName), encoding: .utf8)
        XCTAssertTrue(text.hasPrefix(Play.header.joined(separator: ",") + "\n"))
        XCTAssertTrue(Play.header.last == "utc_offset_min")
        XCTAssertTrue(text.contains(",false,-480\n"), text)
    }

    func testLegacyContentNameLayout() throws {
        let path = try writeFixture("""
            Artist Name,Content Name,End Reason Type,Event End Timestamp,Event Start Timestamp,Event Type,Media Duration In Milliseconds,Play Duration Milliseconds,UTC Offset In Seconds
            Joni Mitchell,River,NATURAL_END_OF_TRACK,2019-05-01T07:03:00Z,2019-05-01T07:00:00Z,PLAY_END,180000,180000,3600
            Joni Mitchell,River,,,2019-05-01T07:03:00Z,PLAY_START,180000,,3600

            """, to: try makeTempDir() + "/bob/Apple Music Play Activity.csv")
        let (ws, m) = try importSources([path])
        XCTAssertEqual(m.sources[0].format, "apple-music")
        XCTAssertEqual([m.sources[0].rowsRead, m.sources[0].accepted, m.sources[0].rejected], [2, 1, 1])
        let plays = try ws.read(Play.self)
        XCTAssertEqual(plays.map(\.title), ["River"])
        XCTAssertEqual(plays.map(\.utcOffsetMin), [60])
        XCTAssertEqual(plays.map(\.playedS), [180])
    }
}
