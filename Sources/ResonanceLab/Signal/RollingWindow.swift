/// Quantiles of a centred moving window (width `width`, truncated at the ends like
/// pandas' `rolling(center=True, min_periods=1)`), kept in a sorted buffer that is
/// updated by one insertion and one removal per step: O(n·width) with a tiny constant,
/// instead of a sort per beat.
public enum RollingWindow {
    /// For each index i, the type-7 quantiles `ps` of x[i − width/2 … i + width/2].
    public static func centredQuantiles(_ x: [Double], width: Int, _ ps: [Double]) -> [[Double]] {
        let n = x.count
        let half = width / 2
        var out = [[Double]](repeating: [Double](repeating: 0, count: n), count: ps.count)
        guard n > 0 else { return out }
        var sorted: [Double] = []
        sorted.reserveCapacity(width + 1)
        func insert(_ v: Double) {
            var lo = 0, hi = sorted.count
            while lo < hi { let mid = (lo + hi) / 2; if sorted[mid] < v { lo = mid + 1 } else { hi = mid } }
            sorted.insert(v, at: lo)
        }
        func remove(_ v: Double) {
            var lo = 0, hi = sorted.count
            while lo < hi { let mid = (lo + hi) / 2; if sorted[mid] < v { lo = mid + 1 } else { hi = mid } }
            sorted.remove(at: lo)
        }
        for j in 0...min(half, n - 1) { insert(x[j]) }
        for i in 0..<n {
            let h = Double(sorted.count - 1)
            for (q, p) in ps.enumerated() {
                let pos = h * p
                let lo = Int(pos), hi = min(lo + 1, sorted.count - 1)
                out[q][i] = sorted[lo] + (pos - Double(lo)) * (sorted[hi] - sorted[lo])
            }
            if i + half + 1 < n { insert(x[i + half + 1]) }
            if i - half >= 0 { remove(x[i - half]) }
        }
        return out
    }
}
