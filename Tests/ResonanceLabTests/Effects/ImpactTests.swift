import XCTest
@testable import ResonanceLab

/// Every branch of the product's impact rule, worked by hand (docs/engines/toolkit.md, Impact).
final class ImpactTests: XCTestCase {
    let k = ImpactConstants.defaults

    func assertScores(_ s: PlayScores, _ calm: Double, _ energy: Double, _ focus: Double, _ mood: Double,
                      file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(s.calm, calm, accuracy: 1e-12, "calm", file: file, line: line)
        XCTAssertEqual(s.energy, energy, accuracy: 1e-12, "energy", file: file, line: line)
        XCTAssertEqual(s.focus, focus, accuracy: 1e-12, "focus", file: file, line: line)
        XCTAssertEqual(s.moodLift, mood, accuracy: 1e-12, "moodLift", file: file, line: line)
    }

    func testHRAndHRV() {
        // ΔHR −5 → hr −0.5; ΔHRV +6 → hrv 0.6; listened 100 % → bonus (1 − 0.5)·0.2 = 0.1.
        // calm = 0.5 + 0.5·0.6 − 0.3·(−0.5) + 0.1 = 0.5 + 0.3 + 0.15 + 0.1 = 1.05 → 1
        // energy = 0.5 + 0.3·(−0.5) + 0.1 = 0.45; focus = 0.6
        // mood from the unclamped scores = 0.4·1.05 + 0.3·0.45 + 0.3·0.6 = 0.42 + 0.135 + 0.18 = 0.735
        // (clamping calm first would give 0.715).
        assertScores(Impact.of(hrDeltaBpm: -5, hrvDeltaMs: 6, listenFraction: 1, skipped: false, constants: k), 1, 0.45, 0.6, 0.735)
    }

    func testHRVOnly() {
        // hrv = −0.4, listened 0.5 → bonus 0. calm = 0.5 + 0.8·(−0.4) = 0.18; energy 0.5; focus 0.5
        // mood = 0.072 + 0.15 + 0.15 = 0.372
        assertScores(Impact.of(hrDeltaBpm: nil, hrvDeltaMs: -4, listenFraction: 0.5, skipped: false, constants: k), 0.18, 0.5, 0.5, 0.372)
    }

    func testHROnlyWithLateSkip() {
        // hr = +0.3; listened 0.4 (≥ 0.15) skipped → −0.15; bonus (0.4 − 0.5)·0.2 = −0.02.
        // calm = 0.5 − 0.8·0.3 − 0.02 − 0.15 = 0.5 − 0.24 − 0.17 = 0.09
        // energy = 0.5 + 0.6·0.3 − 0.17 = 0.51; focus = 0.48
        // mood = 0.4·0.09 + 0.3·0.51 + 0.3·0.48 = 0.036 + 0.153 + 0.144 = 0.333
        assertScores(Impact.of(hrDeltaBpm: 3, hrvDeltaMs: nil, listenFraction: 0.4, skipped: true, constants: k), 0.09, 0.51, 0.48, 0.333)
    }

    func testNeitherWithEarlySkip() {
        // listened 0.1 (< 0.15) skipped → −0.3; bonus (0.1 − 0.5)·0.2 = −0.08.
        // calm = energy = 0.5 − 0.08 − 0.3 = 0.12; focus = 0.42
        // mood = 0.048 + 0.036 + 0.126 = 0.21
        assertScores(Impact.of(hrDeltaBpm: nil, hrvDeltaMs: nil, listenFraction: 0.1, skipped: true, constants: k), 0.12, 0.12, 0.42, 0.21)
    }

    func testClampedAtZero() {
        // ΔHR +20 → hr 2; ΔHRV −10 → hrv −1; listened 0 skipped early.
        // calm = 0.5 − 0.5 − 0.6 − 0.1 − 0.3 = −1.0 → 0; energy = 0.5 + 0.3·2 − 0.4 = 0.7; focus 0.4
        // mood from the unclamped calm = −0.4 + 0.21 + 0.12 = −0.07 → 0 (clamp-first gave 0.33).
        assertScores(Impact.of(hrDeltaBpm: 20, hrvDeltaMs: -10, listenFraction: 0, skipped: true, constants: k), 0, 0.7, 0.4, 0)
    }

    func testMoodLiftCombinesUnclampedScoresThenClamps() {
        // The product's known answer: 0.735, where clamping calm to 1 first gives 0.715.
        let s = Impact.of(hrDeltaBpm: -5, hrvDeltaMs: 6, listenFraction: 1, skipped: false, constants: k)
        XCTAssertEqual(s.moodLift, 0.735, accuracy: 1e-12)
        XCTAssertEqual(s.calm, 1)
    }

    func testZeroHRChangeIsNoSignalUnderTheProductsRule() throws {
        // ΔHR exactly 0.0 with ΔHRV +6: the product reads "no HR", so the HRV-only branch:
        // calm = 0.5 + 0.8·0.6 + 0.1 = 1.08 → 1; energy = 0.5 + 0.1 = 0.6; focus 0.6;
        // mood = 0.4·1.08 + 0.3·0.6 + 0.3·0.6 = 0.432 + 0.36 = 0.792.
        assertScores(Impact.of(hrDeltaBpm: 0.0, hrvDeltaMs: 6, listenFraction: 1, skipped: false, constants: k), 1, 0.6, 0.6, 0.792)
        // Variant zero_is_measured: both signals, calm = 0.5 + 0.3 + 0 + 0.1 = 0.9; energy 0.6;
        // mood = 0.36 + 0.18 + 0.18 = 0.72.
        let measured = try ImpactConstants(replacing: ["zero_delta_is_missing": 0])
        assertScores(Impact.of(hrDeltaBpm: 0.0, hrvDeltaMs: 6, listenFraction: 1, skipped: false, constants: measured), 0.9, 0.6, 0.6, 0.72)
        // Both changes 0: no biometric data under the product's rule (confidence capped), a
        // measurement under the variant.
        XCTAssertFalse(Impact.hasBiometrics(hrDeltaBpm: 0, hrvDeltaMs: 0, constants: k))
        XCTAssertTrue(Impact.hasBiometrics(hrDeltaBpm: 0, hrvDeltaMs: 0, constants: measured))
        XCTAssertTrue(Impact.hasBiometrics(hrDeltaBpm: 0, hrvDeltaMs: -0.5, constants: k))
    }
}
