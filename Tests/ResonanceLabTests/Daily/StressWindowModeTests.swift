import XCTest
@testable import ResonanceLab

final class StressWindowModeTests: XCTestCase {
    func testWindowAgainstReferenceWorkedByHand() throws {
        let engine = StressEngine()
        let reference = [58.0, 60, 62, 60, 60].map { WindowSignals(hrBpm: $0, sdnnMs: nil) }
        // Reference mean 60 bpm; 66 bpm is 10 % above: RHR points 40 + 4·10 = 80, the only
        // signal, so raw = 80 and the score is 100 / (1 + e^(−0.08·30)) = 91.683.
        let window = WindowSignals(hrBpm: 66, sdnnMs: nil)
        let result = try XCTUnwrap(StressWindowMode.assess(engine, window: window, reference: reference))
        XCTAssertEqual(result.raw, 80, accuracy: 1e-12)
        XCTAssertEqual(result.score, 100 / (1 + exp(-0.08 * 30)), accuracy: 1e-12)
        XCTAssertEqual(result.score, 91.683, accuracy: 1e-3)
        XCTAssertEqual(result.level, .elevated)
        let signals = StressWindowMode.signals(engine, window: window, reference: reference)
        XCTAssertEqual(signals.rhrPercentAbove ?? .nan, 10, accuracy: 1e-12)
        XCTAssertNil(signals.hrvZ)
        // Fewer reference windows than min_baseline_days (3): no signal, no score.
        XCTAssertNil(StressWindowMode.assess(engine, window: window, reference: Array(reference.prefix(2))))
    }

    func testScoreOfSignalsEqualsAssess() throws {
        // With HRV in every window all three signals are present; the flat-array score
        // used by the tuner equals the full assessment's.
        let engine = StressEngine()
        var rng = SeededRandom(seed: 3)
        for _ in 0..<50 {
            let reference = (0..<8).map { _ in WindowSignals(hrBpm: rng.normal(mean: 65, sd: 3), sdnnMs: rng.uniform(30, 80)) }
            let window = WindowSignals(hrBpm: rng.normal(mean: 70, sd: 5), sdnnMs: rng.uniform(20, 90))
            let full = try XCTUnwrap(StressWindowMode.assess(engine, window: window, reference: reference))
            XCTAssertEqual(full.drivers.count, 3)
            let fast = engine.score(StressWindowMode.signals(engine, window: window, reference: reference))
            XCTAssertEqual(fast ?? .nan, full.score, accuracy: 1e-9)
        }
    }
}
