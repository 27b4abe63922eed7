import XCTest
@testable import ResonanceLab

final class SubjectSeriesTests: XCTestCase {
    func testGroupsSortsDeduplicatesAndSkipsImpossibleIntervals() {
        let rows = [
            RRInterval(subject: "b", timestampMs: 2000, rrMs: 800, source: "x"),
            RRInterval(subject: "b", timestampMs: 1000, rrMs: 810, source: "x"),
            RRInterval(subject: "a", timestampMs: 500, rrMs: 700, source: "x"),
            RRInterval(subject: "b", timestampMs: 2000, rrMs: 900, source: "x"),  // repeated time: first kept
            RRInterval(subject: "b", timestampMs: 3000, rrMs: -5, source: "x"),  // not an interval
            RRInterval(subject: "b", timestampMs: 4000, rrMs: .infinity, source: "x"),
        ]
        let s = SubjectSeries.rr(rows)
        XCTAssertEqual(s.map(\.subject), ["b", "a"])
        XCTAssertEqual(s[0].timestampsMs, [1000, 2000])
        XCTAssertEqual(s[0].values, [810, 800])
        XCTAssertEqual(s[1].values, [700])
    }
}
