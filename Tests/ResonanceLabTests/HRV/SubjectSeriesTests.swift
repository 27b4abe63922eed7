import XCTest
@testable import ResonanceLab

final class SubjectSeriesTests: XCTestCase {
    func testSortsDeduplicatesAndSkipsImpossibleIntervals() {
        let raw = MeasurementSeries(subject: "b", timestampsMs: [2000, 1000, 2000, 3000, 4000],
                                    values: [800, 810, 900, -5, .infinity])
        let s = SubjectSeries.rr([raw], plausible: .defaults)
        XCTAssertEqual(s[0].timestampsMs, [1000, 2000], "repeated time: the first row in file order is kept")
        XCTAssertEqual(s[0].values, [810, 800])
    }

    /// The registry's range, both ends included: 250 and 2500 ms kept, just outside skipped;
    /// a constants file that narrows it narrows what the stages read.
    func testKeepsExactlyTheRegistryRange() throws {
        let raw = MeasurementSeries(subject: "a", timestampsMs: [1, 2, 3, 4, 5, 6],
                                    values: [249.9, 250, 1000, 2500, 2500.1, 3000])
        XCTAssertEqual(SubjectSeries.rr([raw], plausible: .defaults)[0].values, [250, 1000, 2500])
        let narrow = try RRConstants(replacing: ["rr_min_ms": 300, "rr_max_ms": 2000])
        XCTAssertEqual(SubjectSeries.rr([raw], plausible: narrow)[0].values, [1000])
        XCTAssertEqual(narrow.rejectReason, "rr outside 300–2000 ms")
    }

    func testReaderGroupsSubjectsInOrderOfFirstAppearance() throws {
        let ws = Workspace(path: try makeTempDir())
        try ws.write([
            RRInterval(subject: "b", timestampMs: 2000, rrMs: 800, source: "x"),
            RRInterval(subject: "a", timestampMs: 500, rrMs: 700, source: "x"),
            RRInterval(subject: "b", timestampMs: 1000, rrMs: 810, source: "x"),
        ])
        let series = try ws.readSeries(RRInterval.self)
        XCTAssertEqual(series, [
            MeasurementSeries(subject: "b", timestampsMs: [2000, 1000], values: [800, 810]),
            MeasurementSeries(subject: "a", timestampsMs: [500], values: [700]),
        ])
    }

    func testReaderNamesLineAndColumnOfABadValue() throws {
        let ws = Workspace(path: try makeTempDir())
        try writeFixture("subject,timestamp,rr_ms,source\na,2026-01-05T00:00:00.000Z,800,x\na,2026-01-05T00:00:01.000Z,n/a,x\n",
                         to: ws.file("rr.csv"))
        XCTAssertThrowsError(try ws.readSeries(RRInterval.self)) { error in
            XCTAssertEqual("\(error)", "\(ws.file("rr.csv")):3:3: 'rr_ms' is not a number: 'n/a'")
        }
    }
}
