import XCTest
@testable import ResonanceLab

/// The breathing coach's RMSSD and coherence expectations on the toolkit's HRV engine and
/// on the coach's own score, `ProductCoherence` (docs/engines.md, Conformance): the last
/// 120 heart-rate samples at 4 Hz, band bins 1–4 (Δf = 1/30 Hz), target bins round(f/Δf) ± 1.
/// Where an expectation contradicts the specification's own formula, the formula's value
/// is asserted.
final class BreathingCoachConformanceTests: XCTestCase {
    let coach = ProductCoherence()

    /// 30 s of heart rate at 4 Hz, `bpm(t)` at t seconds.
    func samples(_ bpm: (Double) -> Double) -> [Double] {
        (0..<120).map { bpm(Double($0) / 4) }
    }

    func testRMSSDOfKnownIntervals() {
        // 800, 810, 795, 820, 805 ms: differences 10, −15, 25, −15 → √293.75 = 17.14.
        XCTAssertEqual(HRVTime.rmssd([800, 810, 795, 820, 805]), 17.14, accuracy: 0.01)
    }

    func testRMSSDNeedsTwoIntervals() {
        XCTAssertTrue(HRVTime.rmssd([800]).isNaN)
    }

    func testConstantIntervalsGiveZeroRMSSD() {
        XCTAssertEqual(HRVTime.rmssd([800, 800, 800, 800]), 0, accuracy: 0.001)
    }

    func testSinusoidAtTheBreathingFrequencyIsHighlyCoherent() {
        // Expectation: a sinusoid at 5.5/min scores above 0.7 (its power spreads from bin
        // 2.75 into the target bins 2–4 and a little into bin 1).
        let f = 5.5 / 60
        XCTAssertGreaterThan(coach.score(samples { 70 + 5 * sin(2 * Double.pi * f * $0) }[...], breathingHz: f), 0.7)
        // At 6/min the sinusoid is bin 3 exactly (three cycles in 30 s): all its power is
        // in the target, score 1. At 2/min it is bin 1, in the band but outside the
        // target bins 2–4: score 0.
        XCTAssertEqual(coach.score(samples { 70 + 5 * sin(2 * Double.pi * 0.1 * $0) }[...], breathingHz: 0.1), 1, accuracy: 1e-12)
        XCTAssertEqual(coach.score(samples { 70 + 5 * sin(2 * Double.pi * $0 / 30) }[...], breathingHz: 0.1), 0, accuracy: 1e-12)
    }

    /// Contradiction: the expectation has random heart rate (120 samples uniform in
    /// 60–80 bpm) score below 0.3. The formula's target bins are 3 of the band's 4, so on
    /// noise, whose bins share the power alike, the score is the share of 3 bins in 4: a
    /// mean of 3/4, and below 0.3 with probability 0.3³ = 2.7 % (for Gaussian noise the
    /// share is Beta(3, 1) exactly). Over 4000 seeded windows: mean 0.75 ± 0.015, share
    /// below 0.3 0.027 ± 0.008 (about 5 and 3 standard errors).
    func testRandomHeartRateScoresThreeQuartersByTheFormulaNotBelowZeroPointThree() {
        var rng = SeededRandom(seed: 5)
        let scores = (0..<4000).map { _ in coach.score(samples { _ in 60 + 20 * rng.uniform() }[...], breathingHz: 5.5 / 60) }
        XCTAssertEqual(Stats.mean(scores), 0.75, accuracy: 0.015)
        XCTAssertEqual(Double(scores.filter { $0 < 0.3 }.count) / 4000, 0.027, accuracy: 0.008)
    }

    func testScoreStaysBetweenZeroAndOneForAFlatSignal() {
        // A flat heart rate has no power once mean-centred: the score is 0.
        XCTAssertEqual(coach.score(samples { _ in 70 }[...], breathingHz: 5.5 / 60), 0)
    }

    func testTooFewSamplesScoreZero() {
        XCTAssertEqual(coach.score([70, 72], breathingHz: 5.5 / 60), 0)
        // 31 samples, one below the minimum of 32, of a sinusoid that fills the target: 0.
        XCTAssertEqual(coach.score(samples { 70 + 5 * sin(2 * Double.pi * 0.1 * $0) }.prefix(31), breathingHz: 0.1), 0)
    }
}
