extension Array where Element == Double {
    /// First index whose value is ≥ `t`, in an array sorted ascending (binary search).
    func lowerBound(_ t: Double) -> Int {
        var lo = 0, hi = count
        while lo < hi { let mid = (lo + hi) / 2; if self[mid] < t { lo = mid + 1 } else { hi = mid } }
        return lo
    }

    /// Indices of the values in [from, to) of an array sorted ascending.
    func indices(from: Double, to: Double) -> Range<Int> {
        lowerBound(from)..<Swift.max(lowerBound(from), lowerBound(to))
    }
}
