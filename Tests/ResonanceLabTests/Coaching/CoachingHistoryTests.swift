import XCTest
@testable import ResonanceLab

final class CoachingHistoryTests: XCTestCase {
    typealias F = CoachingFixtures

    func testCalendarOfADayNumber() {
        // 1970-01-01 was a Thursday; 2026-01-05 a Monday; 1969-12-31 a Wednesday.
        XCTAssertEqual(CoachingHistory.calendar(0).weekday, 4)
        XCTAssertEqual(CoachingHistory.calendar(F.monday).weekday, 1)
        XCTAssertEqual(CoachingHistory.calendar(F.monday).dayOfMonth, 5)
        XCTAssertEqual(CoachingHistory.calendar(F.monday + 6).weekday, 0)
        XCTAssertEqual(CoachingHistory.calendar(-1).weekday, 3)
        XCTAssertEqual(CoachingHistory.calendar(Timestamp.daysFromCivil(2026, 2, 28)).dayOfMonth, 28)
    }

    func testActivityMinutesAddWalkingAndWorkouts() {
        XCTAssertEqual(CoachingHistory.activityMinutes(F.row(0, walk: 20, workout: 35)), 55)
        XCTAssertEqual(CoachingHistory.activityMinutes(F.row(0, workout: 35)), 35)
        XCTAssertNil(CoachingHistory.activityMinutes(F.row(0, steps: 4000)))
    }

    func testRowsAreSortedAndMissingDaysAreMissing() {
        let h = CoachingHistory(rows: [F.row(F.monday + 2, rhr: 62), F.row(F.monday, rhr: 60), F.row(F.monday + 1)])
        XCTAssertEqual(h.rows.map(\.snapshot.day), [F.monday, F.monday + 1, F.monday + 2])
        XCTAssertEqual(h.values((F.monday - 3)...(F.monday + 5)) { $0.snapshot.restingHRBpm }, [60, 62])
        XCTAssertNil(h.row(F.monday + 3))
    }
}
