/// Quantiles of a centred moving window (width `width`, truncated at the ends like
/// pandas' `rolling(center=True, min_periods=1)`), updated as the window slides instead
/// of sorted per beat. Where every value a window holds lies on one grid of
/// `countedBins` values (intervals and their differences in whole milliseconds, as
/// wearables export them, or in ticks of the clock that timed the beats) the window is a
/// count per value, and each quantile a cursor that moves a value or two per beat;
/// elsewhere it is a sorted buffer, updated in place. Both give the type-7 quantile of
/// the same values, so the same bits.
public enum RollingWindow {
    /// Values of a grid at or above this many steps (or off it, or negative) are held in
    /// the sorted buffer.
    public static let countedBins = 1 << 12

    /// The grid steps a counted window can hold values on, ms: whole milliseconds, then
    /// the ticks of 2^j Hz clocks from 64 Hz (the E4's `IBI.csv`) through 128 Hz
    /// (PhysioNet's Holter annotations) to 1,024 Hz. Each is a binary fraction, so a
    /// count's value, bin × step, is the held value's own bits.
    static let countedSteps: [Double] = [1, 15.625, 7.8125, 3.90625, 1.953125, 0.9765625]

    /// Stretches of counted windows shorter than this many widths are left to the sorted
    /// buffer: starting a window holds its values one by one, which a short stretch does
    /// not repay.
    static let countedStretchWidths = 2

    /// For each index i, the type-7 quantiles `ps` of x[i − width/2 … i + width/2].
    public static func centredQuantiles(_ x: [Double], width: Int, _ ps: [Double]) -> [[Double]] {
        let n = x.count
        guard n > 0 else { return ps.map { _ in [] } }
        let half = width / 2
        // Quantile q of beat i at flat[q·n + i]; the buffers are each accessed once, not per value.
        var flat = [Double](repeating: 0, count: ps.count * n)
        x.withUnsafeBufferPointer { x in
            flat.withUnsafeMutableBufferPointer { out in
                let grid = CountedGrid.holdingMost(of: x)
                for (outputs, counted) in stretches(x, half: half, grid: grid) {
                    if counted {
                        var window = CountedWindow(quantiles: ps.count, grid: grid)
                        slide(&window, x, half: half, outputs: outputs, ps, out: out)
                    } else {
                        var window = SortedWindow(capacity: min(n, 2 * half + 1))
                        slide(&window, x, half: half, outputs: outputs, ps, out: out)
                    }
                }
            }
        }
        return ps.indices.map { q in Array(flat[(q * n)..<((q + 1) * n)]) }
    }

    /// The outputs in order, as stretches each computed by one kind of window: counted
    /// where no window of the stretch holds a value the counts cannot.
    static func stretches(_ x: UnsafeBufferPointer<Double>, half: Int, grid: CountedGrid) -> [(Range<Int>, counted: Bool)] {
        let n = x.count
        // Outputs whose window holds an uncountable value, as merged ranges.
        var sorted: [Range<Int>] = []
        for j in 0..<n where grid.bin(x[j]) == nil {
            let lo = max(0, j - half), hi = min(n, j + half + 1)
            if let last = sorted.last, lo <= last.upperBound {
                sorted[sorted.count - 1] = last.lowerBound..<hi
            } else {
                sorted.append(lo..<hi)
            }
        }
        let shortest = countedStretchWidths * (2 * half + 1)
        var out: [(Range<Int>, counted: Bool)] = []
        func add(_ r: Range<Int>, counted: Bool) {
            guard !r.isEmpty else { return }
            if let last = out.last, last.counted == counted {
                out[out.count - 1].0 = last.0.lowerBound..<r.upperBound
            } else {
                out.append((r, counted))
            }
        }
        var next = 0
        for r in sorted {
            add(next..<r.lowerBound, counted: r.lowerBound - next >= shortest)
            add(r, counted: false)
            next = r.upperBound
        }
        add(next..<n, counted: n - next >= shortest)
        return out
    }

    /// The quantiles `ps` of the windows of `outputs`, the window first filled with the
    /// values of the stretch's first output, then slid one beat at a time.
    private static func slide<Window: QuantileWindow>(_ window: inout Window, _ x: UnsafeBufferPointer<Double>, half: Int,
                                                       outputs: Range<Int>, _ ps: [Double],
                                                       out: UnsafeMutableBufferPointer<Double>) {
        let n = x.count
        let first = outputs.lowerBound
        for j in max(0, first - half)...min(first + half, n - 1) { window.insert(x[j]) }
        for i in outputs {
            let h = Double(window.size - 1)
            for (q, p) in ps.enumerated() {
                let pos = h * p
                let lo = Int(pos)
                let (a, b) = window.ranks(lo, quantile: q)
                out[q * n + i] = a + (pos - Double(lo)) * (b - a)
            }
            guard i + 1 < outputs.upperBound else { break }
            let leaving = i - half >= 0, entering = i + half + 1 < n
            if leaving && entering {
                window.replace(x[i - half], by: x[i + half + 1])
            } else if leaving {
                window.remove(x[i - half])
            } else if entering {
                window.insert(x[i + half + 1])
            }
        }
    }
}

/// The values a counted window holds: bin k holds the value k × `step`, ms.
struct CountedGrid {
    let step: Double
    private let perStep: Double

    init(step: Double) {
        self.step = step
        perStep = 1 / step
    }

    /// The bin of `v` when it lies on the grid below `RollingWindow.countedBins` steps
    /// (not −0, whose bits a count would not give back); nil otherwise.
    @inline(__always)
    func bin(_ v: Double) -> Int? {
        guard v >= 0, v < Double(RollingWindow.countedBins) * step, v.sign == .plus else { return nil }
        let k = heldBin(v)
        return Double(k) * step == v ? k : nil
    }

    /// The bin of a value on the grid (`bin(_:)` is not nil): v / step to the nearest
    /// whole number, which v × (1 / step) is within a rounding of.
    @inline(__always)
    func heldBin(_ v: Double) -> Int { Int(v * perStep + 0.5) }

    @inline(__always)
    func value(_ k: Int) -> Double { Double(k) * step }

    /// The grid of `RollingWindow.countedSteps` that holds the most values of `x`, judged
    /// on at most 64 of them evenly spaced, the earlier step on a tie (so the first that
    /// holds them all). Any grid gives the same quantiles; the one that holds the most
    /// leaves the fewest to the sorted buffer.
    static func holdingMost(of x: UnsafeBufferPointer<Double>) -> CountedGrid {
        let spacing = max(1, x.count / 64)
        let judged = (x.count + spacing - 1) / spacing
        var best = CountedGrid(step: RollingWindow.countedSteps[0]), bestHeld = -1
        for step in RollingWindow.countedSteps where bestHeld < judged {
            let grid = CountedGrid(step: step)
            var held = 0
            for j in stride(from: 0, to: x.count, by: spacing) where grid.bin(x[j]) != nil { held += 1 }
            if held > bestHeld { (best, bestHeld) = (grid, held) }
        }
        return best
    }
}

/// The values of a moving window, as the rolling quantiles read them.
private protocol QuantileWindow {
    var size: Int { get }
    mutating func insert(_ v: Double)
    mutating func remove(_ v: Double)
    mutating func replace(_ old: Double, by new: Double)
    /// The values of ascending rank k and k + 1 (0-based; the second is the last value
    /// when k is the last rank), for the quantile numbered `quantile`.
    mutating func ranks(_ k: Int, quantile: Int) -> (Double, Double)
}

/// A sorted buffer: the leaving value is replaced by the entering one with a shift of
/// only the values between them.
private struct SortedWindow: QuantileWindow {
    private var sorted: [Double]
    private(set) var size = 0

    init(capacity: Int) { sorted = [Double](repeating: 0, count: capacity) }

    mutating func insert(_ v: Double) {
        sorted.withUnsafeMutableBufferPointer { sorted in
            var i = size
            while i > 0 && sorted[i - 1] > v { sorted[i] = sorted[i - 1]; i -= 1 }
            sorted[i] = v
        }
        size += 1
    }

    mutating func remove(_ v: Double) {
        let size = size
        sorted.withUnsafeMutableBufferPointer { sorted in
            var i = sorted[..<size].lowerBound(v)
            while i + 1 < size { sorted[i] = sorted[i + 1]; i += 1 }
        }
        self.size -= 1
    }

    mutating func replace(_ old: Double, by new: Double) {
        let size = size
        sorted.withUnsafeMutableBufferPointer { sorted in
            var i = sorted[..<size].lowerBound(old)
            if new > old {
                while i + 1 < size && sorted[i + 1] < new { sorted[i] = sorted[i + 1]; i += 1 }
            } else {
                while i > 0 && sorted[i - 1] > new { sorted[i] = sorted[i - 1]; i -= 1 }
            }
            sorted[i] = new
        }
    }

    func ranks(_ k: Int, quantile _: Int) -> (Double, Double) {
        (sorted[k], sorted[min(k + 1, size - 1)])
    }
}

/// A count per value of a grid (`CountedGrid`), with a bit per value
/// held (to step to the next or previous one a word at a time), and per quantile a
/// cursor: a value and how many held values lie below it. A beat moves each cursor by
/// at most one rank, so a quantile costs a step or two instead of a shift of the buffer.
private final class CountedWindow: QuantileWindow {
    private let count = UnsafeMutablePointer<Int32>.allocate(capacity: RollingWindow.countedBins)
    private let held = UnsafeMutablePointer<UInt64>.allocate(capacity: RollingWindow.countedBins / 64)
    private let quantiles: Int
    private let grid: CountedGrid
    private let cursor: UnsafeMutablePointer<Int>
    private let below: UnsafeMutablePointer<Int>
    private(set) var size = 0

    init(quantiles: Int, grid: CountedGrid) {
        self.quantiles = quantiles
        self.grid = grid
        count.initialize(repeating: 0, count: RollingWindow.countedBins)
        held.initialize(repeating: 0, count: RollingWindow.countedBins / 64)
        cursor = .allocate(capacity: quantiles)
        cursor.initialize(repeating: 0, count: quantiles)
        below = .allocate(capacity: quantiles)
        below.initialize(repeating: 0, count: quantiles)
    }

    deinit {
        count.deallocate(); held.deallocate(); cursor.deallocate(); below.deallocate()
    }

    @inline(__always)
    func insert(_ v: Double) {
        let u = grid.heldBin(v)
        count[u] += 1
        held[u >> 6] |= 1 << UInt64(u & 63)
        for q in 0..<quantiles { below[q] &+= u < cursor[q] ? 1 : 0 }
        size += 1
    }

    @inline(__always)
    func remove(_ v: Double) {
        let u = grid.heldBin(v)
        count[u] -= 1
        if count[u] == 0 { held[u >> 6] &= ~(1 << UInt64(u & 63)) }
        for q in 0..<quantiles { below[q] &-= u < cursor[q] ? 1 : 0 }
        size -= 1
    }

    @inline(__always)
    func replace(_ old: Double, by new: Double) {
        remove(old)
        insert(new)
    }

    /// The first value held at or above `from` (one is).
    private func next(_ from: Int) -> Int {
        var w = from >> 6
        var bits = held[w] & (~0 << UInt64(from & 63))
        while bits == 0 { w += 1; bits = held[w] }
        return w << 6 | bits.trailingZeroBitCount
    }

    /// The last value held at or below `from` (one is).
    private func previous(_ from: Int) -> Int {
        var w = from >> 6
        var bits = held[w] & (~0 >> UInt64(63 - from & 63))
        while bits == 0 { w -= 1; bits = held[w] }
        return w << 6 | (63 - bits.leadingZeroBitCount)
    }

    @inline(__always)
    func ranks(_ k: Int, quantile q: Int) -> (Double, Double) {
        // The cursor moves to the value v whose ranks below(v) ..< below(v) + count(v) hold k.
        var v = cursor[q], b = below[q]
        while b > k { v = previous(v - 1); b -= Int(count[v]) }
        while b + Int(count[v]) <= k { b += Int(count[v]); v = next(v + 1) }
        cursor[q] = v; below[q] = b
        let above = k + 1 >= size || b + Int(count[v]) > k + 1 ? v : next(v + 1)
        return (grid.value(v), grid.value(above))
    }
}
