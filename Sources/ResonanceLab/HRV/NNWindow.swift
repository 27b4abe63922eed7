/// NN intervals in time order with the flags that say which neighbours are successive
/// beats (no gap between them), readable more than once: the HRV indices read them in
/// passes. One window's beats (`NNWindow`), or a whole recording's waiting on disk
/// (`SpilledBeats`).
public protocol NNBeats {
    associatedtype Intervals: Sequence where Intervals.Element == Double
    /// Beats.
    var count: Int { get }
    /// The NN intervals in order, ms.
    var intervals: Intervals { get }
    /// Calls `body(previous, next)` for every pair of successive beats, in order.
    func forEachSuccessivePair(_ body: (Double, Double) -> Void)
}

/// The NN intervals of one analysis window, with the flags that say which neighbours
/// are successive beats (no gap between them).
public struct NNWindow: NNBeats {
    public let nnMs: ArraySlice<Double>
    /// True where a beat does not follow its predecessor (see `NNSeries.runStart`).
    public let runStart: ArraySlice<Bool>

    public init(nnMs: ArraySlice<Double>, runStart: ArraySlice<Bool>) {
        precondition(nnMs.indices == runStart.indices, "NNWindow: misaligned slices")
        self.nnMs = nnMs; self.runStart = runStart
    }

    /// A gap-free window.
    public init(_ nnMs: [Double]) {
        self.init(nnMs: nnMs[...], runStart: ArraySlice(repeatElement(false, count: nnMs.count)))
    }

    public init(_ series: NNSeries, _ range: Range<Int>) {
        self.init(nnMs: series.nnMs[range], runStart: series.runStart[range])
    }

    public var count: Int { nnMs.count }
    public var intervals: ArraySlice<Double> { nnMs }

    /// Calls `body(previous, next)` for every pair of successive beats in the window.
    @inline(__always)
    public func forEachSuccessivePair(_ body: (Double, Double) -> Void) {
        guard nnMs.count > 1 else { return }
        for k in (nnMs.startIndex + 1)..<nnMs.endIndex where !runStart[k] {
            body(nnMs[k - 1], nnMs[k])
        }
    }
}
