import Foundation

/// Time-domain HRV indices (Task Force of the ESC/NASPE, 1996), named as in NeuroKit2.
/// Inputs are NN intervals in milliseconds; outputs in ms unless named otherwise.
/// Successive differences are taken only between successive beats (never across a gap).
public struct HRVTime: Sendable {
    public var meanNN = Double.nan
    public var sdnn = Double.nan
    public var rmssd = Double.nan
    public var sdsd = Double.nan
    /// Percentage of successive differences above 50 ms (resp. 20 ms), over the number
    /// of intervals in successive pairs (Task Force: over all NN intervals; equal
    /// without gaps), as NeuroKit2.
    public var pnn50 = Double.nan
    public var pnn20 = Double.nan
    /// Mean and SD of instantaneous heart rate 60000/NN (bpm).
    public var meanHR = Double.nan
    public var sdhr = Double.nan
    /// SDNN / MeanNN (ratio).
    public var cvnn = Double.nan
    /// HRV triangular index: beats / height of the NN histogram with 1/128 s bins.
    public var hti = Double.nan

    public init() {}

    /// RMSSD (ms): root mean square of successive NN differences (pairs across a gap
    /// excluded). NaN without a successive pair.
    public static func rmssd<Beats: NNBeats>(_ w: Beats) -> Double {
        var pairs = 0, squares = 0.0
        w.forEachSuccessivePair { a, b in
            pairs += 1
            squares += (b - a) * (b - a)
        }
        return pairs > 0 ? (squares / Double(pairs)).squareRoot() : .nan
    }

    /// RMSSD (ms) of a gap-free series.
    public static func rmssd(_ rrMs: [Double]) -> Double {
        rmssd(NNWindow(rrMs))
    }

    public init<Beats: NNBeats>(_ w: Beats) {
        let n = w.count
        guard n >= 2 else { return }
        var sum = 0.0, hrSum = 0.0
        var lo = Double.infinity, hi = -Double.infinity
        for v in w.intervals { sum += v; hrSum += 60000 / v; lo = min(lo, v); hi = max(hi, v) }
        meanNN = sum / Double(n)
        meanHR = hrSum / Double(n)
        var ss = 0.0, hrss = 0.0
        for v in w.intervals {
            ss += (v - meanNN) * (v - meanNN)
            let hr = 60000 / v - meanHR
            hrss += hr * hr
        }
        sdnn = (ss / Double(n - 1)).squareRoot()
        sdhr = (hrss / Double(n - 1)).squareRoot()
        cvnn = sdnn / meanNN

        var nd = 0, dSum = 0.0, nn50 = 0, nn20 = 0
        w.forEachSuccessivePair { a, b in
            let d = b - a
            nd += 1; dSum += d
            if abs(d) > 50 { nn50 += 1 }
            if abs(d) > 20 { nn20 += 1 }
        }
        rmssd = HRVTime.rmssd(w)
        if nd > 0 {
            pnn50 = Double(nn50) / Double(nd + 1) * 100
            pnn20 = Double(nn20) / Double(nd + 1) * 100
        }
        if nd > 1 {
            let dMean = dSum / Double(nd)
            var dss = 0.0
            w.forEachSuccessivePair { a, b in let e = b - a - dMean; dss += e * e }
            sdsd = (dss / Double(nd - 1)).squareRoot()
        }
        hti = Double(n) / Double(HRVTime.histogramPeak(w.intervals, binMs: 1000.0 / 128))
    }

    /// Height of the tallest bin of a histogram with bins [k·binMs, (k+1)·binMs) from 0;
    /// as in NumPy's `histogram` (used by NeuroKit2), a maximum lying exactly on a bin
    /// edge is counted in the bin below, the last bin being closed.
    static func histogramPeak<Intervals: Sequence>(_ nnMs: Intervals, binMs: Double) -> Int where Intervals.Element == Double {
        guard let lo = nnMs.min(), let hi = nnMs.max() else { return 0 }
        func bin(_ v: Double) -> Int {
            let k = Int((v / binMs).rounded(.down))
            return v == hi && k > 0 && Double(k) * binMs == v ? k - 1 : k
        }
        let k0 = bin(lo)
        var counts = [Int](repeating: 0, count: bin(hi) - k0 + 1)
        for v in nnMs { counts[bin(v) - k0] += 1 }
        return counts.max() ?? 0
    }
}
