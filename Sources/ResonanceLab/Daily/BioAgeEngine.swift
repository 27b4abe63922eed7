import Foundation

/// BioAge categories of BioAge − age (docs/engines/heart-coach.md, BioAge).
public enum BioAgeCategory: String, Sendable, CaseIterable {
    case excellent, good, onTrack = "on_track", watchful, needsWork = "needs_work"
}

/// One input's contribution: its offset in years (clamped), its nominal weight, the
/// day's value and the norm it was compared with.
public struct BioAgeOffset: Equatable, Sendable {
    public let name: String
    public let years: Double
    public let weight: Double
    public let value: Double
    public let norm: Double
}

/// One day's BioAge.
public struct BioAgeResult: Equatable, Sendable {
    public let ageYears: Double
    public let bioAgeYears: Double
    public let category: BioAgeCategory
    public let offsets: [BioAgeOffset]
    /// BMI used the sex-average height because `subjects.csv` gives none.
    public let heightAssumed: Bool

    /// BioAge − chronological age, years.
    public var differenceYears: Double { bioAgeYears - ageYears }
}

/// Activity minutes of a day for readiness's activity pattern and BioAge: `zone_minutes`,
/// the minutes whose mean heart rate reaches zone 2 (≥ 60 % of the heart-rate reserve)
/// — exertion measured by heart rate, whatever the workout labels say. A day without
/// heart rate has none and is left out, not counted as 0.
enum ActivityMinutes {
    /// `(day, minutes)` of the days with zone minutes among the `count` days ending
    /// today, today last; nil when today has none.
    static func window(_ today: DailySnapshot, history: ArraySlice<DailySnapshot>, count: Double) -> [(day: Int, minutes: Double)]? {
        guard let minutes = today.zoneMinutes else { return nil }
        // `history` holds the days before today only.
        return DailyWindow.points(history, days: DailyWindow.ending(today.day, count: count), \.zoneMinutes).map { ($0.day, $0.value) }
            + [(today.day, minutes)]
    }
}

/// BioAge (docs/engines/heart-coach.md, BioAge): chronological age plus the weighted mean of six
/// inputs' offsets in years, each clamped to ±8 and the weights re-normalised over the
/// inputs present (the product specification's NTNU-style fitness-age estimate). VO2
/// max, resting HR and SDNN are compared with age- and sex-specific population norms
/// (`BioAgeNorms`); sleep with the 7–9 h band; zone minutes with 30 min/day; BMI with 22.
public struct BioAgeEngine: Sendable {
    public let constants: BioAgeConstants
    public let norms: BioAgeNorms

    public init(constants: BioAgeConstants = .defaults, norms: BioAgeNorms = .builtIn) {
        self.constants = constants; self.norms = norms
    }

    private var c: BioAgeConstants { constants }

    /// The category of BioAge − age: excellent ≤ −5 < good ≤ −2 < on track < +2 ≤
    /// watchful < +5 ≤ needs work (each edge belongs to the category farther from 0).
    public func category(differenceYears d: Double) -> BioAgeCategory {
        d <= c.excellentAtMost ? .excellent : d <= c.goodAtMost ? .good : d >= c.needsWorkFrom ? .needsWork
            : d >= c.watchfulFrom ? .watchful : .onTrack
    }

    /// BMI in kg/m² from body mass and height in cm, else the sex-average height
    /// (the mean of the two without a sex); the flag says the height was assumed.
    public func bmi(massKg: Double, heightCm: Double?, sex: String) -> (bmi: Double, heightAssumed: Bool) {
        let assumed = sex == "female" ? c.heightFemaleM : sex == "male" ? c.heightMaleM : (c.heightFemaleM + c.heightMaleM) / 2
        let h = heightCm.map { $0 / 100 } ?? assumed
        return (massKg / (h * h), heightCm == nil)
    }

    /// BioAge of `today` for a person of `ageYears` and `sex` (`female`, `male`, else
    /// the mean of both norms), `heightCm` and `weightKg` from `subjects.csv` when known
    /// (weight stands in for a day without `body_mass`); nil without an age or any input.
    public func assess(_ today: DailySnapshot, history: ArraySlice<DailySnapshot>, ageYears: Double?, sex: String,
                       heightCm: Double? = nil, weightKg: Double? = nil) -> BioAgeResult? {
        guard let age = ageYears else { return nil }
        var offsets: [BioAgeOffset] = []
        var heightAssumed = false
        func add(_ name: String, _ years: Double, _ weight: Double, _ value: Double, _ norm: Double) {
            offsets.append(BioAgeOffset(name: name, years: clamp(years, -c.offsetClampYears...c.offsetClampYears),
                                        weight: weight, value: value, norm: norm))
        }
        if let v = today.vo2Max, let n = norms.expected("vo2max", age: age, sex: sex) {
            add("vo2max", (n - v) * c.yearsPerVO2Max, c.weightVO2Max, v, n)
        }
        if let v = today.restingHRBpm, let n = norms.expected("resting_hr", age: age, sex: sex) {
            add("resting_hr", (v - n) * c.yearsPerRestingHR, c.weightRestingHR, v, n)
        }
        if let v = today.hrvSDNNMs, let n = norms.expected("hrv_sdnn", age: age, sex: sex) {
            add("hrv_sdnn", (n - v) * c.yearsPerHRV, c.weightHRV, v, n)
        }
        if let h = today.sleepHours {
            let outside = max(0, c.sleepLowHours - h, h - c.sleepHighHours)
            add("sleep", outside * c.yearsPerSleepHour, c.weightSleep, h, h < c.sleepLowHours ? c.sleepLowHours : min(h, c.sleepHighHours))
        }
        if let days = ActivityMinutes.window(today, history: history, count: c.activityDays) {
            let perDay = Stats.mean(days.map(\.minutes))
            add("activity", (c.activityNormMinutes - perDay) / 10 * c.yearsPer10ActivityMinutes, c.weightActivity, perDay, c.activityNormMinutes)
        }
        if let mass = today.bodyMassKg ?? weightKg {
            let b = bmi(massKg: mass, heightCm: heightCm, sex: sex)
            heightAssumed = b.heightAssumed
            add("bmi", abs(b.bmi - c.bmiOptimal) * c.yearsPerBMI, c.weightBMI, b.bmi, c.bmiOptimal)
        }
        let total = offsets.reduce(0) { $0 + $1.weight }
        guard total > 0 else { return nil }
        let bio = age + offsets.reduce(0) { $0 + $1.weight * $1.years } / total
        return BioAgeResult(ageYears: age, bioAgeYears: bio, category: category(differenceYears: bio - age), offsets: offsets,
                            heightAssumed: heightAssumed)
    }
}
