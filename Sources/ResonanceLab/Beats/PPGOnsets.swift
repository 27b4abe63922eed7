import Foundation

/// Pulse onsets (feet) of a photoplethysmogram (docs/methods.md, Beats from the pulse
/// wave): systolic peaks by the two moving averages of Elgendi et al. (2013, "Systolic
/// peak detection in acceleration photoplethysmograms measured from emergency responders
/// in tropical conditions", PLoS ONE 8(10):e76585) on the band-passed signal, then each
/// pulse's foot on the raw signal: the last minimum before the steepest rise, or the
/// window's lowest sample when clearly lower — the point the Empatica E4's `IBI.csv`
/// marks (its beat times are the lowest raw sample). The polarity is voted per minute:
/// systole is shorter than diastole, so the sign whose pulses rise in the smaller share
/// of their interval is the upright one.
public enum PPGOnsets {
    public struct Result: Equatable, Sendable {
        /// Onset positions, fractional sample indices, ascending.
        public var onsets: [Double]
        /// +1 when the pulse rises upward, −1 when the signal is inverted.
        public var polarity: Int
    }

    /// The onsets of `x`; with `polarity` given (a recording's, voted over all its chunks)
    /// instead of voted on `x` alone.
    public static func detect(_ x: [Double], rateHz: Double, constants c: PPGBeatConstants = .defaults,
                              polarity given: Int? = nil) -> Result {
        guard x.count >= 4 else { return Result(onsets: [], polarity: given ?? 1) }
        let polarity = given ?? (polarityVote(x, rateHz: rateHz, constants: c) >= 0 ? 1 : -1)
        let upright = polarity == 1 ? x : x.map { -$0 }
        return Result(onsets: onsets(upright, rateHz: rateHz, constants: c, footTolerance: c.footTolerance), polarity: polarity)
    }

    /// The band-passed signal: Butterworth high-pass then low-pass biquads, each started in
    /// steady state at the first sample.
    static func bandPassed(_ x: [Double], rateHz: Double, constants c: PPGBeatConstants) -> [Double] {
        let hp = Biquad.highPass(cornerHz: c.bandLowHz, rateHz: rateHz), lp = Biquad.lowPass(cornerHz: c.bandHighHz, rateHz: rateHz)
        let y = hp.run(x, steadyAt: x[0])
        return lp.run(y, steadyAt: y[0])
    }

    /// An odd number of samples nearest `seconds`.
    static func oddSamples(_ seconds: Double, _ rateHz: Double) -> Int {
        let k = Int((seconds * rateHz).rounded())
        return k % 2 == 1 ? k : k + 1
    }

    /// Centred moving average over `w` (odd) samples, the window cut at the ends.
    static func centredMean(_ z: [Double], _ w: Int) -> [Double] {
        var prefix = [Double](repeating: 0, count: z.count + 1)
        for i in z.indices { prefix[i + 1] = prefix[i] + z[i] }
        let h = w / 2
        return z.indices.map { i in
            let lo = max(0, i - h), hi = min(z.count, i + h + 1)
            return (prefix[hi] - prefix[lo]) / Double(hi - lo)
        }
    }

    /// Systolic peaks: blocks where the peak average exceeds the beat average, at least
    /// the peak window wide, each giving its highest band-passed sample.
    static func systolicPeaks(_ y: [Double], rateHz: Double, constants c: PPGBeatConstants) -> [Int] {
        let z = y.map { $0 > 0 ? $0 * $0 : 0 }
        let peakMean = centredMean(z, oddSamples(c.peakWindowS, rateHz))
        var beatMean = centredMean(z, oddSamples(c.beatWindowS, rateHz))
        if c.blockOffset > 0 {
            let offset = c.blockOffset * z.reduce(0, +) / Double(z.count)
            beatMean = beatMean.map { $0 + offset }
        }
        let minBlock = Int((c.peakWindowS * rateHz).rounded())
        let refractory = c.minIntervalS * rateHz
        var peaks: [Int] = []
        var i = 0
        while i < y.count {
            guard peakMean[i] > beatMean[i] else { i += 1; continue }
            var j = i
            while j < y.count, peakMean[j] > beatMean[j] { j += 1 }
            if j - i >= minBlock {
                var p = i
                for k in i..<j where y[k] > y[p] { p = k }
                if let last = peaks.last, Double(p - last) < refractory {
                    if y[p] > y[last] { peaks[peaks.count - 1] = p }
                } else {
                    peaks.append(p)
                }
            }
            i = j
        }
        return peaks
    }

    /// The foot of each pulse whose band-passed peak is in `peaks`.
    static func onsets(_ x: [Double], rateHz: Double, constants c: PPGBeatConstants, footTolerance: Double) -> [Double] {
        let peaks = systolicPeaks(bandPassed(x, rateHz: rateHz, constants: c), rateHz: rateHz, constants: c)
        let search = Int((c.onsetSearchS * rateHz).rounded())
        var found: [Double] = []
        var previous = Int.min / 2
        for p in peaks {
            let lo = max(p - search, previous, 0)
            previous = p
            guard p - lo >= 2 else { continue }
            // The steepest rise, then back down the upstroke to its last minimum.
            var m = lo
            for k in lo..<p where x[k + 1] - x[k] > x[m + 1] - x[m] { m = k }
            // No rise before the peak (a decaying tail at the recording's end): no pulse.
            guard x[m + 1] > x[m] else { continue }
            var k = m
            while k > lo, x[k - 1] < x[k] { k -= 1 }
            var g = lo
            for j in lo...m where x[j] < x[g] { g = j }
            var top = x[lo]
            for j in lo...p { top = max(top, x[j]) }
            if x[g] < x[k] - footTolerance * (top - x[k]) { k = g }
            guard k > 0, k < x.count - 1 else { continue }
            found.append(Double(k) + ParabolicPeak.offset(x, at: k, clamped: true))
        }
        // Two peaks can share a foot (a dicrotic wave taken for a pulse): the first is kept.
        var kept: [Double] = []
        for o in found where kept.last.map({ o - $0 >= c.minIntervalS * rateHz }) ?? true { kept.append(o) }
        return kept
    }

    /// The polarity vote, positive for upright: per `polarity_window_s`, the median share
    /// of each interval from a foot to the highest sample before the next foot, for the
    /// signal and its negation; the negation's less the signal's, summed over windows with
    /// at least 5 intervals (the sign with the smaller shares is upright). Votes of a
    /// recording's stretches add up.
    static func polarityVote(_ x: [Double], rateHz: Double, constants c: PPGBeatConstants) -> Double {
        guard x.count >= 4 else { return 0 }
        let window = c.polarityWindowS * rateHz
        let windows = max(1, Int(Double(x.count) / window))
        func medians(_ s: [Double]) -> [Double?] {
            let on = onsets(s, rateHz: rateHz, constants: c, footTolerance: 0)
            var shares = [[Double]](repeating: [], count: windows)
            for (a, b) in zip(on, on.dropFirst()) {
                let from = Int(a.rounded()), to = Int(b.rounded())
                guard to > from else { continue }
                var top = from
                for k in from..<to where s[k] > s[top] { top = k }
                shares[min(Int(a / window), windows - 1)].append(Double(top - from) / (b - a))
            }
            return shares.map { v in
                guard v.count >= 5 else { return nil }
                let sorted = v.sorted()
                return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            }
        }
        let up = medians(x), down = medians(x.map { -$0 })
        var sum = 0.0
        for (u, d) in zip(up, down) { if let u, let d { sum += d - u } }
        return sum
    }
}
