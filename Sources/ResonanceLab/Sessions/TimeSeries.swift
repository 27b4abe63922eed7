/// One listener's time-stamped values sorted by time, searched by binary search so
/// that per-play windows cost O(log n) (1 M plays stay linear overall).
public struct TimeSeries: Sendable {
    public private(set) var timesMs: [Int64]
    public private(set) var values: [Double]

    public init(_ samples: [(timeMs: Int64, value: Double)]) {
        let sorted = samples.sorted { $0.timeMs < $1.timeMs }
        timesMs = sorted.map(\.timeMs)
        values = sorted.map(\.value)
    }

    /// Appends a sample at or after the last.
    mutating func append(timeMs: Int64, value: Double) {
        timesMs.append(timeMs); values.append(value)
    }

    /// Lets go of the samples before `ms`.
    mutating func removeSamples(before ms: Int64) {
        let k = firstIndex(notBefore: ms)
        guard k > 0 else { return }
        timesMs.removeFirst(k); values.removeFirst(k)
    }

    /// Indices of samples with lowMs ≤ t ≤ highMs.
    public func indices(fromMs lowMs: Int64, throughMs highMs: Int64) -> Range<Int> {
        let lo = firstIndex(notBefore: lowMs)
        let hi = firstIndex(notBefore: highMs == .max ? highMs : highMs + 1)
        return lo..<max(lo, hi)
    }

    public func values(fromMs lowMs: Int64, throughMs highMs: Int64) -> ArraySlice<Double> {
        values[indices(fromMs: lowMs, throughMs: highMs)]
    }

    /// Index of the sample closest to `ms` within ±maxDistanceMs (earlier on ties).
    public func nearest(toMs ms: Int64, withinMs maxDistanceMs: Int64) -> Int? {
        let i = firstIndex(notBefore: ms)
        let candidates = [i - 1, i].filter { $0 >= 0 && $0 < timesMs.count }
        guard let best = candidates.min(by: { abs(timesMs[$0] - ms) < abs(timesMs[$1] - ms) }),
              abs(timesMs[best] - ms) <= maxDistanceMs else { return nil }
        return best
    }

    private func firstIndex(notBefore ms: Int64) -> Int {
        timesMs.lowerBound(ms)
    }
}

/// One listener's physiology: HR (bpm), the cleaned NN series (ms) `hrv.csv` is computed
/// on, and wearable SDNN samples (ms).
public struct ListenerPhysiology: Sendable {
    public var hr: TimeSeries
    public var nn: NNSeries
    public var sdnn: TimeSeries

    public init(hr: TimeSeries, nn: NNSeries, sdnn: TimeSeries) {
        self.hr = hr; self.nn = nn; self.sdnn = sdnn
    }

    /// One subject's physiology from its rows: heart rate, the cleaned NN series, and the
    /// SDNN of the wearable's HRV samples that have one.
    public init(hr: [HRSample], nn: NNSeries, sdnn: [HRVSample]) {
        self.init(hr: TimeSeries(hr.map { ($0.timestampMs, $0.bpm) }), nn: nn,
                  sdnn: TimeSeries(sdnn.compactMap { x in x.sdnnMs.map { (x.timestampMs, $0) } }))
    }
}

/// A listener's physiology as the sessions stage reads it, walking the plays and sessions
/// in time order: whole, or held forward in time (heart rate and the NN series read as far
/// as the next window needs, what lies before it let go; the wearable's SDNN samples, sparse,
/// held whole). Either way each window reads the same samples.
struct HeldPhysiology {
    /// What the windows read now.
    private(set) var now: ListenerPhysiology
    private let nn: NNStream?
    private let hr: HeartRateStream?
    /// What the heart-rate sources' rule set aside, when the heart rate is held whole.
    private let wholeOverlap: HeartRateSources.Overlap

    /// Every sample held: the heart rate as the sources' rule keeps it.
    static func whole(hr: [HRSample], nn: NNSeries?, sdnn: [HRVSample]) -> HeldPhysiology {
        let (kept, overlap) = HeartRateSources.resolve(hr)
        return HeldPhysiology(now: ListenerPhysiology(hr: kept, nn: nn ?? .empty, sdnn: sdnn), nn: nil, hr: nil, wholeOverlap: overlap)
    }

    /// Held forward in time from the subject's rows of `hr.csv` and (when given) `rr.csv`.
    /// Reading throws `OutOfOrder` or `HeartRateStream.SeveralSources` when the rows go
    /// back in time or the heart rate has two sources: the subject is then read whole.
    static func streamed(hr: HeartRateStream, nn: NNStream?, sdnn: [HRVSample]) -> HeldPhysiology {
        HeldPhysiology(now: ListenerPhysiology(hr: [], nn: .empty, sdnn: sdnn), nn: nn, hr: hr, wholeOverlap: HeartRateSources.Overlap())
    }

    /// Holds what the windows within [fromMs, throughMs] read; `fromMs` never goes back.
    mutating func hold(fromMs: Int64, throughMs: Int64) throws {
        guard let hr else { return }
        // The streams' columns are let go of here first, so they change in place.
        now.hr = TimeSeries([]); now.nn = .empty
        try hr.hold(fromMs: fromMs, throughMs: throughMs)
        try nn?.hold(fromMs: Double(fromMs), throughMs: Double(throughMs))
        now.hr = hr.series
        now.nn = nn?.series ?? .empty
    }

    /// What the heart-rate sources' rule set aside over the whole recording (read to its
    /// end, when held forward in time).
    mutating func heartRateOverlap() throws -> HeartRateSources.Overlap {
        guard let hr else { return wholeOverlap }
        now.hr = TimeSeries([])
        try hr.hold(fromMs: .max, throughMs: .max)
        return HeartRateSources.Overlap()
    }
}
