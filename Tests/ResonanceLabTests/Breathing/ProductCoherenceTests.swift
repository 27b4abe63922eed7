import Foundation
import XCTest
@testable import ResonanceLab

/// The product's coherence against hand-worked DFTs. With n = 120 samples at 4 Hz the
/// resolution is 4/120 = 1/30 Hz; the band bins are max(1, Int(0.04·30)) = 1 to
/// min(60, Int(0.15·30)) = Int(4.5) = 4; at 5.5/min the target bin is
/// round(5.5/60·30) = round(2.75) = 3, so the target bins are 2…4.
final class ProductCoherenceTests: XCTestCase {
    let product = ProductCoherence()

    /// Σ_k a_k·cos(2πk·i/n + φ_k) over bins k: bin k's power |X_k|²/n² is (a_k/2)².
    func signal(_ bins: [(k: Int, amplitude: Double)], n: Int = 120, phase: Double = 0) -> [Double] {
        (0..<n).map { i in 70 + bins.reduce(0) { $0 + $1.amplitude * cos(2 * .pi * Double($1.k * i) / Double(n) + phase) } }
    }

    func testBinsAsTheProductFloorsThem() throws {
        let at55 = try XCTUnwrap(product.bins(count: 120, breathingHz: 5.5 / 60))
        XCTAssertEqual(at55.band, 1...4)
        XCTAssertEqual(at55.target, 2...4)
        // 4.5/min: 0.075·30 = 2.25 → bin 2; 7/min: 3.5 rounds away from zero → bin 4.
        XCTAssertEqual(product.bins(count: 120, breathingHz: 4.5 / 60)?.target, 1...3)
        XCTAssertEqual(product.bins(count: 120, breathingHz: 7.0 / 60)?.target, 3...4)
        // 54 samples: Δf = 4/54 Hz, band Int(0.54)→1 … Int(2.025) = 2, target round(1.2375) = 1: the whole band.
        XCTAssertEqual(product.bins(count: 54, breathingHz: 5.5 / 60)?.band, 1...2)
        XCTAssertEqual(product.bins(count: 54, breathingHz: 5.5 / 60)?.target, 1...2)
        // 40 samples: Δf = 0.1 Hz, band 1…Int(1.5) = 1, no band above its lower bin.
        XCTAssertNil(product.bins(count: 40, breathingHz: 5.5 / 60))
        // 12/min = 0.2 Hz → bin 6: the target 5…7 lies wholly above the band (documented: 0).
        XCTAssertNil(product.bins(count: 120, breathingHz: 12.0 / 60))
    }

    func testFlatSpectrumScoresThreeQuartersAt55() {
        let flat = signal([(1, 2), (2, 2), (3, 2), (4, 2)])
        XCTAssertEqual(product.score(flat[...], breathingHz: 5.5 / 60), 0.75, accuracy: 1e-12)
        // Band edges: at 4.5/min the target 1…3 also holds 3 of 4 bins; at 7/min 3…4 holds 2.
        XCTAssertEqual(product.score(flat[...], breathingHz: 4.5 / 60), 0.75, accuracy: 1e-12)
        XCTAssertEqual(product.score(flat[...], breathingHz: 7.0 / 60), 0.5, accuracy: 1e-12)
        XCTAssertEqual(product.score(flat[...], breathingHz: 12.0 / 60), 0)
    }

    func testPureSinusoidAtTheTargetBinScoresOne() {
        // 6/min = 0.1 Hz = bin 3 exactly; any amplitude.
        for amplitude in [0.1, 5.0, 40.0] {
            XCTAssertEqual(product.score(signal([(3, amplitude)])[...], breathingHz: 6.0 / 60), 1, accuracy: 1e-12)
        }
        // Power only in bin 1 (2/min), outside the target 2…4 at 5.5/min: 0.
        XCTAssertEqual(product.score(signal([(1, 3)])[...], breathingHz: 5.5 / 60), 0, accuracy: 1e-12)
        // Bins 1 and 4 with powers 1 and 4 (amplitudes 2 and 4): target 2…4 holds 4 of 5.
        XCTAssertEqual(product.score(signal([(1, 2), (4, 4)])[...], breathingHz: 5.5 / 60), 0.8, accuracy: 1e-12)
    }

    /// A sinusoid between bins leaks: at 7/min (bin 3.5) a sine from phase 0 scores 0.8805
    /// (leakage into bins 1–2, worked by a direct DFT); the score never sees the amplitude.
    func testSinusoidBetweenBinsLeaks() {
        let t = (0..<120).map { Double($0) / 4 }
        for amplitude in [1.0, 10.0] {
            let x = t.map { 70 + amplitude * sin(2 * .pi * 7.0 / 60 * $0) }
            XCTAssertEqual(product.score(x[...], breathingHz: 7.0 / 60), 0.8805, accuracy: 1e-4)
            let y = t.map { 70 + amplitude * sin(2 * .pi * 5.0 / 60 * $0) }
            XCTAssertEqual(product.score(y[...], breathingHz: 5.0 / 60), 0.9039, accuracy: 1e-4)
        }
    }

    func testShortOrConstantWindowsScoreZeroAndOnlyTheLast120SamplesCount() {
        XCTAssertEqual(product.score([70, 72][...], breathingHz: 5.5 / 60), 0)
        XCTAssertEqual(product.score(signal([(3, 2)], n: 31)[...], breathingHz: 5.5 / 60), 0)
        XCTAssertEqual(product.score([Double](repeating: 70, count: 120)[...], breathingHz: 5.5 / 60), 0)
        // 120 samples of pure bin 1 after 200 of anything: only the last 120 are scored.
        let tail = signal([(1, 3)])
        let x = (0..<200).map { Double($0 % 7) } + tail
        XCTAssertEqual(product.score(x[...], breathingHz: 5.5 / 60), 0, accuracy: 1e-12)
    }

    /// White noise: the four band bins' powers are i.i.d. exponential, so the score
    /// 1 − E₁/ΣE is 1 − Beta(1, 3): mean 3/4, and P(score < 0.3) = 0.3³ = 0.027 — the
    /// product's own expectation that random heart rate scores below 0.3 holds 2.7 % of the time.
    func testWhiteNoiseFloor() {
        var random = SeededRandom(seed: 7)
        let scores = (0..<4000).map { _ -> Double in
            let x = (0..<120).map { _ in 70 + random.normal() }
            return product.score(x[...], breathingHz: 5.5 / 60)
        }
        XCTAssertEqual(Stats.mean(scores), 0.75, accuracy: 0.01)
        XCTAssertEqual(Double(scores.filter { $0 < 0.3 }.count) / 4000, 0.027, accuracy: 0.008)
    }

    /// Today's windowed coach score on the same white noise sits far lower: ±1 native bin
    /// of a 64 s window over 0.11 Hz, the width ratio 2·(1/64)/0.11 ≈ 0.28 (0.30 measured here,
    /// the taper's leakage adding a little).
    func testWindowedFloorOnWhiteNoise() throws {
        var random = SeededRandom(seed: 7)
        let n = 4 * 1200
        let t = (0..<n).map { Double($0) * 250 }, hr = (0..<n).map { _ in 70 + random.normal() }
        var options = CoherenceOptions()
        options.breathingRate = 5.5
        var windows = CoherenceWindows(subject: "s", source: "hr", timeMs: t, bpm: hr, options: options)
        let scores = try windows.rows().filter { $0.method == "coach" }.map(\.coherence)
        XCTAssertGreaterThan(scores.count, 200)
        XCTAssertEqual(Stats.mean(scores), 0.28, accuracy: 0.04)
    }

    /// The watch's sampling repeats its latest reading every 0.25 s: beats at 0, 900 and
    /// 1700 ms give ticks 0…1500 ms holding the first beat's HR until 1000 ms.
    func testRepeatedReadingSampling() {
        XCTAssertEqual(HRSampling.repeatLatest.grid(timeMs: [0, 900, 1700], bpm: [60, 70, 80], hz: 4),
                       [60, 60, 60, 60, 70, 70, 70])
        XCTAssertEqual(HRSampling.repeatLatest.grid(timeMs: [], bpm: [], hz: 4), [])
        // A spline through the same beats passes through each at its own time.
        XCTAssertEqual(HRSampling.spline.grid(timeMs: [0, 1000, 2000], bpm: [60, 70, 80], hz: 4).first, 60)
    }

    /// At 5.5/min every window of 54–106 samples (13.5–26.5 s into a session) has its
    /// target bins equal to its band — Int(0.15·n/4) < 4 until n = 107 — so any signal
    /// scores exactly 1; from 107 samples on the band has bin 4, outside the target 1–3.
    func testEveryWindowOf54To106SamplesScoresOne() throws {
        var random = SeededRandom(seed: 3)
        let noise = (0..<120).map { _ in 70 + 3 * random.normal() }
        for n in [54, 80, 100, 106] {
            XCTAssertEqual(product.score(noise.prefix(n), breathingHz: 5.5 / 60), 1, "\(n) samples")
        }
        XCTAssertEqual(product.bins(count: 107, breathingHz: 5.5 / 60)?.band, 1...4)
        XCTAssertEqual(product.bins(count: 107, breathingHz: 5.5 / 60)?.target, 1...3)
        XCTAssertLessThan(product.score(noise.prefix(107), breathingHz: 5.5 / 60), 1)
    }
}
