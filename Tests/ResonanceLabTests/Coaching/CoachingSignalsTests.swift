import XCTest
@testable import ResonanceLab

final class CoachingSignalsTests: XCTestCase {
    typealias F = CoachingFixtures

    /// 28 baseline days at 60 bpm / 50 ms, then three days at `rises` above 60 with
    /// `hrv` on the last.
    func overtraining(_ rises: [Double?], hrv: Double) -> Bool {
        var rows = F.days(F.monday, 28)
        for (i, r) in rises.enumerated() {
            rows.append(F.row(F.monday + 28 + i, rhr: r.map { 60 + $0 }, hrv: i == rises.count - 1 ? hrv : 50))
        }
        return F.signals(rows).has("overtraining")
    }

    func testOvertrainingNeedsSevenBpmOnThreeDaysAndTwentyPercentLessHRV() {
        XCTAssertTrue(overtraining([7, 7, 7], hrv: 40), "+7 bpm on 3 days, SDNN 40 = 0.8 × 50")
        XCTAssertFalse(overtraining([7, 6.9, 7], hrv: 40), "+6.9 bpm on one day")
        XCTAssertFalse(overtraining([7, 7, 6.9], hrv: 40))
        XCTAssertFalse(overtraining([7, 7, 7], hrv: 40.1), "SDNN only −19.8 %")
        XCTAssertFalse(overtraining([7, nil, 7], hrv: 40), "a day without resting HR breaks the run")
        XCTAssertTrue(overtraining([12, 9, 7.5], hrv: 30))
    }

    func testOvertrainingNeedsSevenBaselineDays() {
        let short = F.days(F.monday, 6) + (0..<3).map { F.row(F.monday + 6 + $0, rhr: 70, hrv: 30) }
        XCTAssertFalse(F.signals(short).has("overtraining"))
        let enough = F.days(F.monday, 7) + (0..<3).map { F.row(F.monday + 7 + $0, rhr: 70, hrv: 30) }
        XCTAssertTrue(F.signals(enough).has("overtraining"))
    }

    func testLowActivityAtFiveThousandStepsElseTenMinutes() {
        let e = CoachingSignalEngine(constants: F.c)
        XCTAssertEqual(e.isLowActivity(F.row(0, steps: 4999)), true)
        XCTAssertEqual(e.isLowActivity(F.row(0, steps: 5000)), false)
        XCTAssertEqual(e.isLowActivity(F.row(0, steps: 5000, walk: 0)), false, "steps decide when present")
        XCTAssertEqual(e.isLowActivity(F.row(0, walk: 4, workout: 5.9)), true)
        XCTAssertEqual(e.isLowActivity(F.row(0, walk: 4, workout: 6)), false)
        XCTAssertNil(e.isLowActivity(F.row(0)))
    }

    func testPatternsNeedTwoOfTheLastThreeDays() {
        let d = F.monday
        let one = [F.row(d, steps: 9000, sleep: 8), F.row(d + 1, steps: 9000, sleep: 8), F.row(d + 2, steps: 3000, sleep: 5.9)]
        XCTAssertFalse(F.signals(one).activityPattern)
        XCTAssertFalse(F.signals(one).sleepPattern)
        let two = [F.row(d, steps: 3000, sleep: 8), F.row(d + 1, steps: 9000, sleep: 6), F.row(d + 2, steps: 3000, sleep: 5.9)]
        XCTAssertTrue(F.signals(two).activityPattern)
        XCTAssertFalse(F.signals(two).sleepPattern, "6.0 h is not short")
        let three = [F.row(d - 1, steps: 3000, sleep: 5), F.row(d, steps: 9000, sleep: 5.5), F.row(d + 1, steps: 9000, sleep: 8),
                     F.row(d + 2, steps: 3000, sleep: 5.9)]
        XCTAssertFalse(F.signals(three).activityPattern, "the first low day is outside the 3-day window")
        XCTAssertTrue(F.signals(three).sleepPattern)
    }

    /// The trend of one metric after a week of `before` and a week of `now`.
    func trend(_ metric: String, _ before: Double, _ now: Double, rhrNow: Double = 60) -> MetricTrend.Direction? {
        let rows = (0..<14).map { i -> DailyRow in
            let v = i < 7 ? before : now
            let rhr = metric == "resting_hr" ? v : i < 7 ? 60 : rhrNow
            return F.row(F.monday + i, rhr: rhr, hrv: metric == "hrv" ? v : nil, recovery: metric == "recovery" ? v : nil,
                         vo2: metric == "vo2max" ? v : nil, walk: metric == "activity" ? v : nil)
        }
        return F.signals(rows).trends.first { $0.metric == metric }?.direction
    }

    func testWeeklyMetricTrendThresholds() {
        XCTAssertEqual(trend("resting_hr", 60, 58.5), .stable, "−1.5 bpm is not < −1.5")
        XCTAssertEqual(trend("resting_hr", 60, 58.4), .improving)
        XCTAssertEqual(trend("resting_hr", 60, 62), .stable, "+2.0 is not > 2.0")
        XCTAssertEqual(trend("resting_hr", 60, 62.1), .declining)
        XCTAssertEqual(trend("hrv", 50, 53), .stable)
        XCTAssertEqual(trend("hrv", 50, 53.1), .improving)
        XCTAssertEqual(trend("hrv", 50, 45), .stable)
        XCTAssertEqual(trend("hrv", 50, 44.9), .declining)
        XCTAssertEqual(trend("recovery", 20, 22), .improving)
        XCTAssertEqual(trend("recovery", 20, 21.9), .stable)
        XCTAssertEqual(trend("recovery", 20, 17), .declining)
        XCTAssertEqual(trend("recovery", 20, 17.1), .stable)
        XCTAssertEqual(trend("vo2max", 40, 40.5), .improving)
        XCTAssertEqual(trend("vo2max", 40, 40.4), .stable)
        XCTAssertEqual(trend("vo2max", 40, 39.5), .declining)
        XCTAssertEqual(trend("activity", 20, 25), .stable, "+5 min/day without a falling resting HR")
        XCTAssertEqual(trend("activity", 20, 25, rhrNow: 59.9), .improving)
        XCTAssertEqual(trend("activity", 20, 24.9, rhrNow: 59.9), .stable)
        XCTAssertEqual(trend("activity", 20, 15), .declining)
    }

    func testTrendNeedsThreeValuesInEachWeek() {
        var rows = (0..<14).map { F.row(F.monday + $0, recovery: $0 < 7 ? 20 : 25) }
        for i in [7, 8, 9, 10] { rows[i] = F.row(F.monday + i) }
        XCTAssertEqual(F.signals(rows).recoveryTrend?.direction, .improving, "3 values this week")
        rows[11] = F.row(F.monday + 11)
        XCTAssertNil(F.signals(rows).recoveryTrend, "2 values this week")
    }

    func testTrendScenariosAndStatus() {
        let rows = (0..<14).map { i in F.row(F.monday + i, rhr: i < 7 ? 60 : 57, hrv: i < 7 ? 50 : 55) }
        let s = F.signals(rows)
        XCTAssertTrue(s.has("improving_trend"))
        XCTAssertEqual(s.status, .improving)
        let worse = (0..<14).map { i in F.row(F.monday + i, rhr: i < 7 ? 60 : 63, hrv: i < 7 ? 50 : 44) }
        XCTAssertTrue(F.signals(worse).has("declining_trend"))
        XCTAssertEqual(F.signals(worse).status, .needsAttention)
        let mixed = (0..<14).map { i in F.row(F.monday + i, rhr: i < 7 ? 60 : 57, hrv: i < 7 ? 50 : 55, recovery: i < 7 ? 20 : 16) }
        XCTAssertFalse(F.signals(mixed).has("improving_trend"), "one metric declining")
        let flagged = [F.row(F.monday, rhr: 60, flags: ["rhr_week_up"]), F.row(F.monday + 1, rhr: 60, flags: ["consecutive_elevation"])]
        XCTAssertEqual(F.signals(flagged).status, .needsAttention)
        XCTAssertEqual(F.signals(Array(flagged.prefix(1))).status, .stable, "rhr_week_up alone is not a warning")
    }

    func testConfidenceFromDataDays() {
        func confidence(_ n: Int) -> CoachingSignals.Confidence { F.signals(F.days(F.monday, n)).confidence }
        XCTAssertEqual(confidence(6), .low)
        XCTAssertEqual(confidence(7), .medium)
        XCTAssertEqual(confidence(13), .medium)
        XCTAssertEqual(confidence(14), .high)
        let sparse = F.days(F.monday, 14, rhr: nil, hrv: nil)
        XCTAssertEqual(F.signals(sparse).dataDays, 0, "sleep alone is not a data day")
    }

    func testHighStressGreatRecoveryAndMissingActivity() {
        XCTAssertTrue(F.signals([F.row(F.monday, stress: 65)]).has("high_stress"))
        XCTAssertFalse(F.signals([F.row(F.monday, stress: 64.9)]).has("high_stress"))
        var rows = F.days(F.monday, 7)
        rows.append(F.row(F.monday + 7, hrv: 50, readiness: 80))
        XCTAssertTrue(F.signals(rows).has("great_recovery"))
        rows[7] = F.row(F.monday + 7, hrv: 49.9, readiness: 80)
        XCTAssertFalse(F.signals(rows).has("great_recovery"))
        rows[7] = F.row(F.monday + 7, hrv: 60, readiness: 79.9)
        XCTAssertFalse(F.signals(rows).has("great_recovery"))
        let idle = (0..<3).map { F.row(F.monday + $0, steps: 2000) }
        XCTAssertTrue(F.signals(idle).has("missing_activity"))
        let workout = [F.row(F.monday, steps: 2000), F.row(F.monday + 1, steps: 2000, workout: 20), F.row(F.monday + 2, steps: 2000)]
        XCTAssertFalse(F.signals(workout).has("missing_activity"))
    }
}
