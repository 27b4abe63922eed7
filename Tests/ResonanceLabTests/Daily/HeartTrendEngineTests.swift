import XCTest
@testable import ResonanceLab

final class HeartTrendEngineTests: XCTestCase {
    let engine = HeartTrendEngine()

    func testRobustZAgainstAHistoryWithAnOutlier() {
        // Baseline 60…65 and one sick day at 100: median 63; |x − 63| = 3,2,1,0,1,2,37 →
        // MAD 2; z(66) = 3 / (1.4826·2) = 1.01174. The mean (67.86) would put 66 below
        // "normal"; the median-based z is unmoved by the outlier.
        let baseline: [Double] = [60, 61, 62, 63, 64, 65, 100]
        XCTAssertEqual(engine.robustZ(66, baseline: baseline) ?? .nan, 1.01174, accuracy: 1e-5)
        XCTAssertLessThan(66 - Stats.mean(baseline), 0)
        XCTAssertNil(engine.robustZ(66, baseline: [60, 60, 60, 60, 60, 60, 61]), "MAD 0 leaves the input out")
        XCTAssertNil(engine.robustZ(66, baseline: [60, 61, 62]), "fewer than 7 baseline days")
    }

    func testAnomalyStressPatternAndRegression() {
        // Ten days cycling RHR 58…62, SDNN 48…52, recovery 23…27: median 60/50/25 and
        // MAD 1 each. Today RHR 63, SDNN 47, recovery 22 → z = ±3/1.4826 = ±2.02347.
        // anomaly = (0.25·2.02347 + 0.25·2.02347 + 0.20·2.02347) / 0.70 = 2.02347 → flagged;
        // stress pattern: 2.02 ≥ 1.5, −2.02 ≤ −1.5, −2.02 ≤ −1.5.
        // RHR slope over days 4…10 (62,58,59,60,61,62,63): Σ(x−7)·y / Σ(x−7)² = 13/28 = 0.464
        // > 0.3 → regression. SDNN slope (52,48,49,50,51,52,47): −5/28 = −0.179, not < −0.3.
        let history = (0..<10).map {
            DailySnapshot(subject: "p", day: $0, restingHRBpm: Double(58 + $0 % 5), hrvSDNNMs: Double(48 + $0 % 5),
                          recovery1mBpm: Double(23 + $0 % 5))
        }
        let r = engine.assess(DailySnapshot(subject: "p", day: 10, restingHRBpm: 63, hrvSDNNMs: 47, recovery1mBpm: 22),
                              history: history[...])
        XCTAssertEqual(r.anomaly ?? .nan, 2.02347, accuracy: 1e-5)
        XCTAssertEqual(r.restingHRSlope ?? .nan, 13.0 / 28, accuracy: 1e-12)
        XCTAssertEqual(r.hrvSlope ?? .nan, -5.0 / 28, accuracy: 1e-12)
        XCTAssertEqual(r.flags, ["anomaly", "regression", "stress_pattern"])
        // Drivers: RHR 0.25/0.7·2.02347 = 0.72267 ties HRV; recovery 0.20/0.7·2.02347 = 0.57813.
        XCTAssertEqual(r.drivers.map(\.name), ["hrv", "resting_hr", "recovery_1m"])
        XCTAssertEqual(r.drivers.map(\.points), [0.72267, 0.72267, 0.57813], accuracy: 1e-5)
    }

    func testFlatRestingHRFiresOnlyWithTheSpecificationsLiteralThreshold() throws {
        let days = (0..<7).map { DailySnapshot(subject: "p", day: $0, restingHRBpm: 60) }
        XCTAssertFalse(engine.assess(days[6], history: days[..<6]).regression)
        // "RHR slope > −0.3" read literally: slope 0 > −0.3 fires on a flat RHR.
        let path = try writeFixture(#"{"engines":{"trend":{"constants":{"rhr_slope_threshold":-0.3}}}}"#,
                                    to: try makeTempDir() + "/c.json")
        let literal = HeartTrendEngine(constants: TrendConstants(registry: try ConstantsRegistry(contentsOf: path)))
        XCTAssertTrue(literal.assess(days[6], history: days[..<6]).regression)
    }

    /// 20 days alternating 60/62 bpm, then 75 bpm on `elevatedDays`.
    func series(elevatedDays: [Int]) -> [DailySnapshot] {
        (0..<20).map { DailySnapshot(subject: "p", day: $0, restingHRBpm: $0 % 2 == 0 ? 60 : 62) }
            + elevatedDays.map { DailySnapshot(subject: "p", day: $0, restingHRBpm: 75) }
    }

    func streaks(_ days: [DailySnapshot]) -> [Int] {
        days.indices.suffix(days.count - 20).map { engine.assess(days[$0], history: days[..<$0]).elevationStreakDays }
    }

    func testElevationStreakBrokenByATwoDayGapIsTwoStreaks() {
        // Baseline of day 20 = the 28 days before its week = days 0…13: mean 61,
        // SD √(14/13) = 1.0377 → threshold 63.08; 75 is elevated on every later day too.
        // Days 20, 21, 23, 24: 21 → 23 is a 2-day gap > 1.5 → streaks 1,2 then 1,2; no alert.
        let broken = series(elevatedDays: [20, 21, 23, 24])
        XCTAssertEqual(streaks(broken), [1, 2, 1, 2])
        XCTAssertFalse(broken.indices.dropFirst(20).contains { engine.assess(broken[$0], history: broken[..<$0]).elevationAlert })
        // Days 20…24 without the gap: one streak, alert from its third day.
        let unbroken = series(elevatedDays: [20, 21, 22, 23, 24])
        XCTAssertEqual(streaks(unbroken), [1, 2, 3, 4, 5])
        XCTAssertEqual(engine.assess(unbroken[22], history: unbroken[..<22]).flags.last, "consecutive_elevation")
    }

    func testWeekOverWeekRestingHRZ() {
        // Days 0…13 alternate 60/62 (mean 61, SD 1.0377); days 14…20 at 63. Day 20: its week
        // is days 14…20 (mean 63), its baseline days 0…13 → z = 2/1.0377 = 1.92725 → up.
        let days = (0..<21).map { DailySnapshot(subject: "p", day: $0, restingHRBpm: $0 >= 14 ? 63 : ($0 % 2 == 0 ? 60 : 62)) }
        let r = engine.assess(days[20], history: days[..<20])
        XCTAssertEqual(r.weekRestingHRZ ?? .nan, 1.92725, accuracy: 1e-5)
        XCTAssertTrue(r.flags.contains("rhr_week_up"))
        XCTAssertNil(engine.assess(days[19], history: days[..<19]).weekRestingHRZ, "13 baseline days < 14")
    }
}

/// The regression flag's statistically sound variants (`regression_method`).
final class RegressionMethodTests: XCTestCase {
    func engine(method: Int) throws -> HeartTrendEngine {
        let r = try ConstantsRegistry.defaults.replacing("trend", with: ["regression_method": Double(method)])
        return HeartTrendEngine(constants: TrendConstants(registry: r))
    }

    func testSlopeTAndTheilSenByHand() {
        // (0,0) (1,1) (2,10) (3,3): least squares 0.8 + 1.8·x; residuals −0.8, −1.6, 5.6, −3.2 (SS 44.8)
        // → SE = √(44.8 / 2 / 5) = 2.11660, t = 1.8 / 2.11660 = 0.85042.
        let p = [(day: 0, value: 0.0), (day: 1, value: 1.0), (day: 2, value: 10.0), (day: 3, value: 3.0)]
        XCTAssertEqual(DailyWindow.slope(p) ?? .nan, 1.8, accuracy: 1e-12)
        XCTAssertEqual(DailyWindow.slopeT(p) ?? .nan, 0.850420064, accuracy: 1e-8)
        // Pairwise slopes 1, 5, 1, 9, 1, −7 → median 1: the outlier at day 2 does not move it.
        XCTAssertEqual(DailyWindow.theilSen(p), 1)
        XCTAssertNil(DailyWindow.slopeT(Array(p.prefix(2))))
    }

    /// 28 baseline days alternating 60/62 bpm (median 61, MAD 1), then a step to a flat
    /// 64 bpm for 7 days: the product's 7-day slope is 0 and never flags it; the EWMA
    /// of z = 3/1.4826 = 2.0235 after 7 days is 2.0235·(1 − 0.7⁷) = 1.857 ≥ the limit
    /// 2.5·√(0.3/1.7) = 1.0502 → flagged. A step to 61.5 (z 0.337, EWMA 0.31) is not.
    func testEWMAFlagsASustainedStepTheSlopeMisses() throws {
        func history(step: Double) -> [DailySnapshot] {
            (0..<35).map { DailySnapshot(subject: "p", day: $0, restingHRBpm: $0 < 28 ? Double(60 + 2 * ($0 % 2)) : step) }
        }
        for (method, step, expected) in [(0, 64.0, false), (3, 64.0, true), (3, 61.5, false)] {
            let days = history(step: step)
            let r = try engine(method: method).assess(days[34], history: days[..<34])
            XCTAssertEqual(r.regression, expected, "method \(method), step \(step)")
        }
    }

    /// A perfect linear rise of 0.5 bpm/day fires the three slope methods; a rise of
    /// 0.4 bpm/day under a ±2 bpm alternation (slope 0.4, t = 0.904 < 2.015) fires the
    /// product's rule but is not significant.
    func testSignificantSlopeNeedsAClearTrend() throws {
        let clean = (0..<7).map { DailySnapshot(subject: "p", day: $0, restingHRBpm: 60 + 0.5 * Double($0)) }
        for method in 0...2 {
            XCTAssertTrue(try engine(method: method).assess(clean[6], history: clean[..<6]).regression, "method \(method)")
        }
        let noisy = (0..<7).map { DailySnapshot(subject: "p", day: $0, restingHRBpm: 60 + 0.4 * Double($0) + ($0 % 2 == 0 ? 2 : -2)) }
        XCTAssertTrue(try engine(method: 0).assess(noisy[6], history: noisy[..<6]).regression)
        XCTAssertFalse(try engine(method: 1).assess(noisy[6], history: noisy[..<6]).regression)
    }
}
