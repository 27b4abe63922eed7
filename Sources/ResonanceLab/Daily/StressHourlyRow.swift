/// One row of `stress_hourly.csv` (docs/tables.md, stress_hourly.csv): a local hour's
/// circadian stress estimate of a person-day (`StressEngine.hourly`).
public struct StressHourlyRow: Equatable, Sendable {
    public var subject: String
    /// The subject's local date, `YYYY-MM-DD`.
    public var date: String
    /// Local clock hour, 0–23.
    public var hour: Int
    /// The day's SDNN × the hour's circadian multiplier, ms.
    public var hrvEstimateMs: Double
    public var multiplier: Double
    /// 0–100.
    public var stress: Double
    /// `relaxed`, `balanced` or `elevated`.
    public var level: String

    public init(subject: String, date: String, hour: Int, hrvEstimateMs: Double, multiplier: Double, stress: Double,
                level: String) {
        self.subject = subject; self.date = date; self.hour = hour; self.hrvEstimateMs = hrvEstimateMs
        self.multiplier = multiplier; self.stress = stress; self.level = level
    }

    /// The hourly rows of every assessed day with a stress score and an HRV z-score, in
    /// the assessments' order, hours ascending: made one day at a time as they are
    /// written, never all held (24 a person-day).
    static func rows(_ assessments: [DailyAssessment], engine: StressEngine) -> some Sequence<StressHourlyRow> {
        assessments.lazy.flatMap { a -> [StressHourlyRow] in
            guard let stress = a.stress else { return [] }
            return engine.hourly(sdnnMs: a.snapshot.hrvSDNNMs, signals: stress.signals).map {
                StressHourlyRow(subject: a.snapshot.subject, date: a.snapshot.date, hour: $0.hour, hrvEstimateMs: $0.hrvEstimateMs,
                                multiplier: $0.multiplier, stress: $0.stress, level: $0.level.rawValue)
            }
        }
    }
}

extension StressHourlyRow: CanonicalRow {
    public static let fileName = "stress_hourly.csv"
    public static let header = ["subject", "date", "hour", "hrv_estimate_ms", "multiplier", "stress", "level"]

    public func write(to w: CSVWriter) {
        w.field(subject); w.field(date); w.field(hour); w.field(hrvEstimateMs); w.field(multiplier); w.field(stress)
        w.field(level)
    }

    public init(_ r: CanonicalFieldReader) throws {
        let date = try r.string("date")
        guard Timestamp.dayNumber(isoDate: date) != nil else { throw r.fail("date", "'date' is not a YYYY-MM-DD date: '\(date)'") }
        let hour = try r.count("hour")
        guard hour < 24 else { throw r.fail("hour", "'hour' is not 0–23: \(hour)") }
        self.init(subject: try r.string("subject"), date: date, hour: hour, hrvEstimateMs: try r.double("hrv_estimate_ms"),
                  multiplier: try r.double("multiplier"), stress: try r.double("stress"), level: try r.string("level"))
    }
}
