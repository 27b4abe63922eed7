import Foundation

/// A persona's simulated span at minute resolution: sleep stages, workouts, walking,
/// night shifts and what is free for listening. The span starts at noon of the day
/// before the first date, so that the first night's sleep is whole.
struct PersonaTimeline {
    /// Minute-level activity state.
    enum State: UInt8 { case awake, core, deep, rem, nightWake, workout, shift }

    struct Sleep {
        /// Index of the date this main sleep ends on.
        var day: Int
        var start: Int
        var end: Int
        /// Minute at which the nightly 5-minute R-R window starts.
        var rrWindow: Int
    }

    struct PlannedWorkout {
        var day: Int
        var start: Int
        var end: Int
        var activity: String
        var intensity: Double
    }

    static let rrWindowMinutes = 5

    let spanStartMs: Int64
    let minutes: Int
    var state: [State]
    /// Steps taken in each minute.
    var cadence: [Double]
    /// Minutes a listening session occupies (no walking is placed there).
    var listening: [Bool]
    var sleeps: [Sleep] = []
    var workouts: [PlannedWorkout] = []

    /// Index of the date of the first simulated day, in days since 1970-01-01.
    let firstDay: Int

    init(firstDay: Int, days: Int) {
        self.firstDay = firstDay
        spanStartMs = Int64(firstDay) * 86_400_000 - 12 * 3_600_000
        minutes = days * 1440 + 720
        state = Array(repeating: .awake, count: minutes)
        cadence = Array(repeating: 0, count: minutes)
        listening = Array(repeating: false, count: minutes)
    }

    /// Minute index of `hour` hours after midnight of date index `day`.
    func minute(day: Int, hour: Double) -> Int {
        720 + day * 1440 + Int((hour * 60).rounded())
    }

    /// Date index of minute `m` (−1 for the half day before the first date).
    func day(ofMinute m: Int) -> Int {
        m < 720 ? -1 : (m - 720) / 1440
    }

    func timeMs(minute m: Int) -> Int64 { spanStartMs + Int64(m) * 60_000 }

    func isFree(_ range: Range<Int>) -> Bool {
        guard range.lowerBound >= 0, range.upperBound <= minutes else { return false }
        return range.allSatisfy { state[$0] == .awake && !listening[$0] }
    }

    // MARK: building

    /// Places each date's main sleep, ending on that date, with stages in 90-minute
    /// cycles (deep sleep front-loaded, REM growing through the night; Carskadon &
    /// Dement, Principles and Practice of Sleep Medicine) and the plan's night
    /// awakenings. A date following a night shift gets a 08:00 daytime sleep instead.
    mutating func placeSleeps(_ p: PersonaProfile, days: [PersonaDay], random: inout SeededRandom) {
        for (d, today) in days.enumerated() {
            let weekday = Timestamp.isoWeekday(Int64(firstDay + d) * 86_400_000)
            let yesterday = (weekday + 5) % 7 + 1
            let afterShift = p.sleep.nightShiftWeekdays.contains(yesterday)
            if afterShift {
                // The shift ran 19:00 yesterday to 07:00 today.
                let shiftStart = minute(day: d - 1, hour: 19), shiftEnd = minute(day: d, hour: 7)
                for m in max(0, shiftStart)..<shiftEnd { state[m] = .shift }
            }
            let onset = afterShift ? 8.0 : p.sleep.bedtimeHour - 24 + 0.25 * random.normal()
            let start = minute(day: d, hour: onset)
            let awakeMinutes = (0..<p.sleep.awakenings).map { _ in Double(random.int(in: 10...40)) }
            let inBed = Int((today.sleepHours * 60 + awakeMinutes.reduce(0, +)).rounded())
            let end = start + inBed
            // Stages: 10 min of light sleep, then cycles of 90 min.
            var m = start
            var cycle = 0
            while m < end {
                let deep = max(0, 35 - 10 * cycle), rem = min(40, 10 + 6 * cycle)
                let light = max(10, 90 - deep - rem)
                for (stage, length) in [(State.core, cycle == 0 ? 10 + light : light), (.deep, deep), (.rem, rem)] {
                    for _ in 0..<length where m < end {
                        state[m] = stage
                        m += 1
                    }
                }
                cycle += 1
            }
            // Awakenings (infant feeds, nocturia) spread through the night's middle.
            for (i, length) in awakeMinutes.enumerated() {
                let at = start + (inBed * (i + 1)) / (awakeMinutes.count + 1)
                for k in at..<min(end, at + Int(length)) { state[k] = .nightWake }
            }
            // Nightly R-R window 90 minutes before waking, in light sleep.
            let window = max(start + 20, end - 90)
            for k in (window - 5)..<min(end, window + Self.rrWindowMinutes + 5) { state[k] = .core }
            sleeps.append(Sleep(day: d, start: start, end: end, rrWindow: window))
        }
    }

    /// Places the plan's workouts on their weekdays, with a few minutes' jitter in
    /// start and length; a workout that would overlap sleep or a shift is dropped.
    /// `load(d)` scales day d's planned minutes and, above 1, adds 0.1 of the
    /// heart-rate reserve to the intensity (at most 0.9): a block of hard training.
    mutating func placeWorkouts(_ p: PersonaProfile, days: Int, random: inout SeededRandom,
                                load: (Int) -> Double = { _ in 1 }) {
        for d in 0..<days {
            let weekday = Timestamp.isoWeekday(Int64(firstDay + d) * 86_400_000)
            let factor = load(d)
            for plan in p.workouts where plan.weekdays.contains(weekday) {
                let start = minute(day: d, hour: plan.startHour) + random.int(in: -15...15)
                let length = max(10, Int((plan.minutes * factor * (1 + 0.1 * random.normal())).rounded()))
                guard isFree(start..<(start + length + 10)) else { continue }
                for m in start..<(start + length) { state[m] = .workout }
                workouts.append(PlannedWorkout(day: d, start: start, end: start + length, activity: plan.activity,
                                               intensity: factor > 1 ? min(0.9, plan.intensity + 0.1) : plan.intensity))
            }
        }
    }

    /// Steps per minute of a workout of `activity` (brisk walking ≈ 110, running ≈ 160;
    /// Tudor-Locke et al. 2011, cadence thresholds).
    static func workoutCadence(_ activity: String) -> Double {
        switch activity {
        case "walking": return 110
        case "running": return 160
        case "hiking": return 95
        case "soccer", "basketball": return 80
        default: return 0
        }
    }

    /// Fills each date's remaining steps with walking bouts of 5–20 minutes at
    /// 90–115 steps/min in free waking minutes; a night shift adds 12 steps/min
    /// (about 8 600 steps on the ward).
    mutating func placeWalking(days: [PersonaDay], random: inout SeededRandom) {
        for w in workouts {
            for m in w.start..<w.end { cadence[m] = Self.workoutCadence(w.activity) }
        }
        for m in 0..<minutes where state[m] == .shift { cadence[m] = 12 }
        for (d, today) in days.enumerated() {
            let lo = minute(day: d, hour: 0), hi = minute(day: d, hour: 24)
            var remaining = today.steps - cadence[lo..<hi].reduce(0, +)
            var attempts = 0
            while remaining > 300, attempts < 400 {
                attempts += 1
                let length = random.int(in: 5...20)
                let start = random.int(in: lo...(hi - length - 1))
                guard isFree(start..<(start + length)), cadence[start..<(start + length)].allSatisfy({ $0 == 0 }) else { continue }
                let pace = random.uniform(90, 115)
                for m in start..<(start + length) { cadence[m] = pace }
                remaining -= pace * Double(length)
            }
        }
    }
}
