import XCTest
@testable import ResonanceLab

/// The heart-health coach's engine expectations (trend, stress, readiness, zones) on the
/// toolkit's engines (docs/engines.md, Conformance). Where an expectation contradicts the
/// specification's own formula, the test asserts the formula's value and says so; where
/// the toolkit departs with a documented reason, the case runs with the product's constant.
final class HeartCoachConformanceTests: XCTestCase {
    let readiness = ReadinessEngine()
    let stress = StressEngine()
    let trend = HeartTrendEngine()

    func day(_ d: Int, rhr: Double? = nil, hrv: Double? = nil, rec: Double? = nil) -> DailySnapshot {
        DailySnapshot(subject: "u", day: 20_000 + d, restingHRBpm: rhr, hrvSDNNMs: hrv, recovery1mBpm: rec)
    }

    // MARK: Readiness

    func testSleepExamplesFollowTheGaussianNotTheExamples() {
        // Contradictions: the examples say 7 h ≈ 95, 6 h ≈ 75, 5 h ≈ 41, 10 h ≈ 75; the
        // Gaussian 100·exp(−(h − 8)²/(2·1.5²)) gives 80.1, 41.1, 13.5 and 41.1.
        XCTAssertEqual(readiness.sleepScore(hours: 7), 80.07, accuracy: 0.01)
        XCTAssertEqual(readiness.sleepScore(hours: 6), 41.11, accuracy: 0.01)
        XCTAssertEqual(readiness.sleepScore(hours: 5), 13.53, accuracy: 0.01)
        XCTAssertEqual(readiness.sleepScore(hours: 10), 41.11, accuracy: 0.01)
    }

    func testSleepPeaksAtEightHours() {
        XCTAssertEqual(readiness.sleepScore(hours: 8), 100, accuracy: 1e-12)
        // One σ (1.5 h) either side: 100·e^−0.5 = 60.653.
        XCTAssertEqual(readiness.sleepScore(hours: 6.5), 100 * exp(-0.5), accuracy: 1e-9)
        XCTAssertEqual(readiness.sleepScore(hours: 9.5), 100 * exp(-0.5), accuracy: 1e-9)
    }

    func testRecoveryDropOfTenIsZeroAndFortyIsHundred() {
        XCTAssertEqual(readiness.recoveryScore(dropBpm: 10), 0, accuracy: 1e-12)
        XCTAssertEqual(readiness.recoveryScore(dropBpm: 25), 50, accuracy: 1e-12)
        XCTAssertEqual(readiness.recoveryScore(dropBpm: 40), 100, accuracy: 1e-12)
        XCTAssertEqual(readiness.recoveryScore(dropBpm: 55), 100, accuracy: 1e-12)
    }

    func testStressPillarIsHundredMinusStress() throws {
        let r = try XCTUnwrap(readiness.assess(day(0), history: [], stress: 30, elevationAlert: false))
        XCTAssertEqual(r.score, 70, accuracy: 1e-12)
    }

    func testHRVTrendLosesTwentyPointsPerTenPercentBelowAndStopsAtZero() throws {
        let history = (1...7).map { day(-$0, hrv: 50) }.reversed()
        func score(_ hrv: Double) throws -> Double {
            try XCTUnwrap(readiness.assess(day(0, hrv: hrv), history: ArraySlice(history), stress: nil, elevationAlert: false)).score
        }
        XCTAssertEqual(try score(55), 100, accuracy: 1e-9)
        XCTAssertEqual(try score(45), 80, accuracy: 1e-9)
        XCTAssertEqual(try score(20), 0, accuracy: 1e-9)
    }

    func testReadinessLevels() {
        XCTAssertEqual([80, 79.9, 60, 59.9, 40, 39.9].map { readiness.level($0) },
                       [.primed, .ready, .ready, .moderate, .moderate, .recovering])
    }

    func testReadinessCappedAtFiftyDuringConsecutiveElevation() throws {
        var today = day(0); today.sleepHours = 8
        let r = try XCTUnwrap(readiness.assess(today, history: [], stress: nil, elevationAlert: true))
        XCTAssertEqual(r.score, 50); XCTAssertTrue(r.capped); XCTAssertEqual(r.uncappedScore, 100, accuracy: 1e-12)
    }

    func testMissingPillarsRedistributeTheirWeight() throws {
        // Sleep 8 h (100) and recovery 10 bpm (0), each 0.25: (25 + 0)/0.5 = 50.
        var today = day(0, rec: 10); today.sleepHours = 8
        XCTAssertEqual(try XCTUnwrap(readiness.assess(today, history: [], stress: nil, elevationAlert: false)).score, 50, accuracy: 1e-12)
    }

    // MARK: Stress

    func testRestingHRScoreIsFortyPlusFourPerPercent() {
        XCTAssertEqual(stress.restingHRScore(restingHRBpm: 63, baselineBpm: 60), 60, accuracy: 1e-12)
    }

    func testFivePercentAboveBaselineReadsElevatedByTheFormula() {
        // Contradiction: "+5 % = moderate stress"; RHR alone gives 40 + 20 = 60 → logistic 69.0,
        // elevated (≥ 65). The formula's value is asserted.
        let s = stress.score(StressSignals(rhrPercentAbove: 5)) ?? .nan
        XCTAssertEqual(s, 100 / (1 + exp(-0.8)), accuracy: 1e-12)
        XCTAssertEqual(stress.level(s), .elevated)
    }

    func testTenPercentAboveBaselineIsHighStress() {
        let s = stress.score(StressSignals(rhrPercentAbove: 10)) ?? .nan
        XCTAssertEqual(s, 100 / (1 + exp(-2.4)), accuracy: 1e-12)  // 91.7
        XCTAssertEqual(stress.level(s), .elevated)
    }

    func testLogisticIsFiftyAtItsCentre() {
        XCTAssertEqual(stress.sigmoid(50), 50, accuracy: 1e-12)
        // Five points either side, slope 0.08 per point: 100/(1 + e^∓0.4) = 59.869 and 40.131.
        XCTAssertEqual(stress.sigmoid(55), 100 / (1 + exp(-0.4)), accuracy: 1e-9)
        XCTAssertEqual(stress.sigmoid(45), 100 / (1 + exp(0.4)), accuracy: 1e-9)
    }

    /// Away from the centre the slope shows: 100/(1 + e^∓0.8) = 68.997 at 60 and 31.003 at
    /// 40, symmetric about 50; at 0, 100/(1 + e^4) = 1.799.
    func testLogisticSlopeAwayFromTheCentre() {
        XCTAssertEqual(stress.sigmoid(60), 100 / (1 + exp(-0.8)), accuracy: 1e-9)
        XCTAssertEqual(stress.sigmoid(60), 68.997, accuracy: 0.001)
        XCTAssertEqual(stress.sigmoid(40), 31.003, accuracy: 0.001)
        XCTAssertEqual(stress.sigmoid(60) + stress.sigmoid(40), 100, accuracy: 1e-9)
        XCTAssertEqual(stress.sigmoid(0), 1.799, accuracy: 0.001)
    }

    func testStressLevels() {
        XCTAssertEqual([34.9, 35, 64.9, 65].map { stress.level($0) }, [.relaxed, .balanced, .balanced, .elevated])
    }

    func testThreeSignalWeights() {
        // RHR at baseline (40), HRV z 0 (40), CV 0.30 (100): 0.5·40 + 0.3·40 + 0.2·100 = 52.
        XCTAssertEqual(stress.score(StressSignals(rhrPercentAbove: 0, hrvZ: 0, sdnnCV: 0.3)) ?? .nan, stress.sigmoid(52), accuracy: 1e-12)
    }

    func testRHRAndHRVOnlyUseSixtyForty() {
        // RHR +5 % (60) and HRV z 0 (40): 0.6·60 + 0.4·40 = 52.
        XCTAssertEqual(stress.score(StressSignals(rhrPercentAbove: 5, hrvZ: 0)) ?? .nan, stress.sigmoid(52), accuracy: 1e-12)
    }

    func testCoefficientOfVariationStableAndUnstable() throws {
        func points(_ cv: Double) throws -> Double { try XCTUnwrap(stress.points(StressSignals(sdnnCV: cv)).stability?.points) }
        XCTAssertEqual(try points(0.1), 40); XCTAssertEqual(try points(0.35), 100)
        // The ramp between: 40 at CV 0.15, 100 at 0.30, so 40 + 60·(0.05/0.15) = 60 at 0.20
        // and 70 half-way.
        XCTAssertEqual(try points(0.15), 40, accuracy: 1e-9)
        XCTAssertEqual(try points(0.2), 60, accuracy: 1e-9)
        XCTAssertEqual(try points(0.225), 70, accuracy: 1e-9)
        XCTAssertEqual(try points(0.3), 100, accuracy: 1e-9)
    }

    // MARK: Trend

    /// 28 baseline days alternating 58/62 bpm RHR and 45/55 ms SDNN (median 60 and 50,
    /// MAD 2 and 5) before day 0.
    func baseline() -> [DailySnapshot] {
        (1...28).reversed().map { d in day(-d, rhr: d % 2 == 0 ? 58 : 62, hrv: d % 2 == 0 ? 45 : 55, rec: d % 2 == 0 ? 28 : 32) }
    }

    func testAnomalyWeightsRHRAndNegatedHRV() throws {
        // z RHR = (66 − 60)/(1.4826·2) = 2.0235; z HRV = (40 − 50)/(1.4826·5) = −1.3490;
        // anomaly = (0.25·2.0235 + 0.25·1.3490)/0.5 = 1.6862.
        let r = trend.assess(day(0, rhr: 66, hrv: 40), history: ArraySlice(baseline()))
        XCTAssertEqual(try XCTUnwrap(r.anomaly), (6 / (1.4826 * 2) + 10 / (1.4826 * 5)) / 2, accuracy: 1e-9)
        XCTAssertTrue(r.flags.contains("anomaly"))

        // The toolkit's departure: every higher-is-better input is negated, not HRV alone.
        // 1-minute recovery 24 bpm against median 30, MAD 2, and VO2 max 36 against median
        // 42, MAD 2: z = −6/(1.4826·2) = −2.0235 each; weights 0.20 and 0.20, negated:
        // anomaly = (0.2·2.0235 + 0.2·2.0235)/0.4 = +2.0235, worse than usual.
        let history = baseline().map { d -> DailySnapshot in
            var d = d; d.restingHRBpm = nil; d.hrvSDNNMs = nil; d.vo2Max = d.day % 2 == 0 ? 40 : 44; return d
        }
        var today = day(0, rec: 24); today.vo2Max = 36
        let declined = trend.assess(today, history: ArraySlice(history))
        XCTAssertEqual(try XCTUnwrap(declined.anomaly), 6 / (1.4826 * 2), accuracy: 1e-9)
        XCTAssertTrue(declined.flags.contains("anomaly"))
    }

    func testRegressionFiresOnRisingRHRWithTheProductsConstant() throws {
        // Run with the product's −0.3 (the toolkit reads the sign as +0.3): RHR rising 1 bpm/day.
        let product = HeartTrendEngine(constants: try TrendConstants(replacing: ["rhr_slope_threshold": -0.3]))
        let history = (1...6).reversed().map { day(-$0, rhr: 60 - Double($0)) }
        XCTAssertTrue(product.assess(day(0, rhr: 60), history: ArraySlice(history)).regression)
        XCTAssertTrue(trend.assess(day(0, rhr: 60), history: ArraySlice(history)).regression)
    }

    /// The threshold's sign matters: a 0.1 bpm/day rise and a flat RHR fire under the
    /// product's −0.3 but not under the toolkit's +0.3; a 0.5 bpm/day rise fires under
    /// both; a 0.5 bpm/day fall under neither.
    func testRegressionThresholdSignSeparatesGentleRises() throws {
        let product = HeartTrendEngine(constants: try TrendConstants(replacing: ["rhr_slope_threshold": -0.3]))
        func fires(_ engine: HeartTrendEngine, perDay: Double) -> Bool {
            let history = (1...6).reversed().map { day(-$0, rhr: 60 - perDay * Double($0)) }
            return engine.assess(day(0, rhr: 60), history: ArraySlice(history)).regression
        }
        XCTAssertEqual([0.1, 0, 0.5, -0.5].map { fires(product, perDay: $0) }, [true, true, true, false])
        XCTAssertEqual([0.1, 0, 0.5, -0.5].map { fires(trend, perDay: $0) }, [false, false, true, false])
    }

    func testRegressionFiresOnFallingHRV() {
        let history = (1...6).reversed().map { day(-$0, hrv: 50 + Double($0)) }
        XCTAssertTrue(trend.assess(day(0, hrv: 50), history: ArraySlice(history)).regression)
    }

    func testStressPatternNeedsAllThreeSignals() {
        // RHR z 2.02, HRV z −2.02, recovery z (24 − 30)/(1.4826·2) = −2.02: all three.
        XCTAssertTrue(trend.assess(day(0, rhr: 66, hrv: 35, rec: 24), history: ArraySlice(baseline())).stressPattern)
        // Recovery at baseline: two of three, no pattern.
        XCTAssertFalse(trend.assess(day(0, rhr: 66, hrv: 35, rec: 30), history: ArraySlice(baseline())).stressPattern)
    }

    func testWeekOverWeekAboveOnePointFiveIsSignificant() throws {
        // 28 baseline days (SD 2.037 of 58/62), then a week at 64: z = (64 − 60)/2.037 = 1.96.
        let week = (1...6).reversed().map { day(-$0, rhr: 64) }
        let history = baseline().map { var d = $0; d.day -= 6; return d } + week
        let r = trend.assess(day(0, rhr: 64), history: ArraySlice(history))
        XCTAssertEqual(try XCTUnwrap(r.weekRestingHRZ), 4 / Stats.sd(baseline().compactMap(\.restingHRBpm)), accuracy: 1e-9)
        XCTAssertTrue(r.flags.contains("rhr_week_up"))

        // The boundary: the specification's "> 1.5" is significant, 1.5 itself is not. 17
        // baseline days in the 28 before the week (8 at 58, 8 at 62, one at 60: mean 60, SD
        // √(16·4/16) = 2); a week at 63 gives z = 3/2 = 1.5 exactly, at 57 −1.5; one day
        // 0.07 bpm higher, z = 1.505.
        let base = (0..<17).map { i in day(-7 - 1 - i, rhr: i == 0 ? 60 : i % 2 == 0 ? 58 : 62) }.reversed()
        func weekAt(_ rhr: Double, today: Double) -> TrendResult {
            trend.assess(day(0, rhr: today), history: ArraySlice(Array(base) + (1...6).reversed().map { day(-$0, rhr: rhr) }))
        }
        let up = weekAt(63, today: 63), down = weekAt(57, today: 57)
        XCTAssertEqual(try XCTUnwrap(up.weekRestingHRZ), 1.5)
        XCTAssertEqual(try XCTUnwrap(down.weekRestingHRZ), -1.5)
        XCTAssertFalse(up.flags.contains("rhr_week_up"))
        XCTAssertFalse(down.flags.contains("rhr_week_down"))
        XCTAssertEqual(try XCTUnwrap(weekAt(63, today: 63.07).weekRestingHRZ), 0.07 / 7 / 2 + 1.5, accuracy: 1e-9)
        XCTAssertTrue(weekAt(63, today: 63.07).flags.contains("rhr_week_up"))
    }

    func testThreeConsecutiveElevatedDaysRaiseTheAlert() {
        let history = baseline().map { var d = $0; d.day -= 2; return d } + [day(-2, rhr: 70), day(-1, rhr: 70)]
        XCTAssertTrue(trend.assess(day(0, rhr: 70), history: ArraySlice(history)).elevationAlert)
    }

    func testAGapOverOneAndAHalfDaysBreaksTheStreak() {
        let history = baseline().map { var d = $0; d.day -= 4; return d } + [day(-4, rhr: 70), day(-3, rhr: 70)]
        XCTAssertFalse(trend.assess(day(0, rhr: 70), history: ArraySlice(history)).elevationAlert)
    }

    // MARK: Zones

    func testKarvonenZonesWithTanakaMaximum() {
        // Age 40: max 208 − 28 = 180; rest 60, reserve 120: bounds 120, 132, 144, 156, 168, 180.
        let zones = HeartRateZoneEngine().zones(age: 40, restingHRBpm: 60)
        XCTAssertEqual(zones.map(\.lowBpm), [120, 132, 144, 156, 168])
        XCTAssertEqual(zones.last?.highBpm, 180)
    }
}
