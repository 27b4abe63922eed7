/// Everything the daily engines say about one person-day.
public struct DailyAssessment: Equatable, Sendable {
    public let snapshot: DailySnapshot
    public let stress: StressResult?
    public let readiness: ReadinessResult?
    public let trend: TrendResult
    public var bioAge: BioAgeResult? = nil
    /// Direction of the stress scores over `stress.trend_days` ending this day.
    public var stressTrend: StressTrend?
    /// Fewer local hours with heart-rate samples than `daily_inputs.min_wear_hours`:
    /// the day has no stress score (docs/engines/toolkit.md, Local days, wear time and RMSSD-only days).
    public var lowWear = false

    /// Every flag a day can carry, in the order `flags` lists them.
    public static let flagNames = [
        "anomaly", "regression", "stress_pattern", "rhr_week_up", "rhr_week_down", "consecutive_elevation",
        "readiness_capped", "bmi_height_assumed", "low_wear",
    ]

    /// Trend flags, then `readiness_capped` when the elevation cap applied,
    /// `bmi_height_assumed` when BioAge's BMI used the sex-average height, then `low_wear`.
    public var flags: [String] {
        trend.flags + (readiness?.capped == true ? ["readiness_capped"] : []) + (bioAge?.heightAssumed == true ? ["bmi_height_assumed"] : [])
            + (lowWear ? ["low_wear"] : [])
    }

    /// The `daily.csv` row of this day.
    public var row: DailyRow {
        DailyRow(snapshot: snapshot, stress: stress?.score, stressLevel: stress?.level.rawValue ?? "",
                 readiness: readiness?.score, readinessLevel: readiness?.level.rawValue ?? "",
                 anomaly: trend.anomaly, flags: flags, bioAge: bioAge?.bioAgeYears, bioAgeCategory: bioAge?.category.rawValue ?? "",
                 stressTrend: stressTrend?.rawValue ?? "")
    }
}

/// The daily engines run together over people's histories: trend first (its
/// consecutive-elevation alert caps readiness), then stress, then readiness (which
/// takes the day's stress as a pillar), then BioAge (with each subject's age, sex and
/// height).
public enum DailyEngines {
    /// The registry engines they run on (`daily_inputs` for the wear-time threshold).
    public static let engines = ["bio_age", "daily_inputs", "readiness", "stress", "trend"]

    /// One assessment per snapshot. Snapshots may hold several subjects in any order;
    /// the result lists subjects in order of first appearance, each by ascending day.
    /// Each day sees only its own snapshot and the days before it.
    public static func assess(history: [DailySnapshot], registry: ConstantsRegistry = .defaults,
                              subjects: DailySubjects = DailySubjects()) -> [DailyAssessment] {
        let bioAgeEngine = BioAgeEngine(constants: registry.bioAge, norms: subjects.norms)
        let stressEngine = StressEngine(constants: StressConstants(registry: registry))
        let readinessEngine = ReadinessEngine(constants: ReadinessConstants(registry: registry))
        let trendEngine = HeartTrendEngine(constants: TrendConstants(registry: registry))
        let minWearHours = registry.dailyInputs.minWearHours
        var order: [String] = []
        var bySubject: [String: [DailySnapshot]] = [:]
        for s in history {
            if bySubject[s.subject] == nil { order.append(s.subject) }
            bySubject[s.subject, default: []].append(s)
        }
        var out: [DailyAssessment] = []
        for subject in order {
            let days = (bySubject[subject] ?? []).sorted { $0.day < $1.day }
            var scored: [(day: Int, score: Double)] = []
            for (i, today) in days.enumerated() {
                let before = days[..<i]
                let trend = trendEngine.assess(today, history: before)
                // A day worn too little is not scored: its few hours would read as calm.
                let lowWear = today.wearHours.map { $0 < minWearHours } ?? false
                let stress = lowWear ? nil : stressEngine.assess(today, history: before)
                let readiness = readinessEngine.assess(today, history: before, stress: stress?.score,
                                                       elevationAlert: trend.elevationAlert)
                let person = subjects.rows[subject]
                let bioAge = bioAgeEngine.assess(today, history: before, ageYears: subjects.age(subject, day: today.day),
                                                 sex: person?.sex ?? "", heightCm: person?.heightCm, weightKg: person?.weightKg)
                // The scored days of the trend window ending today.
                if let stress { scored.append((today.day, stress.score)) }
                scored.removeAll { $0.day <= today.day - Int(stressEngine.constants.trendDays) }
                var assessment = DailyAssessment(snapshot: today, stress: stress, readiness: readiness, trend: trend, bioAge: bioAge)
                assessment.stressTrend = stress == nil ? nil : stressEngine.trendDirection(scored)
                assessment.lowWear = lowWear
                out.append(assessment)
            }
        }
        return out
    }
}
