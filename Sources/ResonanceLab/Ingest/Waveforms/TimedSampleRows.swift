/// The rate of a waveform whose rows carry their own sample times (Polar Sensor Logger's
/// sensor clock, a waveform CSV's time column), from a first pass over those times: the
/// median of the first `medianSteps` steps finds the gaps (a step longer than
/// `gapPeriods` medians), and the rate is the number of the other steps over their sum,
/// i.e. each gap-free stretch's span over its steps, pooled. A single step is as coarse
/// as the clock's tick (a millisecond in an ISO time) or its jitter; a span of thousands
/// of them is not.
struct SampleRate {
    static let medianSteps = 1024
    let gapPeriods: Double
    private var first: [Double] = []
    private var median: Double?
    private var sum = 0.0
    private var count = 0
    private var previous: Double?

    init(gapPeriods: Double) {
        self.gapPeriods = gapPeriods
    }

    /// The next row's time, seconds on the source's clock; nil when it cannot be read.
    /// A step is measured between consecutive rows whose times are read and move
    /// forward, so that a rejected row never makes one step of two.
    mutating func add(_ t: Double?) {
        let p = previous
        previous = nil
        guard let t, p.map({ t > $0 }) ?? true else { return }
        previous = t
        guard let p else { return }
        if let median { return take(t - p, median) }
        first.append(t - p)
        if first.count == SampleRate.medianSteps { settle() }
    }

    private mutating func settle() {
        let m = Stats.median(first)
        median = m
        for step in first { take(step, m) }
        first = []
    }

    private mutating func take(_ step: Double, _ median: Double) {
        guard step <= gapPeriods * median else { return }
        sum += step
        count += 1
    }

    /// Samples per second, rounded to the microhertz; nil without a forward step.
    mutating func rateHz() -> Double? {
        if median == nil, !first.isEmpty { settle() }
        guard count > 0, sum > 0 else { return nil }
        return (Double(count) / sum * 1_000_000).rounded() / 1_000_000
    }
}

/// Places the rows of a waveform with its own sample times on the frames of its
/// recording (`WaveformSink.Recording`), never resampling: a row a step of at most
/// `gapPeriods` sample periods after the one before is the next frame; a longer step is
/// a gap, and the row starts a new segment at the frame its time gives from the first
/// row's (`start + frame / rate` stays within half a period of the source's clock). A
/// row whose time cannot be read, or does not move forward, is rejected, and the next
/// row starts a new segment at its own time. A row that is wider than the header or
/// whose samples cannot be read keeps its frame (`SampleRows`).
struct TimedSampleRows {
    /// The longest a recording may span, seconds: the years 0000–9999.
    static let maxSpanS = 10_000 * 366 * 86_400.0
    private var rows: SampleRows
    let rateHz: Double
    let gapPeriods: Double
    /// Gaps in the source's clock, each starting a new segment.
    private(set) var gaps = 0
    /// The time of frame 0, and of the last row placed, seconds on the source's clock.
    private var origin: Double?
    private var last: Double?
    /// Whether the next row starts a segment of its own (a row before it was rejected).
    private var broken = false

    init(_ rows: SampleRows, rateHz: Double, gapPeriods: Double) {
        self.rows = rows; self.rateHz = rateHz; self.gapPeriods = gapPeriods
    }

    /// One row whose time is `t` (seconds on the source's clock; nil when unreadable),
    /// read from field `timeField`.
    mutating func row(_ record: CSVRecord, time t: Double?, timeField: Int, into sink: ImportSink) throws {
        guard let t else { return try rejectTime(record, timeField, "unparsable time", sink) }
        let recording = rows.recording
        if let origin, let last {
            guard t > last else { return try rejectTime(record, timeField, "time not after the previous row's", sink) }
            guard t - origin <= TimedSampleRows.maxSpanS else {
                return try rejectTime(record, timeField, "time outside years 0000–9999", sink)
            }
            if broken || t - last > gapPeriods / rateHz {
                gaps += broken ? 0 : 1
                recording.skip(to: Int(((t - origin) * rateHz).rounded()))
            }
        } else {
            origin = t - Double(recording.frames) / rateHz
        }
        broken = false
        last = t
        try rows.row(record, into: sink)
    }

    /// Writes the run of rejected rows being counted, if any: after the last row.
    mutating func finish(into sink: ImportSink) throws {
        try rows.flushRejected(into: sink)
    }

    private mutating func rejectTime(_ record: CSVRecord, _ field: Int, _ reason: String, _ sink: ImportSink) throws {
        try rows.flushRejected(into: sink)
        try sink.reject(rows.file, record, column: field + 1, reason: reason)
        broken = true
    }
}
