import XCTest
@testable import ResonanceLab

final class DailyEnginesTests: XCTestCase {
    func testAssessGroupsBySubjectSortsByDayAndSeesOnlyThePast() {
        let a = (0..<5).map { DailySnapshot(subject: "A", day: 4 - $0, restingHRBpm: 60, sleepHours: 8) }
        let b = (0..<5).map { DailySnapshot(subject: "B", day: $0, restingHRBpm: 70) }
        let out = DailyEngines.assess(history: [b[0]] + a + b.dropFirst())
        XCTAssertEqual(out.map(\.snapshot.subject), ["B"] + Array(repeating: "B", count: 4) + Array(repeating: "A", count: 5))
        XCTAssertEqual(out.filter { $0.snapshot.subject == "A" }.map(\.snapshot.day), [0, 1, 2, 3, 4])
        // Stress needs three earlier days: none on days 0–2; flat RHR at its baseline is raw 40
        // → 31.0026 (relaxed) afterwards.
        XCTAssertEqual(out.filter { $0.snapshot.subject == "A" }.map { $0.stress == nil }, [true, true, true, false, false])
        XCTAssertEqual(out.last?.stress?.score ?? .nan, 31.0026, accuracy: 1e-4)
        XCTAssertEqual(out.last?.row.stressLevel, "relaxed")
    }

    func testElevationAlertCapsReadinessAndIsFlagged() {
        // 20 days alternating 60/62 bpm with 8 h sleep, then 75 bpm from day 20. From day 22 the
        // alert is active; readiness would be well above 50 (sleep pillar 100) so it is capped.
        let days = (0..<23).map {
            DailySnapshot(subject: "p", day: $0, restingHRBpm: $0 >= 20 ? 75 : ($0 % 2 == 0 ? 60 : 62), sleepHours: 8)
        }
        let out = DailyEngines.assess(history: days)
        XCTAssertEqual(out[21].readiness?.capped, false)
        XCTAssertEqual(out[22].readiness?.score, 50)
        XCTAssertEqual(out[22].row.flags.suffix(2), ["consecutive_elevation", "readiness_capped"])
    }
}
