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
}
