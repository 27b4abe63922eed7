import XCTest
@testable import ResonanceLab

final class CoherenceTests: XCTestCase {
    /// Coach scores of a heart-rate signal sampled at 4 Hz (`bpm` of seconds).
    private func coachScores(minutes: Int = 10, stepSeconds: Double = 5, _ bpm: (Double) -> Double) throws -> [Double] {
        let times = (0..<(minutes * 240)).map { Double($0) * 250 }
        var options = CoherenceOptions()
        options.stepSeconds = stepSeconds
        var w = CoherenceWindows(subject: "s", source: "hr", timeMs: times, bpm: times.map { bpm($0 / 1000) },
                                 options: options)
        return try w.rows().filter { $0.method == "coach" }.map(\.coherence)
    }

    func testCleanSinusoidAtTheBreathingFrequencyIsCoherent() throws {
        // HR oscillating at 6 breaths/min (0.1 Hz), the default breathing rate.
        let scores = try coachScores { 65 + 5 * sin(2 * Double.pi * 0.1 * $0) }
        XCTAssertGreaterThan(scores.count, 100)
        XCTAssertGreaterThanOrEqual(scores.min() ?? 0, 0.9)
    }

    func testWhiteNoiseIsNotCoherent() throws {
        // Flat spectrum: ±1 bin (2/64 Hz) of the 0.11 Hz band holds 0.03125/0.11 = 0.284 of its
        // power on average (the score of one window is Beta-distributed around it), so the
        // mean over 224 independent windows (4 h, 64 s apart) is within a few hundredths.
        var rng = SeededRandom(seed: 9)
        let noise = (0..<(240 * 240)).map { _ in rng.normal() }
        let scores = try coachScores(minutes: 240, stepSeconds: 64) { noise[Int(($0 * 4).rounded())] * 3 + 70 }
        XCTAssertEqual(scores.count, 224)
        XCTAssertLessThanOrEqual(Stats.mean(scores), 0.3)
        XCTAssertGreaterThanOrEqual(Stats.mean(scores), 0.24)
    }

    func testHeartMathRatioOfAPureTone() throws {
        // A pure tone: the 0.030 Hz peak window holds ≈ 0.9 of its tapered power (the rest
        // is the Kaiser window's leakage), so the ratio is ≈ 0.9/0.1; the peak sits at the tone.
        let times = (0..<2400).map { Double($0) * 250 }
        var w = CoherenceWindows(subject: "s", source: "hr", timeMs: times,
                                 bpm: times.map { 65 + 5 * sin(2 * Double.pi * 0.12 * $0 / 1000) },
                                 options: CoherenceOptions())
        let rows = try w.rows()
        let hm = try XCTUnwrap(rows.first { $0.method == "heartmath" })
        XCTAssertEqual(hm.peakHz, 0.12, accuracy: 4.0 / 1024)
        XCTAssertGreaterThan(hm.coherence, 7)
        let resonance = try XCTUnwrap(rows.last)
        XCTAssertEqual(resonance.method, "resonance")
        XCTAssertEqual(resonance.peakHz, 0.12, accuracy: 4.0 / 1024)
    }

    func testTooShortWindowsScoreZero() throws {
        // 30 samples < 32: the coach score is 0 and the HeartMath ratio is left empty.
        var w = CoherenceWindows(subject: "s", source: "hr", timeMs: (0..<30).map { Double($0) * 250 },
                                 bpm: (0..<30).map { 60 + Double($0 % 3) }, options: CoherenceOptions())
        let rows = try w.rows()
        XCTAssertEqual(rows.count, 2)
        XCTAssertEqual(rows[0].coherence, 0)
        XCTAssertTrue(rows[1].coherence.isNaN)
    }
}

final class CoherenceConstantsTests: XCTestCase {
    func testOptionsComeFromTheRegistryAndFollowAConstantsFile() throws {
        let defaults = CoherenceOptions()
        XCTAssertEqual([defaults.windowSeconds, defaults.stepSeconds, defaults.sampleHz, defaults.breathingHz],
                       [64, 5, 4, 0.1], "64 s windows every 5 s (toolkit), 4 Hz (product specification), 6 breaths/min (Lehrer & Gevirtz 2014)")
        XCTAssertEqual(defaults.minimumSamples, 32)
        let path = try writeFixture(#"{"engines":{"coherence":{"version":"1.1.0","constants":{"window_seconds":128,"heartmath_peak_width_hz":0.06}}}}"#,
                                    to: try makeTempDir() + "/c.json")
        let c = CoherenceConstants(registry: try ConstantsRegistry(contentsOf: path))
        XCTAssertEqual(CoherenceOptions(constants: c).windowSeconds, 128)
        // A flat spectrum 0–0.5 Hz in 0.001 Hz bins: a wider peak window takes twice the power.
        let flat = Spectrum(df: 0.001, psd: Array(repeating: 1, count: 501))
        let narrow = Coherence.heartMath(flat).ratio, wide = Coherence.heartMath(flat, constants: c).ratio
        // 0.03 / (0.3967 − 0.03) = 0.0818; 0.06 / (0.3967 − 0.06) = 0.1782.
        XCTAssertEqual(narrow, 0.03 / (0.4 - 0.0033 - 0.03), accuracy: 1e-9)
        XCTAssertEqual(wide, 0.06 / (0.4 - 0.0033 - 0.06), accuracy: 1e-9)
    }
}

final class CoherenceGapTests: XCTestCase {
    /// Two hours of heart rate a century apart: each run is resampled on its own, so the
    /// gap allocates nothing and gives no rows; both runs are scored.
    func testRunsFarApartAreScoredWithoutSpanningTheGap() throws {
        let century = 100 * 365.25 * 86_400_000.0
        let run = (0..<600).map { Double($0) * 1000 }
        let times = run + run.map { $0 + century }
        let bpm = times.indices.map { 60 + 5 * sin(2 * .pi * 0.1 * Double($0)) }
        var windows = CoherenceWindows(subject: "s", source: "hr", timeMs: times, bpm: bpm, options: CoherenceOptions())
        let rows = try windows.rows().filter { $0.method == "coach" }
        // 600 s runs, 64 s windows every 5 s: 108 windows inside each run (starts 0 … 535 s),
        // plus 12 straddling each edge of the gap (starts 540 … 595 s after the first run,
        // and 60 … 5 s before the second), which hold part of a run.
        XCTAssertEqual(rows.count, 240)
        let inside = rows.filter { $0.nSamples >= 253 }
        XCTAssertEqual(inside.count, 216)
        XCTAssertTrue(rows.allSatisfy { $0.nSamples < 257 }, "no window spans the gap")
        XCTAssertTrue(inside.allSatisfy { $0.coherence > 0.9 }, "0.1 Hz breathing at 6/min is coherent in both runs")
    }
}
