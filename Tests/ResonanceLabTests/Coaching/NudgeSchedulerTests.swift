import XCTest
@testable import ResonanceLab

final class NudgeSchedulerTests: XCTestCase {
    typealias F = CoachingFixtures

    func testDefaultsUntilThreeObservationsOfTheWeekday() {
        let monday = F.monday, saturday = F.monday + 5
        let none = CoachingHistory(rows: [F.row(monday), F.row(saturday)])
        let weekday = NudgeScheduler.pattern(none, day: monday, constants: F.c)
        XCTAssertEqual([weekday.wakeHour, weekday.bedtimeHour, weekday.sleepHours], [7, 22, 9])
        XCTAssertFalse(weekday.weekend)
        let weekend = NudgeScheduler.pattern(none, day: saturday, constants: F.c)
        XCTAssertEqual([weekend.wakeHour, weekend.bedtimeHour, weekend.sleepHours], [8, 23, 9])
        XCTAssertTrue(weekend.weekend)
        XCTAssertTrue(NudgeScheduler.pattern(none, day: monday + 6, constants: F.c).weekend, "Sunday")

        // Two earlier Mondays of 6 h: still the default; three: learned, bedtime 7 − 6 = 1:00.
        let two = CoachingHistory(rows: [F.row(monday - 14, sleep: 6), F.row(monday - 7, sleep: 6), F.row(monday, sleep: 6)])
        XCTAssertEqual(NudgeScheduler.pattern(two, day: monday, constants: F.c).sleepHours, 9)
        let three = CoachingHistory(rows: [F.row(monday - 21, sleep: 5), F.row(monday - 14, sleep: 6), F.row(monday - 7, sleep: 7),
                                           F.row(monday - 6, sleep: 2), F.row(monday, sleep: 6)])
        let learned = NudgeScheduler.pattern(three, day: monday, constants: F.c)
        XCTAssertTrue(learned.learned)
        XCTAssertEqual(learned.observations, 3, "the Tuesday does not count")
        XCTAssertEqual(learned.sleepHours, 6)
        XCTAssertEqual(learned.bedtimeHour, 1)
    }

    /// Morning and evening actions of the last day of `rows`.
    func actions(_ rows: [DailyRow]) -> [String] {
        let h = CoachingHistory(rows: rows)
        let day = rows[rows.count - 1].snapshot.day
        return NudgeScheduler.schedule(h, day: day, signals: CoachingSignalEngine(constants: F.c).signals(h, day: day), constants: F.c)
            .map { "\($0.slot) \($0.action) \(decimals($0.hour, 2))" }
    }

    func testActionPriority() {
        let d = F.monday
        XCTAssertEqual(actions([F.row(d, sleep: 7, stress: 65)]), ["morning journal_prompt 7.50", "evening journal_prompt 21.00"])
        let calm = (1...3).map { F.row(d - $0, stress: 38) }
        XCTAssertEqual(actions(calm + [F.row(d, sleep: 7, stress: 48)]), ["morning breath_exercise 7.50", "evening breath_exercise 21.00"])
        XCTAssertEqual(actions(calm + [F.row(d, sleep: 7, stress: 47.9)]), ["morning daily_nudge 7.50", "evening wind_down 21.00"])
        XCTAssertEqual(actions([F.row(d, sleep: 10.6)]), ["morning check_in 7.50", "evening wind_down 21.00"], "1.6 h past the 9 h night")
        XCTAssertEqual(actions([F.row(d, sleep: 10.5)]), ["morning daily_nudge 7.50", "evening wind_down 21.00"], "1.5 h is not late")
        XCTAssertEqual(actions([F.row(d, sleep: 5.9)]), ["morning sleep_suggestion 7.50", "evening wind_down 21.00"])
        let idle = [F.row(d - 1, steps: 2000), F.row(d, steps: 2000, sleep: 7)]
        XCTAssertEqual(actions(idle), ["morning activity_suggestion 7.50", "evening wind_down 21.00"])
        // Friday evening: Saturday's night, bedtime 23:00 → 22:00.
        XCTAssertEqual(actions([F.row(d + 4, sleep: 7)]), ["morning daily_nudge 7.50", "evening wind_down 22.00"])
        XCTAssertEqual(actions([F.row(d + 5, sleep: 7)]).first, "morning daily_nudge 8.50")
    }
}
