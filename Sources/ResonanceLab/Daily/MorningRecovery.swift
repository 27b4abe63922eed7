/// The health platform's morning recovery (docs/engines/health-platform.md, Morning recovery): a 0–100
/// score from last night's HRV, sleep and resting heart rate, and the morning decision
/// with and without a planned workout.
public struct MorningRecoveryEngine: Sendable {
    public let constants: MorningRecoveryConstants

    public init(constants: MorningRecoveryConstants) {
        self.constants = constants
    }

    private var c: MorningRecoveryConstants { constants }

    /// What the morning decides: the action and the intensity it suggests (empty for rest).
    public struct Decision: Equatable, Sendable {
        /// `light` (modify the planned workout), `confirm`, `suggest` or `rest`.
        public var action: String
        /// `light`, `moderate`, `high`, or empty.
        public var intensity: String
    }

    /// The score's parts, each 0–1 or nil without its input, and the score.
    public struct Score: Equatable, Sendable {
        public var hrv: Double?
        public var sleep: Double?
        public var restingHR: Double?
        /// Int(composite × 100), the product's truncation; nil without any component.
        public var overall: Int?
    }

    /// HRV component: 0 at or below `hrv_low_ms`, 1 at or above `hrv_high_ms`, linear between.
    public func hrvScore(sdnnMs: Double) -> Double {
        clamp((sdnnMs - c.hrvLowMs) / (c.hrvHighMs - c.hrvLowMs), 0...1)
    }

    /// Sleep component: 0 at or below `sleep_zero_h`, 1 at or above `sleep_full_h`, linear between.
    public func sleepScore(hours: Double) -> Double {
        clamp((hours - c.sleepZeroHours) / (c.sleepFullHours - c.sleepZeroHours), 0...1)
    }

    /// Resting-HR component: 1 at or below the baseline, 0 at `resting_hr_zero_above_bpm`
    /// above it, linear between.
    public func restingHRScore(bpm: Double, baselineBpm: Double) -> Double {
        clamp(1 - (bpm - baselineBpm) / c.restingHRZeroAboveBpm, 0...1)
    }

    /// The composite over the components present, their weights renormalised (the
    /// product weighs all three; a night without one input is scored on the others).
    public func score(sdnnMs: Double?, sleepHours: Double?, restingHRBpm: Double?, baselineBpm: Double?) -> Score {
        let h = sdnnMs.map(hrvScore), s = sleepHours.map(sleepScore)
        let r = restingHRBpm.flatMap { bpm in baselineBpm.map { restingHRScore(bpm: bpm, baselineBpm: $0) } }
        let parts = [(h, c.hrvWeight), (s, c.sleepWeight), (r, c.restingHRWeight)].compactMap { v, w in v.map { ($0, w) } }
        let weight = parts.reduce(0) { $0 + $1.1 }
        guard weight > 0 else { return Score(hrv: h, sleep: s, restingHR: r, overall: nil) }
        let composite = parts.reduce(0) { $0 + $1.0 * $1.1 } / weight
        return Score(hrv: h, sleep: s, restingHR: r, overall: Int(composite * 100))
    }

    /// The morning decision as the product branches it. With a planned workout: below
    /// `light_below` → light, else confirm (high above `high_above`, else moderate).
    /// Without: above `suggest_above` → suggest a session (high above `high_above`, else
    /// moderate), else rest.
    public func decide(overall: Int, plannedWorkout: Bool) -> Decision {
        let score = Double(overall)
        let intensity = score > c.highAbove ? "high" : "moderate"
        if plannedWorkout {
            return score < c.lightBelow ? Decision(action: "light", intensity: "light") : Decision(action: "confirm", intensity: intensity)
        }
        return score > c.suggestAbove ? Decision(action: "suggest", intensity: intensity) : Decision(action: "rest", intensity: "")
    }

    /// The resting-HR baseline of `day`: the median of the days before it within
    /// `resting_hr_baseline_days` that have a resting HR, when at least
    /// `resting_hr_baseline_min_days` do.
    public func baseline(before day: Int, history: [DailySnapshot]) -> Double? {
        let earlier = history.filter { $0.day < day && $0.day >= day - Int(c.restingHRBaselineDays) }.compactMap(\.restingHRBpm)
        return Double(earlier.count) >= c.restingHRBaselineMinDays ? Stats.median(earlier) : nil
    }
}


/// A derived metric of one morning in the product's derived-metric shape (docs/engines/health-platform.md,
/// Morning recovery): its value, the window and count of the inputs it read, a digest of
/// those inputs, its confidence and an explanation in words.
public struct DerivedMetric: Equatable, Sendable {
    public var value: Double
    /// 0–1: the share of the window's days (or of the composite's weight) with an input.
    public var confidence: Double
    /// The inputs' window, `[start, end)` in ms (the day's clock, as daily.csv's date).
    public var windowStartMs: Int64, windowEndMs: Int64
    /// `overnight` (9 PM to wake), `24h` (the day), `7d`, `14d`.
    public var windowRule: String
    public var inputCount: Int
    /// First 16 hex digits of the SHA-256 of the inputs as text (`date=value;…`).
    public var inputDigest: String
    public var explanation: String
}

/// The derived metrics of the morning, each with the version of its formula (a new
/// version whenever the formula or a constant's meaning changes).
public enum MorningMetric: String, CaseIterable, Sendable {
    case recoveryScore = "recovery_score"
    case sleepDebt = "sleep_debt"
    case strainIndex = "strain_index"

    public var version: String {
        switch self {
        case .recoveryScore: return "1.1.0"
        case .sleepDebt, .strainIndex: return "1.0.0"
        }
    }

    public var unit: String {
        switch self {
        case .recoveryScore: return "points"
        case .sleepDebt: return "h"
        case .strainIndex: return "points/day"
        }
    }
}

/// What the morning reads beyond a day's snapshot, per subject: the HRV samples and
/// sleep ends of the overnight window, and the exports' daily exercise minutes and
/// active energy for strain.
public struct MorningInputs: Sendable {
    /// `hrv_samples.csv` SDNN samples, time order.
    public var hrvTimesMs: [Int64] = [], hrvSDNNMs: [Double] = []
    /// Ends of the `sleep.csv` rows, ascending.
    public var sleepEndsMs: [Int64] = []
    /// `daily_inputs.csv` `exercise_minutes` (min) and `active_energy` (kcal) by day number.
    public var exerciseMinutes: [Int: Double] = [:], activeEnergyKcal: [Int: Double] = [:]

    public init() {}

    /// The morning inputs of one subject from its rows of `hrv_samples.csv`, `sleep.csv`
    /// and `daily_inputs.csv` (file order: a day's last value counts).
    public init(hrvSamples: [HRVSample], sleep: [SleepEpisode], stated: [DailyInputRow]) {
        let hrv = hrvSamples.compactMap { s in s.sdnnMs.map { (s.timestampMs, $0) } }.sorted { $0 < $1 }
        hrvTimesMs = hrv.map(\.0)
        hrvSDNNMs = hrv.map(\.1)
        sleepEndsMs = sleep.map(\.endMs).sorted()
        for r in stated {
            guard let day = Timestamp.dayNumber(isoDate: r.date) else { continue }
            switch DailyMetric(rawValue: r.metric) {
            case .exerciseMinutes?: exerciseMinutes[day] = r.value
            case .activeEnergy?: activeEnergyKcal[day] = r.value
            default: break
            }
        }
    }
}

/// One morning assessed: its `morning_recovery.csv` row and the receipts of its derived
/// metrics (`morning_receipts.csv`).
public struct MorningAssessment: Equatable, Sendable {
    public var row: MorningRecoveryRow
    public var receipts: [MorningReceiptRow]
}

extension MorningRecoveryEngine {
    /// The overnight window of the morning of `day`: from `overnight_start_hour` of the
    /// day before to the latest sleep end after that and at or before
    /// `overnight_cutoff_hour` of `day` (the wake), else to the cut-off. `fromSleep` says
    /// which end applies. `day` is the subject's local day and `offsetMs` its offset from
    /// UTC, so the hours are the subject's clock hours.
    public func overnightWindow(day: Int, sleepEndsMs: [Int64], offsetMs: Int64 = 0) -> (startMs: Int64, endMs: Int64, fromSleep: Bool) {
        let midnight = Int64(day) * 86_400_000 - offsetMs
        let start = midnight - Int64((24 - c.overnightStartHour) * 3_600_000)
        let cutoff = midnight + Int64(c.overnightCutoffHour * 3_600_000)
        let i = HeartRateRecovery.lowerBound(sleepEndsMs, cutoff + 1)
        if i > 0, sleepEndsMs[i - 1] > start { return (start, sleepEndsMs[i - 1], true) }
        return (start, cutoff, false)
    }

    /// Sleep debt of the morning of `day` (h): over the `sleep_debt_days` nights ending on
    /// the mornings `day − 6 … day`, the sum of each night's shortfall from
    /// `sleep_need_h` (a longer night repays nothing); nights without sleep data are not
    /// counted and lower the confidence. Nil without any night.
    public func sleepDebt(day: Int, sleepHours: [Int: Double]) -> DerivedMetric? {
        let days = Int(c.sleepDebtDays)
        let nights = ((day - days + 1)...day).compactMap { d in sleepHours[d].map { (d, $0) } }
        guard !nights.isEmpty else { return nil }
        let debt = nights.reduce(0) { $0 + max(0, c.sleepNeedHours - $1.1) }
        let text = nights.map { "\(Timestamp.isoDate(Int64($0.0) * 86_400_000))=\(CSVWriter.format($0.1))" }.joined(separator: ";")
        let shortest = nights.min { $0.1 < $1.1 } ?? nights[0]
        let mean = nights.reduce(0) { $0 + $1.1 } / Double(nights.count)
        return DerivedMetric(
            value: debt, confidence: Double(nights.count) / Double(days),
            windowStartMs: Int64(day - days) * 86_400_000 + Int64(c.overnightStartHour * 3_600_000),
            windowEndMs: Int64(day) * 86_400_000 + Int64(c.overnightCutoffHour * 3_600_000), windowRule: "\(days)d",
            inputCount: nights.count, inputDigest: String(SHA256.hex(text).prefix(16)),
            explanation: "\(nights.count) of \(days) nights with sleep, mean \(decimals(mean, 1)) h against a need of "
                + "\(decimals(c.sleepNeedHours, 1)) h; shortest \(decimals(shortest.1, 1)) h (night to \(Timestamp.isoDate(Int64(shortest.0) * 86_400_000)))")
    }

    /// One day's strain points: exercise minutes (the export's, else the recorded
    /// workouts', whichever is larger) + active energy / `strain_kcal_per_point`; nil
    /// when the day has none of the three.
    public func strainPoints(exerciseMinutes: Double?, workoutMinutes: Double?, activeEnergyKcal: Double?) -> Double? {
        guard exerciseMinutes != nil || workoutMinutes != nil || activeEnergyKcal != nil else { return nil }
        return max(exerciseMinutes ?? 0, workoutMinutes ?? 0) + (activeEnergyKcal ?? 0) / c.strainKcalPerPoint
    }

    /// Strain index of the morning of `day` (points/day): the mean of the daily strain
    /// points of the `strain_days` days before it (`day − 14 … day − 1`: the morning's own
    /// day has not happened), over the days with an input. Nil without any.
    public func strain(day: Int, points: [Int: (exercise: Double?, workout: Double?, energy: Double?)]) -> DerivedMetric? {
        let days = Int(c.strainDays)
        let loads = ((day - days)...(day - 1)).compactMap { d in
            points[d].flatMap { p in strainPoints(exerciseMinutes: p.exercise, workoutMinutes: p.workout, activeEnergyKcal: p.energy)
                .map { (d, p, $0) } }
        }
        guard !loads.isEmpty else { return nil }
        let n = Double(loads.count)
        let mean = loads.reduce(0) { $0 + $1.2 } / n
        func avg(_ part: ((exercise: Double?, workout: Double?, energy: Double?)) -> Double?) -> String {
            decimals(loads.reduce(0) { $0 + (part($1.1) ?? 0) } / n, 0)
        }
        let text = loads.map { "\(Timestamp.isoDate(Int64($0.0) * 86_400_000))=\(CSVWriter.format($0.2))" }.joined(separator: ";")
        return DerivedMetric(
            value: mean, confidence: n / Double(days), windowStartMs: Int64(day - days) * 86_400_000,
            windowEndMs: Int64(day) * 86_400_000, windowRule: "\(days)d", inputCount: loads.count,
            inputDigest: String(SHA256.hex(text).prefix(16)),
            explanation: "\(loads.count) of \(days) days with activity; per day \(avg(\.exercise)) exercise min, "
                + "\(avg(\.workout)) workout min, \(avg(\.energy)) kcal active energy")
    }

    /// Every morning of `snapshots` (sorted by subject, then day) with the day's
    /// readiness level (`readiness`, by subject and date) and the overnight and
    /// activity inputs of `inputs` (by subject). `offsetMs` gives a subject's offset from
    /// UTC (ms) on a day (the days of `snapshots` are local days: the overnight window is
    /// read on the subject's clock); none: UTC.
    public func mornings(_ snapshots: [DailySnapshot], readiness: [String: String],
                         inputs: [String: MorningInputs] = [:],
                         offsetMs: (String, Int) -> Int64 = { _, _ in 0 }) -> [MorningAssessment] {
        var out: [MorningAssessment] = []
        var bySubject: [String: [DailySnapshot]] = [:]
        var order: [String] = []
        for s in snapshots {
            if bySubject[s.subject] == nil { order.append(s.subject) }
            bySubject[s.subject, default: []].append(s)
        }
        for subject in order {
            let days = bySubject[subject] ?? []
            let more = inputs[subject] ?? MorningInputs()
            var sleep: [Int: Double] = [:]
            var activity: [Int: (exercise: Double?, workout: Double?, energy: Double?)] = [:]
            for d in days {
                sleep[d.day] = d.sleepHours
                activity[d.day] = (nil, d.workoutMinutes, nil)
            }
            for (day, v) in more.exerciseMinutes { activity[day, default: (nil, nil, nil)].exercise = v }
            for (day, v) in more.activeEnergyKcal { activity[day, default: (nil, nil, nil)].energy = v }
            for d in days {
                out.append(morning(d, history: days, readinessLevel: readiness[subject + "\u{0}" + d.date] ?? "",
                                   inputs: more, sleep: sleep, activity: activity, offsetMs: offsetMs(subject, d.day)))
            }
        }
        return out
    }

    private func morning(_ d: DailySnapshot, history: [DailySnapshot], readinessLevel: String, inputs: MorningInputs,
                         sleep: [Int: Double], activity: [Int: (exercise: Double?, workout: Double?, energy: Double?)],
                         offsetMs: Int64) -> MorningAssessment {
        let window = overnightWindow(day: d.day, sleepEndsMs: inputs.sleepEndsMs, offsetMs: offsetMs)
        let lo = HeartRateRecovery.lowerBound(inputs.hrvTimesMs, window.startMs)
        let hi = HeartRateRecovery.lowerBound(inputs.hrvTimesMs, window.endMs + 1)
        let overnight = inputs.hrvSDNNMs[lo..<max(lo, hi)]
        let hrv = overnight.isEmpty ? d.hrvSDNNMs : overnight.reduce(0, +) / Double(overnight.count)
        let base = baseline(before: d.day, history: history)
        let s = score(sdnnMs: hrv, sleepHours: d.sleepHours, restingHRBpm: d.restingHRBpm, baselineBpm: base)
        let debt = sleepDebt(day: d.day, sleepHours: sleep)
        let load = strain(day: d.day, points: activity)
        let withoutPlan = s.overall.map { decide(overall: $0, plannedWorkout: false) }
        let (agreement, driver) = compare(s, morningRests: withoutPlan.map { $0.action == "rest" }, readinessLevel: readinessLevel)
        let row = MorningRecoveryRow(
            subject: d.subject, date: d.date, hrvSDNNMs: hrv, hrvWindow: hrv == nil ? "" : overnight.isEmpty ? "24h" : "overnight",
            sleepHours: d.sleepHours, restingHRBpm: d.restingHRBpm, restingHRBaselineBpm: base, score: s,
            planned: (d.workoutMinutes ?? 0) > 0, withPlan: s.overall.map { decide(overall: $0, plannedWorkout: true) },
            withoutPlan: withoutPlan, readinessLevel: readinessLevel, sleepDebtHours: debt?.value, strainIndex: load?.value,
            agreement: agreement, driver: driver)
        var receipts: [MorningReceiptRow] = []
        if let overall = s.overall {
            let midnight = Int64(d.day) * 86_400_000 - offsetMs
            let parts: [(String, Double?, Double, String)] = [
                ("hrv", s.hrv, c.hrvWeight, hrv.map { "\(decimals($0, 1)) ms" } ?? ""),
                ("sleep", s.sleep, c.sleepWeight, d.sleepHours.map { "\(decimals($0, 2)) h" } ?? ""),
                ("resting_hr", s.restingHR, c.restingHRWeight,
                 d.restingHRBpm.map { bpm in "\(decimals(bpm, 1)) bpm vs baseline \(base.map { decimals($0, 1) } ?? "")" } ?? ""),
            ]
            let present = parts.filter { $0.1 != nil }
            let text = "hrv=\(hrv.map(CSVWriter.format) ?? "");sleep=\(d.sleepHours.map(CSVWriter.format) ?? "");"
                + "resting_hr=\(d.restingHRBpm.map(CSVWriter.format) ?? "");baseline=\(base.map(CSVWriter.format) ?? "")"
            let metric = DerivedMetric(
                value: Double(overall), confidence: present.reduce(0) { $0 + $1.2 } / (c.hrvWeight + c.sleepWeight + c.restingHRWeight),
                windowStartMs: overnight.isEmpty ? midnight : window.startMs,
                windowEndMs: overnight.isEmpty ? midnight + 86_400_000 : window.endMs,
                windowRule: overnight.isEmpty ? "24h" : "overnight", inputCount: present.count + overnight.count - (overnight.isEmpty ? 0 : 1),
                inputDigest: String(SHA256.hex(text).prefix(16)),
                explanation: present.map { "\($0.0) \(decimals($0.1 ?? 0, 2)) (\($0.3))" }.joined(separator: "; ")
                    + (overnight.isEmpty ? "" : "; HRV = mean of \(overnight.count) overnight samples"))
            receipts.append(MorningReceiptRow(subject: d.subject, date: d.date, metric: .recoveryScore, derived: metric))
        }
        if let debt { receipts.append(MorningReceiptRow(subject: d.subject, date: d.date, metric: .sleepDebt, derived: debt)) }
        if let load { receipts.append(MorningReceiptRow(subject: d.subject, date: d.date, metric: .strainIndex, derived: load)) }
        return MorningAssessment(row: row, receipts: receipts)
    }

    /// The morning's rest (no plan) against the coach's readiness (`recovering` = rest):
    /// `both_rest`, `both_train`, `morning_rest` or `readiness_rest` (empty when either
    /// is missing), and on a disagreement the morning component that drove it — when the
    /// morning rests, the one with the largest weighted shortfall, weight × (1 − score);
    /// when only readiness rests, the one with the largest weighted score, weight × score.
    func compare(_ s: Score, morningRests: Bool?, readinessLevel: String) -> (agreement: String, driver: String) {
        guard let morningRests, !readinessLevel.isEmpty else { return ("", "") }
        let readinessRests = readinessLevel == ReadinessLevel.recovering.rawValue
        if morningRests == readinessRests { return (morningRests ? "both_rest" : "both_train", "") }
        let parts = [("hrv", s.hrv, c.hrvWeight), ("sleep", s.sleep, c.sleepWeight), ("resting_hr", s.restingHR, c.restingHRWeight)]
            .compactMap { name, v, w in v.map { (name, morningRests ? w * (1 - $0) : w * $0) } }
        let top = parts.max { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 > $1.0 }
        return (morningRests ? "morning_rest" : "readiness_rest", top?.0 ?? "")
    }
}

/// One row of `morning_recovery.csv` (docs/tables.md): a subject's morning — its inputs,
/// the components and score, the decision with a planned workout and without one
/// (`planned` says which applies offline: a recorded workout that day stands in for the
/// plan), the sleep debt and strain, and beside it the coach's readiness level of the day
/// with how the two agree.
public struct MorningRecoveryRow: Equatable, Sendable {
    public var subject: String
    public var date: String
    /// The HRV the score read (ms, SDNN) and its window: `overnight` or `24h`.
    public var hrvSDNNMs: Double?
    public var hrvWindow: String
    public var sleepHours: Double?
    public var restingHRBpm: Double?
    public var restingHRBaselineBpm: Double?
    public var score: MorningRecoveryEngine.Score
    public var planned: Bool
    public var withPlan: MorningRecoveryEngine.Decision?
    public var withoutPlan: MorningRecoveryEngine.Decision?
    public var readinessLevel: String
    /// h; points/day.
    public var sleepDebtHours: Double?
    public var strainIndex: Double?
    /// `both_rest`, `both_train`, `morning_rest`, `readiness_rest` or empty, and the
    /// morning component behind a disagreement.
    public var agreement: String
    public var driver: String
}

extension MorningRecoveryRow: CanonicalRow {
    public static let fileName = "morning_recovery.csv"
    public static let header = [
        "subject", "date", "hrv_sdnn_ms", "hrv_window", "sleep_hours", "resting_hr_bpm", "resting_hr_baseline_bpm", "hrv_score",
        "sleep_score", "resting_hr_score", "score", "planned_workout", "with_plan", "with_plan_intensity", "without_plan",
        "without_plan_intensity", "sleep_debt_h", "strain_index", "readiness_level", "agreement", "disagreement_driver",
    ]

    public func write(to w: CSVWriter) {
        w.field(subject); w.field(date); w.field(hrvSDNNMs); w.field(hrvWindow); w.field(sleepHours); w.field(restingHRBpm)
        w.field(restingHRBaselineBpm); w.field(score.hrv); w.field(score.sleep); w.field(score.restingHR); w.field(score.overall)
        w.field(planned); w.field(withPlan?.action ?? ""); w.field(withPlan?.intensity ?? ""); w.field(withoutPlan?.action ?? "")
        w.field(withoutPlan?.intensity ?? ""); w.field(sleepDebtHours); w.field(strainIndex); w.field(readinessLevel)
        w.field(agreement); w.field(driver)
    }

    public init(_ r: CanonicalFieldReader) throws {
        func decision(_ a: String, _ i: String) throws -> MorningRecoveryEngine.Decision? {
            let action = try r.string(a)
            return action.isEmpty ? nil : MorningRecoveryEngine.Decision(action: action, intensity: try r.string(i))
        }
        let overall = try r.optionalDouble("score", in: 0...100)
        self.init(subject: try r.string("subject"), date: try r.string("date"), hrvSDNNMs: try r.optionalDouble("hrv_sdnn_ms"),
                  hrvWindow: try r.string("hrv_window"), sleepHours: try r.optionalDouble("sleep_hours"),
                  restingHRBpm: try r.optionalDouble("resting_hr_bpm"),
                  restingHRBaselineBpm: try r.optionalDouble("resting_hr_baseline_bpm"),
                  score: MorningRecoveryEngine.Score(hrv: try r.optionalDouble("hrv_score"), sleep: try r.optionalDouble("sleep_score"),
                                                     restingHR: try r.optionalDouble("resting_hr_score"), overall: overall.map { Int($0) }),
                  planned: try r.string("planned_workout") == "true", withPlan: try decision("with_plan", "with_plan_intensity"),
                  withoutPlan: try decision("without_plan", "without_plan_intensity"), readinessLevel: try r.string("readiness_level"),
                  sleepDebtHours: try r.optionalDouble("sleep_debt_h"), strainIndex: try r.optionalDouble("strain_index"),
                  agreement: try r.string("agreement"), driver: try r.string("disagreement_driver"))
    }
}

/// One row of `morning_receipts.csv` (docs/tables.md): one derived metric of one morning
/// with its version, input window, input digest and explanation.
public struct MorningReceiptRow: Equatable, Sendable {
    public var subject: String
    public var date: String
    public var metric: MorningMetric
    public var derived: DerivedMetric
}

extension MorningReceiptRow: CanonicalRow {
    public static let fileName = "morning_receipts.csv"
    public static let header = [
        "subject", "date", "metric", "version", "value", "unit", "confidence", "window_start", "window_end", "window_rule",
        "inputs", "input_digest", "explanation",
    ]

    public func write(to w: CSVWriter) {
        w.field(subject); w.field(date); w.field(metric.rawValue); w.field(metric.version); w.field(derived.value)
        w.field(metric.unit); w.field(derived.confidence); w.field(timestampMs: derived.windowStartMs)
        w.field(timestampMs: derived.windowEndMs); w.field(derived.windowRule); w.field(derived.inputCount)
        w.field(derived.inputDigest); w.field(derived.explanation)
    }

    public init(_ r: CanonicalFieldReader) throws {
        let name = try r.string("metric")
        guard let metric = MorningMetric(rawValue: name) else { throw r.fail("metric", "'metric' is not a morning metric: '\(name)'") }
        let confidence = try r.double("confidence")
        guard (0...1).contains(confidence) else { throw r.fail("confidence", "'confidence' is not within 0–1") }
        self.init(subject: try r.string("subject"), date: try r.string("date"), metric: metric, derived: DerivedMetric(
            value: try r.double("value"), confidence: confidence,
            windowStartMs: try r.timestamp("window_start"), windowEndMs: try r.timestamp("window_end"),
            windowRule: try r.string("window_rule"), inputCount: try r.count("inputs"), inputDigest: try r.string("input_digest"),
            explanation: try r.string("explanation")))
    }
}
