/// An unevenly sampled series (e.g. NN intervals at their beat times) resampled once
/// for a whole recording by cubic spline on a uniform grid from its first sample, so
/// that analysis windows are slices rather than fresh interpolations.
public struct ResampledSeries: Sendable {
    /// Times of the original samples, ms (ascending).
    public let knotTimesMs: [Double]
    public let hz: Double
    public let values: [Double]

    public init(timeMs: [Double], values: [Double], hz: Double) {
        knotTimesMs = timeMs
        self.hz = hz
        guard let spline = CubicSpline(x: timeMs, y: values), let t0 = timeMs.first, let t1 = timeMs.last else {
            self.values = []
            return
        }
        let stepMs = 1000 / hz
        self.values = spline.sample(from: t0, step: stepMs, count: Int(((t1 - t0) / stepMs).rounded(.down)) + 1)
    }

    /// Grid samples between the first and the last original sample of `knots` (no
    /// extrapolation beyond the data a window holds); empty below `minimum` samples.
    public func slice(knots: Range<Int>, minimum: Int = 1) -> ArraySlice<Double> {
        guard let first = knotTimesMs.first, !knots.isEmpty else { return [] }
        let stepMs = 1000 / hz
        let a = Int(((knotTimesMs[knots.lowerBound] - first) / stepMs).rounded(.up))
        let b = min(values.count - 1, Int(((knotTimesMs[knots.upperBound - 1] - first) / stepMs).rounded(.down)))
        guard b - a + 1 >= max(1, minimum) else { return [] }
        return values[a...b]
    }

    /// Indices of the original samples whose time lies in [fromMs, toMs).
    public func knots(fromMs: Double, toMs: Double) -> Range<Int> {
        knotTimesMs.indices(from: fromMs, to: toMs)
    }
}
