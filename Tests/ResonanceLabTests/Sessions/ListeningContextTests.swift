import XCTest
@testable import ResonanceLab

final class ListeningContextTests: XCTestCase {
    let c = SessionConstants.defaults

    func context(_ iso: String, workouts: [Workout] = []) -> ListeningContext {
        let t = ms(iso)
        return ListeningContext.of(startMs: t, endMs: t + 600_000, localStartMs: t, workouts: workouts[...], constants: c)
    }

    func testWeekdayAndWeekendContexts() {
        // 2022-02-07 is a Monday, 2022-02-12 a Saturday, 2022-02-13 a Sunday.
        XCTAssertEqual(context("2022-02-07T06:00:00.000Z"), .morning)
        XCTAssertEqual(context("2022-02-07T08:00:00.000Z"), .commute)
        XCTAssertEqual(context("2022-02-12T08:00:00.000Z"), .morning)     // weekend 7–9
        XCTAssertEqual(context("2022-02-07T12:00:00.000Z"), .work)
        XCTAssertEqual(context("2022-02-12T12:00:00.000Z"), .relaxation)  // weekend 9–17
        XCTAssertEqual(context("2022-02-07T18:00:00.000Z"), .commute)
        XCTAssertEqual(context("2022-02-13T18:00:00.000Z"), .relaxation)  // weekend 17–19
        XCTAssertEqual(context("2022-02-07T20:00:00.000Z"), .relaxation)
        XCTAssertEqual(context("2022-02-07T23:00:00.000Z"), .preSleep)
        XCTAssertEqual(context("2022-02-07T04:59:59.000Z"), .preSleep)
        XCTAssertEqual(context("2022-02-07T05:00:00.000Z"), .morning)     // boundary belongs to the later slot
    }

    func testOverlappingWorkoutWithinFiveMinutesWins() {
        // Play 12:00–12:10. A workout ending 11:56 is within the ±5 min margin;
        // one ending 11:54 is not.
        let near = Workout(subject: "u1", startMs: ms("2022-02-07T11:00:00.000Z"), endMs: ms("2022-02-07T11:56:00.000Z"), activity: "run")
        let far = Workout(subject: "u1", startMs: ms("2022-02-07T11:00:00.000Z"), endMs: ms("2022-02-07T11:54:00.000Z"), activity: "run")
        XCTAssertEqual(context("2022-02-07T12:00:00.000Z", workouts: [near]), .workout)
        XCTAssertEqual(context("2022-02-07T12:00:00.000Z", workouts: [far]), .work)
    }

    func testTimeSlots() {
        XCTAssertEqual(TimeSlot.of(localMs: ms("2022-02-07T05:59:59.000Z")), .night)
        XCTAssertEqual(TimeSlot.of(localMs: ms("2022-02-07T06:00:00.000Z")), .morning)
        XCTAssertEqual(TimeSlot.of(localMs: ms("2022-02-07T12:00:00.000Z")), .afternoon)
        XCTAssertEqual(TimeSlot.of(localMs: ms("2022-02-07T23:59:59.000Z")), .evening)
    }
}
