import Foundation

/// One row of `zones.csv` (docs/tables.md, zones.csv): a person-day's minutes of workout
/// heart rate in each Karvonen zone, the zone score and 80/20 check of that day, and the
/// week's moderate and vigorous minutes against the AHA targets.
public struct ZoneDayRow: Equatable, Sendable {
    public var subject: String
    /// Days since 1970-01-01.
    public var day: Int
    /// Minutes in zones 1–5.
    public var zoneMinutes: [Double]
    /// 0–100.
    public var zoneScore: Double
    /// Share of the zone minutes in zones 1–2; nil without zone minutes.
    public var easyShare: Double?
    /// Whether `easyShare` reaches `easy_share_min`; nil without zone minutes.
    public var rule8020: Bool?
    /// Moderate and vigorous minutes of the 7 days ending the day.
    public var weekModerateMinutes: Double
    public var weekVigorousMinutes: Double
    /// moderate / 150 + vigorous / 75 ≥ 1.
    public var ahaMet: Bool

    public var date: String { Timestamp.isoDate(Int64(day) * 86_400_000) }
}

extension ZoneDayRow: CanonicalRow {
    public static let fileName = "zones.csv"
    public static let header = [
        "subject", "date", "zone1_min", "zone2_min", "zone3_min", "zone4_min", "zone5_min", "zone_score", "easy_share",
        "rule_80_20", "week_moderate_min", "week_vigorous_min", "aha_met",
    ]

    public func write(to w: CSVWriter) {
        w.field(subject); w.field(date)
        for m in zoneMinutes { w.field(m) }
        w.field(zoneScore); w.field(easyShare)
        if let rule8020 { w.field(rule8020) } else { w.field("") }
        w.field(weekModerateMinutes); w.field(weekVigorousMinutes); w.field(ahaMet)
    }

    public init(_ r: CanonicalFieldReader) throws {
        let date = try r.string("date")
        guard let day = Timestamp.dayNumber(isoDate: date) else { throw r.fail("date", "'date' is not a YYYY-MM-DD date: '\(date)'") }
        let rule = try r.string("rule_80_20")
        self.init(subject: try r.string("subject"), day: day, zoneMinutes: try (1...5).map { try r.double("zone\($0)_min") },
                  zoneScore: try r.double("zone_score"), easyShare: try r.optionalDouble("easy_share"),
                  rule8020: rule.isEmpty ? nil : try r.bool("rule_80_20"), weekModerateMinutes: try r.double("week_moderate_min"),
                  weekVigorousMinutes: try r.double("week_vigorous_min"), ahaMet: try r.bool("aha_met"))
    }
}

/// Heart rate inside workouts, per subject and clock minute (mean of the minute's
/// samples): the input of `zones.csv`. Fed sample by sample, so a stage streams `hr.csv`.
public struct WorkoutHeartRate: Sendable {
    /// Per subject the workouts' intervals [start, end) in ms, merged and sorted.
    private var intervals: [String: [(start: Int64, end: Int64)]] = [:]
    /// Per subject, minute (ms / 60 000) → (sum of bpm, samples, the minute's day).
    private var minutes: [String: [Int64: (sum: Double, n: Int, day: Int)]] = [:]

    public init(workouts: [Workout]) {
        var bySubject: [String: [(start: Int64, end: Int64)]] = [:]
        for w in workouts where w.endMs > w.startMs { bySubject[w.subject, default: []].append((w.startMs, w.endMs)) }
        for (subject, list) in bySubject {
            var merged: [(start: Int64, end: Int64)] = []
            for i in list.sorted(by: { $0.start < $1.start }) {
                if let last = merged.last, i.start <= last.end { merged[merged.count - 1].end = max(last.end, i.end) } else { merged.append(i) }
            }
            intervals[subject] = merged
        }
    }

    /// Counts the sample when it lies inside one of the subject's workouts, on `day` (the
    /// subject's local day of the sample, as `daily.csv` counts it; nil: the UTC day).
    public mutating func add(subject: String, timeMs: Int64, bpm: Double, day: Int? = nil) {
        guard let list = intervals[subject] else { return }
        // The last interval starting at or before the sample.
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid].start <= timeMs { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0, timeMs < list[lo - 1].end else { return }
        let minute = Timestamp.floorDivMod(timeMs, 60_000).0
        let old = minutes[subject, default: [:]][minute] ?? (0, 0, day ?? DailyStage.day(timeMs))
        minutes[subject, default: [:]][minute] = (old.sum + bpm, old.n + 1, old.day)
    }

    /// Takes in the subjects of `other`, an accumulation over other subjects (one per
    /// subject, accumulated where each subject is computed); a subject both have keeps
    /// this one's.
    public mutating func merge(_ other: WorkoutHeartRate) {
        intervals.merge(other.intervals) { mine, _ in mine }
        minutes.merge(other.minutes) { mine, _ in mine }
    }

    /// Per day (days since 1970-01-01, the day each minute was counted on) the mean bpm
    /// of each workout minute of `subject`.
    func minuteMeans(_ subject: String) -> [Int: [Double]] {
        var out: [Int: [Double]] = [:]
        for m in (minutes[subject] ?? [:]).values {
            out[m.day, default: []].append(m.sum / Double(m.n))
        }
        return out
    }
}

/// The zone distribution (docs/engines/heart-coach.md, Zones): each workout minute in the Karvonen
/// zone of its mean heart rate (from the day's resting HR, the age and sex); the zone
/// score 100·Σ wᵢ·min(1, minutesᵢ / targetᵢ); easy share = zones 1–2 over all zone
/// minutes, the 80/20 check easy share ≥ 0.80; per 7 days ending the day the moderate
/// (40–60 % of reserve) and vigorous (≥ 60 %) minutes, AHA met when moderate / 150 +
/// vigorous / 75 ≥ 1.
public struct ZoneDistributionEngine: Sendable {
    public let constants: ZoneConstants

    public init(constants: ZoneConstants = .defaults) {
        self.constants = constants
    }

    private var c: ZoneConstants { constants }

    /// Zone score 0–100 of one day's minutes in zones 1–5.
    public func score(_ minutes: [Double]) -> Double {
        100 * zip(minutes, zip(c.zoneWeights, c.zoneTargetMinutes)).reduce(0) { $0 + $1.1.0 * min(1, $1.0 / $1.1.1) }
    }

    /// Share of zones 1–2 in all zone minutes; nil without zone minutes.
    public func easyShare(_ minutes: [Double]) -> Double? {
        let total = minutes.reduce(0, +)
        return total > 0 ? (minutes[0] + minutes[1]) / total : nil
    }

    /// Whether a week's moderate and vigorous minutes meet the AHA target.
    public func ahaMet(moderateMinutes: Double, vigorousMinutes: Double) -> Bool {
        moderateMinutes / c.ahaModerateWeekMinutes + vigorousMinutes / c.ahaVigorousWeekMinutes >= 1
    }

    /// One row per snapshot with a resting HR whose subject has an age, subjects in the
    /// snapshots' order, days ascending.
    public func rows(_ snapshots: [DailySnapshot], heartRate: WorkoutHeartRate, subjects: DailySubjects) -> [ZoneDayRow] {
        let zoneEngine = HeartRateZoneEngine(constants: c)
        var rows: [ZoneDayRow] = []
        var intensity: [(moderate: Double, vigorous: Double)] = []
        var means: (subject: String, byDay: [Int: [Double]])?
        for s in snapshots {
            guard let rest = s.restingHRBpm, let age = subjects.age(s.subject, day: s.day) else { continue }
            let sex = subjects.sex(s.subject)
            let zones = zoneEngine.zones(age: age, restingHRBpm: rest, sex: sex)
            guard let top = zones.last else { continue }
            if means?.subject != s.subject { means = (s.subject, heartRate.minuteMeans(s.subject)) }
            var minutes = [Double](repeating: 0, count: 5)
            var moderate = 0.0, vigorous = 0.0
            for bpm in means?.byDay[s.day] ?? [] {
                if let z = zones.lastIndex(where: { bpm >= $0.lowBpm }) { minutes[z] += 1 }
                let fraction = (bpm - rest) / (top.highBpm - rest)
                if fraction >= c.vigorousFromHRR { vigorous += 1 } else if fraction >= c.moderateFromHRR { moderate += 1 }
            }
            rows.append(ZoneDayRow(subject: s.subject, day: s.day, zoneMinutes: minutes, zoneScore: score(minutes),
                                   easyShare: easyShare(minutes), rule8020: easyShare(minutes).map { $0 >= c.easyShareMin },
                                   weekModerateMinutes: 0, weekVigorousMinutes: 0, ahaMet: false))
            intensity.append((moderate, vigorous))
        }
        // The week: rows of the same subject among the 7 days ending each day.
        for i in rows.indices {
            let days = DailyWindow.ending(rows[i].day, count: c.weekDays)
            var j = i, moderate = 0.0, vigorous = 0.0
            while j >= 0, rows[j].subject == rows[i].subject, days.contains(rows[j].day) {
                moderate += intensity[j].moderate; vigorous += intensity[j].vigorous
                j -= 1
            }
            rows[i].weekModerateMinutes = moderate
            rows[i].weekVigorousMinutes = vigorous
            rows[i].ahaMet = ahaMet(moderateMinutes: moderate, vigorousMinutes: vigorous)
        }
        return rows
    }
}
