import XCTest
@testable import ResonanceLab

final class SpectrumTests: XCTestCase {
    func testParsevalForOneSegment() {
        // One Hann segment: Σ PSD·df = Σ (w·x)² / Σ w² exactly (Parseval with SciPy's density
        // scaling and the one-sided doubling).
        var rng = SeededRandom(seed: 3)
        let x = (0..<1000).map { _ in rng.normal() }
        let mean = Stats.mean(x)
        let w = Taper.hann.weights(1000)
        var num = 0.0, den = 0.0
        for i in 0..<1000 { num += (w[i] * (x[i] - mean)) * (w[i] * (x[i] - mean)); den += w[i] * w[i] }
        var welch = Welch(options: WelchOptions(segmentSeconds: 250, overlap: 0.5))
        let s = welch.psd(x[...], fs: 4)
        XCTAssertEqual(s.psd.reduce(0, +) * s.df, num / den, accuracy: 1e-9 * num / den)
    }

    func testParsevalTotalPowerIsTheVariance() {
        // Averaged over segments, the PSD integrates to the variance of the resampled series.
        var rng = SeededRandom(seed: 5)
        let x = (0..<40_000).map { _ in 30 * rng.normal() }
        var welch = Welch(options: WelchOptions())
        let s = welch.psd(x[...], fs: 4)
        XCTAssertEqual(s.psd.reduce(0, +) * s.df, Stats.variance(x), accuracy: 0.03 * Stats.variance(x))
    }

    /// 300 s of beats whose RR is modulated at `f0` Hz, analysed as one whole-recording row.
    private func modulated(_ f0: Double, amplitudeMs: Double = 40) throws -> HRVRow? {
        var t = 0.0
        var times: [Int64] = [], rr: [Double] = []
        while t < 300_000 {
            let v = 1000 + amplitudeMs * sin(2 * Double.pi * f0 * t / 1000)
            t += v
            times.append(Int64(t.rounded())); rr.append(v)
        }
        let series = NNSeries.clean(timestampsMs: times, rrMs: rr, method: .none)
        var options = HRVOptions()
        options.windows = false
        var w = HRVWindows(subject: "s", series: series, options: options)
        return try w.rows().first
    }

    func testModulatedSeriesPeaksAtItsFrequency() throws {
        // 256 s segments at 4 Hz: bin width 4/1024 = 0.0039 Hz.
        let df = 4.0 / 1024
        let lf = try XCTUnwrap(try modulated(0.1)).frequency
        XCTAssertEqual(lf.lfPeak, 0.1, accuracy: df)
        XCTAssertGreaterThan(lf.lf, 20 * lf.hf)
        let hf = try XCTUnwrap(try modulated(0.25)).frequency
        XCTAssertEqual(hf.hfPeak, 0.25, accuracy: df)
        XCTAssertGreaterThan(hf.hf, 20 * hf.lf)
        // A sinusoid of amplitude A has variance A²/2 = 800 ms²: the HF band holds it
        // (sampled at the beats, then resampled; within 10 %).
        XCTAssertEqual(hf.hf, 800, accuracy: 80)
    }

    func testLombScargleFindsTheSameFrequency() {
        var t = 0.0
        var times: [Double] = [], rr: [Double] = []
        while t < 300 {
            let v = 1000 + 40 * sin(2 * Double.pi * 0.1 * t)
            t += v / 1000
            times.append(t); rr.append(v)
        }
        let s = LombScargle.psd(timesS: times, values: rr)
        XCTAssertEqual(s.peak(0.04, 0.15), 0.1, accuracy: s.df)
        XCTAssertEqual(s.psd.reduce(0, +) * s.df, Stats.variance(rr), accuracy: 0.1 * Stats.variance(rr))
    }
}

final class SpectrumIntegralTests: XCTestCase {
    func testIntegralOfAFlatAndALinearDensity() {
        // Flat density 2 on bins of 0.01 Hz: ∫ over [0.043, 0.1517] = 2 · 0.1087.
        let flat = Spectrum(df: 0.01, psd: [Double](repeating: 2, count: 60))
        XCTAssertEqual(flat.integral(0.043, 0.1517), 2 * 0.1087, accuracy: 1e-12)
        // Density f (exact under linear interpolation): ∫ f df over [0.012, 0.037] = (0.037² − 0.012²)/2.
        let ramp = Spectrum(df: 0.01, psd: (0..<60).map { Double($0) * 0.01 })
        XCTAssertEqual(ramp.integral(0.012, 0.037), (0.037 * 0.037 - 0.012 * 0.012) / 2, accuracy: 1e-12)
        XCTAssertEqual(ramp.integral(0.012, 0.018), (0.018 * 0.018 - 0.012 * 0.012) / 2, accuracy: 1e-12)
    }
}

final class WelchBandLimitTests: XCTestCase {
    /// A spectrum cut at `maxHz` holds the full spectrum's bins up to the first one above
    /// it, identical, and the coherence scores read from it are those of the full one.
    func testSpectrumCutAboveTheHighestBandKeepsEveryValueUsed() {
        var rng = SeededRandom(seed: 11)
        let x = (0..<256).map { i in 70 + 5 * sin(2 * Double.pi * 0.1 * Double(i) / 4) + rng.normal() }
        let constants = CoherenceConstants.defaults
        let options = WelchOptions(segmentSeconds: 64, overlap: 0, padFactor: 4, powerOfTwo: true, taper: .kaiser(beta: .pi))
        var full = Welch(options: options)
        var cutOptions = options
        cutOptions.maxHz = constants.highestHz
        var cut = Welch(options: cutOptions)
        let a = full.psd(x[...], fs: 4), b = cut.psd(x[...], fs: 4)
        XCTAssertEqual(a.psd.count, 513)
        // df = 4/1024 Hz: the first bin above 0.4 Hz is 103 (0.4023 Hz), so 104 bins.
        XCTAssertEqual(b.psd.count, Int((constants.highestHz / b.df).rounded(.down)) + 2)
        XCTAssertGreaterThan(b.frequency(b.psd.count - 1), constants.highestHz)
        XCTAssertEqual(Array(a.psd.prefix(b.psd.count)), b.psd)
        XCTAssertEqual(Coherence.heartMath(a, constants: constants).ratio, Coherence.heartMath(b, constants: constants).ratio)
        XCTAssertEqual(Coherence.coachScore(a, breathingHz: 0.1, binHz: 4.0 / 256, constants: constants),
                       Coherence.coachScore(b, breathingHz: 0.1, binHz: 4.0 / 256, constants: constants))
        XCTAssertEqual(a.localPeak(0.04, 0.15), b.localPeak(0.04, 0.15))
    }

    /// One transform object reused for inputs of different lengths gives what a fresh one
    /// gives: the zero padding after a long input is cleared for a shorter one.
    func testReusedTransformClearsWhatALongerInputLeft() {
        var rng = SeededRandom(seed: 12)
        let reused = PowerFFT(length: 64)
        for count in [64, 10, 40, 3, 64, 1] {
            let x = (0..<count).map { _ in rng.normal() }
            var a = [Double](repeating: 0, count: 33), b = a
            reused.accumulate(into: &a, count: count) { buf in for i in 0..<count { buf[i] = x[i] } }
            PowerFFT(length: 64).accumulate(into: &b, count: count) { buf in for i in 0..<count { buf[i] = x[i] } }
            XCTAssertEqual(a, b, "\(count) values")
            // Direct DFT at bin 1 as a known answer.
            var re = 0.0, im = 0.0
            for (n, v) in x.enumerated() { re += v * cos(2 * .pi * Double(n) / 64); im -= v * sin(2 * .pi * Double(n) / 64) }
            XCTAssertEqual(a[1], re * re + im * im, accuracy: 1e-9 * max(1, a[1]))
        }
    }

    /// The runs of a recording averaged one at a time: until a run reaches the configured
    /// segment (1024 samples here), only the longest runs so far can add a segment, and
    /// the spectrum is, to the bit, the spectrum of those runs alone.
    func testRunsAveragedOneAtATimeKeepOnlyTheRunsThatCanAddASegment() {
        var rng = SeededRandom(seed: 5)
        let run = { (n: Int) in (0..<n).map { _ in rng.normal() }[...] }
        var welch = Welch(options: WelchOptions(segmentSeconds: 256, overlap: 0.5))
        func average(_ runs: [ArraySlice<Double>]) -> Spectrum {
            var a = welch.begin(fs: 4)
            for r in runs { welch.add(r, to: &a) }
            return welch.end(a)
        }
        // No run reaches 1024 samples: the segment is the longest run (700), whose two
        // identical copies average to one of them.
        let long = run(700)
        let shortest = average([run(300), long, run(500), long, run(200)])
        XCTAssertEqual(shortest.psd, welch.psd(long, fs: 4).psd)
        XCTAssertEqual(shortest.df, 4.0 / 700)
        // A run of the configured length, before or after shorter ones: they add nothing.
        let full = run(1500)
        XCTAssertEqual(average([run(500), run(900), full]).psd, welch.psd(full, fs: 4).psd)
        XCTAssertEqual(average([full, run(500), run(1023)]).psd, welch.psd(full, fs: 4).psd)
        XCTAssertEqual(average([full, run(1100)]).psd.count, 513)
        XCTAssertNotEqual(average([full, run(1100)]).psd, welch.psd(full, fs: 4).psd)
        // No configured length: half the longest run (500), which the 400-sample run is short of.
        var half = Welch(options: WelchOptions(segmentSeconds: 0, overlap: 0.5))
        var a = half.begin(fs: 4)
        let thousand = run(1000)
        half.add(thousand, to: &a)
        half.add(run(400), to: &a)
        XCTAssertEqual(half.end(a).psd, half.psd(thousand, fs: 4).psd)
        XCTAssertEqual(half.end(a).df, 4.0 / 500)
        // Nothing long enough for a spectrum.
        XCTAssertEqual(average([run(1), run(0)]).psd, [])
    }
}
