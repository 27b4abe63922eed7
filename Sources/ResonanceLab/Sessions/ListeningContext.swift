import Foundation

/// The listening context of the product (docs/engines/toolkit.md, Context), decided from the
/// listener's local start time (`LocalClock`) and overlapping workouts.
public enum ListeningContext: String, CaseIterable, Sendable {
    case morning, commute, work, relaxation, preSleep, workout

    /// Context of a time: 5–7 morning; 7–9 commute (weekend: morning); 9–17 work
    /// (weekend: relaxation); 17–19 commute (weekend: relaxation); 19–22 relaxation;
    /// 22–5 preSleep. Saturday and Sunday are the weekend. A workout overlapping
    /// [start − overlap, end + overlap] wins over the clock.
    /// `startMs`/`endMs` are instants (for the workout overlap); `localStartMs` is the
    /// start on the listener's wall clock (for the hour and the weekday).
    public static func of(startMs: Int64, endMs: Int64, localStartMs: Int64, workouts: ArraySlice<Workout>,
                          constants c: SessionConstants) -> ListeningContext {
        let margin = c.workoutOverlapMs
        if workouts.contains(where: { $0.startMs <= endMs + margin && $0.endMs >= startMs - margin }) {
            return .workout
        }
        let hour = hourOfDay(localStartMs)
        let weekend = Timestamp.isoWeekday(localStartMs) >= 6
        switch hour {
        case c.morningStartHour..<c.commuteAmStartHour: return .morning
        case c.commuteAmStartHour..<c.workStartHour: return weekend ? .morning : .commute
        case c.workStartHour..<c.commutePmStartHour: return weekend ? .relaxation : .work
        case c.commutePmStartHour..<c.relaxationStartHour: return weekend ? .relaxation : .commute
        case c.relaxationStartHour..<c.presleepStartHour: return .relaxation
        default: return .preSleep
        }
    }

    /// Fractional hour of the day of a wall-clock time in epoch-style ms, 0 ≤ h < 24.
    static func hourOfDay(_ ms: Int64) -> Double {
        Double(Timestamp.floorDivMod(ms, 86_400_000).1) / 3_600_000
    }
}

/// Coarse quarter of the listener's local day used as the time-of-day covariate of the
/// effects models: night 0–6, morning 6–12, afternoon 12–18, evening 18–24.
public enum TimeSlot: String, CaseIterable, Sendable {
    case night, morning, afternoon, evening

    /// Slot of a wall-clock time (`LocalClock.localMs`).
    public static func of(localMs: Int64) -> TimeSlot {
        allCases[min(3, Int(ListeningContext.hourOfDay(localMs) / 6))]
    }
}

/// The listener's wall clock: a play's own `utc_offset_min` when the export carried
/// one, else the offset of `zone` (`resonance sessions --tz`) at that instant, else UTC.
public struct LocalClock: Sendable {
    public var zone: TimeZone?

    public init(zone: TimeZone? = nil) {
        self.zone = zone
    }

    /// The play's start as epoch-style ms of its local wall-clock time.
    public func localMs(_ play: Play) -> Int64 {
        if let minutes = play.utcOffsetMin { return play.startedAtMs + Int64(minutes) * 60_000 }
        guard let zone else { return play.startedAtMs }
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(play.startedAtMs) / 1000))
        return play.startedAtMs + Int64(offset) * 1000
    }
}
