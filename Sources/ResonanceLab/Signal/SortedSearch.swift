/// Binary search, the one used everywhere a sorted array or band is searched.
extension RandomAccessCollection where Index == Int {
    /// The first index whose element does not satisfy `isBefore`, in a collection
    /// partitioned by it (every element that satisfies it comes first); `endIndex` when
    /// all do. O(log n).
    @inline(__always)
    func partitionIndex(where isBefore: (Element) -> Bool) -> Int {
        var lo = startIndex, hi = endIndex
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if isBefore(self[mid]) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}

extension RandomAccessCollection where Index == Int, Element: Comparable {
    /// First index whose value is ≥ `t`, in a collection sorted ascending.
    @inline(__always)
    func lowerBound(_ t: Element) -> Int {
        partitionIndex { $0 < t }
    }

    /// First index whose value is > `t`, in a collection sorted ascending.
    @inline(__always)
    func upperBound(_ t: Element) -> Int {
        partitionIndex { $0 <= t }
    }

    /// Indices of the values in [from, to) of a collection sorted ascending.
    func indices(from: Element, to: Element) -> Range<Int> {
        let lo = lowerBound(from)
        return lo..<Swift.max(lo, lowerBound(to))
    }
}
