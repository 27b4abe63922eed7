import XCTest
@testable import ResonanceLab

final class HealthProfilePhasesTests: XCTestCase {
    typealias F = CoachingFixtures

    func phases(_ rows: [DailyRow]) -> [HealthProfilePhases.Day] {
        HealthProfilePhases.replay(CoachingHistory(rows: rows), constants: F.c)
    }

    func testBaselineCompletesOnTheFourteenthDataDay() {
        var rows = F.days(F.monday, 14)
        rows.insert(F.row(F.monday - 1, sleep: 7), at: 0)  // no resting HR or SDNN: not a data day
        let p = phases(rows)
        XCTAssertEqual(p[13].phase, .baseline)
        XCTAssertEqual(p[14].phase, .adaptation)
        XCTAssertTrue(p[14].changed)
        XCTAssertEqual(p[14].rule, "baseline_complete: 14 data days ≥ 14")
        XCTAssertEqual(p[0].rule, "start")
    }

    func testAdaptationToMaintenanceAfterThirtyDaysOfAccuratePredictions() {
        let p = phases(F.days(F.monday, 50))
        // Adaptation entered on day 13; predictions from day 14 (7 baseline days), all within 3 bpm.
        XCTAssertEqual(p[42].phase, .adaptation)
        XCTAssertEqual(p[42].daysInPhase, 29)
        XCTAssertEqual(p[43].phase, .maintenance)
        XCTAssertEqual(p[43].rule, "adaptation_complete: 30 days, confidence 1.00, 30 accurate in a row")

        // A resting HR 3.1 bpm off the 60 bpm prediction every fourth day keeps the run below 10.
        var rows = F.days(F.monday, 50)
        for i in stride(from: 16, to: 50, by: 4) { rows[i] = F.row(F.monday + i, rhr: 63.1, hrv: 50, walk: 30, sleep: 7) }
        XCTAssertTrue(phases(rows).allSatisfy { $0.phase != .maintenance })
        XCTAssertEqual(phases(rows)[17].accurateStreak, 1)
    }

    /// 50 steady days (maintenance from day 43), then `change` applied from day 44 on.
    func afterMaintenance(_ days: Int, _ change: (Int) -> DailyRow) -> [HealthProfilePhases.Day] {
        phases(F.days(F.monday, 44) + (44..<days).map(change))
    }

    func testRegressionOnTwoIndicatorsOrOneSevere() {
        // Sleep 7 → 5.5 h (−21 %) and SDNN 50 → 39 ms (−22 %): the week's means cross −20 % on day 50.
        let both = afterMaintenance(60) { F.row(F.monday + $0, rhr: 60, hrv: 39, walk: 30, sleep: 5.5) }
        XCTAssertEqual(both[49].phase, .maintenance)
        XCTAssertEqual(both[50].phase, .regression)
        XCTAssertEqual(both[50].rule, "regression_detected: sleep_degradation 0.21, hrv_dropping 0.22")
        // Sleep alone: one indicator of severity 0.21.
        let one = afterMaintenance(60) { F.row(F.monday + $0, rhr: 60, hrv: 50, walk: 30, sleep: 5.5) }
        XCTAssertTrue(one[50...].allSatisfy { $0.phase == .maintenance })
        XCTAssertEqual(one[55].indicators.map(\.name), ["sleep_degradation"])
        // Activity 30 → 6 min (severity 0.8 > 0.7) alone.
        let severe = afterMaintenance(60) { F.row(F.monday + $0, rhr: 60, hrv: 50, walk: 6, sleep: 7) }
        XCTAssertEqual(severe[50].phase, .regression)
        // 30 → 9 min: severity exactly 0.7 is not above it.
        let edge = afterMaintenance(60) { F.row(F.monday + $0, rhr: 60, hrv: 50, walk: 9, sleep: 7) }
        XCTAssertTrue(edge[50...].allSatisfy { $0.phase == .maintenance })
    }

    func testRegressionReturnsToAdaptationAfterSevenDaysWithoutIndicators() {
        let p = afterMaintenance(70) { i in
            i <= 50 ? F.row(F.monday + i, rhr: 60, hrv: 39, walk: 30, sleep: 5.5) : F.row(F.monday + i, rhr: 60, hrv: 50, walk: 30, sleep: 7)
        }
        XCTAssertEqual(p[50].phase, .regression)
        XCTAssertTrue(p[51].indicators.isEmpty, "one good day lifts both means above −20 %")
        XCTAssertEqual(p[56].phase, .regression)
        XCTAssertEqual(p[57].phase, .adaptation)
        XCTAssertEqual(p[57].rule, "regression_recovered: 7 days, no indicators")
    }
}
