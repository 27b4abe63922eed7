/// Long-term indices over consecutive 5-minute segments of a recording (Task Force
/// 1996): SDANN, the SD of segment mean NN, and SDNN index, the mean of segment SDNN.
public struct HRVLongTerm: Sendable {
    public var sdann = Double.nan
    public var sdnni = Double.nan

    /// Segments whose intervals cover less than this fraction are left out, so gaps
    /// do not enter as short, noisy segments.
    public static let minimumCoverage = 0.5

    public init() {}

    /// Segments [t0 + k·segment, t0 + (k+1)·segment) from the first beat; NaN below two
    /// usable segments.
    public init(_ series: NNSeries, range: Range<Int>, segmentMs: Double = 300_000) {
        guard let first = range.first else { return }
        let t0 = series.timeMs[first] - series.nnMs[first]
        var means: [Double] = [], sds: [Double] = []
        var i = range.lowerBound
        while i < range.upperBound {
            let k = ((series.timeMs[i] - t0) / segmentMs).rounded(.down)
            let segmentEnd = t0 + (k + 1) * segmentMs
            var end = i + 1
            while end < range.upperBound && series.timeMs[end] < segmentEnd { end += 1 }
            let seg = Array(series.nnMs[i..<end])
            if seg.reduce(0, +) >= HRVLongTerm.minimumCoverage * segmentMs, seg.count >= 2 {
                means.append(Stats.mean(seg)); sds.append(Stats.sd(seg))
            }
            i = end
        }
        guard means.count >= 2 else { return }
        sdann = Stats.sd(means)
        sdnni = Stats.mean(sds)
    }
}
