/// The smart nudge schedule (the heart-health coach's timing-aware nudges), replayed per
/// day at two moments: the morning check (typical wake + `morning_delay_hours`) and the
/// evening one (typical bedtime − `wind_down_lead_hours`, i.e. near bedtime).
///
/// Sleep pattern: per weekday, the mean sleep of the earlier days of that weekday once
/// there are `schedule_min_observations`, else the default night (bedtime to wake of the
/// weekday or weekend default); the typical wake is the default, the typical bedtime the
/// wake minus the typical sleep — the pattern is inferred from durations, as the product
/// does, not from timestamped sessions. Weekend mornings are Saturday and Sunday.
///
/// Action, first that applies: 1 stress at the stress engine's `elevated` level
/// (`stress.elevated_from`) → `journal_prompt`;
/// 2 stress rising (≥ `stress_rising_points` above the mean of the `stress_rising_days`
/// before) → `breath_exercise`; 3 (morning) late wake, the night longer than the typical
/// one by more than `late_wake_hours` → `check_in`; 4 (evening) → `wind_down`;
/// 5 (morning) a short night → `sleep_suggestion`, else the activity pattern →
/// `activity_suggestion`; 6 → `daily_nudge`.
public enum NudgeScheduler {
    public struct SleepPattern: Equatable, Sendable {
        public let weekend: Bool
        public let observations: Int
        /// Hours after midnight.
        public let wakeHour: Double
        public let bedtimeHour: Double
        /// Typical hours asleep.
        public let sleepHours: Double
        public let learned: Bool
    }

    public struct Action: Equatable, Sendable {
        /// `morning` or `evening`.
        public let slot: String
        public let action: String
        /// Delivery time, hours after local midnight.
        public let hour: Double
        public let observations: Int
        public let rule: String
    }

    /// The sleep pattern of the weekday of `day`, learned from the days of `h` before it.
    public static func pattern(_ h: CoachingHistory, day: Int, constants c: CoachingConstants) -> SleepPattern {
        let weekday = CoachingHistory.calendar(day).weekday
        let weekend = weekday == 0 || weekday == 6
        let wake = weekend ? c.weekendWakeHour : c.weekdayWakeHour
        let defaultBed = weekend ? c.weekendBedtimeHour : c.weekdayBedtimeHour
        let nights = h.rows.filter { $0.snapshot.day < day && CoachingHistory.calendar($0.snapshot.day).weekday == weekday }
            .compactMap(\.snapshot.sleepHours)
        let learned = Double(nights.count) >= c.scheduleMinObservations
        let sleep = learned ? Stats.mean(nights) : (wake - defaultBed + 24).truncatingRemainder(dividingBy: 24)
        let bed = ((wake - sleep).truncatingRemainder(dividingBy: 24) + 24).truncatingRemainder(dividingBy: 24)
        return SleepPattern(weekend: weekend, observations: nights.count, wakeHour: wake, bedtimeHour: bed, sleepHours: sleep, learned: learned)
    }

    /// The morning and evening actions of `day`.
    public static func schedule(_ h: CoachingHistory, day: Int, signals s: CoachingSignals, constants c: CoachingConstants) -> [Action] {
        guard let today = h.row(day) else { return [] }
        let morning = pattern(h, day: day, constants: c)
        let night = pattern(h, day: day + 1, constants: c)
        var stressRule: (String, String)?
        if let st = today.stress {
            let before = h.values(DailyWindow.before(day, count: c.stressRisingDays)) { $0.stress }
            if today.stressLevel == StressLevel.elevated.rawValue {
                stressRule = ("journal_prompt", "stress \(decimals(st, 1)) elevated")
            } else if !before.isEmpty, st - Stats.mean(before) >= c.stressRisingPoints {
                stressRule = ("breath_exercise", "stress \(decimals(st, 1)) rose \(signed(st - Stats.mean(before), 1)) ≥ \(decimals(c.stressRisingPoints, 0)) over the \(before.count) days before")
            }
        }
        var am: (String, String)
        if let r = stressRule {
            am = r
        } else if let sleep = today.snapshot.sleepHours, sleep - morning.sleepHours > c.lateWakeHours {
            am = ("check_in", "slept \(decimals(sleep, 2)) h, > \(decimals(c.lateWakeHours, 1)) h over the typical \(decimals(morning.sleepHours, 2)) h: late wake")
        } else if s.shortSleep == true {
            am = ("sleep_suggestion", "sleep \(decimals(today.snapshot.sleepHours ?? 0, 2)) h < \(decimals(c.shortSleepHours, 1))")
        } else if s.activityPattern {
            am = ("activity_suggestion", "\(s.lowActivityDays) low-activity days")
        } else {
            am = ("daily_nudge", "no earlier action applies")
        }
        let pm = stressRule ?? ("wind_down", "near bedtime")
        func hour(_ x: Double) -> Double { (x.truncatingRemainder(dividingBy: 24) + 24).truncatingRemainder(dividingBy: 24) }
        return [
            Action(slot: "morning", action: am.0, hour: hour(morning.wakeHour + c.morningDelayHours), observations: morning.observations, rule: am.1),
            Action(slot: "evening", action: pm.0, hour: hour(night.bedtimeHour - c.windDownLeadHours), observations: night.observations, rule: pm.1),
        ]
    }
}
