/// One synthetic person (docs/personas.md): physiology at rest, activity, sleep, listening
/// habits and the planted sensitivity to music. Values are typical of the group each
/// persona stands for (resting HR and 5-minute SDNN/RMSSD by age and fitness after
/// Nunan et al. 2010, "A quantitative systematic review of normal values for
/// short-term heart rate variability", PACE 33:1407; VO2 max by age after the ACSM
/// norms; cardiac-rehabilitation values after Nolan et al. 1996, reduced HRV after
/// myocardial infarction).
public struct PersonaProfile: Sendable, Equatable {
    public enum Sex: String, Sendable { case female, male }

    public var name: String
    public var age: Int
    public var sex: Sex
    public var weightKg: Double
    /// Resting heart rate (bpm) and 5-minute SDNN / RMSSD (ms), measured in the nightly
    /// 5-minute R-R window before waking, as wearables report resting values.
    public var restingHRBpm: Double
    public var sdnnMs: Double
    public var rmssdMs: Double
    /// mL·kg⁻¹·min⁻¹.
    public var vo2Max: Double
    /// Heart-rate drop in the first minute after exercise (bpm).
    public var recovery1mBpm: Double
    /// Hours asleep per main sleep.
    public var sleepHours: Double
    public var steps: Double
    /// Workout minutes per day on average, and of them the minutes at ≥ 60 % of the
    /// heart-rate reserve (zone 2 and above).
    public var activityMinutes: Double
    public var zoneMinutes: Double
    /// Breathing rate at rest (Hz): sets the respiratory sinus arrhythmia frequency.
    public var breathingHz: Double
    public var workouts: [WorkoutPlan]
    public var sleep: SleepPlan
    public var listening: ListeningHabits
    /// Day-to-day course of resting HR, HRV and sleep.
    public var pattern: DailyPattern
    /// Multiplier of every song's true effect on this listener (the ten average 1).
    public var sensitivity: Double

    /// Age-predicted maximum HR (bpm), Tanaka, Monahan & Seals 2001: 208 − 0.7·age.
    public var maxHRBpm: Double { 208 - 0.7 * Double(age) }
}

/// A recurring workout: on which ISO weekdays (1 = Monday), when, how long and how
/// hard (fraction of the heart-rate reserve, Karvonen).
public struct WorkoutPlan: Sendable, Equatable {
    public var weekdays: [Int]
    public var startHour: Double
    public var minutes: Double
    public var activity: String
    public var intensity: Double

    public init(weekdays: [Int], startHour: Double, minutes: Double, activity: String, intensity: Double) {
        self.weekdays = weekdays; self.startHour = startHour; self.minutes = minutes
        self.activity = activity; self.intensity = intensity
    }
}

/// When the main sleep happens. Night-shift days move it to the day after the shift.
public struct SleepPlan: Sendable, Equatable {
    /// Usual bedtime, hours after midnight of the previous day (23.0 = 23:00).
    public var bedtimeHour: Double
    /// Night awakenings per night (each 10–40 min awake).
    public var awakenings: Int
    /// ISO weekdays whose evening starts a 19:00–07:00 night shift; the sleep after
    /// it runs 08:00–14:00.
    public var nightShiftWeekdays: [Int]

    public init(bedtimeHour: Double, awakenings: Int = 0, nightShiftWeekdays: [Int] = []) {
        self.bedtimeHour = bedtimeHour; self.awakenings = awakenings; self.nightShiftWeekdays = nightShiftWeekdays
    }
}

/// How a persona listens: sessions per day, hours per day, preferred session start
/// hours, how readily songs are skipped, library size and genre taste.
public struct ListeningHabits: Sendable, Equatable {
    public var sessionsPerDay: Double
    public var hoursPerDay: Double
    public var startHours: [Double]
    /// Probability that a play is skipped, before the persona's liking of the song.
    public var skipPropensity: Double
    public var librarySize: Int
    /// Relative liking of each genre of `SongCatalogue.genres`, same order.
    public var genreAffinity: [Double]
    public var playlists: [String]

    public init(sessionsPerDay: Double, hoursPerDay: Double, startHours: [Double], skipPropensity: Double,
                librarySize: Int, genreAffinity: [Double], playlists: [String]) {
        self.sessionsPerDay = sessionsPerDay; self.hoursPerDay = hoursPerDay; self.startHours = startHours
        self.skipPropensity = skipPropensity; self.librarySize = librarySize
        self.genreAffinity = genreAffinity; self.playlists = playlists
    }
}
