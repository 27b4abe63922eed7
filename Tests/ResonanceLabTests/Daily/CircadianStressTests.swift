import Foundation
import XCTest
@testable import ResonanceLab

/// The stress engine's circadian hourly estimates and trend direction (docs/engines/heart-coach.md, Stress).
final class CircadianStressTests: XCTestCase {
    let engine = StressEngine()

    func testMultipliersLieInTheSpecifiedBands() {
        let m = StressConstants.defaults.circadianMultipliers
        XCTAssertEqual(m.count, 24)
        for h in 0...5 { XCTAssertTrue((1.10...1.20).contains(m[h]), "night hour \(h): \(m[h])") }
        for h in 13...17 { XCTAssertTrue((0.82...0.90).contains(m[h]), "afternoon hour \(h): \(m[h])") }
        for h in 18...23 { XCTAssertTrue((0.95...1.10).contains(m[h]), "evening hour \(h): \(m[h])") }
        for h in 6...12 { XCTAssertTrue((0.90...1.10).contains(m[h]), "morning hour \(h): \(m[h])") }
        // The profile's peak and trough, and the hour at which it crosses 1.
        XCTAssertEqual(m[3], 1.20)
        XCTAssertEqual(m[15], 0.82)
        XCTAssertEqual(m[8], 1.00)
        XCTAssertEqual(m.max(), 1.20)
        XCTAssertEqual(m.min(), 0.82)
    }

    /// Resting HR at baseline (40 points), HRV at its baseline mean (z 0) with
    /// SD(ln SDNN) 0.2, no stability signal: RHR + HRV weights 0.60 / 0.40.
    func testHandWorkedHourlyStress() throws {
        var signals = StressSignals(rhrPercentAbove: 0, hrvZ: 0)
        signals.hrvLnSD = 0.2
        let hours = engine.hourly(sdnnMs: 50, signals: signals)
        XCTAssertEqual(hours.map(\.hour), Array(0..<24))
        // 15 h, ×0.82: HRV 41 ms, z = ln 0.82 / 0.2 = −0.99225; HRV points 40 + 19.845 = 59.845;
        // x = 0.6·40 + 0.4·59.845 = 47.938; 100 / (1 + e^(−0.08·(47.938 − 50))) = 45.885, balanced.
        XCTAssertEqual(hours[15].hrvEstimateMs, 41, accuracy: 1e-9)
        XCTAssertEqual(hours[15].multiplier, 0.82)
        XCTAssertEqual(hours[15].stress, 45.885401000463915, accuracy: 1e-9)
        XCTAssertEqual(hours[15].level, .balanced)
        // 03 h, ×1.20: HRV 60 ms, z = ln 1.2 / 0.2 = 0.91161; points 21.768; x = 32.707 → 20.046, relaxed.
        XCTAssertEqual(hours[3].hrvEstimateMs, 60, accuracy: 1e-9)
        XCTAssertEqual(hours[3].stress, 20.04588548246752, accuracy: 1e-9)
        XCTAssertEqual(hours[3].level, .relaxed)
        // 08 h, ×1.00: the day's own score, x = 40 → 31.003.
        XCTAssertEqual(hours[8].stress, 31.002551887238752, accuracy: 1e-9)
        XCTAssertEqual(hours[8].stress, try XCTUnwrap(engine.score(signals)), accuracy: 1e-12)
        // Higher HRV, lower stress: the night is calmer than the afternoon.
        XCTAssertLessThan(hours[3].stress, hours[8].stress)
        XCTAssertLessThan(hours[8].stress, hours[15].stress)
    }

    func testNoHourlyEstimatesWithoutAnHRVBaseline() {
        XCTAssertEqual(engine.hourly(sdnnMs: 50, signals: StressSignals(rhrPercentAbove: 5)), [])
        var signals = StressSignals(rhrPercentAbove: 0, hrvZ: 0)
        signals.hrvLnSD = 0.2
        XCTAssertEqual(engine.hourly(sdnnMs: nil, signals: signals), [])
    }

    /// Seven days whose scores rise by `slope` a day.
    func direction(slope: Double, days: Int = 7) -> StressTrend? {
        engine.trendDirection((0..<days).map { (day: 100 + $0, score: 50 + slope * Double($0)) })
    }

    func testTrendDirectionAtTheHalfPointBoundaries() {
        XCTAssertEqual(direction(slope: 0.5), .steady, "exactly +0.5 points/day is steady")
        XCTAssertEqual(direction(slope: 0.51), .rising)
        XCTAssertEqual(direction(slope: -0.5), .steady, "exactly −0.5 points/day is steady")
        XCTAssertEqual(direction(slope: -0.51), .falling)
        XCTAssertEqual(direction(slope: 0), .steady)
        XCTAssertNil(direction(slope: 3, days: 2), "fewer than trend_min_days = 3 scored days")
        // Least squares, not end points: 50, 40, 60 over days 0–2 has slope +5.
        XCTAssertEqual(engine.trendDirection([(0, 50), (1, 40), (2, 60)]), .rising)
    }

    func testDailyRowsCarryTheTrendOverTheWindow() throws {
        // Resting HR rising 1 % a day after a flat week: stress rises.
        var days: [DailySnapshot] = []
        for d in 0..<7 { days.append(DailySnapshot(subject: "u", day: d, restingHRBpm: 60)) }
        for d in 7..<12 { days.append(DailySnapshot(subject: "u", day: d, restingHRBpm: 60 * (1 + 0.01 * Double(d - 6)))) }
        let rows = DailyEngines.assess(history: days).map(\.row)
        // Day 3 is the first with a baseline (3 days) and so a score; three scores on day 5.
        XCTAssertEqual(rows[3].stressTrend, "")
        XCTAssertEqual(rows[5].stressTrend, "steady")
        XCTAssertEqual(rows[11].stressTrend, "rising")
    }
}
