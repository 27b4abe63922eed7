import Foundation
import XCTest
@testable import ResonanceLab

/// Local days and hours of a subject (docs/methods.md, "Local days").
final class SubjectClockTests: XCTestCase {
    func ms(_ iso: String) throws -> Int64 { try XCTUnwrap(Timestamp.parseISO(iso)?.ms) }
    func day(_ y: Int, _ m: Int, _ d: Int) -> Int { Int(Timestamp.daysFromCivil(y, m, d)) }

    /// Europe/London: GMT until 01:00 UTC on 29 March 2026, BST (+1 h) until 01:00 UTC on 25 October.
    func testEuropeLondonAcrossBothDSTChanges() throws {
        let london = try XCTUnwrap(TimeZone(identifier: "Europe/London"))
        let clock = SubjectClock(playOffsets: [], subjectZone: "Europe/London", option: nil)
        XCTAssertEqual(clock.basis, "zone:Europe/London")
        // The spring-forward day: 23:30 UTC is 23:30 the same day before, 00:30 the next day after.
        XCTAssertEqual(clock.day(try ms("2026-03-28T23:30:00Z")), day(2026, 3, 28))
        XCTAssertEqual(clock.day(try ms("2026-03-29T23:30:00Z")), day(2026, 3, 30))
        XCTAssertEqual(clock.hour(try ms("2026-03-29T00:30:00Z")), 0)
        XCTAssertEqual(clock.hour(try ms("2026-03-29T01:30:00Z")), 2, "01:00–02:00 does not exist that night")
        // The fall-back day: 23:30 UTC on the 24th is 00:30 BST on the 25th; 01:30 UTC is 01:30 GMT.
        XCTAssertEqual(clock.day(try ms("2026-10-24T23:30:00Z")), day(2026, 10, 25))
        XCTAssertEqual(clock.hour(try ms("2026-10-25T00:30:00Z")), 1)
        XCTAssertEqual(clock.hour(try ms("2026-10-25T01:30:00Z")), 1, "01:00–02:00 happens twice")
        XCTAssertEqual(clock.day(try ms("2026-10-25T23:30:00Z")), day(2026, 10, 25))
        // The same as Foundation's calendar in the zone, every 15 minutes of both days.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = london
        for start in [try ms("2026-03-28T00:00:00Z"), try ms("2026-10-24T00:00:00Z")] {
            for q in 0..<(3 * 96) {
                let t = start + Int64(q) * 900_000
                let c = calendar.dateComponents([.year, .month, .day, .hour], from: Date(timeIntervalSince1970: Double(t) / 1000))
                XCTAssertEqual(clock.day(t), day(c.year!, c.month!, c.day!))
                XCTAssertEqual(clock.hour(t), c.hour)
            }
        }
    }

    func testPlaysOffsetThenSubjectsZoneThenOptionThenUTC() throws {
        let t = try ms("2026-01-10T05:00:00Z")
        let pst = -480
        let plays = SubjectClock(playOffsets: [(t - 86_400_000, pst), (t + 3_600_000, 60)], subjectZone: "Asia/Tokyo",
                                 option: TimeZone(identifier: "Europe/Berlin"))
        XCTAssertEqual(plays.basis, "plays_offset")
        // 05:00 UTC at −8 h is 21:00 the day before; from the next play on, +1 h.
        XCTAssertEqual(plays.day(t), day(2026, 1, 9))
        XCTAssertEqual(plays.hour(t), 21)
        XCTAssertEqual(plays.hour(t + 2 * 3_600_000), 8)
        // Before the first play: its offset.
        XCTAssertEqual(plays.hour(t - 10 * 86_400_000), 21)
        let zone = SubjectClock(playOffsets: [], subjectZone: "Asia/Tokyo", option: TimeZone(identifier: "Europe/Berlin"))
        XCTAssertEqual(zone.basis, "zone:Asia/Tokyo")
        XCTAssertEqual(zone.hour(t), 14)
        let option = SubjectClock(playOffsets: [], subjectZone: "", option: TimeZone(identifier: "Europe/Berlin"))
        XCTAssertEqual(option.basis, "tz:Europe/Berlin")
        XCTAssertEqual(option.hour(t), 6)
        let utc = SubjectClock(playOffsets: [], subjectZone: "", option: nil)
        XCTAssertEqual(utc.basis, "utc")
        XCTAssertEqual(utc.hour(t), 5)
        XCTAssertEqual(utc.day(t), day(2026, 1, 10))
    }
}
