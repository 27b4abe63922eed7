import Foundation

/// R peaks of an ECG (docs/methods.md, Beats from the ECG): Pan & Tompkins (1985),
/// "A real-time QRS detection algorithm", IEEE Trans Biomed Eng 32(3):230–236, with the
/// threshold of Hamilton (2002), "Open source ECG analysis", Computers in Cardiology
/// 29:101–104. Band-pass (causal Butterworth biquads), derivative, squaring, moving-window
/// integration; peaks of the integrated signal classified against adaptive signal and
/// noise levels, T waves told by their slope, missed beats found by search-back. Each R
/// peak is then placed on the raw signal (its polarity voted beat by beat, so an inverted
/// lead is found) with parabolic sub-sample interpolation.
public enum ECGPeaks {
    public struct Result: Equatable, Sendable {
        /// R-peak positions, fractional sample indices, ascending.
        public var peaks: [Double]
        /// +1 when the R waves point up, −1 when the lead is inverted.
        public var polarity: Int
    }

    /// The detector's delay for a QRS-like pulse, samples: a Gaussian pulse (σ = 10 ms)
    /// centred in a 0.5-s buffer through the band-pass, where its output peaks.
    static func bandDelay(_ band: [Biquad], rateHz: Double) -> Int {
        let n = max(3, Int((0.5 * rateHz).rounded()))
        let centre = n / 2
        let sigma = 0.010 * rateHz
        var h = (0..<n).map { exp(-0.5 * pow((Double($0) - Double(centre)) / sigma, 2)) }
        for section in band { h = section.run(h) }
        var best = 0
        for i in h.indices where abs(h[i]) > abs(h[best]) { best = i }
        return best - centre
    }

    /// The R peaks of `x` sampled at `rateHz`.
    public static func detect(_ x: [Double], rateHz: Double, constants c: ECGBeatConstants = .defaults) -> Result {
        var state = Detector(x, rateHz: rateHz, constants: c)
        return state.run()
    }

    /// One pass over a recording; the state of Pan & Tompkins' decision rules.
    private struct Detector {
        let x: [Double]
        let c: ECGBeatConstants
        let bp: [Double]
        let mwi: [Double]
        let rateHz: Double
        let n: Int
        let window, refractory, learnEnd, tWave, slopeMargin, locateWindow, refineWindow, baselineWindow, delay: Int
        let rrMin, rrMax: Double
        var spki = 0.0, npki = 0.0, thr1 = 0.0, thr2 = 0.0
        var lastQRS = -1
        var lastSlope = 0.0
        var rr: [Double] = []
        var polarityVote = 0.0
        var initialised = false
        /// Something changed since the last search-back that found nothing.
        var searchStale = true
        var noise: [(index: Int, value: Double)] = []
        var learning: [(index: Int, value: Double)] = []
        var peaks: [Double] = []

        init(_ x: [Double], rateHz fs: Double, constants c: ECGBeatConstants) {
            self.x = x; self.c = c; n = x.count; rateHz = fs
            func samples(_ s: Double) -> Int { max(1, Int((s * fs).rounded())) }
            let band = [Biquad.highPass(cornerHz: c.bandLowHz, rateHz: fs), Biquad.lowPass(cornerHz: c.bandHighHz, rateHz: fs)]
            let w = samples(c.integrationS)
            (bp, mwi) = Self.integrated(x, band: band, rateHz: fs, window: w)
            window = w
            refractory = samples(c.refractoryS)
            learnEnd = Int((c.learningS * fs).rounded())
            tWave = Int((c.tWaveS * fs).rounded())
            slopeMargin = samples(c.slopeMarginS)
            locateWindow = samples(c.locateWindowS)
            refineWindow = samples(c.refineWindowS)
            baselineWindow = samples(c.baselineWindowS)
            rrMin = c.rrMinS * fs
            rrMax = c.rrMaxS * fs
            delay = ECGPeaks.bandDelay(band, rateHz: fs)
            rrInitial = c.rrInitialS * fs
        }

        let rrInitial: Double
        /// The sum of `rr`, kept as intervals enter and leave.
        var rrSum = 0.0
        /// The sample after which search-back looks for a missed beat: the last QRS plus
        /// `searchback_rr_factor` mean R-R, set when either changes.
        var searchAfter = Double.infinity

        /// Band-pass (the high-pass started in steady state at the first sample, so a
        /// constant offset gives no step), derivative, and the moving-window integral of its
        /// square, in one pass. Each stage's arithmetic is that of running them one after
        /// the other: the same numbers.
        static func integrated(_ x: [Double], band: [Biquad], rateHz fs: Double, window w: Int) -> (bp: [Double], mwi: [Double]) {
            let n = x.count
            guard n > 0 else { return ([], []) }
            let h = band[0], l = band[1]
            var hx1 = x[0], hx2 = x[0], hy1 = h.dcGain * x[0], hy2 = hy1
            var lx1 = 0.0, lx2 = 0.0, ly1 = 0.0, ly2 = 0.0
            var sum = 0.0
            let divisor = Double(w)
            // The last `w` derivatives, for the integral's running sum.
            var ring = [Double](repeating: 0, count: w)
            var previous = 0.0
            var mwi: [Double] = []
            let bp = [Double](unsafeUninitializedCapacity: n) { bp, count in
                mwi = [Double](unsafeUninitializedCapacity: n) { mwi, mcount in
                    x.withUnsafeBufferPointer { x in
                        ring.withUnsafeMutableBufferPointer { ring in
                            var slot = 0
                            for i in 0..<n {
                                let xi = x[i]
                                let hi = h.b0 * xi + h.b1 * hx1 + h.b2 * hx2 - h.a1 * hy1 - h.a2 * hy2
                                hx2 = hx1; hx1 = xi; hy2 = hy1; hy1 = hi
                                let yi = l.b0 * hi + l.b1 * lx1 + l.b2 * lx2 - l.a1 * ly1 - l.a2 * ly2
                                lx2 = lx1; lx1 = hi; ly2 = ly1; ly1 = yi
                                bp[i] = yi
                                let di = i > 0 ? (yi - previous) * fs : 0
                                previous = yi
                                sum += di * di
                                if i >= w { sum -= ring[slot] * ring[slot] }
                                ring[slot] = di
                                slot = slot + 1 == w ? 0 : slot + 1
                                // Rounding can leave a running sum of squares a hair below zero.
                                sum = max(sum, 0)
                                mwi[i] = sum / divisor
                            }
                        }
                    }
                    mcount = n
                }
                count = n
            }
            return (bp, mwi)
        }

        mutating func run() -> Result {
            guard n >= 4 else { return Result(peaks: [], polarity: 1) }
            let initAt = min(learnEnd, n - 1)
            var candidate: (index: Int, value: Double)?
            var nextMax = nextLocalMax(from: 1, holding: nil)
            var i = 1
            while i < n {
                if i == nextMax { nextMax = nextLocalMax(from: i + 1, holding: candidate) }
                step(i, isLocalMax: i == nextMax || isLocalMax(i), initAt: initAt, candidate: &candidate)
                // Nothing happens between events: the next local maximum, the held
                // candidate leaving the refractory period, the end of the learning
                // period, and the sample at which search-back is due.
                var next = nextMax
                if let held = candidate { next = min(next, held.index + refractory) }
                if !initialised { next = min(next, initAt) }
                if initialised, searchStale, lastQRS >= 0, searchAfter < Double(n) {
                    next = min(next, lastQRS + Int(searchAfter.rounded(.down)) + 1)
                }
                i = max(next, i + 1)
            }
            if let held = candidate, initialised { classify(held.index, held.value) }
            return Result(peaks: peaks, polarity: polarityVote >= 0 ? 1 : -1)
        }

        /// A local maximum of the integrated signal; at the last sample a rising value is
        /// one, so that a beat at the very end is not lost.
        func isLocalMax(_ i: Int) -> Bool {
            mwi[i] > mwi[i - 1] && (i == n - 1 || mwi[i] >= mwi[i + 1])
        }

        /// The first local maximum at or after `start` that can change the `held`
        /// candidate, or `n`: within its refractory period only one above its value (a
        /// lower one leaves it as it is, and the period's end is an event of its own);
        /// every one after it, or when none is held.
        func nextLocalMax(from start: Int, holding held: (index: Int, value: Double)?) -> Int {
            let end = held.map { $0.index + refractory } ?? 0
            let floor = held?.value ?? -Double.infinity
            return mwi.withUnsafeBufferPointer { m in
                var k = max(start, 1)
                while k < n - 1 {
                    if m[k] > floor || k >= end, m[k] > m[k - 1], m[k] >= m[k + 1] { return k }
                    k += 1
                }
                return k == n - 1 && m[k] > m[k - 1] ? k : n
            }
        }

        /// Pan & Tompkins' rules at sample `i`: the learning period's end, a local maximum
        /// held as the candidate of its refractory period, the candidate classified once
        /// that period has passed, and search-back when a beat is overdue.
        mutating func step(_ i: Int, isLocalMax: Bool, initAt: Int, candidate: inout (index: Int, value: Double)?) {
            if !initialised, i >= initAt {
                initialise(upTo: i)
                for peak in learning { classify(peak.index, peak.value) }
                learning = []
            }
            if isLocalMax {
                if let held = candidate {
                    if i - held.index < refractory {
                        if mwi[i] > held.value { candidate = (i, mwi[i]) }
                    } else {
                        final(held)
                        candidate = (i, mwi[i])
                    }
                } else {
                    candidate = (i, mwi[i])
                }
            }
            if let held = candidate, i - held.index >= refractory {
                final(held)
                candidate = nil
            }
            if initialised, Double(i - lastQRS) > searchAfter { searchBack(now: i) }
        }

        mutating func initialise(upTo end: Int) {
            var top = 0.0, sum = 0.0
            for k in 0..<end {
                sum += mwi[k]
                top = max(top, mwi[k])
            }
            spki = top
            npki = 0.5 * sum / Double(max(1, end))
            updateThresholds()
            initialised = true
        }

        mutating func final(_ peak: (index: Int, value: Double)) {
            if initialised { classify(peak.index, peak.value) } else { learning.append(peak) }
        }

        mutating func updateThresholds() {
            thr1 = npki + c.thresholdFraction * (spki - npki)
            thr2 = c.searchbackThresholdFraction * thr1
        }

        /// The largest |derivative| (of the band-passed signal, × rate) over the QRS region
        /// that made the peak at `index`.
        func maxSlope(_ index: Int) -> Double {
            bp.withUnsafeBufferPointer { bp in
                var m = 0.0
                for k in max(1, index - window - slopeMargin)..<max(1, index + 1) { m = max(m, abs((bp[k] - bp[k - 1]) * rateHz)) }
                return m
            }
        }

        var rrMean: Double { rr.isEmpty ? rrInitial : rrSum / Double(rr.count) }

        func isTWave(_ index: Int, slope: Double) -> Bool {
            lastQRS >= 0 && index - lastQRS < tWave && slope < c.tWaveSlopeRatio * lastSlope
        }

        mutating func classify(_ index: Int, _ value: Double) {
            if lastQRS >= 0, index - lastQRS < refractory { return }
            let slope = maxSlope(index)
            if value > thr1, !isTWave(index, slope: slope) {
                accept(index, value, slope: slope, searchBack: false)
            } else {
                npki = c.noiseWeight * value + (1 - c.noiseWeight) * npki
                updateThresholds()
                noise.append((index, value))
                searchStale = true
            }
        }

        mutating func accept(_ index: Int, _ value: Double, slope: Double, searchBack: Bool) {
            let weight = searchBack ? c.searchbackSignalWeight : c.signalWeight
            spki = weight * value + (1 - weight) * spki
            updateThresholds()
            if lastQRS >= 0 {
                let interval = Double(index - lastQRS)
                if interval >= rrMin, interval <= rrMax {
                    rr.append(interval)
                    rrSum += interval
                    if Double(rr.count) > c.rrMeanBeats.rounded() { rrSum -= rr.removeFirst() }
                }
            }
            lastQRS = index
            searchAfter = c.searchbackRRFactor * rrMean
            lastSlope = slope
            searchStale = true
            peaks.append(locate(index))
            noise.removeAll { $0.index <= index }
        }

        /// Search-back (Pan & Tompkins): after 1.66 mean R-R without a beat, the largest
        /// noise peak since the last beat above THR2 that is no T wave is a beat.
        mutating func searchBack(now: Int) {
            while lastQRS >= 0, Double(now - lastQRS) > c.searchbackRRFactor * rrMean {
                guard searchStale else { return }
                var best: Int?
                for j in noise.indices {
                    let (index, value) = noise[j]
                    if index - lastQRS < refractory || value <= thr2 { continue }
                    if isTWave(index, slope: maxSlope(index)) { continue }
                    if best.map({ value > noise[$0].value }) ?? true { best = j }
                }
                guard let best else {
                    searchStale = false
                    return
                }
                let (index, value) = noise[best]
                accept(index, value, slope: maxSlope(index), searchBack: true)
            }
        }

        /// The R peak of the QRS whose integrated peak is at `index`: the band-passed
        /// signal's largest magnitude before it, less the band's delay, is the QRS centre;
        /// the R peak is the raw signal's extreme there in the voted polarity.
        mutating func locate(_ index: Int) -> Double {
            let (centre, high, low) = bp.withUnsafeBufferPointer { bp in x.withUnsafeBufferPointer { x in
                var kb = max(0, index - locateWindow)
                for k in kb...index where abs(bp[k]) > abs(bp[kb]) { kb = k }
                let centre = kb - delay
                let b0 = max(0, centre - baselineWindow), b1 = min(n - 1, centre + baselineWindow)
                var baseline = 0.0
                if b0 <= b1 { for k in b0...b1 { baseline += x[k] } }
                baseline /= Double(max(1, b1 - b0 + 1))
                var high = -Double.infinity, low = Double.infinity
                for k in max(0, centre - refineWindow)..<max(0, min(n, centre + refineWindow + 1)) {
                    high = max(high, x[k] - baseline)
                    low = min(low, x[k] - baseline)
                }
                return (centre, high, low)
            } }
            let r0 = max(0, centre - refineWindow), r1 = min(n - 1, centre + refineWindow)
            guard r0 <= r1 else { return Double(min(max(centre, 0), n - 1)) }
            let up = max(high, 0), down = max(-low, 0)
            let vote = up + down > 0 ? (up - down) / (up + down) : 0
            polarityVote = (1 - c.polarityWeight) * polarityVote + c.polarityWeight * vote
            let sign = polarityVote >= 0 ? 1.0 : -1.0
            var kr = r0
            for k in r0...r1 where sign * x[k] > sign * x[kr] { kr = k }
            return Double(kr) + ParabolicPeak.offset(x, at: kr)
        }
    }
}

/// Sub-sample position of a sampled extreme (a peak or a trough): the vertex of the
/// parabola through the sample and its two neighbours, as an offset in −0.5…0.5. At an
/// edge or on a flat stretch it is 0; a vertex beyond half a sample is 0 too, or with
/// `clamped` held at ±0.5.
public enum ParabolicPeak {
    public static func offset(_ y: [Double], at k: Int, clamped: Bool = false) -> Double {
        guard k > 0, k < y.count - 1 else { return 0 }
        let denominator = y[k - 1] - 2 * y[k] + y[k + 1]
        guard denominator != 0 else { return 0 }
        let p = 0.5 * (y[k - 1] - y[k + 1]) / denominator
        if abs(p) <= 0.5 { return p }
        return clamped ? (p > 0 ? 0.5 : -0.5) : 0
    }
}
