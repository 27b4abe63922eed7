import XCTest
@testable import ResonanceLab

/// The readiness activity balance as the product defines it (docs/engines/heart-coach.md,
/// Readiness): each anchor, the boundaries of "active", and the ramps between.
final class ReadinessActivityPatternTests: XCTestCase {
    let engine = ReadinessEngine()

    /// Zone minutes of consecutive days from day 100; nil leaves a day out.
    func score(_ minutes: [Double?], engine: ReadinessEngine? = nil) -> Double? {
        let days = minutes.enumerated().compactMap { i, m in m.map { DailySnapshot(subject: "S", day: 100 + i, zoneMinutes: $0) } }
        guard let today = days.last, today.day == 100 + minutes.count - 1 else { return nil }
        return (engine ?? self.engine).activityBalance(today, history: days.dropLast())?.score
    }

    func testThreeInactiveDaysScore30() throws {
        XCTAssertEqual(score([10, 10, 10]), 30)
        XCTAssertEqual(score([60, 60, 60, 60, 0, 19.9, 0]), 30, "today and the 2 days before below 20 min")
    }

    func testActiveYesterdayAndRestTodayIsSmartRecovery() {
        XCTAssertEqual(score([5, 30, 0]), 85)
        XCTAssertEqual(score([5, 20, 19.9]), 85, "20 min is active, 19.9 rest")
        XCTAssertEqual(score([5, 19.9, 0]), 30, "19.9 min yesterday is not active: three inactive days")
    }

    func testAverageBetween20And45Scores100() {
        XCTAssertEqual(score(Array(repeating: 30, count: 7)), 100)
        XCTAssertEqual(score(Array(repeating: 20, count: 7)), 100, "20 included")
        XCTAssertEqual(score(Array(repeating: 45, count: 7)), 100, "45 included")
        // Only the 7 days ending today count: 500 eight days back (which would make the
        // mean 83) is outside, mean (20·6 + 45)/7 ≈ 23.6.
        XCTAssertEqual(score([500, 20, 20, 20, 20, 20, 20, 45]), 100)
    }

    /// Below 20 min/day: 30 at 0 rising to 100 at 20.
    func testBelowTheBandRampsFromTheSedentaryAnchor() throws {
        // Today active, yesterday inactive: mean (10 + 10 + 20)/3 = 13.333 → 30 + 70·13.333/20.
        XCTAssertEqual(try XCTUnwrap(score([10, 10, 20])), 30 + 70 * (40.0 / 3) / 20, accuracy: 1e-9)
        // A day without zone minutes is unknown, not inactive: no three-day run, mean 5 → 47.5.
        XCTAssertEqual(try XCTUnwrap(score([nil, 5, 5])), 47.5, accuracy: 1e-9)
    }

    /// Above 45 min/day: 100 falling linearly to 50 at 120, then 50.
    func testExcessIsPenalised() throws {
        XCTAssertEqual(try XCTUnwrap(score(Array(repeating: 82.5, count: 7))), 75, accuracy: 1e-9)
        XCTAssertEqual(score(Array(repeating: 120, count: 7)), 50)
        XCTAssertEqual(score(Array(repeating: 300, count: 7)), 50)
        XCTAssertEqual(try XCTUnwrap(score(Array(repeating: 46, count: 7))), 100 - 50.0 / 75, accuracy: 1e-9)
    }

    func testNoZoneMinutesTodayNoPillar() {
        let today = DailySnapshot(subject: "S", day: 100, sleepHours: 8)
        XCTAssertNil(engine.activityBalance(today, history: []))
        let r = engine.assess(today, history: [], stress: nil, elevationAlert: false)
        XCTAssertEqual(r?.drivers.map(\.name), ["sleep"])
    }

    /// `activity_variant` 1 keeps the workload variant: 100·min(1, 7·mean / 150) with no
    /// chronic load before 14 days.
    func testWorkloadVariantIsTheNamedAlternative() throws {
        let workload = ReadinessEngine(constants: try ReadinessConstants(replacing: ["activity_variant": 1]))
        XCTAssertEqual(try XCTUnwrap(score(Array(repeating: 10, count: 7), engine: workload)), 100 * 70 / 150, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(score([10, 10, 10], engine: workload)), 100 * 70 / 150, accuracy: 1e-9, "not 30: no pattern")
        XCTAssertEqual(score(Array(repeating: 30, count: 7), engine: workload), 100)
        XCTAssertEqual(score([10, 10, 10]), 30, "the default is the product's pattern")
    }
}
