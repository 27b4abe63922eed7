import Foundation
import XCTest

/// `resonance import` on a participant's folder of wearable and music-service exports
/// (YouTube Music, Withings, Polar Flow): each file read by its own format, the tables
/// written, and the warning for Polar Flow's zone-less times without --tz on stderr.
final class ImportServiceExportsCommandTests: XCTestCase {
    static let videoCounted = "import: 1 record of a kind the toolkit does not use, counted and not read: "
        + "header=YouTube: not YouTube Music 1 (see unusedRecords in manifest.json)\n"

    func testFolderOfServiceExportsImportsEachFileWithItsFormat() throws {
        let dir = try makeTempDir()
        try writeFixture("""
            [{"header": "YouTube Music", "title": "Watched River", "titleUrl": "https://music.youtube.com/watch?v=r1",
              "subtitles": [{"name": "Joni Mitchell - Topic"}], "time": "2024-03-01T10:00:00.500Z", "products": ["YouTube"]},
             {"header": "YouTube", "title": "Watched a cat", "titleUrl": "https://www.youtube.com/watch?v=c", "time": "2024-03-01T09:00:00Z"}]
            """, to: dir + "/study/p1/watch-history.json")
        try writeFixture("start,duration,value\n2024-03-01T08:00:00+01:00,\"[60,60]\",\"[70,0]\"\n2024-03-01T06:00:00Z,\"[30]\",\"[65]\"\n",
                         to: dir + "/study/p1/raw_hr_hr.csv")
        try writeFixture("""
            Name,Sport,Date,Start time,Duration,Total distance (km),Average heart rate (bpm)
            P One,CYCLING,02-03-2024,08:00:00,00:00:02,0.01,100
            Sample rate,Time,HR (bpm),Speed (km/h)
            1,00:00:00,100,0
            ,00:00:01,102,5

            """, to: dir + "/study/p1/P_One_2024-03-02_08-00-00.csv")
        let run = try resonance("import", dir + "/study", "--out", dir + "/ws")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        // The video watched is counted, not read, on one line.
        XCTAssertEqual(run.stderr, "warning: study/p1/P_One_2024-03-02_08-00-00.csv: Polar Flow times carry no zone: read as UTC "
            + "(give --tz for the zone of the recording)\n" + Self.videoCounted)
        let manifest = try XCTUnwrap(JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: dir + "/ws/manifest.json"))) as? [String: Any])
        let sources = manifest["sources"] as? [[String: Any]] ?? []
        XCTAssertEqual(sources.map { "\($0["path"]!) \($0["format"]!) \($0["rowsRead"]!)" },
                       ["study/p1/P_One_2024-03-02_08-00-00.csv polar-flow 3", "study/p1/raw_hr_hr.csv withings-hr 2",
                        "study/p1/watch-history.json youtube-music 1"])
        XCTAssertEqual(try String(contentsOfFile: dir + "/ws/hr.csv", encoding: .utf8), """
            subject,timestamp,bpm,source
            p1,2024-03-01T06:00:00.000Z,65.0,withings
            p1,2024-03-01T07:00:00.000Z,70.0,withings
            p1,2024-03-02T08:00:00.000Z,100.0,polar_flow
            p1,2024-03-02T08:00:01.000Z,102.0,polar_flow

            """)
        XCTAssertEqual(try String(contentsOfFile: dir + "/ws/workouts.csv", encoding: .utf8),
                       "subject,start,end,activity\np1,2024-03-02T08:00:00.000Z,2024-03-02T08:00:02.000Z,CYCLING\n")
        let plays = try String(contentsOfFile: dir + "/ws/plays.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(plays.count, 2)
        XCTAssertTrue(plays[1].contains(",youtube:r1,River,Joni Mitchell,,,2024-03-01T10:00:00.500Z,"), String(plays[1]))
        // With --tz the same folder imports without a warning, Polar Flow's times in that zone.
        let zoned = try resonance("import", dir + "/study", "--out", dir + "/ws2", "--tz", "Europe/Berlin")
        XCTAssertEqual(zoned.status, ExitStatus.success, zoned.stderr)
        XCTAssertEqual(zoned.stderr, Self.videoCounted)
        XCTAssertTrue(try String(contentsOfFile: dir + "/ws2/hr.csv", encoding: .utf8)
            .contains("p1,2024-03-02T07:00:00.000Z,100.0,polar_flow\n"))
    }

    /// Spotify's times are UTC: the plays' conn_country proposes a zone on stderr, even
    /// with --quiet (a country of one clock: its zone; of several: none), says nothing
    /// when --tz keeps that clock and warns when it does not; the plays keep no offset.
    func testSpotifyConnCountryProposesAZoneOnStderr() throws {
        let dir = try makeTempDir()
        func history(_ country: String) -> String {
            """
            [{"ts": "2024-03-01T18:03:20Z", "ms_played": 200000, "conn_country": "\(country)",
              "master_metadata_track_name": "River", "master_metadata_album_artist_name": "Joni Mitchell",
              "spotify_track_uri": "spotify:track:r1", "reason_end": "trackdone", "skipped": false},
             {"ts": "2024-03-01T18:07:00Z", "ms_played": 200000, "conn_country": "\(country)",
              "master_metadata_track_name": "Carey", "master_metadata_album_artist_name": "Joni Mitchell",
              "spotify_track_uri": "spotify:track:c3", "reason_end": "trackdone", "skipped": false}]
            """
        }
        let india = try writeFixture(history("IN"), to: dir + "/in/Streaming_History_Audio_2024.json")
        let states = try writeFixture(history("US"), to: dir + "/us/Streaming_History_Audio_2024.json")
        func importing(_ path: String, _ extra: String...) throws -> CommandRun {
            let run = try resonance(["import", path, "--subject", "P1", "--out", try makeTempDir() + "/ws", "--quiet"] + extra)
            XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
            return run
        }
        let unsaid = "without it, session contexts, time slots and days are read in UTC"
        XCTAssertEqual(try importing(india).stderr,
                       "warning: P1: conn_country IN on all 2 plays proposes --tz Asia/Kolkata; \(unsaid)\n")
        XCTAssertEqual(try importing(india, "--tz", "Asia/Kolkata").stderr, "")
        XCTAssertEqual(try importing(india, "--tz", "Europe/Berlin").stderr,
                       "warning: P1: conn_country IN on all 2 plays proposes Asia/Kolkata, not --tz Europe/Berlin, which is kept\n")
        XCTAssertEqual(try importing(states).stderr, "warning: P1: conn_country US on all 2 plays, a country of 29 zones: "
            + "no zone to propose; without --tz, session contexts, time slots and days are read in UTC\n")
        XCTAssertEqual(try importing(states, "--tz", "America/Chicago").stderr, "")

        let ws = dir + "/ws"
        XCTAssertEqual(try resonance("import", india, "--subject", "P1", "--out", ws, "--quiet").status, ExitStatus.success)
        let plays = try String(contentsOfFile: ws + "/plays.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(plays.count, 3)
        XCTAssertTrue(plays.dropFirst().allSatisfy { $0.hasSuffix(",") }, "utc_offset_min stays empty: \(plays)")
        let manifest = try XCTUnwrap(JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: ws + "/manifest.json"))) as? [String: Any])
        let notes = (manifest["sources"] as? [[String: Any]])?.first?["notes"] as? [String] ?? []
        XCTAssertTrue(notes.contains("conn_country of the plays: IN 2"), "\(notes)")
    }

    /// Times without a zone read as UTC for want of --tz are said on stderr as well as in
    /// the manifest, unless --quiet; with --tz nothing is said.
    func testTimesWithoutAZoneReadAsUTCAreSaidOnStderr() throws {
        let dir = try makeTempDir()
        let path = try writeFixture("timestamp,bpm\n2024-03-01T08:00:00,61\n2024-03-01T08:00:05,62\n", to: dir + "/P1/heart.csv")
        let run = try resonance("import", path, "--out", dir + "/ws")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertEqual(run.stderr, "import: times without a zone read as UTC (no --tz given) in P1/heart.csv\n")
        let zoned = try resonance("import", path, "--out", dir + "/ws2", "--tz", "Europe/Berlin")
        XCTAssertEqual(zoned.status, ExitStatus.success, zoned.stderr)
        XCTAssertEqual(zoned.stderr, "")
        XCTAssertEqual(try resonance("import", path, "--out", dir + "/ws3", "--quiet").stderr, "")
    }
}
