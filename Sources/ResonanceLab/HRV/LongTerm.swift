/// Long-term indices over consecutive 5-minute segments of a recording (Task Force
/// 1996): SDANN, the SD of segment mean NN, and SDNN index, the mean of segment SDNN.
public struct HRVLongTerm: Sendable {
    public var sdann = Double.nan
    public var sdnni = Double.nan

    /// Segments whose intervals cover less than this fraction are left out, so gaps
    /// do not enter as short, noisy segments.
    public static let minimumCoverage = 0.5

    public init() {}

    /// Segments [t0 + k·segment, t0 + (k+1)·segment) from the first beat (t0 its time less
    /// its interval); NaN below two usable segments.
    public init(_ series: NNSeries, range: Range<Int>, segmentMs: Double = 300_000) {
        var segments = Segments(segmentMs: segmentMs)
        for i in range { segments.add(timeMs: series.timeMs[i], nnMs: series.nnMs[i]) }
        self = segments.finish()
    }

    /// The segments of beats taken one at a time in time order, holding one segment's
    /// intervals and each segment's mean and SD (16 bytes a segment, 1.7 MB a year).
    public struct Segments {
        let segmentMs: Double
        /// The first beat's time less its interval, set by the first beat.
        private var t0 = 0.0, started = false
        private var segmentEndMs = 0.0
        private var segment: [Double] = []
        private var means: [Double] = [], sds: [Double] = []

        public init(segmentMs: Double = 300_000) { self.segmentMs = segmentMs }

        public mutating func add(timeMs: Double, nnMs: Double) {
            if !started { (t0, started) = (timeMs - nnMs, true) }
            if segment.isEmpty || timeMs >= segmentEndMs {
                close()
                let k = ((timeMs - t0) / segmentMs).rounded(.down)
                segmentEndMs = t0 + (k + 1) * segmentMs
            }
            segment.append(nnMs)
        }

        /// Keeps the segment read so far when its intervals cover enough of it.
        private mutating func close() {
            if segment.reduce(0, +) >= HRVLongTerm.minimumCoverage * segmentMs, segment.count >= 2 {
                means.append(Stats.mean(segment)); sds.append(Stats.sd(segment))
            }
            segment.removeAll(keepingCapacity: true)
        }

        public mutating func finish() -> HRVLongTerm {
            close()
            var out = HRVLongTerm()
            guard means.count >= 2 else { return out }
            out.sdann = Stats.sd(means)
            out.sdnni = Stats.mean(sds)
            return out
        }
    }
}
