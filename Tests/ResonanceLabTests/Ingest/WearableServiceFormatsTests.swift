import XCTest
@testable import ResonanceLab

/// Samsung Health, Withings, Polar Flow and WHOOP exports, fixtures written from each
/// export's documented layout: detection, rows read / accepted / rejected per file,
/// exact rows per table with first and last values to the millisecond, and each
/// format's trap.
final class WearableServiceFormatsTests: XCTestCase {
    func testSamsungHealthHeartRateWithBOMAndMetadataLine() throws {
        let ns = "com.samsung.health.heart_rate."
        let header = ["source", "tag_id", "create_sh_ver", "heart_beat_count", "start_time", "custom", "binning_data",
                      "modify_sh_ver", "update_time", "create_time", "max", "min", "time_offset", "deviceuuid", "comment",
                      "pkg_name", "end_time", "datauuid", "heart_rate"]
            .enumerated().map { $0.offset < 2 ? $0.element : ns + $0.element }.joined(separator: ",")
        func row(_ start: String, _ offset: String, _ bpm: String) -> String {
            "0,21313,60001,1,\(start),,,60001,\(start),\(start),\(bpm),\(bpm),\(offset),dev1,,com.sec.android.app.shealth,\(start),uuid,\(bpm),"
        }
        let path = try writeFixture("\u{FEFF}com.samsung.shealth.tracker.heart_rate,6313007,3\n\(header),\n"
            + [row("2024-03-01 08:00:00.250", "UTC+0100", "72.0"), row("2024-03-01 08:10:00.000", "UTC+0100", "0"),
               row("2024-03-01 08:05:00.000", "UTC+0100", ""), row("2024-03-01 07:55:00.500", "UTC+0100", "64.0"),
               row("2024-03-01 08:20:00.125", "UTC-0500", "80.0")].joined(separator: "\n") + "\n",
            to: try makeTempDir() + "/sam/com.samsung.shealth.tracker.heart_rate.20240302120000.csv")
        // The same file under another name is still recognised by its metadata line.
        XCTAssertEqual(try SourceFormat.detect(path: path), .samsungHeartRate)
        let renamed = try writeFixture(try String(contentsOfFile: path, encoding: .utf8), to: try makeTempDir() + "/hr_export.csv")
        XCTAssertEqual(try SourceFormat.detect(path: renamed), .samsungHeartRate)
        // --tz changes nothing: start_time is UTC.
        let (ws, m) = try importSources([path], tz: "Europe/Berlin")
        let s = m.sources[0]
        XCTAssertEqual(s.format, "samsung-hr")
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [5, 3, 2])
        XCTAssertEqual(try ws.read(Reject.self).map(\.reason), ["no heart rate (empty or 0)", "no heart rate (empty or 0)"])
        XCTAssertEqual(try ws.read(Reject.self).map(\.line), [4, 5])
        let hr = try ws.read(HRSample.self)
        XCTAssertEqual(hr.count, 3)
        XCTAssertEqual(hr.map { Timestamp.iso($0.timestampMs) },
                       ["2024-03-01T07:55:00.500Z", "2024-03-01T08:00:00.250Z", "2024-03-01T08:20:00.125Z"])
        XCTAssertEqual(hr.map(\.bpm), [64, 72, 80])
        XCTAssertEqual(Set(hr.map(\.source)), ["samsung_health"])
        XCTAssertFalse(s.notes.contains { $0.hasPrefix("naive local times") }, "\(s.notes)")
    }

    func testUTCOffsetTexts() {
        XCTAssertEqual(UTCOffset.minutes("UTC+0100"), 60)
        XCTAssertEqual(UTCOffset.minutes("UTC-05:00"), -300)
        XCTAssertEqual(UTCOffset.minutes("UTC+0530"), 330)
        XCTAssertEqual(UTCOffset.minutes("UTCZ"), 0)
        XCTAssertEqual(UTCOffset.minutes("UTC"), 0)
        XCTAssertEqual(UTCOffset.minutes("-03:30"), -210)
        XCTAssertNil(UTCOffset.minutes("UTC+1500"))
        XCTAssertNil(UTCOffset.minutes("UTC+01:75"))
        XCTAssertNil(UTCOffset.minutes("Europe/Paris"))
    }
}
