import Foundation

/// The daily snapshot of a simulated persona, measured from its simulated signals the
/// way a wearable would. Nothing of the plan (`PersonaDay`) reaches a snapshot except
/// through a signal: the night's beats, minute HR, the timeline, and a scale's reading.
enum DailyMeasurement {
    /// Walking cadence band (steps/min): at or above 60 and below running (130).
    static let walkingCadence = 60.0..<130.0
    /// Nights (today's and the previous ones) whose measured resting HR the watch
    /// averages into the resting HR its zones and VO2 max estimate use (choice: a
    /// week, so one restless night does not move a user's zones).
    static let restingEstimateNights = 7
    /// Uth et al. (2004, Eur J Appl Physiol 91:111): VO2 max ≈ 15.3 × HRmax / HRrest
    /// (mL/kg/min).
    static let uthFactor = 15.3
    /// SD (kg) of a bathroom scale's reading around the day's body mass (choice: the
    /// repeatability of consumer smart scales, about ±0.2 kg).
    static let scaleSDKg = 0.2

    /// What the watch counts of one date's movement: steps (the cadence summed over the
    /// date's minutes, rounded) and minutes walked (cadence in `walkingCadence`).
    struct Activity {
        var steps: Double
        var walkMinutes: Double
    }

    /// The activity of each of the timeline's `days` dates, from its cadence a minute.
    static func activity(_ timeline: PersonaTimeline, days: Int) -> [Activity] {
        (0..<days).map { d in
            let minutes = timeline.minute(day: d, hour: 0)..<timeline.minute(day: d, hour: 24)
            return Activity(steps: timeline.cadence[minutes].reduce(0, +).rounded(),
                            walkMinutes: Double(minutes.filter { walkingCadence.contains(timeline.cadence[$0]) }.count))
        }
    }

    /// `activity` is each date's steps and walking (`activity(_:days:)`). `zones` gives
    /// the maximum HR and the zone bounds as the watch computes them (the registry's
    /// `zones` engine). Resting HR and SDNN come from the night's R-R
    /// window; zone minutes and VO2 max use the mean of the measured resting HRs of the
    /// last `restingEstimateNights` nights; body mass is a scale reading of the day's
    /// mass with the scale's own error, drawn from `scale` (its own stream).
    static func snapshots(_ p: PersonaProfile, timeline: PersonaTimeline, days: [PersonaDay], activity: [Activity],
                          noisyHR: [Double], beats: BeatSpans, zones: HeartRateZoneEngine,
                          scale: inout SeededRandom) -> [DailySnapshot] {
        var nightlyRestingHR: [Double?] = []
        return days.indices.map { d in
            var snap = DailySnapshot(subject: p.name, day: timeline.firstDay + d)
            // Resting HR and SDNN from the night's 5-minute R-R window.
            if let night = beats.spans.first(where: { $0.day == d && $0.night != nil })?.night {
                snap.restingHRBpm = 60_000 / night.meanRRMs
                snap.hrvSDNNMs = night.sdRRMs
            }
            nightlyRestingHR.append(snap.restingHRBpm)
            let recent = nightlyRestingHR.suffix(restingEstimateNights).compactMap { $0 }
            let watchRestingHR = recent.isEmpty ? nil : Stats.mean(recent)
            // Recovery after the day's first workout: HR of its last minute minus HR
            // one and two minutes later.
            if let w = timeline.workouts.first(where: { $0.day == d }), w.end + 1 < timeline.minutes {
                snap.recovery1mBpm = (noisyHR[w.end - 1] - noisyHR[w.end]).rounded()
                snap.recovery2mBpm = (noisyHR[w.end - 1] - noisyHR[w.end + 1]).rounded()
            }
            let minutes = timeline.minute(day: d, hour: 0)..<timeline.minute(day: d, hour: 24)
            if let rest = watchRestingHR {
                if let zoneFloor = zones.zones(age: Double(p.age), restingHRBpm: rest).dropFirst().first?.lowBpm {
                    snap.zoneMinutes = Double(minutes.filter { noisyHR[$0] >= zoneFloor }.count)
                }
                snap.vo2Max = (uthFactor * zones.maxHR(age: Double(p.age)) / rest * 10).rounded() / 10
            }
            snap.steps = activity[d].steps
            snap.walkMinutes = activity[d].walkMinutes
            snap.workoutMinutes = Double(timeline.workouts.filter { $0.day == d }.reduce(0) { $0 + $1.end - $1.start })
            if let sleep = timeline.sleeps.first(where: { $0.day == d }) {
                let asleep = (sleep.start..<sleep.end).filter {
                    [.core, .deep, .rem].contains(timeline.state[$0])
                }.count
                snap.sleepHours = Double(asleep) / 60
            }
            snap.bodyMassKg = ((days[d].bodyMassKg + scaleSDKg * scale.normal()) * 10).rounded() / 10
            return snap
        }
    }
}
