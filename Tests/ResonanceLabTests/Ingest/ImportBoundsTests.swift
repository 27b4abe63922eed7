import XCTest
@testable import ResonanceLab

/// Absurd numbers in a source become rejected rows or a metadata error naming the line,
/// never an overflow, and never a time written with a wrong year.
final class ImportBoundsTests: XCTestCase {
    func testAbsurdPhysioNetValueIsRejectedAndDoesNotMoveTheClock() throws {
        let path = try writeFixture("1e20\n0.8\n0.9\n", to: try makeTempDir() + "/x_rr_secs.txt")
        let (ws, manifest) = try importSources([path])
        assertAccounting(manifest)
        // The clock starts from the first accepted value: beats at 0.8 s and 1.7 s.
        XCTAssertEqual(try ws.read(RRInterval.self).map(\.timestampMs), [800, 1700])
        XCTAssertEqual(try ws.read(Reject.self).map(\.line), [1])
    }

    func testE4StartTimeOutsideTheCalendarIsAMetadataError() throws {
        let dir = try makeTempDir() + "/S01"
        try writeFixture("1e300, IBI\n1.0,0.8\n", to: dir + "/IBI.csv")
        XCTAssertThrowsError(try importSources([dir + "/IBI.csv"])) { error in
            XCTAssertTrue("\(error)".hasSuffix("IBI.csv:1:1: E4 start time is not a unix time in years 0000–9999"), "\(error)")
        }
    }

    func testE4BeatTimeBeyondTheCalendarIsRejected() throws {
        let dir = try makeTempDir() + "/S01"
        try writeFixture("1644226061.0, IBI\n1e17,0.8\n1.0,0.8\n", to: dir + "/IBI.csv")
        let (ws, manifest) = try importSources([dir + "/IBI.csv"])
        assertAccounting(manifest)
        XCTAssertEqual(try ws.read(RRInterval.self).map(\.timestampMs), [1_644_226_062_000])
        XCTAssertEqual(try ws.read(Reject.self).map(\.reason), ["unparsable time"])
    }

    func testUnixMillisecondsBeyondYear9999AreRejectedNotWrittenWithAWrongYear() throws {
        // 3e14 ms is in the year 11476: its year has no four-digit form.
        let path = try writeFixture("time,bpm\n300000000000000,60\n1709280000,61\n", to: try makeTempDir() + "/hr.csv")
        let (ws, manifest) = try importSources([path])
        assertAccounting(manifest)
        XCTAssertEqual(try ws.read(HRSample.self).map(\.bpm), [61])
        XCTAssertEqual(try ws.read(Reject.self).count, 1)
        XCTAssertNil(Timestamp.instant(ms: 3e14))
        XCTAssertNil(Timestamp.instant(ms: .infinity))
        XCTAssertEqual(Timestamp.iso(Timestamp.representable.upperBound), "9999-12-31T23:59:59.999Z")
        XCTAssertEqual(Timestamp.iso(Timestamp.representable.lowerBound), "0000-01-01T00:00:00.000Z")
    }
}
