import XCTest
@testable import ResonanceLab

final class EMALearnerTests: XCTestCase {
    let s = SongEffectConstants.defaults

    func testAlphaScheduleAndConfidence() {
        // Calm of every play 1.0 (with biometrics): EMA from 0.5 with α 0.4 for plays 1–5:
        //   0.5 → 0.7 → 0.82 → 0.892 → 0.9352 → 0.96112, then α 0.2: → 0.968896.
        var st = EMAState(constants: s)
        let one = PlayScores(calm: 1, energy: 0, focus: 0.5, moodLift: 0.5)
        let expected = [0.7, 0.82, 0.892, 0.9352, 0.96112, 0.968896]
        for (n, want) in expected.enumerated() {
            EMALearner.update(&st, scores: one, hrDeltaBpm: -2, rmssdDeltaMs: nil, skipped: false, constants: s)
            XCTAssertEqual(st.scores.calm, want, accuracy: 1e-12, "after play \(n + 1)")
        }
        // energy: 0.5·(0.6)^5·0.8 = 0.031104; confidence min(1, 6/20) = 0.3.
        XCTAssertEqual(st.scores.energy, 0.031104, accuracy: 1e-12)
        XCTAssertEqual(st.confidence, 0.3, accuracy: 1e-12)
        // ΔHR EMA from 0 on −2 each: −2·(1 − 0.6^5·0.8) = −2·0.937792 = −1.875584.
        XCTAssertEqual(st.hrDelta, -1.875584, accuracy: 1e-12)
        XCTAssertEqual(st.hrPlays, 6); XCTAssertEqual(st.rmssdPlays, 0)
    }

    func testConfidenceCappedWithoutBiometrics() {
        var st = EMAState(constants: s)
        let x = PlayScores(calm: 0.5, energy: 0.5, focus: 0.5, moodLift: 0.5)
        // 16 plays with biometrics: confidence 16/20 = 0.8.
        for _ in 0..<16 { EMALearner.update(&st, scores: x, hrDeltaBpm: 1, rmssdDeltaMs: nil, skipped: false, constants: s) }
        XCTAssertEqual(st.confidence, 0.8, accuracy: 1e-12)
        // Play 17 without biometrics: min(17/20 = 0.85, 0.7) = 0.7.
        EMALearner.update(&st, scores: x, hrDeltaBpm: nil, rmssdDeltaMs: nil, skipped: true, constants: s)
        XCTAssertEqual(st.confidence, 0.7, accuracy: 1e-12)
        // Play 18 with biometrics again: 18/20 = 0.9.
        EMALearner.update(&st, scores: x, hrDeltaBpm: 1, rmssdDeltaMs: nil, skipped: false, constants: s)
        XCTAssertEqual(st.confidence, 0.9, accuracy: 1e-12)
        // Skip EMA: 0.5 → ×0.6 five times …; after 16 non-skips from 0.5: 0.5·0.6^5·0.8^11 = 0.003518…
        // then a skip (α 0.2): s + 0.2(1 − s), then a non-skip: ×0.8.
        let before = 0.5 * pow(0.6, 5) * pow(0.8, 11)
        XCTAssertEqual(st.skip, (before + 0.2 * (1 - before)) * 0.8, accuracy: 1e-12)
    }
}
