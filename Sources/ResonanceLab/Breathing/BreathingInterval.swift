/// One paced-breathing interval of `breathing.csv` (docs/tables.md, breathing.csv): the
/// rate a subject was paced at between two times. Empty bounds reach to the start or
/// end of the recording, so a row with both empty gives the whole recording one rate.
public struct BreathingInterval: Sendable, Equatable {
    public var subject: String
    /// ms since the epoch; nil from the start of the recording.
    public var startedAtMs: Int64?
    /// ms since the epoch (exclusive); nil to the end of the recording.
    public var endedAtMs: Int64?
    /// Paced rate, breaths per minute.
    public var rateBpm: Double
    /// Where the rate comes from (`protocol`, `pacer`, `simulation`, a file name, …).
    public var source: String

    public init(subject: String, startedAtMs: Int64?, endedAtMs: Int64?, rateBpm: Double, source: String) {
        self.subject = subject; self.startedAtMs = startedAtMs; self.endedAtMs = endedAtMs
        self.rateBpm = rateBpm; self.source = source
    }

    /// Whether the interval holds time `ms`.
    public func contains(_ ms: Double) -> Bool {
        (startedAtMs.map { Double($0) <= ms } ?? true) && (endedAtMs.map { ms < Double($0) } ?? true)
    }

    /// The paced rate in force at `ms` among `intervals` (the latest-starting interval
    /// that holds it), breaths/min; nil when none does.
    public static func rate(at ms: Double, in intervals: [BreathingInterval]) -> Double? {
        intervals.last { $0.contains(ms) }?.rateBpm
    }
}

extension BreathingInterval: CanonicalRow {
    public static let fileName = "breathing.csv"
    public static let header = ["subject", "started_at", "ended_at", "rate_bpm", "source"]
    /// Paced rates a table may hold, breaths/min.
    public static let plausibleRates: ClosedRange<Double> = 1...30

    public func write(to w: CSVWriter) {
        w.field(subject)
        w.field(timestampMs: startedAtMs)
        w.field(timestampMs: endedAtMs)
        w.field(rateBpm)
        w.field(source)
    }

    public init(_ r: CanonicalFieldReader) throws {
        let rate = try r.double("rate_bpm")
        guard Self.plausibleRates.contains(rate) else {
            throw r.fail("rate_bpm", "'rate_bpm' = \(rate) is outside \(RRConstants.text(Self.plausibleRates.lowerBound))…"
                + "\(RRConstants.text(Self.plausibleRates.upperBound)) breaths/min")
        }
        self.init(subject: try r.string("subject"), startedAtMs: try r.optionalTimestamp("started_at"),
                  endedAtMs: try r.optionalTimestamp("ended_at"), rateBpm: rate, source: try r.string("source"))
        if let a = startedAtMs, let b = endedAtMs, b <= a {
            throw r.fail("ended_at", "'ended_at' is not after 'started_at'")
        }
    }
}
