import Foundation
import XCTest
@testable import ResonanceLab

/// Elite HRV R-R exports: the start time in the file name, read in `--tz`, anchors each
/// trial, so the trials of one session line up on one clock under one subject.
final class EliteHRVTests: XCTestCase {
    func testFileNameGivesTheLocalStart() {
        XCTAssertEqual(EliteHRV.localStartMs(fileName: "2026-03-02 07-30-00.txt"), ms("2026-03-02T07:30:00Z"))
        XCTAssertEqual(EliteHRV.localStartMs(fileName: "2024-02-29 23-59-59.TXT"), ms("2024-02-29T23:59:59Z"))
        for name in ["2026-03-02 07-30-00.csv", "2026-03-02_07-30-00.txt", "2026-03-02 07:30:00.txt",
                     "x2026-03-02 07-30-00.txt", "2026-03-02 07-30-00 .txt", "2026-02-30 07-30-00.txt",
                     "2026-13-02 07-30-00.txt", "2026-03-02 24-00-00.txt", "2026-03-02 07-60-00.txt", "000.txt"] {
            XCTAssertNil(EliteHRV.localStartMs(fileName: name), name)
        }
    }

    /// Only the exact name pattern with a number on its first line is Elite HRV; other
    /// one-number-per-line text stays PhysioNet.
    func testDetectedByNameAndNumericFirstLine() throws {
        let dir = try makeTempDir()
        let elite = try writeFixture("812\n790\n", to: dir + "/2026-03-02 07-30-00.txt")
        XCTAssertEqual(try SourceFormat.detect(path: elite), .eliteHRV)
        let other = try writeFixture("812\n790\n", to: dir + "/2026-03-02 07-30-00 copy.txt")
        XCTAssertEqual(try SourceFormat.detect(path: other), .physionetRR)
        XCTAssertEqual(try SourceFormat.detect(path: try writeFixture("0.812\n", to: dir + "/nsr001_rr_secs.txt")), .physionetRR)
        let header = try writeFixture("rr\n812\n", to: try makeTempDir() + "/2026-03-02 07-30-00.txt")
        XCTAssertNotEqual(try? SourceFormat.detect(path: header), .eliteHRV)
    }

    /// Two trials in Berlin (CET, UTC+1 on 2 March): each file's beats start at its own
    /// name's time, 07:30 and 07:32 local = 06:30 and 06:32 UTC, and every beat closes
    /// its interval: start + 1000, + 812, (+ 2600 rejected, the clock still advances), + 900 ms.
    func testTwoTrialsAnchoredInTheirZoneUnderOneSubject() throws {
        let dir = try makeTempDir() + "/export"
        let first = try writeFixture("1000\n812\n2600\n900\n", to: dir + "/2026-03-02 07-30-00.txt")
        let second = try writeFixture("850\n790\n", to: dir + "/2026-03-02 07-32-00.txt")
        let (ws, m) = try importSources([first, second], tz: "Europe/Berlin", subject: "session")
        XCTAssertEqual(m.sources.map(\.format), ["elite-hrv", "elite-hrv"])
        XCTAssertEqual(m.sources.map { [$0.rowsRead, $0.accepted, $0.rejected] }, [[4, 3, 1], [2, 2, 0]])
        XCTAssertEqual(m.timezone, "Europe/Berlin")
        XCTAssertTrue(m.sources[0].notes.contains(
            "recording start 2026-03-02T06:30:00.000Z: the file name's local time read in Europe/Berlin (--tz); "
                + "beat times are that start plus the cumulative sum of all parsable values, rejected ones included"),
                      "\(m.sources[0].notes)")
        XCTAssertTrue(m.sources[0].notes.contains("naive local times read in Europe/Berlin (--tz)"))
        XCTAssertTrue(m.sources[0].notes.contains("rr values in milliseconds (from the values' magnitude)"))
        XCTAssertEqual(m.subjects.map(\.subject), ["session"])
        let rows = try ws.read(RRInterval.self)
        XCTAssertEqual(Set(rows.map(\.subject)), ["session"])
        XCTAssertEqual(rows.map(\.timestampMs), [ms("2026-03-02T06:30:01.000Z"), ms("2026-03-02T06:30:01.812Z"),
                                                 ms("2026-03-02T06:30:05.312Z"), ms("2026-03-02T06:32:00.850Z"),
                                                 ms("2026-03-02T06:32:01.640Z")])
        XCTAssertEqual(rows.map(\.rrMs), [1000, 812, 900, 850, 790])
        XCTAssertEqual(Set(rows.map(\.source)), ["elite-hrv"])
        XCTAssertEqual(try ws.read(Reject.self).map(\.reason), ["rr outside 250–2500 ms"])
    }

    /// Without --tz the name's time is read as UTC, with a warning on stderr that the
    /// manifest keeps among the file's notes.
    func testWithoutZoneReadAsUTCWithAWarning() throws {
        let path = try writeFixture("1000\n812\n", to: try makeTempDir() + "/P1/2026-03-02 07-30-00.txt")
        var options = Importer.Options()
        var warnings: [String] = []
        options.warning = { warnings.append($0) }
        let ws = Workspace(path: try makeTempDir() + "/ws")
        let m = try Importer.run(sources: [path], workspace: ws, options: options)
        let warning = "start time in the file name read as UTC (no --tz given); give --tz with the zone the recording was made in"
        XCTAssertEqual(warnings, ["P1/2026-03-02 07-30-00.txt: " + warning])
        XCTAssertEqual(m.timezone, "UTC")
        XCTAssertTrue(m.sources[0].notes.contains(warning))
        XCTAssertTrue(m.sources[0].notes.contains("naive local times read as UTC (no --tz given)"))
        XCTAssertEqual(m.subjects.map(\.subject), ["P1"])
        XCTAssertEqual(try ws.read(RRInterval.self).map(\.timestampMs),
                       [ms("2026-03-02T07:30:01.000Z"), ms("2026-03-02T07:30:01.812Z")])
    }

    /// Forced onto a file whose name gives no start, the format says what it expects.
    func testForcedOnAnotherNameSaysWhatItExpects() throws {
        let path = try writeFixture("812\n", to: try makeTempDir() + "/rr.txt")
        XCTAssertThrowsError(try importSources([path], format: .eliteHRV)) { error in
            XCTAssertTrue("\(error)".contains("not in --format elite-hrv, which expects Elite HRV R-R export"), "\(error)")
            XCTAssertTrue("\(error)".hasSuffix("found the file name 'rr.txt'"), "\(error)")
        }
    }
}
