import XCTest
@testable import ResonanceLab

/// The breathing coach's RMSSD and coherence expectations on the toolkit's HRV and
/// coherence engines (docs/engines.md, Conformance). The coach scores one short buffer;
/// the toolkit scores 64 s windows every 5 s, so each case runs on ten minutes of the
/// signal the expectation describes.
final class BreathingCoachConformanceTests: XCTestCase {
    func coachScores(breathsPerMinute: Double = 5.5, seconds: Int = 600, stepSeconds: Double = 5,
                     _ bpm: (Double) -> Double) throws -> [Double] {
        let times = (0..<(seconds * 4)).map { Double($0) * 250 }
        var options = CoherenceOptions()
        options.breathingRate = breathsPerMinute
        options.stepSeconds = stepSeconds
        var w = CoherenceWindows(subject: "s", source: "hr", timeMs: times, bpm: times.map { bpm($0 / 1000) }, options: options)
        return try w.rows().filter { $0.method == "coach" }.map(\.coherence)
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

    func testSinusoidAtTheBreathingFrequencyIsHighlyCoherent() throws {
        let f = 5.5 / 60
        let scores = try coachScores { 70 + 5 * sin(2 * Double.pi * f * $0) }
        XCTAssertGreaterThan(scores.min() ?? 0, 0.7)
    }

    func testRandomHeartRateIsNotCoherent() throws {
        // Four hours of independent 64 s windows, so the mean is that of a flat spectrum (≈ 0.28).
        var rng = SeededRandom(seed: 5)
        let noise = (0..<(4 * 14_400)).map { _ in 60 + 20 * rng.uniform() }
        let scores = try coachScores(seconds: 14_400, stepSeconds: 64) { noise[min(noise.count - 1, Int(($0 * 4).rounded()))] }
        XCTAssertLessThan(Stats.mean(scores), 0.3)
    }

    func testScoreStaysBetweenZeroAndOneForAFlatSignal() throws {
        for s in try coachScores({ _ in 70 }) { XCTAssertTrue((0...1).contains(s), "\(s)") }
    }

    func testTooFewSamplesScoreZero() throws {
        var w = CoherenceWindows(subject: "s", source: "hr", timeMs: [0, 250], bpm: [70, 72], options: CoherenceOptions())
        XCTAssertEqual(try w.rows().first { $0.method == "coach" }?.coherence, 0)
    }
}
