import XCTest
@testable import ResonanceLab

/// Worked answers of the stress engine's wristband channels (`window_method` 5–10).
final class StressChannelsTests: XCTestCase {
    let engine = StressEngine()
    let c = StressConstants.defaults

    func testSkinConductanceLevelOfAStepIsTheRCResponse() {
        // 4 Hz, f_c = 0.05 Hz: RC = 1/(0.1π) = 3.1831 s, α = 0.25 / 3.4331 = 0.072821. A step
        // from 2 to 3 µS at sample 1: y[n] = 3 − (1 − α)^n.
        let x = [2.0] + [Double](repeating: 3, count: 40)
        let y = StressChannelSeries.lowPass(x, rateHz: 4, cutoffHz: 0.05)
        let alpha = 0.25 / (1 / (0.1 * Double.pi) + 0.25)
        XCTAssertEqual(alpha, 0.072821, accuracy: 1e-6)
        XCTAssertEqual(y[0], 2, accuracy: 1e-12)
        XCTAssertEqual(y[1], 2 + alpha, accuracy: 1e-12)
        XCTAssertEqual(y[40], 3 - pow(1 - alpha, 40), accuracy: 1e-12)
        XCTAssertEqual(y[40], 2.9514, accuracy: 1e-4)  // past 95 % of the step after 10 s (≈ 3 RC)
    }

    func testPhasicResponseCountAndAmplitudeOfASyntheticSCR() {
        // Flat, a rise of 0.2 µS over 4 samples, a slow decay, then a 0.005 µS wiggle below
        // the minimum amplitude, then a second response of 0.05 µS.
        let phasic = [0, 0, 0.05, 0.1, 0.15, 0.2, 0.18, 0.16, 0.14, 0.12, 0.123, 0.118, 0.1, 0.15, 0.12]
        let r = StressChannelSeries.responses(phasic, minAmplitude: 0.01)
        XCTAssertEqual(r.map(\.index), [5, 13])
        XCTAssertEqual(r[0].amplitude, 0.2, accuracy: 1e-12)
        // The second rises from the trough since the first peak (0.1 at index 12).
        XCTAssertEqual(r[1].amplitude, 0.05, accuracy: 1e-12)
        XCTAssertEqual(StressChannelSeries.responses(phasic, minAmplitude: 0.3).count, 0)
    }

    func testMotionGateOnASyntheticAccelerometerBurst() {
        // 32 Hz at rest (64 units = 1 g on z) for 60 s; in seconds 20–49 x alternates 0 and
        // 64 units, so the magnitude alternates 1 and √2 g: per-second SD (n − 1) =
        // (√2 − 1)/2 · √(32/31) = 0.21042 g > 0.05 g in 30 of the 60 seconds.
        let n = 32 * 60
        let x: [Double] = (0..<n).map { (i: Int) -> Double in (640..<1600).contains(i) && i % 2 == 1 ? 64 : 0 }
        let seconds = StressChannelSeries.motion(x: x, y: [Double](repeating: 0, count: n), z: [Double](repeating: 64, count: n),
                                                 rateHz: 32, startMs: 0, gPerUnit: 1.0 / 64)
        XCTAssertEqual(seconds.count, 60)
        XCTAssertEqual(seconds[0].timeMs, 1000)
        XCTAssertEqual(seconds[0].value, 0, accuracy: 1e-12)
        XCTAssertEqual(seconds[20].value, 0.21042, accuracy: 1e-5)
        var series = StressChannelSeries()
        series.motionG = TimeSeries(seconds)
        let m = series.measures(startMs: 0, endMs: 60_000, constants: c)
        XCTAssertEqual(m.movingFraction ?? -1, 0.5, accuracy: 1e-12)
        XCTAssertEqual(m.motionG ?? -1, 0.21042 / 2, accuracy: 1e-5)
        let calm = series.measures(startMs: 0, endMs: 20_000, constants: c)
        XCTAssertEqual(calm.movingFraction ?? -1, 0, accuracy: 1e-12)
        // The gate: half the seconds moving reaches motion_gate_fraction 0.5, and the window scores 50.
        var p = StressWindowComponents()
        p.hrPercentile = 90
        XCTAssertEqual(engine.channelScore(p, method: .pulseHR), 90)
        p.moving = (m.movingFraction ?? 0) >= c.motionGateFraction
        XCTAssertEqual(engine.channelScore(p, method: .pulseHR), 50)
    }

    func testAWindowsChannelsAreUnchangedWhenLaterDataChange() {
        var a = StressChannelSeries()
        let eda: [Double] = (0..<480).map { (i: Int) -> Double in
            let response: Double = i % 40 == 10 ? 0.3 : 0
            return 2 + 0.001 * Double(i) + response
        }
        let level = StressChannelSeries.lowPass(eda, rateHz: 4, cutoffHz: c.sclCutoffHz)
        a.scl = TimeSeries(level.indices.map { (timeMs: Int64($0) * 250, value: level[$0]) })
        a.pulseBeats = (1...120).map { StressBeat(tMs: Int64($0) * 1000, rrMs: 1000) }
        var b = a
        // Data after 60 s altered: another EDA course, faster beats.
        let other: [Double] = eda.indices.map { (i: Int) -> Double in i >= 240 ? 9 : eda[i] }
        let otherLevel = StressChannelSeries.lowPass(other, rateHz: 4, cutoffHz: c.sclCutoffHz)
        b.scl = TimeSeries(otherLevel.indices.map { (timeMs: Int64($0) * 250, value: otherLevel[$0]) })
        b.pulseBeats = a.pulseBeats.map { $0.tMs >= 60_000 ? StressBeat(tMs: $0.tMs, rrMs: 500) : $0 }
        let x = a.measures(startMs: 0, endMs: 60_000, constants: c), y = b.measures(startMs: 0, endMs: 60_000, constants: c)
        XCTAssertEqual(x, y)
        XCTAssertEqual(x.pulseHRBpm ?? 0, 60, accuracy: 1e-12)
        XCTAssertNotEqual(a.measures(startMs: 60_000, endMs: 120_000, constants: c),
                          b.measures(startMs: 60_000, endMs: 120_000, constants: c))
    }

    func testChannelScoresAndTheirFallback() {
        var p = StressWindowComponents()
        XCTAssertNil(engine.channelScore(p, method: .skinConductance), "no HR percentile, no score")
        p.hrPercentile = 40
        XCTAssertEqual(engine.channelScore(p, method: .skinConductance), 40, "without EDA: the HR percentile")
        p.sclPercentile = 80; p.pulseHRPercentile = 70; p.pulseRMSSDPercentile = 10; p.tempChangePercentile = 25
        p.scrPercentile = 60; p.scrAmplitudePercentile = 90
        XCTAssertEqual(engine.channelScore(p, method: .skinConductance), 80)
        XCTAssertEqual(engine.channelScore(p, method: .pulseHRV), (70 + 90) / 2)
        XCTAssertEqual(engine.channelScore(p, method: .phasicResponses), 75)
        XCTAssertEqual(engine.channelScore(p, method: .skinTemperature), 75)
        XCTAssertEqual(engine.channelScore(p, method: .pulseConductance), 75)
        XCTAssertEqual(engine.windowScore(p, method: .pulseHR), 70)
    }

    /// `window_input` 1: HR = 60 000 / the mean interval of the window's reliable beats and
    /// SDNN their sample SD; fewer than `pulse_min_beats` (5) beats give neither.
    func testBeatSignalsAreTheBeatsMeanHeartRateAndSDNN() {
        var a = StressChannelSeries()
        let intervals: [Double] = [1000, 800, 1000, 800, 1000]
        var t: Int64 = 0
        a.pulseBeats = intervals.map { rr in
            t += Int64(rr)
            return StressBeat(tMs: t, rrMs: rr)
        }
        let (signals, rmssd) = a.beatSignals(startMs: 0, endMs: 60_000, constants: c)
        // Mean 920 ms → 65.217 bpm; deviations 80, −120, 80, −120, 80: Σ² = 48 000, /4 → SD √12 000.
        XCTAssertEqual(signals.hrBpm ?? 0, 60_000 / 920, accuracy: 1e-9)
        XCTAssertEqual(signals.sdnnMs ?? 0, 12_000.0.squareRoot(), accuracy: 1e-9)
        XCTAssertNil(rmssd, "4 successive pairs are fewer than beat_min_pairs (10)")
        let four = a.beatSignals(startMs: 0, endMs: 4000, constants: c).0
        XCTAssertNil(four.hrBpm)
        XCTAssertNil(four.sdnnMs)
    }
}

