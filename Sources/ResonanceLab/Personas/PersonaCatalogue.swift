/// The ten personas of docs/personas.md, in the order every output lists them.
///
/// Sensitivities are fixed per persona (not drawn) so that the truth a model must
/// recover is the same for every seed: ten values from 0.4 to 1.6 whose mean is
/// exactly 1 (0.4 + 0.55 + 0.7 + 0.8 + 0.9 + 1.1 + 1.2 + 1.3 + 1.45 + 1.6 = 10).
/// Genre affinities follow `SongCatalogue.genres`:
/// ambient, classical, jazz, folk, pop, rock, hiphop, electronic.
extension PersonaProfile {
    public static let all: [PersonaProfile] = [
        PersonaProfile(
            name: "NewMom", age: 32, sex: .female, weightKg: 68, restingHRBpm: 72, sdnnMs: 38, rmssdMs: 28,
            vo2Max: 32, recovery1mBpm: 15, sleepHours: 4.8, steps: 2000, activityMinutes: 5, zoneMinutes: 0,
            breathingHz: 0.27,
            workouts: [WorkoutPlan(weekdays: [1, 3, 5, 6], startHour: 10.5, minutes: 9, activity: "walking", intensity: 0.40)],
            sleep: SleepPlan(bedtimeHour: 22.5, awakenings: 3),
            listening: ListeningHabits(sessionsPerDay: 2, hoursPerDay: 1.2, startHours: [13.5, 16.0, 20.5],
                                       skipPropensity: 0.25, librarySize: 50,
                                       genreAffinity: [3, 2, 1, 2, 3, 0.5, 0.3, 0.5],
                                       playlists: ["Lullabies", "Nap Time", "Mom Pop Mix", "Evening Unwind"]),
            pattern: DailyPattern(rhrNoise: 0.03, hrvNoise: 0.12, sleepNoiseHours: 0.6), sensitivity: 0.7),
        PersonaProfile(
            name: "YoungAthlete", age: 22, sex: .male, weightKg: 72, restingHRBpm: 48, sdnnMs: 85, rmssdMs: 75,
            vo2Max: 58, recovery1mBpm: 42, sleepHours: 8.3, steps: 14000, activityMinutes: 81, zoneMinutes: 78,
            breathingHz: 0.2,
            workouts: [WorkoutPlan(weekdays: [1, 2, 3, 4, 5, 6], startHour: 17.0, minutes: 75, activity: "running", intensity: 0.72),
                       WorkoutPlan(weekdays: [7], startHour: 9.0, minutes: 120, activity: "cycling", intensity: 0.62)],
            sleep: SleepPlan(bedtimeHour: 22.75),
            listening: ListeningHabits(sessionsPerDay: 2, hoursPerDay: 1.5, startHours: [7.0, 12.5, 20.5],
                                       skipPropensity: 0.15, librarySize: 70,
                                       genreAffinity: [0.3, 0.2, 0.3, 0.4, 2, 2, 3, 3],
                                       playlists: ["Pre-Race Hype", "Recovery", "Chill", "Beast Mode"]),
            pattern: DailyPattern(shape: .taper(days: 4, rhrDrop: 0.07, hrvRise: 0.15), rhrNoise: 0.015, hrvNoise: 0.05),
            sensitivity: 1.45),
        PersonaProfile(
            name: "SeniorFit", age: 68, sex: .female, weightKg: 60, restingHRBpm: 60, sdnnMs: 42, rmssdMs: 28,
            vo2Max: 30, recovery1mBpm: 25, sleepHours: 7.4, steps: 10000, activityMinutes: 41, zoneMinutes: 21,
            breathingHz: 0.22,
            workouts: [WorkoutPlan(weekdays: [1, 3, 5], startHour: 8.5, minutes: 50, activity: "swimming", intensity: 0.62),
                       WorkoutPlan(weekdays: [2, 4, 6], startHour: 9.0, minutes: 45, activity: "walking", intensity: 0.45)],
            sleep: SleepPlan(bedtimeHour: 22.0),
            listening: ListeningHabits(sessionsPerDay: 1.5, hoursPerDay: 1.0, startHours: [11.0, 15.0, 19.5],
                                       skipPropensity: 0.08, librarySize: 45,
                                       genreAffinity: [1, 3, 3, 2, 1, 1, 0.1, 0.2],
                                       playlists: ["Morning Classics", "Jazz Standards", "Golden Oldies"]),
            pattern: DailyPattern(), sensitivity: 0.9),
        PersonaProfile(
            name: "StressedExecutive", age: 48, sex: .male, weightKg: 88, restingHRBpm: 76, sdnnMs: 30, rmssdMs: 22,
            vo2Max: 34, recovery1mBpm: 20, sleepHours: 6.0, steps: 5000, activityMinutes: 6, zoneMinutes: 5,
            breathingHz: 0.28,
            workouts: [WorkoutPlan(weekdays: [6], startHour: 9.0, minutes: 40, activity: "cycling", intensity: 0.62)],
            sleep: SleepPlan(bedtimeHour: 24.0),
            listening: ListeningHabits(sessionsPerDay: 2, hoursPerDay: 1.2, startHours: [6.75, 12.5, 21.5],
                                       skipPropensity: 0.35, librarySize: 55,
                                       genreAffinity: [0.5, 0.7, 1, 0.5, 2, 2, 1, 1.5],
                                       playlists: ["Commute", "Focus Mode", "Late Night"]),
            pattern: DailyPattern(shape: .risingStrain(rhrRise: 0.10, hrvFall: 0.30), rhrNoise: 0.02, hrvNoise: 0.2),
            sensitivity: 0.55),
        PersonaProfile(
            name: "NightShiftNurse", age: 35, sex: .female, weightKg: 65, restingHRBpm: 68, sdnnMs: 40, rmssdMs: 30,
            vo2Max: 36, recovery1mBpm: 22, sleepHours: 6.2, steps: 11000, activityMinutes: 11, zoneMinutes: 11,
            breathingHz: 0.25,
            workouts: [WorkoutPlan(weekdays: [5, 7], startHour: 16.0, minutes: 40, activity: "functional_strength_training", intensity: 0.62)],
            sleep: SleepPlan(bedtimeHour: 23.0, nightShiftWeekdays: [1, 2, 3]),
            listening: ListeningHabits(sessionsPerDay: 2, hoursPerDay: 1.3, startHours: [15.0, 17.0, 21.5],
                                       skipPropensity: 0.2, librarySize: 60,
                                       genreAffinity: [1.5, 1, 1, 1.5, 2, 1, 1, 0.8],
                                       playlists: ["Wind Down", "Drive Home", "Daytime Sleep", "Favorites"]),
            pattern: DailyPattern(rhrNoise: 0.025, hrvNoise: 0.1, sleepNoiseHours: 0.5), sensitivity: 0.8),
        PersonaProfile(
            name: "CollegeStudent", age: 20, sex: .male, weightKg: 70, restingHRBpm: 64, sdnnMs: 60, rmssdMs: 50,
            vo2Max: 44, recovery1mBpm: 28, sleepHours: 6.8, steps: 8000, activityMinutes: 26, zoneMinutes: 26,
            breathingHz: 0.25,
            workouts: [WorkoutPlan(weekdays: [2, 4, 6], startHour: 18.0, minutes: 60, activity: "basketball", intensity: 0.70)],
            sleep: SleepPlan(bedtimeHour: 24.5),
            listening: ListeningHabits(sessionsPerDay: 3, hoursPerDay: 2.5, startHours: [9.5, 14.0, 22.0],
                                       skipPropensity: 0.4, librarySize: 80,
                                       genreAffinity: [1, 0.5, 0.5, 0.8, 3, 1.5, 3, 3],
                                       playlists: ["Study Beats", "Party", "Gym", "Late Night Vibes", "Chill"]),
            pattern: DailyPattern(sleepNoiseHours: 0.7), sensitivity: 1.3),
        PersonaProfile(
            name: "RemoteDeveloper", age: 29, sex: .male, weightKg: 80, restingHRBpm: 66, sdnnMs: 48, rmssdMs: 38,
            vo2Max: 38, recovery1mBpm: 24, sleepHours: 7.0, steps: 4500, activityMinutes: 10, zoneMinutes: 10,
            breathingHz: 0.25,
            workouts: [WorkoutPlan(weekdays: [2, 5], startHour: 18.5, minutes: 35, activity: "cycling", intensity: 0.65)],
            sleep: SleepPlan(bedtimeHour: 23.5),
            listening: ListeningHabits(sessionsPerDay: 3, hoursPerDay: 3.0, startHours: [9.0, 13.5, 15.5],
                                       skipPropensity: 0.2, librarySize: 75,
                                       genreAffinity: [3, 1.5, 1, 0.5, 1, 1, 1, 3],
                                       playlists: ["Deep Focus", "Coding Flow", "Lo-fi", "Evening"]),
            pattern: DailyPattern(), sensitivity: 1.1),
        PersonaProfile(
            name: "WeekendWarrior", age: 40, sex: .male, weightKg: 85, restingHRBpm: 63, sdnnMs: 50, rmssdMs: 38,
            vo2Max: 42, recovery1mBpm: 28, sleepHours: 7.2, steps: 8400, activityMinutes: 34, zoneMinutes: 34,
            breathingHz: 0.24,
            workouts: [WorkoutPlan(weekdays: [6], startHour: 9.5, minutes: 120, activity: "hiking", intensity: 0.65),
                       WorkoutPlan(weekdays: [7], startHour: 9.5, minutes: 120, activity: "soccer", intensity: 0.72)],
            sleep: SleepPlan(bedtimeHour: 23.0),
            listening: ListeningHabits(sessionsPerDay: 2, hoursPerDay: 1.2, startHours: [7.5, 12.5, 20.0],
                                       skipPropensity: 0.22, librarySize: 55,
                                       genreAffinity: [0.3, 0.3, 0.5, 1, 2, 3, 1, 1],
                                       playlists: ["Road Trip", "Garage Rock", "Weekend"]),
            pattern: DailyPattern(), sensitivity: 1.2),
        PersonaProfile(
            name: "MeditationPractitioner", age: 45, sex: .female, weightKg: 58, restingHRBpm: 56, sdnnMs: 70, rmssdMs: 60,
            vo2Max: 40, recovery1mBpm: 30, sleepHours: 7.8, steps: 8000, activityMinutes: 39, zoneMinutes: 0,
            breathingHz: 0.18,
            workouts: [WorkoutPlan(weekdays: [1, 2, 3, 4, 5], startHour: 7.0, minutes: 45, activity: "yoga", intensity: 0.35),
                       WorkoutPlan(weekdays: [6], startHour: 10.0, minutes: 45, activity: "walking", intensity: 0.45)],
            sleep: SleepPlan(bedtimeHour: 22.0),
            listening: ListeningHabits(sessionsPerDay: 2, hoursPerDay: 1.3, startHours: [5.25, 13.0, 20.5],
                                       skipPropensity: 0.06, librarySize: 40,
                                       genreAffinity: [4, 3, 1, 1.5, 0.3, 0.1, 0.1, 0.5],
                                       playlists: ["Meditation", "Sound Bath", "Evening Calm"]),
            pattern: DailyPattern(rhrNoise: 0.015, hrvNoise: 0.05), sensitivity: 1.6),
        PersonaProfile(
            name: "CardiacRehab", age: 62, sex: .male, weightKg: 84, restingHRBpm: 70, sdnnMs: 22, rmssdMs: 16,
            vo2Max: 22, recovery1mBpm: 14, sleepHours: 6.8, steps: 5500, activityMinutes: 17, zoneMinutes: 10,
            breathingHz: 0.25,
            workouts: [WorkoutPlan(weekdays: [1, 3, 5], startHour: 10.0, minutes: 40, activity: "cycling", intensity: 0.50)],
            sleep: SleepPlan(bedtimeHour: 22.5, awakenings: 1),
            listening: ListeningHabits(sessionsPerDay: 1.5, hoursPerDay: 1.0, startHours: [8.0, 15.0, 19.5],
                                       skipPropensity: 0.1, librarySize: 40,
                                       genreAffinity: [1, 2.5, 3, 2, 1, 1, 0.1, 0.2],
                                       playlists: ["Relaxation", "Rehab Walk", "Oldies"]),
            pattern: DailyPattern(), sensitivity: 0.4),
    ]

    /// The persona named `name`, if any.
    public static func named(_ name: String) -> PersonaProfile? {
        all.first { $0.name == name }
    }
}
