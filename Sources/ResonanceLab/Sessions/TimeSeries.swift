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
