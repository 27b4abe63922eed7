import XCTest
@testable import ResonanceLab

/// The morning recovery composite and decision, worked by hand.
final class MorningRecoveryTests: XCTestCase {
    let engine = MorningRecoveryEngine(constants: ConstantsRegistry.defaults.morningRecovery)

    func testComponentsAtTheirThresholds() {
        XCTAssertEqual([25, 30, 45, 60, 80].map { engine.hrvScore(sdnnMs: $0) }, [0, 0, 0.5, 1, 1])
        XCTAssertEqual([3, 4, 5.5, 7, 9].map { engine.sleepScore(hours: $0) }, [0, 0, 0.5, 1, 1])
        XCTAssertEqual([50, 55, 60, 65, 70].map { engine.restingHRScore(bpm: $0, baselineBpm: 55) }, [1, 1, 0.5, 0, 0])
    }

    func testCompositeIsTruncatedAndRenormalisedOverWhatIsPresent() {
        // 0.4·0.5 + 0.4·0.5 + 0.2·0.5 = 0.5 → 50.
        XCTAssertEqual(engine.score(sdnnMs: 45, sleepHours: 5.5, restingHRBpm: 60, baselineBpm: 55).overall, 50)
        // HRV 40 ms: 1/3; sleep 6 h: 2/3; RHR 56 vs 55: 0.9 → 0.4/3 + 0.8/3 + 0.18 = 0.58 → 58.
        let s = engine.score(sdnnMs: 40, sleepHours: 6, restingHRBpm: 56, baselineBpm: 55)
        XCTAssertEqual([s.hrv, s.sleep, s.restingHR].compactMap { $0 }, [1.0 / 3, 2.0 / 3, 0.9], accuracy: 1e-12)
        XCTAssertEqual(s.overall, 58)
        // Truncation, not rounding: HRV 45 ms and sleep 5.5 h score 0.5, RHR 0.05 bpm above the baseline 0.995 → 59.9 → 59.
        XCTAssertEqual(engine.score(sdnnMs: 45, sleepHours: 5.5, restingHRBpm: 55.05, baselineBpm: 55).overall, 59)
        // Without a baseline the resting-HR component is missing: (0.4·1 + 0.4·0) / 0.8 = 0.5.
        let partial = engine.score(sdnnMs: 70, sleepHours: 3, restingHRBpm: 60, baselineBpm: nil)
        XCTAssertNil(partial.restingHR)
        XCTAssertEqual(partial.overall, 50)
        XCTAssertNil(engine.score(sdnnMs: nil, sleepHours: nil, restingHRBpm: 60, baselineBpm: nil).overall)
    }

    func testDecisionAtEachBoundary() {
        func d(_ score: Int, _ planned: Bool) -> String {
            let x = engine.decide(overall: score, plannedWorkout: planned)
            return x.intensity.isEmpty ? x.action : "\(x.action)/\(x.intensity)"
        }
        XCTAssertEqual([39, 40, 80, 81].map { d($0, true) }, ["light/light", "confirm/moderate", "confirm/moderate", "confirm/high"])
        XCTAssertEqual([50, 51, 80, 81].map { d($0, false) }, ["rest", "suggest/moderate", "suggest/moderate", "suggest/high"])
    }

    func testBaselineNeedsThreeEarlierDaysWithinThirty() {
        func day(_ d: Int, _ rhr: Double?) -> DailySnapshot { DailySnapshot(subject: "u", day: d, restingHRBpm: rhr) }
        let history = [day(1, 50), day(40, 60), day(41, 62), day(42, nil), day(43, 58), day(44, 70)]
        XCTAssertNil(engine.baseline(before: 43, history: history), "day 1 is more than 30 days before; 2 days remain")
        XCTAssertEqual(engine.baseline(before: 44, history: history), 60, "median of 60, 62, 58")
    }

    func testMorningsCarryBothBranchesAndTheReadinessLevel() {
        let days = [DailySnapshot(subject: "u", day: 100, restingHRBpm: 55, hrvSDNNMs: 60, sleepHours: 8),
                    DailySnapshot(subject: "u", day: 101, restingHRBpm: 55, hrvSDNNMs: 60, sleepHours: 8),
                    DailySnapshot(subject: "u", day: 102, restingHRBpm: 55, hrvSDNNMs: 60, sleepHours: 8),
                    DailySnapshot(subject: "u", day: 103, restingHRBpm: 65, hrvSDNNMs: 30, workoutMinutes: 30, sleepHours: 4)]
        let date = DailySnapshot(subject: "u", day: 103).date
        let rows = engine.mornings(days, readiness: ["u\u{0}" + date: "recovering"]).map(\.row)
        XCTAssertEqual(rows.map { $0.score.overall }, [100, 100, 100, 0], "days 100–102 without a baseline: HRV and sleep only")
        XCTAssertEqual(rows[3].restingHRBaselineBpm, 55)
        XCTAssertTrue(rows[3].planned)
        XCTAssertEqual(rows[3].withPlan?.action, "light")
        XCTAssertEqual(rows[3].withoutPlan?.action, "rest")
        XCTAssertEqual(rows[3].readinessLevel, "recovering")
        XCTAssertEqual(rows[0].withoutPlan, MorningRecoveryEngine.Decision(action: "suggest", intensity: "high"))
    }
}
