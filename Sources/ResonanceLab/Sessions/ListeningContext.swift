/// The listening context of the product (docs/engines.md, Context), decided from a start
/// time in UTC (the canonical tables carry no time zone) and overlapping workouts.
public enum ListeningContext: String, CaseIterable, Sendable {
    case morning, commute, work, relaxation, preSleep, workout

    /// Context of a time: 5–7 morning; 7–9 commute (weekend: morning); 9–17 work
    /// (weekend: relaxation); 17–19 commute (weekend: relaxation); 19–22 relaxation;
    /// 22–5 preSleep. Saturday and Sunday are the weekend. A workout overlapping
    /// [start − overlap, end + overlap] wins over the clock.
    public static func of(startMs: Int64, endMs: Int64, workouts: ArraySlice<Workout>,
                          constants c: SessionConstants) -> ListeningContext {
        let margin = c.workoutOverlapMs
        if workouts.contains(where: { $0.startMs <= endMs + margin && $0.endMs >= startMs - margin }) {
            return .workout
        }
        let hour = hourOfDay(startMs)
        let weekend = Timestamp.isoWeekday(startMs) >= 6
        switch hour {
        case c.morningStartHour..<c.commuteAmStartHour: return .morning
        case c.commuteAmStartHour..<c.workStartHour: return weekend ? .morning : .commute
        case c.workStartHour..<c.commutePmStartHour: return weekend ? .relaxation : .work
        case c.commutePmStartHour..<c.relaxationStartHour: return weekend ? .relaxation : .commute
        case c.relaxationStartHour..<c.presleepStartHour: return .relaxation
        default: return .preSleep
        }
    }

    /// Fractional UTC hour of the day, 0 ≤ h < 24.
    static func hourOfDay(_ ms: Int64) -> Double {
        Double(Timestamp.floorDivMod(ms, 86_400_000).1) / 3_600_000
    }
}

/// Coarse quarter of the day (UTC) used as the time-of-day covariate of the effects
/// models: night 0–6, morning 6–12, afternoon 12–18, evening 18–24.
public enum TimeSlot: String, CaseIterable, Sendable {
    case night, morning, afternoon, evening

    public static func of(_ ms: Int64) -> TimeSlot {
        allCases[min(3, Int(ListeningContext.hourOfDay(ms) / 6))]
    }
}
