/// One subject's `daily.csv` rows, addressed by calendar day: the input of every
/// coaching rule. Days without a value for a metric are missing, not zero.
public struct CoachingHistory: Sendable {
    /// The rows, ascending by day, one subject.
    public let rows: [DailyRow]
    private let index: [Int: Int]

    public init(rows: [DailyRow]) {
        self.rows = rows.sorted { $0.snapshot.day < $1.snapshot.day }
        var index: [Int: Int] = [:]
        for (i, r) in self.rows.enumerated() { index[r.snapshot.day] = i }
        self.index = index
    }

    public func row(_ day: Int) -> DailyRow? { index[day].map { rows[$0] } }

    /// The values of `metric` on the days of `days` that have one, by ascending day.
    func values(_ days: ClosedRange<Int>, _ metric: (DailyRow) -> Double?) -> [Double] {
        days.compactMap { row($0).flatMap(metric) }.filter(\.isFinite)
    }

    /// Activity minutes of a day: walking plus workouts (either alone when the other is
    /// missing; nil when both are).
    static func activityMinutes(_ r: DailyRow) -> Double? {
        let s = r.snapshot
        guard s.walkMinutes != nil || s.workoutMinutes != nil else { return nil }
        return (s.walkMinutes ?? 0) + (s.workoutMinutes ?? 0)
    }

    /// Day of the month (1–31) and weekday (0 Sunday … 6 Saturday) of a day number.
    static func calendar(_ day: Int) -> (dayOfMonth: Int, weekday: Int) {
        let civil = Timestamp.civil(fromDays: Int64(day))
        return (civil.day, ((day % 7) + 11) % 7)
    }
}

/// One week's change of a metric against the week before.
public struct MetricTrend: Equatable, Sendable {
    public enum Direction: String, Sendable { case improving, stable, declining }
    /// `resting_hr`, `hrv`, `activity`, `recovery`, `vo2max`.
    public let metric: String
    public let unit: String
    /// Mean of the week ending the day minus mean of the week before, in `unit`.
    public let change: Double
    /// Change relative to the week before's mean (SDNN's percentage), a fraction.
    public let relativeChange: Double
    /// Values in the week ending the day.
    public let days: Int
    public let direction: Direction
    /// The threshold crossed, e.g. `change -2.00 < -1.5`; `stable` otherwise.
    public let rule: String
}
