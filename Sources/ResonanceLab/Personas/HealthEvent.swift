import Foundation

/// A planted health event of one persona (docs/personas.md, Health events): a dated
/// change of its day-level physiology that every simulated signal carries — minute HR
/// and the beats follow the day's resting HR, the nightly R-R window and the sessions'
/// beats its SDNN and RMSSD, workouts' recovery its 1-minute recovery, the main sleep its
/// hours, walking its steps — so that `daily.csv`, measured from those signals, shows it
/// only as far as the signals do.
public struct HealthEvent: Equatable, Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        /// Resting HR +5–8 bpm and SDNN −15–30 % for 3–7 days, reached over 1–2 days,
        /// fever nights up to 2 h shorter and a third fewer steps while at full severity.
        case illness
        /// 7–10 days of training load +40–60 % (workout minutes, and intensity +0.1 of
        /// the heart-rate reserve), then 7 days of resting HR +3–5 bpm, HRV −10–20 % and
        /// 1-minute recovery −15–25 %.
        case overreaching
        /// Resting HR rising 0.3–0.5 bpm/day and SDNN falling 1 %/day over 14 days,
        /// held 7 days, back over 7 days.
        case regression
        /// Return to fitness: resting HR falling 0.15–0.25 bpm/day, SDNN rising
        /// 0.5–1 %/day and recovery 0.5 %/day over 21 days, then kept.
        case improvement

        /// Chance per free person-day that an event of this kind starts (a free day is
        /// neither in an event nor within `quietDays` after one).
        public var dailyHazard: Double {
            switch self {
            case .illness: 1.0 / 45
            case .overreaching: 1.0 / 150
            case .regression: 1.0 / 200
            case .improvement: 1.0 / 200
            }
        }
    }

    /// Days at the start of a simulation without events: the daily engines' baselines
    /// need them (a 7-day minimum, 14 for the week-over-week z).
    public static let warmupDays = 14
    /// Days after an event's last day before another may start.
    public static let quietDays = 7

    public var kind: Kind
    /// `illness-1`, `overreaching-2`, …: the kind and its count within the persona.
    public var id: String
    /// First and last simulated day (0-based) on which the physiology differs.
    public var firstDay: Int
    public var lastDay: Int
    /// Peak change of resting HR (bpm), of SDNN and RMSSD (fraction), of 1-minute
    /// recovery (fraction), hours of sleep lost on full-severity nights, and extra
    /// training load (fraction of workout minutes).
    public var restingHRBpm: Double
    public var hrvFraction: Double
    public var recoveryFraction: Double
    public var sleepLossHours = 0.0
    public var stepsFraction = 0.0
    public var trainingLoadFraction = 0.0
    /// Days at the start spent reaching full severity (illness), and the day (0-based
    /// from `firstDay`) the symptoms of an overreaching begin after its load block.
    public var onsetDays = 0
    public var symptomsFrom = 0

    /// Share (0–1) of the peak physiology change on simulated day `d`.
    public func severity(day d: Int) -> Double {
        guard d >= firstDay, d <= lastDay || kind == .improvement else { return 0 }
        let t = d - firstDay
        switch kind {
        case .illness:
            return t < onsetDays ? Double(t + 1) / Double(onsetDays + 1) : 1
        case .overreaching:
            return t >= symptomsFrom ? 1 : 0
        case .regression:
            // 14 days up, 7 held, 7 down.
            if t < 14 { return Double(t + 1) / 14 }
            if t < 21 { return 1 }
            return Double(28 - t) / 8
        case .improvement:
            return min(1, Double(t + 1) / 21)
        }
    }

    /// Training-load multiplier of the workouts on day `d` (1 outside a load block).
    public func load(day d: Int) -> Double {
        guard kind == .overreaching, d >= firstDay, d < firstDay + symptomsFrom else { return 1 }
        return 1 + trainingLoadFraction
    }

    /// Draws one event of `kind` starting on `first`, its magnitudes from `random`.
    static func draw(_ kind: Kind, number: Int, first: Int, random: inout SeededRandom) -> HealthEvent {
        var e = HealthEvent(kind: kind, id: "\(kind.rawValue)-\(number)", firstDay: first, lastDay: first,
                            restingHRBpm: 0, hrvFraction: 0, recoveryFraction: 0)
        switch kind {
        case .illness:
            let length = random.int(in: 3...7)
            e.onsetDays = random.int(in: 1...2)
            e.lastDay = first + length - 1
            e.restingHRBpm = random.uniform(5, 8)
            e.hrvFraction = -random.uniform(0.15, 0.30)
            e.recoveryFraction = -0.1
            e.sleepLossHours = random.uniform() < 0.5 ? random.uniform(0.5, 2) : 0
            e.stepsFraction = -1.0 / 3
        case .overreaching:
            e.symptomsFrom = random.int(in: 7...10)
            e.lastDay = first + e.symptomsFrom + 6
            e.trainingLoadFraction = random.uniform(0.4, 0.6)
            e.restingHRBpm = random.uniform(3, 5)
            e.hrvFraction = -random.uniform(0.10, 0.20)
            e.recoveryFraction = -random.uniform(0.15, 0.25)
        case .regression:
            e.lastDay = first + 27
            e.restingHRBpm = 14 * random.uniform(0.3, 0.5)
            e.hrvFraction = -0.14
            e.recoveryFraction = -0.05
        case .improvement:
            e.lastDay = first + 20
            e.restingHRBpm = -21 * random.uniform(0.15, 0.25)
            e.hrvFraction = 21 * random.uniform(0.005, 0.01)
            e.recoveryFraction = 0.1
        }
        return e
    }

    /// The events of one persona over `days` days, drawn from `random` (the persona's
    /// own `events` stream): from day `warmupDays` on, each free day starts an event of
    /// a kind with that kind's `dailyHazard` (at most one a day); events do not overlap,
    /// `quietDays` separate them, and an event must end within the simulation. An
    /// improvement is kept to the end, so it is the last event.
    public static func plan(days: Int, random: inout SeededRandom) -> [HealthEvent] {
        var events: [HealthEvent] = []
        var counts: [Kind: Int] = [:]
        var d = warmupDays
        while d < days {
            let u = random.uniform()
            var acc = 0.0
            guard let kind = Kind.allCases.first(where: { acc += $0.dailyHazard; return u < acc }) else {
                d += 1
                continue
            }
            counts[kind, default: 0] += 1
            let e = draw(kind, number: counts[kind] ?? 1, first: d, random: &random)
            guard e.lastDay < days else { break }
            events.append(e)
            if kind == .improvement { break }
            d = e.lastDay + 1 + quietDays
        }
        return events
    }

    /// `days` with every event's change applied: resting HR adds, SDNN, RMSSD,
    /// recovery and steps scale, sleep shortens (never below 3 h).
    static func apply(_ events: [HealthEvent], to days: inout [PersonaDay]) {
        for e in events {
            for d in days.indices {
                let s = e.severity(day: d)
                guard s > 0 else { continue }
                days[d].restingHRBpm += s * e.restingHRBpm
                days[d].sdnnMs *= 1 + s * e.hrvFraction
                days[d].rmssdMs *= 1 + s * e.hrvFraction
                days[d].recovery1mBpm *= 1 + s * e.recoveryFraction
                if s >= 1 {
                    days[d].sleepHours = max(3, days[d].sleepHours - e.sleepLossHours)
                    days[d].steps *= 1 + e.stepsFraction
                }
            }
        }
    }

    /// The `truth.csv` metric of an overreaching's training-load block.
    public static let trainingLoadMetric = "training_load_pct"

    /// The rows of `truth.csv` of this event (kind `health_event`): one per metric it
    /// moves, the peak change as the value, dates from `firstDate` (days since 1970):
    /// the days that metric is changed. An overreaching's symptoms start after its load
    /// block, whose row (`training_load_pct`) spans the block alone.
    func truth(subject: String, firstDate: Int) -> [PlantedEffect] {
        func date(_ d: Int) -> String { Timestamp.isoDate(Int64(firstDate + d) * 86_400_000) }
        var metrics: [(String, Double)] = [("resting_hr_bpm", restingHRBpm), ("sdnn_pct", 100 * hrvFraction),
                                           ("recovery_1m_pct", 100 * recoveryFraction)]
        if sleepLossHours > 0 { metrics.append(("sleep_loss_h", sleepLossHours)) }
        if stepsFraction != 0 { metrics.append(("steps_pct", 100 * stepsFraction)) }
        var rows = metrics.map {
            PlantedEffect(kind: .healthEvent, subject: subject, entity: id, metric: $0.0, value: ($0.1 * 1000).rounded() / 1000,
                          start: date(firstDay + symptomsFrom), end: date(lastDay))
        }
        if trainingLoadFraction > 0 {
            rows.append(PlantedEffect(kind: .healthEvent, subject: subject, entity: id, metric: Self.trainingLoadMetric,
                                      value: (100 * trainingLoadFraction * 1000).rounded() / 1000,
                                      start: date(firstDay), end: date(firstDay + symptomsFrom - 1)))
        }
        return rows
    }
}
