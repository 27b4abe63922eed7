/// A listener's heart rate, wearable SDNN samples and plausible R-R as the replay reads
/// them: each UTC day's resting HR and median SDNN (for later days' baselines), and the
/// samples the state's windows reach at a decision. Whole, or held forward in time: one
/// pass over the heart rate finds each day's resting HR holding a day's samples, then
/// heart rate and R-R are read as far as the next decision and let go of before its
/// windows (the SDNN samples, sparse, are held whole). Either way each window and each
/// day reads the same samples.
struct ReplayPhysiology {
    /// The samples held, by time.
    private(set) var hr: [TimedSample], sdnn: [TimedSample], rr: [TimedSample]
    /// Per UTC day: the `resting_hr_quantile` of its heart rate, and its median SDNN.
    let restingByDay: [Int64: Double], sdnnMedianByDay: [Int64: Double]
    /// Days with either, ascending.
    let days: [Int64]
    private let hrStream: TimedSampleStream<HRSample>?, rrStream: TimedSampleStream<RRInterval>?

    static let dayMs: Int64 = 86_400_000

    private init(hr: [TimedSample], sdnn: [TimedSample], rr: [TimedSample], restingByDay: [Int64: Double],
                 streams: (TimedSampleStream<HRSample>, TimedSampleStream<RRInterval>)?) {
        self.hr = hr; self.sdnn = sdnn; self.rr = rr
        self.restingByDay = restingByDay
        var sdnnByDay: [Int64: [Double]] = [:]
        for s in sdnn { sdnnByDay[Timestamp.floorDivMod(s.tMs, Self.dayMs).0, default: []].append(s.value) }
        sdnnMedianByDay = sdnnByDay.mapValues { Stats.median($0) }
        days = Set(restingByDay.keys).union(sdnnByDay.keys).sorted()
        (hrStream, rrStream) = (streams?.0, streams?.1)
    }

    /// Every sample held (each sorted by time).
    static func whole(hr: [TimedSample], sdnn: [TimedSample], rr: [TimedSample], restingQuantile: Double) -> ReplayPhysiology {
        var hrByDay: [Int64: [Double]] = [:]
        for s in hr { hrByDay[Timestamp.floorDivMod(s.tMs, dayMs).0, default: []].append(s.value) }
        return ReplayPhysiology(hr: hr, sdnn: sdnn, rr: rr, restingByDay: hrByDay.mapValues { Stats.quantile($0, restingQuantile) },
                                streams: nil)
    }

    /// Held forward in time from `subject`'s rows of `hr.csv` and `rr.csv` (the intervals in
    /// `plausible`'s range); throws `OutOfOrder` when rows go back in time (the subject
    /// is then read whole).
    static func streamed(hr: SubjectIndex, rr: SubjectIndex, subject: String, sdnn: [TimedSample], plausible: RRConstants,
                         restingQuantile: Double) throws -> ReplayPhysiology {
        var resting: [Int64: Double] = [:]
        var day = Int64.min, values: [Double] = [], lastMs = Int64.min
        var cursor = MeasurementCursor<HRSample>(hr, subject)
        while try cursor.readPiece({ timeMs, bpm in
            guard timeMs >= lastMs else { throw OutOfOrder() }
            lastMs = timeMs
            let d = Timestamp.floorDivMod(timeMs, dayMs).0
            if d != day {
                if !values.isEmpty { resting[day] = Stats.quantile(values, restingQuantile) }
                day = d
                values.removeAll(keepingCapacity: true)
            }
            values.append(bpm)
        }) {}
        if !values.isEmpty { resting[day] = Stats.quantile(values, restingQuantile) }
        let streams = (TimedSampleStream<HRSample>(hr, subject: subject) { _ in true },
                       TimedSampleStream<RRInterval>(rr, subject: subject) { $0 >= plausible.rrMinMs && $0 <= plausible.rrMaxMs })
        return ReplayPhysiology(hr: [], sdnn: sdnn, rr: [], restingByDay: resting, streams: streams)
    }

    /// The SDNN (ms) of the R-R held in the `seconds` up to `tickMs`; nil below 2 intervals.
    func beatSDNN(endingAt tickMs: Int64, seconds: Double) -> Double? {
        let beats = DJStateEngine.window(rr, endingAt: tickMs, seconds: seconds).map(\.value)
        return beats.count >= 2 ? Stats.sd(beats) : nil
    }

    /// Holds the heart rate and R-R of (fromMs, throughMs]; `fromMs` never goes back.
    mutating func hold(fromMs: Int64, throughMs: Int64) throws {
        guard let hrStream, let rrStream else { return }
        // The streams' arrays are let go of here first, so they change in place.
        hr = []; rr = []
        try hrStream.hold(fromMs: fromMs, throughMs: throughMs)
        try rrStream.hold(fromMs: fromMs, throughMs: throughMs)
        hr = hrStream.samples; rr = rrStream.samples
    }
}

/// One subject's measurements as timed samples, read forward in time a piece at a time
/// (`MeasurementCursor`): `hold` reads on until a time and lets go of the samples before
/// another. Rows that go back in time throw `OutOfOrder`.
final class TimedSampleStream<Row: MeasurementRow> {
    /// The samples held, by time.
    private(set) var samples: [TimedSample] = []
    private var cursor: MeasurementCursor<Row>
    private let keeps: (Double) -> Bool
    private var lastReadMs = Int64.min
    private var done = false

    /// The samples whose value `keeps` accepts.
    init(_ index: SubjectIndex, subject: String, keeping keeps: @escaping (Double) -> Bool) {
        cursor = MeasurementCursor(index, subject)
        self.keeps = keeps
    }

    /// Holds the samples from `fromMs` on, up to one past `throughMs` (or the last).
    func hold(fromMs: Int64, throughMs: Int64) throws {
        letGo(before: fromMs)
        while !done, !(samples.last.map { $0.tMs > throughMs } ?? false) {
            done = try !cursor.readPiece { timeMs, value in
                guard timeMs >= lastReadMs else { throw OutOfOrder() }
                lastReadMs = timeMs
                if keeps(value) { samples.append(TimedSample(tMs: timeMs, value: value)) }
            }
            letGo(before: fromMs)
        }
    }

    private func letGo(before ms: Int64) {
        let k = samples.partitionIndex { $0.tMs < ms }
        if k > 0 { samples.removeFirst(k) }
    }
}
