import XCTest
@testable import ResonanceLab

final class ReadinessEngineTests: XCTestCase {
    let engine = ReadinessEngine()

    func testSleepGaussianAndTheSpecificationExamples() {
        // 100·exp(−(h − 8)²/(2·1.5²)) = 100·exp(−(h − 8)²/4.5):
        // 8 h → 100; 7 h → e^−0.2222 = 0.80074; 6 h and 10 h → e^−0.8889 = 0.41111;
        // 5 h → e^−2 = 0.13534.
        XCTAssertEqual(engine.sleepScore(hours: 8), 100, accuracy: 1e-12)
        XCTAssertEqual(engine.sleepScore(hours: 7), 80.0737, accuracy: 1e-4)
        XCTAssertEqual(engine.sleepScore(hours: 6), 41.1112, accuracy: 1e-4)
        XCTAssertEqual(engine.sleepScore(hours: 10), 41.1112, accuracy: 1e-4)
        XCTAssertEqual(engine.sleepScore(hours: 5), 13.5335, accuracy: 1e-4)
        // The specification's examples (7 h ≈ 95, 6 h ≈ 75, 5 h ≈ 41, 10 h ≈ 75) are off by
        // 15–34 points; the formula, not the examples, is implemented.
        XCTAssertGreaterThan(95 - engine.sleepScore(hours: 7), 14)
        XCTAssertGreaterThan(75 - engine.sleepScore(hours: 6), 33)
    }

    func testRecoveryRamp() {
        // 10 → 0, 40 → 100, 25 → 50, clamped outside.
        XCTAssertEqual([5, 10, 25, 40, 55].map { engine.recoveryScore(dropBpm: $0) }, [0, 0, 50, 100, 100], accuracy: 1e-12)
    }

    func testMissingPillarsReNormalise() {
        // Sleep 8 h → 100, recovery 25 bpm → 50, stress 30 → 70; no zone minutes, no HRV.
        // (0.25·100 + 0.25·50 + 0.20·70) / (0.25 + 0.25 + 0.20) = 51.5 / 0.70 = 73.5714.
        let today = DailySnapshot(subject: "p", day: 0, recovery1mBpm: 25, sleepHours: 8)
        let r = engine.assess(today, history: [], stress: 30, elevationAlert: false)
        XCTAssertEqual(r?.score ?? .nan, 73.5714, accuracy: 1e-4)
        XCTAssertEqual(r?.level, .ready)
        XCTAssertEqual(r?.capped, false)
        // Sleep driver: 0.25/0.70 · (100 − 50) = 17.857 points.
        XCTAssertEqual(r?.drivers.first?.name, "sleep")
        XCTAssertEqual(r?.drivers.first?.points ?? .nan, 17.857, accuracy: 1e-3)
        // With the consecutive-elevation alert the same day is capped at 50 → moderate.
        let capped = engine.assess(today, history: [], stress: 30, elevationAlert: true)
        XCTAssertEqual(capped?.score, 50)
        XCTAssertEqual(capped?.level, .moderate)
        XCTAssertEqual(capped?.capped, true)
        XCTAssertEqual(capped?.uncappedScore ?? .nan, 73.5714, accuracy: 1e-4)
        XCTAssertNil(engine.assess(DailySnapshot(subject: "p", day: 0), history: [], stress: nil, elevationAlert: false))
    }

    func testHRVTrendTwentyPointsPerTenPercentBelow() {
        // Mean SDNN 50 ms over the 7 days before; today 45 ms = 10 % below → 100 − 20 = 80,
        // the only pillar.
        let history = (0..<7).map { DailySnapshot(subject: "p", day: $0, hrvSDNNMs: [48, 52, 50, 49, 51, 50, 50][$0]) }
        let r = engine.assess(DailySnapshot(subject: "p", day: 7, hrvSDNNMs: 45), history: history[...], stress: nil, elevationAlert: false)
        XCTAssertEqual(r?.score ?? .nan, 80, accuracy: 1e-9)
        XCTAssertEqual(r?.level, .primed)
    }

    /// The workload variant (`activity_variant` 1).
    func testActivityBalanceVolumeAndOverload() throws {
        // 7 days at 20 zone-min then 7 days at 60 (today included): acute mean 60 → 420
        // min/week ≥ 150 → volume 1; chronic mean (140 + 420)/14 = 40 → ACWR 1.5;
        // overload factor 1 − (1.5 − 1.3)/(2.0 − 1.3) = 0.714286 → 71.4286.
        let engine = ReadinessEngine(constants: try ReadinessConstants(replacing: ["activity_variant": 1]))
        let days = (0..<14).map { DailySnapshot(subject: "p", day: $0, zoneMinutes: $0 < 7 ? 20 : 60) }
        let pillar = engine.activityBalance(days[13], history: days[..<13])
        XCTAssertEqual(pillar?.score ?? .nan, 71.4286, accuracy: 1e-4)
        // One day of 10 zone-min and nothing else: 70 min/week → 70/150 → 46.667.
        let single = engine.activityBalance(DailySnapshot(subject: "p", day: 0, zoneMinutes: 10), history: [])
        XCTAssertEqual(single?.score ?? .nan, 46.6667, accuracy: 1e-4)
    }

    func testAcuteWindowOfOneDayIsTodayAlone() throws {
        // activity_acute_days = 1: acute = today's 60 min. Chronic (14 days): twelve days of
        // 30, one of 0, today 60 → 420/14 = 30; ACWR 60/30 = 2.0 → overload 0 → score 0.
        // (Counting yesterday's 0 too would give acute 30, ACWR 1.0 and a score of 100.)
        let path = try writeFixture(#"{"engines":{"readiness":{"version":"2.1.0","constants":{"activity_acute_days":1,"activity_variant":1}}}}"#,
                                    to: try makeTempDir() + "/c.json")
        let oneDay = ReadinessEngine(constants: ReadinessConstants(registry: try ConstantsRegistry(contentsOf: path)))
        let minutes: [Double] = Array(repeating: 30, count: 12) + [0, 60]
        let days = minutes.indices.map { DailySnapshot(subject: "p", day: $0, zoneMinutes: minutes[$0]) }
        XCTAssertEqual(oneDay.activityBalance(days[13], history: days[..<13])?.score ?? .nan, 0, accuracy: 1e-9)
    }
}
