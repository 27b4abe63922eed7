import XCTest
@testable import ResonanceLab

/// The learner `dj replay`, `dj simulate` and the `ema` model share: the product's
/// biometrics flag and the any-context aggregate.
final class SongLearnerTests: XCTestCase {
    let k = ImpactConstants(registry: .defaults)
    let s = SongEffectConstants(registry: .defaults)

    func play(hr: Double?, hrv: Double? = nil) -> LearnedPlay {
        LearnedPlay(hrDeltaBpm: hr, hrvDeltaMs: hrv, hrvFromRR: false, listenFraction: 1, skipped: false, impact: k)
    }

    func testAHeartRateChangeOfExactlyZeroIsNoBiometricsAndCapsConfidence() {
        XCTAssertFalse(play(hr: 0).biometrics, "a ΔHR of exactly 0 counts as no measurement")
        XCTAssertFalse(play(hr: 0, hrv: 0).biometrics)
        XCTAssertTrue(play(hr: -1).biometrics)
        XCTAssertTrue(play(hr: nil, hrv: 3).biometrics, "an SDNN change is a measurement too")
        var learner = SongLearner(constants: s, contexts: 6)
        for _ in 0..<15 { learner.learn(play(hr: -2), song: 0, context: 3) }
        XCTAssertEqual(learner.state(song: 0, context: 3)?.confidence ?? .nan, 0.75, accuracy: 1e-12, "15/20 plays")
        learner.learn(play(hr: 0), song: 0, context: 3)
        XCTAssertEqual(learner.state(song: 0, context: 3)?.confidence ?? .nan, 0.7, accuracy: 1e-12, "16/20 capped at 0.7")
    }

    func testAnyContextIsTheConfidenceWeightedAggregate() {
        var learner = SongLearner(constants: s, contexts: 6)
        learner.learn(play(hr: -4), song: 2, context: 0)
        learner.learn(play(hr: -2), song: 2, context: 0)
        learner.learn(play(hr: 5), song: 2, context: 4)
        // Context 0: 0 → −1.6 → −1.76, confidence 2/20; context 4: 2, confidence 1/20.
        XCTAssertEqual(learner.state(song: 2, context: 0)?.hrDelta ?? .nan, -1.76, accuracy: 1e-12)
        let any = learner.anyContext(song: 2)
        XCTAssertEqual(any?.hrDelta ?? .nan, (0.1 * -1.76 + 0.05 * 2) / 0.15, accuracy: 1e-12)
        XCTAssertEqual(any?.plays, 3)
        XCTAssertNil(learner.state(song: 2, context: 1))
        XCTAssertNil(learner.anyContext(song: 1), "song 1 never learned")
        XCTAssertNil(learner.anyContext(song: 9), "beyond every learned song")
    }
}
