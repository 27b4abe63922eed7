import Foundation
import XCTest

/// `resonance import` on exports as people download them (docs/import.md, Folders and
/// subjects; Rejects and the manifest): whole archives imported from their root, unused
/// records counted on one stderr line, records dated after the export rejected, and a
/// folder without data naming what it saw.
final class ImportExportArchivesCommandTests: XCTestCase {
    private func manifest(_ ws: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: ws + "/manifest.json"))) as? [String: Any])
    }

    private func rows(_ path: String) throws -> Int {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count - 1
    }

    func testTakeoutImportsFromItsRootWithAndWithoutSubject() throws {
        let dir = try makeTempDir()
        try ExportArchiveFixtures.writeTakeout(dir + "/Takeout")
        let run = try resonance("import", dir + "/Takeout", "--out", dir + "/ws")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertEqual(run.stderr, """
            import: 10 files skipped (see manifest.json)
            import: 3 records of kinds the toolkit does not use, counted and not read: bucket without Average heart rate (bpm) \
            or Step count 1, details=From Google Ads: an ad, not a play 1, header=YouTube: not YouTube Music 1 (see \
            unusedRecords in manifest.json)

            """)
        let m = try manifest(dir + "/ws")
        XCTAssertEqual((m["exportRoots"] as? [[String: String]]) ?? [],
                       [["path": "Takeout", "export": "Google Takeout", "subject": "Takeout"]])
        XCTAssertEqual((m["subjects"] as? [[String: Any]])?.compactMap { $0["subject"] as? String }, ["Takeout"])
        XCTAssertEqual([try rows(dir + "/ws/hr.csv"), try rows(dir + "/ws/plays.csv"), try rows(dir + "/ws/daily_inputs.csv"),
                        try rows(dir + "/ws/rejects.csv")], [1, 2, 1, 0])
        // --subject names the person; the tables hold the same rows under that name.
        let named = try resonance("import", dir + "/Takeout", "--subject", "P1", "--out", dir + "/ws2", "--quiet")
        XCTAssertEqual(named.status, ExitStatus.success, named.stderr)
        XCTAssertEqual(named.stderr, "")
        XCTAssertNil(try manifest(dir + "/ws2")["exportRoots"])
        XCTAssertEqual(try String(contentsOfFile: dir + "/ws2/hr.csv", encoding: .utf8),
                       "subject,timestamp,bpm,source\nP1,2024-03-01T07:00:00.000Z,92.5,google_fit\n")
    }

    func testGarminListenBrainzAndAppleHealthExportsFromTheirRoots() throws {
        let dir = try makeTempDir()
        try ExportArchiveFixtures.writeGarminExport(dir + "/DI_CONNECT")
        try ExportArchiveFixtures.writeListenBrainzExport(dir + "/listenbrainz_ana")
        try ExportArchiveFixtures.writeAppleHealthExport(dir + "/apple_health_export")
        let garmin = try resonance("import", dir + "/DI_CONNECT", "--out", dir + "/garmin", "--quiet")
        XCTAssertEqual(garmin.status, ExitStatus.success, garmin.stderr)
        XCTAssertEqual([try rows(dir + "/garmin/hrv_samples.csv"), try rows(dir + "/garmin/sleep.csv"),
                        try rows(dir + "/garmin/daily_inputs.csv")], [2, 2, 2])
        XCTAssertTrue(try String(contentsOfFile: dir + "/garmin/hrv_samples.csv", encoding: .utf8)
            .contains("DI_CONNECT,2024-03-02T23:00:00.000Z,,51.0,garmin\n"))
        // The ListenBrainz listens file with a bad line still has accepted rows: exit 0.
        let listens = try resonance("import", dir + "/listenbrainz_ana", "--out", dir + "/lb", "--quiet")
        XCTAssertEqual(listens.status, ExitStatus.success, listens.stderr)
        XCTAssertEqual([try rows(dir + "/lb/plays.csv"), try rows(dir + "/lb/rejects.csv")], [3, 1])
        // Apple Health: the step count dated after ExportDate is rejected and counted on stderr.
        let apple = try resonance("import", dir + "/apple_health_export", "--out", dir + "/apple", "--quiet")
        XCTAssertEqual(apple.status, ExitStatus.success, apple.stderr)
        XCTAssertEqual(apple.stderr, "warning: apple_health_export/export.xml: 1 record dated after the export was made "
            + "(2019-06-17T17:21:02.000Z, ExportDate): rejected (see rejects.csv)\n")
        let rejects = try String(contentsOfFile: dir + "/apple/rejects.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(rejects.count, 2)
        XCTAssertTrue(rejects[1].hasPrefix("apple_health_export/export.xml,11,0,\"dated after the export was made "
            + "(2019-06-17T17:21:02.000Z, ExportDate)\","), String(rejects[1]))
        XCTAssertEqual(try String(contentsOfFile: dir + "/apple/daily_inputs.csv", encoding: .utf8),
                       "subject,date,metric,value,unit,source\napple_health_export,2019-06-16,steps,800.0,count,Ana’s iPhone\n")
    }

    /// A Spotify history whose video file holds only podcast episodes exits 0: its episodes
    /// are counted, not rejected.
    func testPodcastOnlyFileIsNoFailure() throws {
        let dir = try makeTempDir()
        try ExportArchiveFixtures.writeSpotifyExtendedHistory(dir + "/Spotify Extended Streaming History")
        let run = try resonance("import", dir + "/Spotify Extended Streaming History", "--out", dir + "/ws")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertEqual(run.stderr, """
            import: 1 file skipped (see manifest.json)
            import: 4 records of kinds the toolkit does not use, counted and not read: video podcast episode \
            (Streaming_History_Video) 2, audiobook 1, podcast episode 1 (see unusedRecords in manifest.json)

            """)
        XCTAssertEqual(try rows(dir + "/ws/rejects.csv"), 0)
        let sources = try manifest(dir + "/ws")["sources"] as? [[String: Any]] ?? []
        XCTAssertEqual(sources.map { "\($0["rowsRead"]!) \($0["unusedRecords"].map { "\($0)" } ?? "-")" }.count, 2)
        XCTAssertEqual(sources.last?["unusedRecords"] as? [String: Int], ["video podcast episode (Streaming_History_Video)": 2])
    }

    func testExportedAtRejectsLaterRecordsAndItsHelpStatesTheFormat() throws {
        let dir = try makeTempDir()
        let path = try writeFixture("timestamp,bpm\n2024-03-01T08:00:00Z,61\n2024-03-02T08:00:00Z,63\n", to: dir + "/P1/heart.csv")
        let run = try resonance("import", path, "--out", dir + "/ws", "--exported-at", "2024-03-01T12:00:00+01:00")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertEqual(run.stderr, "warning: P1/heart.csv: 1 record dated after the export was made "
            + "(2024-03-01T11:00:00.000Z, --exported-at): rejected (see rejects.csv)\n")
        XCTAssertEqual(try rows(dir + "/ws/hr.csv"), 1)
        assertUsageError(try resonance("import", path, "--out", dir + "/ws2", "--exported-at", "2024-03-01"),
                         "--exported-at: '2024-03-01' is not an ISO 8601 time with a zone (e.g. 2024-03-01T08:00:00Z).")
        let help = try resonance("import", "--help").stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(help.contains("--exported-at <time> When the exports were made, ISO 8601 with zone, e.g. 2024-03-01T08:00:00Z"), help)
    }

    func testAFolderWithoutDataNamesWhatItSaw() throws {
        let dir = try makeTempDir()
        try writeFixture("<html></html>\n", to: dir + "/Takeout/archive_browser.html")
        try writeFixture("{\"Browser History\": []}\n", to: dir + "/Takeout/Chrome/BrowserHistory.json")
        assertFailure(try resonance("import", dir + "/Takeout", "--out", dir + "/ws"),
                      "Takeout: no file in a known format; seen and not read: Takeout/archive_browser.html (unknown extension .html); "
                        + "Takeout/Chrome/BrowserHistory.json (JSON in no known format")
    }

    /// Health Auto Export's per-minute CSV with only heart-rate columns is recognised, and
    /// gives one hr.csv row per row with an Avg.
    func testHealthAutoExportHeartRateCSV() throws {
        let dir = try makeTempDir()
        let path = try writeFixture("""
            Date/Time,Heart Rate [Min] (count/min),Heart Rate [Max] (count/min),Heart Rate [Avg] (count/min)
            2024-03-01 08:00:00 -0500,60,66,62.5
            2024-03-01 08:01:00 -0500,,,
            2024-03-01 08:02:00 -0500,61,70,65

            """, to: dir + "/ana/HealthAutoExport.csv")
        let run = try resonance("import", path, "--out", dir + "/ws", "--quiet")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertEqual(try String(contentsOfFile: dir + "/ws/hr.csv", encoding: .utf8), """
            subject,timestamp,bpm,source
            ana,2024-03-01T13:00:00.000Z,62.5,health_auto_export
            ana,2024-03-01T13:02:00.000Z,65.0,health_auto_export

            """)
    }
}
