import XCTest
@testable import ResonanceLab

final class NudgeSelectorTests: XCTestCase {
    typealias F = CoachingFixtures

    /// Nudges of the last of 14 data days (confidence high) plus `today`.
    func nudges(_ today: DailyRow) -> (gate: NudgeSelector.Gate, tiers: [String], ids: [String]) {
        let rows = (0..<14).map { F.row(today.snapshot.day - 14 + $0, rhr: 60, hrv: 50) } + [today]
        let r = NudgeSelector.select(today, F.signals(rows), constants: F.c)
        return (r.gate, r.nudges.map(\.tier), r.nudges.map(\.variation.id))
    }

    func testStressComesBeforeRegressionBeforeLowData() {
        let d = F.monday
        XCTAssertEqual(nudges(F.row(d, rhr: 60, hrv: 50, stress: 70, readiness: 70, flags: ["regression"])).tiers.first, "stress")
        XCTAssertEqual(nudges(F.row(d, rhr: 60, hrv: 50, stress: 50, readiness: 70, flags: ["regression"])).tiers.first, "regression")
        XCTAssertEqual(nudges(F.row(d, rhr: 60, hrv: 50, stress: 50, readiness: 70, flags: ["stress_pattern", "consecutive_elevation"])).tiers.first,
                       "stress")
        // One data day: confidence low.
        let alone = F.row(d, rhr: 60, readiness: 70, flags: ["regression"])
        let s = F.signals([alone])
        XCTAssertEqual(s.confidence, .low)
        XCTAssertEqual(NudgeSelector.select(alone, s, constants: F.c).nudges.first?.tier, "regression")
        let lowData = F.row(d, rhr: 60, readiness: 70)
        XCTAssertEqual(NudgeSelector.select(lowData, F.signals([lowData]), constants: F.c).nudges.first?.tier, "low_data")
        XCTAssertEqual(nudges(F.row(d, rhr: 60, hrv: 50, readiness: 70)).tiers.first, "default")
        XCTAssertNil(NudgeSelector.fires("negative_feedback", lowData, s, constants: F.c), "no feedback in the daily tables")
    }

    func testPositiveTierOnAnImprovingStatus() {
        let rows = (0..<14).map { i in F.row(F.monday + i, rhr: i < 7 ? 60 : 57, hrv: i < 7 ? 50 : 55, readiness: 70) }
        let r = NudgeSelector.select(rows[13], F.signals(rows), constants: F.c)
        XCTAssertEqual(r.nudges.first?.tier, "positive")
    }

    func testReadinessGateBoundaries() {
        XCTAssertEqual(NudgeSelector.Gate(readiness: 39.99, constants: F.c), .recovering)
        XCTAssertEqual(NudgeSelector.Gate(readiness: 40, constants: F.c), .moderate)
        XCTAssertEqual(NudgeSelector.Gate(readiness: 59.99, constants: F.c), .moderate)
        XCTAssertEqual(NudgeSelector.Gate(readiness: 60, constants: F.c), .full)
        XCTAssertEqual(NudgeSelector.Gate(readiness: nil, constants: F.c), .ungated)
        XCTAssertFalse(NudgeSelector.Gate.recovering.allows("walk"))
        XCTAssertTrue(NudgeSelector.Gate.moderate.allows("walk"))
        XCTAssertFalse(NudgeSelector.Gate.moderate.allows("moderate"))
        XCTAssertFalse(NudgeSelector.Gate.moderate.allows("hard"))
        XCTAssertTrue(NudgeSelector.Gate.full.allows("hard"))
    }

    /// Readiness 40–59 allows a walk only (product specification): not rest, sleep,
    /// hydration, check-ins nor harder activity.
    func testModerateReadinessAllowsAWalkOnly() {
        for category in ["rest", "breathing", "moderate", "hard", "sleep", "hydration", "checkin", "celebrate"] {
            XCTAssertFalse(NudgeSelector.Gate.moderate.allows(category), category)
        }
        XCTAssertEqual(NudgeSelector.rotate("default", dayOfMonth: 2, gate: .moderate)?.id, "default_walk")
        XCTAssertEqual(NudgeSelector.rotate("default", dayOfMonth: 2, gate: .full)?.id, "default_hydrate")
        XCTAssertNil(NudgeSelector.rotate("sleep", dayOfMonth: 1, gate: .moderate))
        let d = Timestamp.daysFromCivil(2026, 1, 1)
        for offset in 0..<10 {
            // A short night and a low-activity day at readiness 50, with and without stress.
            for stress in [50.0, 70] {
                let r = nudges(F.row(d + offset, rhr: 60, hrv: 50, steps: 1000, sleep: 4, stress: stress, readiness: 50))
                XCTAssertEqual(r.gate, .moderate)
                XCTAssertFalse(r.ids.isEmpty)
                let categories = r.ids.compactMap { id in NudgeSelector.library.values.joined().first { $0.id == id }?.category }
                XCTAssertEqual(categories, ["walk"], "\(r.ids)")
            }
        }
    }

    func testRecoveringDaysGetRestOrBreathingOnly() {
        let d = Timestamp.daysFromCivil(2026, 1, 1)
        for offset in 0..<10 {
            let r = nudges(F.row(d + offset, rhr: 60, hrv: 30, steps: 1000, sleep: 4, stress: 50, readiness: 39))
            XCTAssertEqual(r.gate, .recovering)
            let categories = r.ids.compactMap { id in NudgeSelector.library.values.joined().first { $0.id == id }?.category }
            XCTAssertTrue(categories.allSatisfy { $0 == "rest" || $0 == "breathing" }, "\(r.ids)")
            XCTAssertFalse(r.ids.isEmpty)
        }
    }

    func testRotationByDayOfMonth() {
        XCTAssertEqual(NudgeSelector.rotate("default", dayOfMonth: 1, gate: .full)?.id, "default_walk")
        XCTAssertEqual(NudgeSelector.rotate("default", dayOfMonth: 2, gate: .full)?.id, "default_hydrate")
        XCTAssertEqual(NudgeSelector.rotate("default", dayOfMonth: 5, gate: .full)?.id, "default_cycle")
        XCTAssertEqual(NudgeSelector.rotate("default", dayOfMonth: 6, gate: .full)?.id, "default_walk")
        XCTAssertEqual(NudgeSelector.rotate("default", dayOfMonth: 3, gate: .moderate)?.id, "default_walk", "walk only")
        XCTAssertEqual(NudgeSelector.rotate("default", dayOfMonth: 4, gate: .moderate)?.id, "default_walk")
        XCTAssertEqual(NudgeSelector.rotate("default", dayOfMonth: 31, gate: .recovering)?.id, "default_stretch")
        XCTAssertNil(NudgeSelector.rotate("low_data", dayOfMonth: 1, gate: .recovering))
        // The same rule on 2026-01-02 and 2026-01-03 picks the next variation.
        let a = nudges(F.row(Timestamp.daysFromCivil(2026, 1, 2), rhr: 60, hrv: 50, readiness: 70)).ids.first
        let b = nudges(F.row(Timestamp.daysFromCivil(2026, 1, 3), rhr: 60, hrv: 50, readiness: 70)).ids.first
        XCTAssertEqual([a, b], ["default_hydrate", "default_strength"])
    }

    func testAtMostThreeNudgesOfDistinctCategories() {
        let r = nudges(F.row(Timestamp.daysFromCivil(2026, 1, 1), rhr: 60, hrv: 30, steps: 1000, sleep: 4, stress: 70, readiness: 75))
        XCTAssertEqual(r.tiers, ["stress", "sleep", "activity"], "hrv passed over: at most 3")
        XCTAssertEqual(r.ids, ["stress_box_breathing", "sleep_wind_down", "activity_short_walk"])
        for readiness in [10.0, 45, 90] {
            let n = nudges(F.row(F.monday, rhr: 60, hrv: 30, steps: 1000, sleep: 4, stress: 70, readiness: readiness,
                                 flags: ["regression"]))
            XCTAssertLessThanOrEqual(n.ids.count, 3)
        }
    }
}
