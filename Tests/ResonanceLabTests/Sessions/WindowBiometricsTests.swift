import XCTest
@testable import ResonanceLab

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

    /// The cleaned NN series of `beats`, as the sessions stage builds it for hrv.csv.
    func nn(_ beats: [(timeMs: Int64, value: Double)]) -> NNSeries {
        NNSeries.clean(timestampsMs: beats.map(\.timeMs), rrMs: beats.map(\.value), method: .lipponen)
    }

    /// Beats of 800 ms ± a deterministic 25 ms ripple for `seconds` from `fromS`: the
    /// beat-to-beat variability the artifact thresholds scale with.
    func rippled(fromS: Double, seconds: Double) -> [(timeMs: Int64, value: Double)] {
        var out: [(Int64, Double)] = []
        var t = fromS * 1000, k = 0.0
        while t < (fromS + seconds) * 1000 {
            let rr = (800 + 25 * sin(0.9 * k) + 10 * cos(2.3 * k)).rounded()
            t += rr; k += 1
            out.append((t0 + Int64(t), rr))
        }
        return out
    }

    /// `beats` with the beats at `indices` missed by the detector: each merges with the
    /// next interval (the beat closing it is kept, so timestamps stay successive).
    func missing(_ beats: [(timeMs: Int64, value: Double)], at indices: Set<Int>) -> [(timeMs: Int64, value: Double)] {
        var out: [(timeMs: Int64, value: Double)] = []
        var carry = 0.0
        for (k, b) in beats.enumerated() {
            if indices.contains(k) { carry += b.value; continue }
            out.append((b.timeMs, b.value + carry))
            carry = 0
        }
        return out
    }

    func testPlayWindowsFromHRAndRR() {
        // First 60 s alternate 800/840 → every successive difference is 40 → RMSSD 40.
        // Last 60 s alternate 800/850 → RMSSD 50. Δ = +10 ms. HR 70 → 64: Δ = −6 bpm.
        let rr = nn(beats(fromS: 0, seconds: 60, a: 800, b: 840) + beats(fromS: 140, seconds: 60, a: 800, b: 850))
        let phys = ListenerPhysiology(hr: hrSeries(), nn: rr, sdnn: TimeSeries([]))
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
        let rr = nn(beats(fromS: 0, seconds: 8, a: 800, b: 840))
        let sdnn = TimeSeries([(t0 - 360_000, 99), (t0 - 120_000, 45), (t0 + 260_000, 52)])
        let phys = ListenerPhysiology(hr: hrSeries(), nn: rr, sdnn: sdnn)
        let bio = phys.measure(.play(startMs: t0, endMs: t0 + 200_000, constants: c), constants: c)
        XCTAssertEqual(bio.hrvStart, 45); XCTAssertEqual(bio.hrvEnd, 52); XCTAssertEqual(bio.hrvDelta, 7)
        XCTAssertEqual(bio.hrvSource, "sdnn_sample")
        XCTAssertEqual(bio.notes, ["few_beats"])
    }

    func testArtifactsAboveThresholdMakeTheWindowUnreliable() {
        // Three missed beats in the first minute (~74 beats): the cleaning splits each
        // merged interval back into two halves, 6 corrected of 74 = 8 % > 5 %.
        let start = missing(rippled(fromS: 0, seconds: 60), at: [10, 30, 50])
        let phys = ListenerPhysiology(hr: hrSeries(), nn: nn(start + rippled(fromS: 140, seconds: 60)),
                                      sdnn: TimeSeries([]))
        let bio = phys.measure(.play(startMs: t0, endMs: t0 + 200_000, constants: c), constants: c)
        XCTAssertNil(bio.hrvDelta)
        XCTAssertEqual(bio.notes, ["artifacts"])
    }

    /// One missed beat (2 of 74 intervals corrected, 2.7 %): the RMSSD is the one of the
    /// corrected series, which hrv.csv uses too, not of the series with the beat dropped.
    func testFewArtifactsAreCorrectedAsInHRV() {
        let clean = rippled(fromS: 0, seconds: 60)
        let raw = missing(clean, at: [30])
        let series = nn(raw + rippled(fromS: 140, seconds: 60))
        let window = series.range(fromMs: Double(t0), toMs: Double(t0 + 60_000).nextUp)
        XCTAssertEqual(series.artifact[window].filter { $0 == .missed }.count, 2)
        let phys = ListenerPhysiology(hr: hrSeries(), nn: series, sdnn: TimeSeries([]))
        let bio = phys.measure(.play(startMs: t0, endMs: t0 + 200_000, constants: c), constants: c)
        XCTAssertEqual(bio.hrvSource, "rr")
        XCTAssertEqual(bio.hrvStart ?? .nan, HRVTime.rmssd(NNWindow(series, window)), accuracy: 1e-12)
        // Close to the RMSSD of the beats before one went missing (the halves replace two
        // beats of ±25 ms), far from that of the raw series with its ~1600 ms interval.
        let truth = HRVTime.rmssd(clean.filter { $0.timeMs <= t0 + 60_000 }.map(\.value))
        XCTAssertEqual(bio.hrvStart ?? .nan, truth, accuracy: 0.1 * truth)
        XCTAssertGreaterThan(HRVTime.rmssd(raw.filter { $0.timeMs <= t0 + 60_000 }.map(\.value)), 2 * truth)
    }

    func testNoPhysiologyNearby() {
        let phys = ListenerPhysiology(hr: TimeSeries([(t0 - 3_600_000, 60)]), nn: .empty, sdnn: TimeSeries([]))
        XCTAssertEqual(phys.measure(.play(startMs: t0, endMs: t0 + 200_000, constants: c), constants: c), .none)
    }

    func testTooFewHRSamples() {
        // Two samples in the first 30 s (minimum 3) → no HR start, flagged.
        let phys = ListenerPhysiology(hr: TimeSeries([(t0 + 1000, 70), (t0 + 20_000, 72), (t0 + 180_000, 66), (t0 + 190_000, 66), (t0 + 199_000, 66)]),
                                      nn: .empty, sdnn: TimeSeries([]))
        let bio = phys.measure(.play(startMs: t0, endMs: t0 + 200_000, constants: c), constants: c)
        XCTAssertNil(bio.hrStart); XCTAssertEqual(bio.hrEnd, 66)
        XCTAssertEqual(bio.notes, ["few_hr_samples"])
    }
}
