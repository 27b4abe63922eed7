import Foundation

/// A one-sided power spectral density on a uniform frequency grid 0, df, 2·df, …
/// (units² / Hz, e.g. ms²/Hz for an NN series).
public struct Spectrum: Sendable {
    public var df: Double
    public var psd: [Double]

    public init(df: Double, psd: [Double]) {
        self.df = df; self.psd = psd
    }

    public func frequency(_ k: Int) -> Double { Double(k) * df }

    /// Bins with lo ≤ f < hi (the band convention of the Task Force and NeuroKit2).
    public func bins(_ lo: Double, _ hi: Double) -> Range<Int> {
        guard df > 0 else { return 0..<0 }
        var a = Int((lo / df).rounded(.up))
        if Double(a) * df < lo { a += 1 }
        var b = Int((hi / df).rounded(.up))
        if Double(b - 1) * df >= hi { b -= 1 }
        a = max(0, min(a, psd.count)); b = max(a, min(b, psd.count))
        return a..<b
    }

    /// Power in [lo, hi) by the trapezoidal rule over the band's bins (as NeuroKit2's
    /// `signal_power`); 0 when the band holds fewer than two bins.
    public func power(_ lo: Double, _ hi: Double) -> Double {
        let r = bins(lo, hi)
        guard r.count >= 2 else { return 0 }
        var s = 0.0
        for k in r { s += psd[k] }
        return (s - (psd[r.lowerBound] + psd[r.upperBound - 1]) / 2) * df
    }

    /// Power in [lo, hi] integrating the linearly interpolated density exactly, band edges
    /// included, so a flat density integrates to density × (hi − lo) wherever the bins fall.
    public func integral(_ lo: Double, _ hi: Double) -> Double {
        guard df > 0, psd.count >= 2, hi > lo else { return 0 }
        let fMax = frequency(psd.count - 1)
        let a = max(0, lo), b = min(hi, fMax)
        guard b > a else { return 0 }
        func density(_ f: Double) -> Double {
            let k = min(Int(f / df), psd.count - 2)
            let u = f / df - Double(k)
            return psd[k] * (1 - u) + psd[k + 1] * u
        }
        // Interior knots strictly inside (a, b), then the two partial end pieces.
        let first = Int((a / df).rounded(.down)) + 1, last = Int((b / df).rounded(.up)) - 1
        guard first <= last else { return (density(a) + density(b)) / 2 * (b - a) }
        var sum = (density(a) + psd[first]) / 2 * (frequency(first) - a)
        for k in first..<last { sum += (psd[k] + psd[k + 1]) / 2 * df }
        sum += (psd[last] + density(b)) / 2 * (b - frequency(last))
        return sum
    }

    /// Frequency of the largest local maximum of the density in [lo, hi) (a bin not below
    /// either neighbour, neighbours outside the band included), so a density falling
    /// across the band has no peak; NaN when there is none.
    public func localPeak(_ lo: Double, _ hi: Double) -> Double {
        var best: Int?
        for k in bins(lo, hi) where k > 0 && k + 1 < psd.count && psd[k] >= psd[k - 1] && psd[k] >= psd[k + 1] {
            if best.map({ psd[k] > psd[$0] }) ?? true { best = k }
        }
        return best.map(frequency) ?? .nan
    }

    /// Frequency of the largest density in [lo, hi); NaN for an empty band.
    public func peak(_ lo: Double, _ hi: Double) -> Double {
        let r = bins(lo, hi)
        guard var best = r.first else { return .nan }
        for k in r where psd[k] > psd[best] { best = k }
        return frequency(best)
    }
}

/// Settings of Welch's averaged, windowed periodogram (Welch 1967), scaled like SciPy's
/// `welch(scaling="density")` so values are comparable with NeuroKit2 and Kubios.
public struct WelchOptions: Sendable, Equatable {
    /// Segment length, seconds (Kubios: 256 s); shortened to the series when longer.
    /// 0 means half the series, NeuroKit2's default (three half-overlapping segments).
    public var segmentSeconds: Double
    /// Overlap between segments, fraction of the segment (0 ≤ overlap < 1).
    public var overlap: Double
    /// FFT length as a multiple of the segment length (zero padding; ≥ 1).
    public var padFactor: Int
    /// Round the FFT length up to a power of two (fast transforms for any segment length).
    public var powerOfTwo: Bool
    public var taper: Taper
    /// Highest frequency wanted, Hz: the spectrum stops at the first bin above it (so
    /// that interpolating at it and a peak's right neighbour are still exact), sparing
    /// the bins no caller reads. Nil: every bin up to Nyquist.
    public var maxHz: Double?

    public init(segmentSeconds: Double = 256, overlap: Double = 0.5, padFactor: Int = 1, powerOfTwo: Bool = false,
                taper: Taper = .hann, maxHz: Double? = nil) {
        self.segmentSeconds = segmentSeconds; self.overlap = overlap; self.padFactor = padFactor
        self.powerOfTwo = powerOfTwo; self.taper = taper; self.maxHz = maxHz
    }
}

/// Data windows for spectral estimation (Harris 1978).
public enum Taper: Sendable, Equatable {
    /// Periodic Hann (SciPy's default `get_window("hann", n)`), as Kubios and NeuroKit2.
    case hann
    /// Kaiser–Bessel with shape β (Kaiser 1974). β = π·NW approximates the Slepian taper
    /// of time–bandwidth NW, which concentrates the most energy within ±NW/T
    /// (Percival & Walden 1993, ch. 3).
    case kaiser(beta: Double)

    public func weights(_ n: Int) -> [Double] {
        switch self {
        case .hann:
            return (0..<n).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n)) }
        case .kaiser(let beta):
            let denominator = Taper.besselI0(beta)
            return (0..<n).map { i in
                let r = n > 1 ? 2 * Double(i) / Double(n - 1) - 1 : 0
                return Taper.besselI0(beta * max(0, 1 - r * r).squareRoot()) / denominator
            }
        }
    }

    /// Modified Bessel function of the first kind, order 0, by its power series.
    static func besselI0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0, k = 1.0
        while term > 1e-17 * sum {
            term *= (x / (2 * k)) * (x / (2 * k))
            sum += term
            k += 1
        }
        return sum
    }
}

/// Welch estimator with the Hann window and FFT scratch of each segment length cached,
/// so estimating many windows of one length allocates nothing but the result.
public struct Welch {
    public let options: WelchOptions
    private var ffts: [Int: PowerFFT] = [:]
    private var plans: [Int: Plan] = [:]

    public init(options: WelchOptions) {
        self.options = options
    }

    /// PSD of a uniformly sampled series `x` (sample rate `fs` Hz) with tapered segments,
    /// each segment's mean removed, averaged over segments. Fewer than 2 samples give an
    /// empty spectrum.
    public mutating func psd(_ x: ArraySlice<Double>, fs: Double) -> Spectrum {
        var average = Average(fs: fs, options: options)
        add(x, to: &average)
        return end(average)
    }

    /// The average over the segments of several separately sampled runs of one recording
    /// (the pieces between long gaps), given one run at a time, so that no more than one
    /// run need be held: `add` each run in order, then `end`. A run shorter than a segment
    /// adds none. The segment length is the configured one, or the longest run's when
    /// shorter; until a run reaches the configured length, the runs of the longest length
    /// so far are kept (only they can then add a segment). With no configured length
    /// (half the longest run) every run is kept until `end`. The result is the same, to
    /// the bit, as averaging the runs all at once.
    public struct Average {
        let fs: Double
        /// The configured segment length, samples; nil: half the longest run.
        let configured: Int?
        var longest = 0
        var pending: [ArraySlice<Double>] = []
        var plan: Plan?
        var acc: [Double] = []
        var segments = 0

        init(fs: Double, options: WelchOptions) {
            self.fs = fs
            configured = options.segmentSeconds > 0 ? max(2, Int(options.segmentSeconds * fs)) : nil
        }
    }

    /// Segment length, FFT length, step and bins of one average, with the taper and FFT.
    struct Plan {
        var seg: Int, fs: Double, nfft: Int, step: Int, bins: Int
        var window: [Double], wss: Double
        var fft: PowerFFT
    }

    public func begin(fs: Double) -> Average { Average(fs: fs, options: options) }

    public mutating func add(_ run: ArraySlice<Double>, to average: inout Average) {
        if let plan = average.plan {
            accumulate(run, plan, into: &average)
            return
        }
        if let c = average.configured, run.count >= c {
            // The segment length is now the configured one; runs kept so far are shorter.
            let plan = plan(seg: c, fs: average.fs)
            average.plan = plan
            average.pending = []
            average.acc = [Double](repeating: 0, count: plan.bins)
            accumulate(run, plan, into: &average)
            return
        }
        if average.configured == nil {
            average.pending.append(run)
            average.longest = max(average.longest, run.count)
        } else if run.count > average.longest {
            average.longest = run.count
            average.pending = [run]
        } else if run.count == average.longest {
            average.pending.append(run)
        }
    }

    public mutating func end(_ average: Average) -> Spectrum {
        var average = average
        if average.plan == nil {
            let n = average.longest
            guard n >= 2 else { return Spectrum(df: 0, psd: []) }
            let plan = plan(seg: average.configured == nil ? max(2, n / 2) : n, fs: average.fs)
            average.plan = plan
            average.acc = [Double](repeating: 0, count: plan.bins)
            for run in average.pending { accumulate(run, plan, into: &average) }
        }
        guard let plan = average.plan else { return Spectrum(df: 0, psd: []) }
        var acc = average.acc
        // One-sided density: |X|²/(fs·Σw²), doubled except at DC and Nyquist.
        let scale = 1 / (average.fs * plan.wss * Double(average.segments))
        for k in acc.indices {
            let oneSided = (k == 0 || (plan.nfft % 2 == 0 && k == plan.nfft / 2)) ? 1.0 : 2.0
            acc[k] *= scale * oneSided
        }
        return Spectrum(df: average.fs / Double(plan.nfft), psd: acc)
    }

    private mutating func plan(seg: Int, fs: Double) -> Plan {
        if let plan = plans[seg], plan.fs == fs { return plan }
        var nfft = seg * max(1, options.padFactor)
        if options.powerOfTwo { nfft = 1 << (Int.bitWidth - (nfft - 1).leadingZeroBitCount) }
        let step = max(1, seg - Int(Double(seg) * options.overlap))
        let window = options.taper.weights(seg)
        let fft: PowerFFT
        if let cached = ffts[nfft] {
            fft = cached
        } else {
            fft = PowerFFT(length: nfft)
            ffts[nfft] = fft
        }
        var wss = 0.0
        for w in window { wss += w * w }
        var bins = nfft / 2 + 1
        if let maxHz = options.maxHz, maxHz >= 0 { bins = min(bins, Int((maxHz * Double(nfft) / fs).rounded(.down)) + 2) }
        let plan = Plan(seg: seg, fs: fs, nfft: nfft, step: step, bins: bins, window: window, wss: wss, fft: fft)
        plans[seg] = plan
        return plan
    }

    /// Adds the periodograms of `run`'s whole segments to the average.
    private func accumulate(_ run: ArraySlice<Double>, _ plan: Plan, into average: inout Average) {
        let seg = plan.seg
        var segments = 0
        plan.window.withUnsafeBufferPointer { window in
            run.withUnsafeBufferPointer { x in
                var start = 0
                while start + seg <= x.count {
                    let segment = UnsafeBufferPointer(rebasing: x[start..<(start + seg)])
                    let mean = Stats.interleavedSum(segment) / Double(seg)
                    // Indexed from 0, so the loop has no offset to check and vectorises.
                    plan.fft.accumulate(into: &average.acc, count: seg) { buf in
                        for i in 0..<seg { buf[i] = (segment[i] - mean) * window[i] }
                    }
                    segments += 1
                    start += plan.step
                }
            }
        }
        average.segments += segments
    }
}
