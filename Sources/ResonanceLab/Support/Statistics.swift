import Foundation

/// Descriptive statistics shared by every stage. Sample (n − 1) variance throughout,
/// as in the Task Force (1996) definitions of SDNN and in NeuroKit2.
public enum Stats {
    /// Σx with four interleaved partial sums, so that the additions do not each wait for
    /// the one before (a sequential sum is bound by the adder's latency); the result may
    /// differ from a sequential sum's in the last bits. For the short series summed once
    /// per window (coherence, Welch segments).
    @inline(__always)
    static func interleavedSum(_ x: UnsafeBufferPointer<Double>) -> Double {
        var s = SIMD4<Double>()
        var i = 0
        while i + 4 <= x.count {
            s += SIMD4(x[i], x[i + 1], x[i + 2], x[i + 3])
            i += 4
        }
        var tail = 0.0
        while i < x.count { tail += x[i]; i += 1 }
        return (s[0] + s[1]) + (s[2] + s[3]) + tail
    }

    public static func mean(_ x: [Double]) -> Double {
        x.isEmpty ? .nan : x.reduce(0, +) / Double(x.count)
    }

    /// Sample variance (n − 1 denominator); NaN below two values.
    public static func variance(_ x: [Double]) -> Double {
        guard x.count > 1 else { return .nan }
        let m = mean(x)
        var s = 0.0
        for v in x { s += (v - m) * (v - m) }
        return s / Double(x.count - 1)
    }

    public static func sd(_ x: [Double]) -> Double { variance(x).squareRoot() }

    /// Linear-interpolated quantile (type 7, the default of R and NumPy).
    public static func quantile(_ x: [Double], _ p: Double) -> Double {
        guard !x.isEmpty else { return .nan }
        let s = x.sorted()
        let h = Double(s.count - 1) * p
        let lo = Int(h.rounded(.down)), hi = min(lo + 1, s.count - 1)
        return s[lo] + (h - Double(lo)) * (s[hi] - s[lo])
    }

    public static func median(_ x: [Double]) -> Double { quantile(x, 0.5) }

    /// `quantile` of values given as counts (value → times it occurs; values not NaN), to
    /// the bit: the same order statistics, the same interpolation.
    public static func quantile(counts: [Double: Int], _ p: Double) -> Double {
        let values = counts.keys.sorted()
        let n = values.reduce(0) { $0 + (counts[$1] ?? 0) }
        guard n > 0 else { return .nan }
        // The value at rank `i` (0-based) of the sorted list.
        func at(_ i: Int) -> Double {
            var seen = 0
            for v in values {
                seen += counts[v] ?? 0
                if i < seen { return v }
            }
            return values[values.count - 1]
        }
        let h = Double(n - 1) * p
        let lo = Int(h.rounded(.down)), hi = min(lo + 1, n - 1)
        let a = at(lo), b = at(hi)
        return a + (h - Double(lo)) * (b - a)
    }

    /// Median absolute deviation (unscaled).
    public static func mad(_ x: [Double]) -> Double {
        let m = median(x)
        return median(x.map { abs($0 - m) })
    }

    /// Pearson correlation; NaN when either side is constant.
    public static func pearson(_ x: [Double], _ y: [Double]) -> Double {
        precondition(x.count == y.count, "pearson: lengths differ")
        let mx = mean(x), my = mean(y)
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for i in x.indices {
            sxy += (x[i] - mx) * (y[i] - my)
            sxx += (x[i] - mx) * (x[i] - mx)
            syy += (y[i] - my) * (y[i] - my)
        }
        return sxy / (sxx * syy).squareRoot()
    }

    /// Ranks with ties given their average rank (1-based).
    public static func ranks(_ x: [Double]) -> [Double] {
        let order = x.indices.sorted { x[$0] < x[$1] }
        var r = [Double](repeating: 0, count: x.count)
        var i = 0
        while i < order.count {
            var j = i
            while j + 1 < order.count && x[order[j + 1]] == x[order[i]] { j += 1 }
            let avg = Double(i + j) / 2 + 1
            for k in i...j { r[order[k]] = avg }
            i = j + 1
        }
        return r
    }

    public static func spearman(_ x: [Double], _ y: [Double]) -> Double {
        pearson(ranks(x), ranks(y))
    }
}
