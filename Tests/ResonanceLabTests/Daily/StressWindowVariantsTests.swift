import XCTest
@testable import ResonanceLab

/// Worked answers of the stress engine's rolling window methods (`window_method` 1–4).
final class StressWindowVariantsTests: XCTestCase {
    let engine = StressEngine()
    let c = StressConstants.defaults

    func testMidRankPercentile() {
        // Below 3: 1 and 2; equal: one → 100 · (2 + ½) / 4.
        XCTAssertEqual(StressEngine.percentile(3, among: [1, 2, 3, 4]), 62.5, accuracy: 1e-12)
        XCTAssertEqual(StressEngine.percentile(0, among: [1, 2]), 0, accuracy: 1e-12)
        XCTAssertEqual(StressEngine.percentile(9, among: [1, 2]), 100, accuracy: 1e-12)
    }

    /// Consecutive beats from t0, each detected when its R-R ends.
    func beats(_ rr: [Double], from t0: Int64 = 0) -> [StressBeat] {
        var t = Double(t0), out: [StressBeat] = []
        for r in rr {
            t += r
            out.append(StressBeat(tMs: Int64(t.rounded()), rrMs: r))
        }
        return out
    }

    func testBeatCoverageAndRMSSDOfConsecutiveBeatsOnly() throws {
        // 40 beats alternating 1000 / 1100 ms: every successive difference is 100 ms.
        let alternating = beats((0..<40).map { $0 % 2 == 0 ? 1000 : 1100 })
        let all = StressWindowMeasures.beats(alternating[...], startMs: 0, endMs: 60_000, constants: c)
        // Beats detected before 60 s: 1000 + 1100 + … ; Σ R-R of those / 60 s.
        let inside = alternating.filter { $0.tMs < 60_000 }
        XCTAssertEqual(all.coverage, inside.reduce(0) { $0 + $1.rrMs } / 60_000, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(all.rmssdMs), 100, accuracy: 1e-9)
        // Only every third beat kept: no two kept beats are consecutive (each time difference
        // spans three R-R), so no pair counts and there is no RMSSD.
        let sparse = alternating.enumerated().filter { $0.offset % 3 == 2 }.map(\.element)
        XCTAssertNil(StressWindowMeasures.beats(sparse[...], startMs: 0, endMs: 60_000, constants: c).rmssdMs)
        XCTAssertLessThan(StressWindowMeasures.beats(sparse[...], startMs: 0, endMs: 60_000, constants: c).coverage, 0.4)
    }

    func testRespirationRateIsTheRSAPeak() throws {
        // R-R modulated at 0.25 Hz (15 breaths/min) around 900 ms.
        var rr: [Double] = [], t = 0.0
        while t < 60_000 {
            let r = 900 + 40 * sin(2 * Double.pi * 0.25 * t / 1000)
            rr.append(r); t += r
        }
        let b = StressWindowMeasures.beats(beats(rr)[...], startMs: 0, endMs: 60_000, constants: c)
        XCTAssertGreaterThan(b.coverage, 0.95)
        // The grid step is 1/(4 · span) ≈ 0.004 Hz = 0.25 breaths/min.
        XCTAssertEqual(try XCTUnwrap(b.respirationPerMin), 15, accuracy: 0.3)
        // Too few beats (coverage < 0.6): no rate.
        XCTAssertNil(StressWindowMeasures.beats(beats(Array(rr.prefix(30)))[...], startMs: 0, endMs: 60_000, constants: c).respirationPerMin)
    }

    func testMethodsFromComponents() throws {
        let reference = StressReference(windows: [60.0, 62, 64, 66, 68, 70].map {
            StressWindowMeasures(hrBpm: $0, beatRMSSDMs: 40 + ($0 - 60), beatCoverage: 1, respirationPerMin: 12 + ($0 - 60) / 2)
        }, onsetHRBpm: 63)
        // HR 67: 4 of 6 below → 66.667; onset 67 − 63 = 4 bpm → 50 + 5·4 = 70.
        let window = StressWindowMeasures(hrBpm: 67, beatRMSSDMs: 41, beatCoverage: 0.55, respirationPerMin: 17)
        let p = engine.components(window, reference: reference)
        XCTAssertEqual(try XCTUnwrap(p.hrPercentile), 400.0 / 6, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(engine.windowScore(p, method: .onset)), 70, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(engine.windowScore(p, method: .adaptiveRange)), 400.0 / 6, accuracy: 1e-9)
        // RMSSD 41 among 40…50: ½ equal… none equal, 1 below → 16.667; coverage 0.55 → k = (0.55 − 0.3)/0.5 = 0.5.
        XCTAssertEqual(p.hrvConfidence, 0.5, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(engine.windowScore(p, method: .beatHRV)), 0.5 * (100 - 100.0 / 6) + 0.5 * 400.0 / 6, accuracy: 1e-9)
        // Respiration 17 is above every reference rate (12…17 has one equal: 17) → (5 + ½)/6.
        XCTAssertEqual(try XCTUnwrap(engine.windowScore(p, method: .respiration)), 100 * 5.5 / 6, accuracy: 1e-9)
        // Beats too sparse: method 3 falls back to the HR percentile, not to a default.
        var sparse = window
        sparse.beatCoverage = 0.2
        let q = engine.components(sparse, reference: reference)
        XCTAssertEqual(try XCTUnwrap(engine.windowScore(q, method: .beatHRV)), 400.0 / 6, accuracy: 1e-9)
        // Too short a history (fewer than reference_min_windows = 6): no HR percentile, no score.
        let short = StressReference(windows: Array(reference.windows.prefix(5)), onsetHRBpm: nil)
        XCTAssertNil(engine.windowScore(engine.components(window, reference: short), method: .adaptiveRange))
        XCTAssertNil(engine.windowScore(engine.components(window, reference: short), method: .onset))
        XCTAssertNil(engine.windowScore(p, method: .product))
    }

    func testWindowMethodIsARegistryConstant() throws {
        XCTAssertEqual(StressConstants.defaults.method, .product)
        let r = try ConstantsRegistry.defaults.replacing("stress", with: ["window_method": 2])
        XCTAssertEqual(StressConstants(registry: r).method, .onset)
        XCTAssertEqual(StressWindowMethod.rolling.map(\.name), ["adaptive_range", "onset", "beat_hrv", "respiration"])
        let pulse = try ConstantsRegistry.defaults.replacing("stress", with: ["window_method": 5])
        XCTAssertEqual(StressConstants(registry: pulse).method, .pulseHR)
        XCTAssertEqual((StressWindowMethod.pulseWave + StressWindowMethod.skin).map(\.rawValue), Array(5...10))
    }
}
