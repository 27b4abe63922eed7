import XCTest
@testable import ResonanceLab

final class CoachingTablesTests: XCTestCase {
    typealias F = CoachingFixtures

    func testEachTableReadsBackWhatItWrote() throws {
        let ws = Workspace(path: try makeTempDir())
        let nudges = [NudgeRow(subject: "a", date: "2026-01-05", rank: 1, tier: "stress", nudgeId: "stress_box_breathing",
                               category: "breathing", rule: "scenario high_stress: stress 70.0 elevated", readiness: 72.5, gate: "full"),
                      NudgeRow(subject: "a", date: "2026-01-06", rank: 2, tier: "default", nudgeId: "default_walk", category: "walk",
                               rule: "no earlier tier fired", readiness: nil, gate: "ungated")]
        try ws.write(nudges)
        XCTAssertEqual(try ws.read(NudgeRow.self), nudges)
        let text = try String(contentsOfFile: ws.file("nudges.csv"), encoding: .utf8)
        XCTAssertEqual(text.split(separator: "\n").first, "subject,date,rank,tier,nudge_id,category,rule,readiness,gate")

        let coaching = [CoachingRow(subject: "a", date: "2026-01-05", kind: "recommendation", id: "sleep_pattern", category: "sleep",
                                    priority: "medium", rank: 2, rule: "2 nights < 6.0 h of 3 ≥ 2"),
                        CoachingRow(subject: "a", date: "2026-01-11", kind: "correlation", id: "steps_resting_hr", category: "clear",
                                    value: -0.45, unit: "r", n: 9, rule: "expected sign, with a comma")]
        try ws.write(coaching)
        XCTAssertEqual(try ws.read(CoachingRow.self), coaching)

        let phases = [PhaseRow(subject: "a", date: "2026-01-18", phase: "adaptation", daysInPhase: 0, patternConfidence: nil,
                               accurateStreak: 0, indicators: "", changed: true, phaseRule: "baseline_complete: 14 data days ≥ 14"),
                      PhaseRow(subject: "a", date: "2026-03-01", phase: "regression", daysInPhase: 2, patternConfidence: 0.75,
                               accurateStreak: 3, indicators: "sleep_degradation:0.214;hrv_dropping:0.220", changed: false,
                               phaseRule: "regression_detected: sleep_degradation 0.21, hrv_dropping 0.22")]
        try ws.write(phases)
        XCTAssertEqual(try ws.read(PhaseRow.self), phases)
    }

    func testReplayListsSubjectsInOrderAndEveryDayOnce() {
        let a = F.days(F.monday, 8).map { r -> DailyRow in var r = r; r.snapshot.subject = "b"; return r }
        let b = F.days(F.monday, 3)
        let t = CoachingRules.replay(Array(a.reversed()) + b, constants: F.c)
        XCTAssertEqual(t.phases.map(\.subject), Array(repeating: "b", count: 8) + ["s", "s", "s"])
        XCTAssertEqual(t.phases.prefix(8).map(\.date), (0..<8).map { Timestamp.isoDate(Int64(F.monday + $0) * 86_400_000) })
        let assessments = t.coaching.filter { $0.kind == "assessment" }
        XCTAssertEqual(assessments.count, 11)
        // Constant series over less than two weeks: no trend, no weekly report, no correlation (r undefined).
        XCTAssertEqual(Set(t.coaching.map(\.kind)), ["assessment", "recommendation", "schedule"])
        XCTAssertEqual(t.coaching.filter { $0.kind == "schedule" }.count, 22, "morning and evening every day")
        XCTAssertEqual(t.nudges.filter { $0.rank == 1 }.count, 11, "every day has a primary nudge")
        XCTAssertEqual(CoachingRules.replay(Array(a.reversed()) + b, constants: F.c), t)
    }
}
