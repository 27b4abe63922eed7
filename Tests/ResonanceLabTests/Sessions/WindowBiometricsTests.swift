import XCTest
@testable import ResonanceLab
import ResonanceTestSupport

final class WindowBiometricsTests: XCTestCase {
    let c = SessionConstants.defaults
    let t0 = ms("2022-02-07T10:00:00.000Z")

    /// HR every 5 s over a 200 s play: 70 bpm in the first 30 s, 64 in the last 30 s.
    func hrSeries() -> TimeSeries {
        TimeSeries(stride(from: 0, through: 200, by: 5).map { s in (t0 + Int64(s) * 1000, s <= 30 ? 70.0 : s >= 170 ? 64.0 : 67.0) })
    }

    /// Beats alternating 800/840 ms (RMSSD 40 ms) for `seconds` from `fromS`.
    func beats(fromS: Double, seconds: Double, a: Double, b: Double) -> [(timeMs: Int64, value: Double)] {
        var out: [(Int64, Double)] = []
        var t = fromS * 1000, k = 0
        while t < (fromS + seconds) * 1000 {
            let rr = k % 2 == 0 ? a : b
            t += rr; k += 1
            out.append((t0 + Int64(t), rr))
        }
        return out
    }

    func testPlayWindowsFromHRAndRR() {
        // First 60 s alternate 800/840 → every successive difference is 40 → RMSSD 40.
        // Last 60 s alternate 800/850 → RMSSD 50. Δ = +10 ms. HR 70 → 64: Δ = −6 bpm.
        let rr = TimeSeries(beats(fromS: 0, seconds: 60, a: 800, b: 840) + beats(fromS: 140, seconds: 60, a: 800, b: 850))
        let phys = ListenerPhysiology(hr: hrSeries(), rr: rr, sdnn: TimeSeries([]))
        let bio = phys.measure(.play(startMs: t0, endMs: t0 + 200_000, constants: c), constants: c)
        XCTAssertEqual(bio.hrStart, 70); XCTAssertEqual(bio.hrEnd, 64); XCTAssertEqual(bio.hrDelta, -6)
        XCTAssertEqual(bio.hrvStart ?? .nan, 40, accuracy: 1e-9)
        XCTAssertEqual(bio.hrvEnd ?? .nan, 50, accuracy: 1e-9)
        XCTAssertEqual(bio.hrvSource, "rr")
        XCTAssertEqual(bio.notes, [])
    }

    func testFallsBackToNearestSDNNSampleWhenBeatsAreTooFew() {
        // 10 beats in the first minute (< 30): RR unusable → SDNN samples 2 min before
        // the start (45 ms) and 1 min after the end (52 ms); a sample 6 min away is ignored.
        let rr = TimeSeries(Array(beats(fromS: 0, seconds: 8, a: 800, b: 840)))
        let sdnn = TimeSeries([(t0 - 360_000, 99), (t0 - 120_000, 45), (t0 + 260_000, 52)])
        let phys = ListenerPhysiology(hr: hrSeries(), rr: rr, sdnn: sdnn)
        let bio = phys.measure(.play(startMs: t0, endMs: t0 + 200_000, constants: c), constants: c)
        XCTAssertEqual(bio.hrvStart, 45); XCTAssertEqual(bio.hrvEnd, 52); XCTAssertEqual(bio.hrvDelta, 7)
        XCTAssertEqual(bio.hrvSource, "sdnn_sample")
        XCTAssertEqual(bio.notes, ["few_beats"])
    }

    func testArtifactsAboveThresholdMakeTheWindowUnreliable() {
        // 75 good beats with 5 of them replaced by 2500 ms (outside 300–2000): 5/75 = 6.7 % > 5 %.
        var start = beats(fromS: 0, seconds: 60, a: 800, b: 840)
        for k in [5, 20, 35, 50, 65] where k < start.count { start[k].value = 2500 }
        let rr = TimeSeries(start + beats(fromS: 140, seconds: 60, a: 800, b: 850))
        let phys = ListenerPhysiology(hr: hrSeries(), rr: rr, sdnn: TimeSeries([]))
        let bio = phys.measure(.play(startMs: t0, endMs: t0 + 200_000, constants: c), constants: c)
        XCTAssertNil(bio.hrvDelta)
        XCTAssertEqual(bio.notes, ["artifacts"])
    }

    func testNoPhysiologyNearby() {
        let phys = ListenerPhysiology(hr: TimeSeries([(t0 - 3_600_000, 60)]), rr: TimeSeries([]), sdnn: TimeSeries([]))
        XCTAssertEqual(phys.measure(.play(startMs: t0, endMs: t0 + 200_000, constants: c), constants: c), .none)
    }

    func testTooFewHRSamples() {
        // Two samples in the first 30 s (minimum 3) → no HR start, flagged.
        let phys = ListenerPhysiology(hr: TimeSeries([(t0 + 1000, 70), (t0 + 20_000, 72), (t0 + 180_000, 66), (t0 + 190_000, 66), (t0 + 199_000, 66)]),
                                      rr: TimeSeries([]), sdnn: TimeSeries([]))
        let bio = phys.measure(.play(startMs: t0, endMs: t0 + 200_000, constants: c), constants: c)
        XCTAssertNil(bio.hrStart); XCTAssertEqual(bio.hrEnd, 66)
        XCTAssertEqual(bio.notes, ["few_hr_samples"])
    }
}
