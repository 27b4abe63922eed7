/// The weekly coaching report (the heart-health coach's coaching engine) and the
/// factor–metric correlations, both on report days: every Sunday of a subject's days
/// and their last day. Weeks are counted back from the report day's own date, never
/// from the wall clock, so a replay of the same tables gives the same report.
public enum WeeklyReport {
    /// Whether `day` is a report day of `h`: a Sunday, or the last day.
    public static func isReportDay(_ h: CoachingHistory, day: Int) -> Bool {
        CoachingHistory.calendar(day).weekday == 0 || day == h.rows.last?.snapshot.day
    }

    /// Weekly progress score, 0–100: 100 × (improving + ½ × stable) / trends, so all
    /// improving is 100, all stable 50 and all declining 0; nil without any trend.
    public static func progressScore(_ trends: [MetricTrend]) -> Double? {
        guard !trends.isEmpty else { return nil }
        let improving = trends.filter { $0.direction == .improving }.count
        let stable = trends.filter { $0.direction == .stable }.count
        return 100 * (Double(improving) + 0.5 * Double(stable)) / Double(trends.count)
    }

    public struct Correlation: Equatable, Sendable {
        /// `steps_resting_hr`, `walk_minutes_hrv_sdnn`, `activity_minutes_recovery_1m`, `sleep_hours_hrv_sdnn`.
        public let pair: String
        /// Pearson r (Pearson 1895).
        public let r: Double
        public let pairs: Int
        /// `negligible`, `noticeable`, `clear`, `strong`, `very_consistent`.
        public let strength: String
        /// Whether r has the sign the pair is expected to have.
        public let expectedSign: Bool
    }

    /// The four factor–metric pairs with their expected sign: more steps, lower resting
    /// HR; more walking, higher SDNN; more activity (walking and workouts, not workouts
    /// alone), faster recovery; more sleep, higher SDNN.
    static let pairs: [(name: String, factor: (DailyRow) -> Double?, metric: (DailyRow) -> Double?, sign: Double)] = [
        ("steps_resting_hr", { $0.snapshot.steps }, { $0.snapshot.restingHRBpm }, -1),
        ("walk_minutes_hrv_sdnn", { $0.snapshot.walkMinutes }, { $0.snapshot.hrvSDNNMs }, 1),
        ("activity_minutes_recovery_1m", CoachingHistory.activityMinutes, { $0.snapshot.recovery1mBpm }, 1),
        ("sleep_hours_hrv_sdnn", { $0.snapshot.sleepHours }, { $0.snapshot.hrvSDNNMs }, 1),
    ]

    /// The strength band of |r|.
    public static func strength(_ r: Double, constants c: CoachingConstants) -> String {
        let a = abs(r)
        return a < c.bandNoticeable ? "negligible" : a < c.bandClear ? "noticeable" : a < c.bandStrong ? "clear"
            : a < c.bandVeryConsistent ? "strong" : "very_consistent"
    }

    /// The correlation of each pair over the `correlation_window_days` ending `day`, from
    /// the days with both values; a pair with fewer than `correlation_min_pairs` such days,
    /// or a constant side, has none.
    public static func correlations(_ h: CoachingHistory, day: Int, constants c: CoachingConstants) -> [Correlation] {
        let days = DailyWindow.ending(day, count: c.correlationWindowDays)
        return pairs.compactMap { p in
            var x: [Double] = [], y: [Double] = []
            for d in days {
                guard let row = h.row(d), let a = p.factor(row), let b = p.metric(row), a.isFinite, b.isFinite else { continue }
                x.append(a); y.append(b)
            }
            guard Double(x.count) >= c.correlationMinPairs else { return nil }
            let r = Stats.pearson(x, y)
            guard r.isFinite else { return nil }
            return Correlation(pair: p.name, r: r, pairs: x.count, strength: strength(r, constants: c), expectedSign: r * p.sign > 0)
        }
    }
}
