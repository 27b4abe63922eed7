import Foundation
import XCTest
@testable import ResonanceLab

final class StressEngineTests: XCTestCase {
    let engine = StressEngine()

    func testSigmoidKnownAnswers() {
        // 100 / (1 + exp(0)) = 50.
        XCTAssertEqual(engine.sigmoid(50), 50, accuracy: 1e-12)
        // A person at baseline: 100 / (1 + e^0.8) = 100 / 3.2255409 = 31.00255 → relaxed.
        XCTAssertEqual(engine.sigmoid(40), 31.00255, accuracy: 1e-5)
        XCTAssertEqual(engine.level(34.99), .relaxed)
        XCTAssertEqual(engine.level(35), .balanced)
        XCTAssertEqual(engine.level(65), .elevated)
    }

    func testRestingHRTenPercentAboveBaselineIsRaw80() {
        // 40 + 4·10 % = 80.
        XCTAssertEqual(engine.restingHRScore(restingHRBpm: 66, baselineBpm: 60), 80, accuracy: 1e-12)
        // Through the engine: baseline mean 60 over three earlier days, RHR the only signal
        // (weight re-normalised to 1) → raw 80, 100 / (1 + e^(−0.08·30)) = 100 / 1.0907180 = 91.6827.
        let history = (0..<3).map { DailySnapshot(subject: "p", day: $0, restingHRBpm: [59, 60, 61][$0]) }
        let r = engine.assess(DailySnapshot(subject: "p", day: 3, restingHRBpm: 66), history: history[...])
        XCTAssertEqual(r?.raw ?? .nan, 80, accuracy: 1e-12)
        XCTAssertEqual(r?.score ?? .nan, 91.6827, accuracy: 1e-4)
        XCTAssertEqual(r?.level, .elevated)
        XCTAssertEqual(r?.drivers.map(\.name), ["resting_hr"])
        XCTAssertEqual(r?.drivers.first?.detail, "66.0 bpm, +10.0 % vs baseline 60.0 bpm")
    }

    func testRestingHRAndHRVOnlyUseTheSpecificationsSixtyForty() {
        // Baseline days 10 days back (outside the 7-day CV window, so stability is absent):
        // ln SDNN = 3.9, 4.0, 4.1 → mean 4.0, SD 0.1. Today ln SDNN 3.8 → z = −2 → HRV score
        // 40 + 20·2 = 80. RHR 63 vs 60 → +5 % → 60. raw = 0.6·60 + 0.4·80 = 68
        // (proportional re-normalisation would give 0.625·60 + 0.375·80 = 67.5).
        let history = (0..<3).map {
            DailySnapshot(subject: "p", day: $0, restingHRBpm: 60, hrvSDNNMs: exp([3.9, 4.0, 4.1][$0]))
        }
        let r = engine.assess(DailySnapshot(subject: "p", day: 10, restingHRBpm: 63, hrvSDNNMs: exp(3.8)), history: history[...])
        XCTAssertEqual(r?.raw ?? .nan, 68, accuracy: 1e-9)
        XCTAssertEqual(r?.drivers.map(\.name), ["hrv", "resting_hr"])
        // Drivers: 0.4·(80 − 50) = +12, 0.6·(60 − 50) = +6.
        XCTAssertEqual(r?.drivers.map(\.points) ?? [], [12, 6], accuracy: 1e-9)
    }

    func testHRVStabilityFromSevenDayCoefficientOfVariation() {
        // SDNN 40, 50, 60 over the last three days: mean 50, SD 10 → CV 0.20;
        // (0.20 − 0.15)/(0.30 − 0.15) = 1/3 of the way from 40 to 100 → 60 points.
        // No RHR or ln-SDNN baseline (only 2 earlier days) → stability is the only
        // signal: raw 60.
        let history = [DailySnapshot(subject: "p", day: 0, hrvSDNNMs: 40), DailySnapshot(subject: "p", day: 1, hrvSDNNMs: 50)]
        let r = engine.assess(DailySnapshot(subject: "p", day: 2, hrvSDNNMs: 60), history: history[...])
        XCTAssertEqual(r?.raw ?? .nan, 60, accuracy: 1e-9)
        XCTAssertEqual(r?.drivers.first?.name, "hrv_stability")
    }

    func testSignalPointsAreClampedToTheScale() {
        // RHR 75 vs baseline 60 = +25 % → 40 + 100 = 140 points, clamped to 100; the only
        // signal → raw 100 → 100 / (1 + e^−4) = 98.2014.
        let history = (0..<3).map { DailySnapshot(subject: "p", day: $0, restingHRBpm: 60) }
        let r = engine.assess(DailySnapshot(subject: "p", day: 3, restingHRBpm: 75), history: history[...])
        XCTAssertEqual(engine.restingHRScore(restingHRBpm: 75, baselineBpm: 60), 140, accuracy: 1e-12)
        XCTAssertEqual(r?.raw, 100)
        XCTAssertEqual(r?.score ?? .nan, 98.2014, accuracy: 1e-4)
    }

    func testNoBaselineNoScore() {
        XCTAssertNil(engine.assess(DailySnapshot(subject: "p", day: 0, restingHRBpm: 60, hrvSDNNMs: 50), history: []))
    }
}

/// Element-wise accuracy for arrays of doubles.
func XCTAssertEqual(_ a: [Double], _ b: [Double], accuracy: Double, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(a.count, b.count, "lengths differ: \(a) vs \(b)", file: file, line: line)
    for (x, y) in zip(a, b) { XCTAssertEqual(x, y, accuracy: accuracy, "\(a) vs \(b)", file: file, line: line) }
}
