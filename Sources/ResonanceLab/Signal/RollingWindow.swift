/// Quantiles of a centred moving window (width `width`, truncated at the ends like
/// pandas' `rolling(center=True, min_periods=1)`), kept in a sorted buffer updated in
/// place as the window slides: the leaving value is replaced by the entering one with a
/// shift of only the values between them, instead of a sort per beat.
public enum RollingWindow {
    /// For each index i, the type-7 quantiles `ps` of x[i − width/2 … i + width/2].
    public static func centredQuantiles(_ x: [Double], width: Int, _ ps: [Double]) -> [[Double]] {
        let n = x.count
        guard n > 0 else { return ps.map { _ in [] } }
        // Quantile q of beat i at flat[q·n + i]; the buffers are each accessed once, not per value.
        var flat = [Double](repeating: 0, count: ps.count * n)
        var buffer = [Double](repeating: 0, count: min(n, 2 * (width / 2) + 1))
        x.withUnsafeBufferPointer { x in
            flat.withUnsafeMutableBufferPointer { out in
                buffer.withUnsafeMutableBufferPointer { sorted in
                    slide(x, width: width, ps, sorted: sorted, out: out)
                }
            }
        }
        return ps.indices.map { q in Array(flat[(q * n)..<((q + 1) * n)]) }
    }

    private static func slide(_ x: UnsafeBufferPointer<Double>, width: Int, _ ps: [Double],
                              sorted: UnsafeMutableBufferPointer<Double>, out: UnsafeMutableBufferPointer<Double>) {
        let n = x.count
        let half = width / 2
        var size = 0
        /// Position of the first element ≥ v.
        func position(_ v: Double) -> Int {
            sorted[..<size].lowerBound(v)
        }
        func insert(_ v: Double) {
            var i = size
            while i > 0 && sorted[i - 1] > v { sorted[i] = sorted[i - 1]; i -= 1 }
            sorted[i] = v
            size += 1
        }
        func remove(_ v: Double) {
            var i = position(v)
            while i + 1 < size { sorted[i] = sorted[i + 1]; i += 1 }
            size -= 1
        }
        /// Replaces `old` by `new`, shifting only the values between their positions.
        func replace(_ old: Double, by new: Double) {
            var i = position(old)
            if new > old {
                while i + 1 < size && sorted[i + 1] < new { sorted[i] = sorted[i + 1]; i += 1 }
            } else {
                while i > 0 && sorted[i - 1] > new { sorted[i] = sorted[i - 1]; i -= 1 }
            }
            sorted[i] = new
        }
        for j in 0...min(half, n - 1) { insert(x[j]) }
        for i in 0..<n {
            let h = Double(size - 1)
            for (q, p) in ps.enumerated() {
                let pos = h * p
                let lo = Int(pos), hi = min(lo + 1, size - 1)
                out[q * n + i] = sorted[lo] + (pos - Double(lo)) * (sorted[hi] - sorted[lo])
            }
            let leaving = i - half >= 0, entering = i + half + 1 < n
            if leaving && entering {
                replace(x[i - half], by: x[i + half + 1])
            } else if leaving {
                remove(x[i - half])
            } else if entering {
                insert(x[i + half + 1])
            }
        }
    }
}
