import Foundation

/// The daily snapshot of a simulated persona, measured from its simulated signals the
/// way a wearable would, not copied from the plan.
enum DailyMeasurement {
    /// Walking cadence band (steps/min): at or above 60 and below running (130).
    static let walkingCadence = 60.0..<130.0

    /// `zones` defines zone minutes as a watch would measure them: minutes at or above
    /// the lower bound of zone 2 (the registry's `zones` engine).
    static func snapshots(_ p: PersonaProfile, timeline: PersonaTimeline, days: [PersonaDay],
                          noisyHR: [Double], beats: BeatSpans, zones: HeartRateZoneEngine) -> [DailySnapshot] {
        days.indices.map { d in
            let today = days[d]
            var snap = DailySnapshot(subject: p.name, day: timeline.firstDay + d)
            // Resting HR and SDNN from the night's 5-minute R-R window.
            if let window = beats.spans.first(where: { $0.day == d && $0.hrStepMs == 60_000 }) {
                let rr = window.rrMs
                snap.restingHRBpm = 60_000 / Stats.mean(rr)
                snap.hrvSDNNMs = Stats.sd(rr)
            }
            // Recovery after the day's first workout: HR of its last minute minus HR
            // one and two minutes later.
            if let w = timeline.workouts.first(where: { $0.day == d }), w.end + 1 < timeline.minutes {
                snap.recovery1mBpm = (noisyHR[w.end - 1] - noisyHR[w.end]).rounded()
                snap.recovery2mBpm = (noisyHR[w.end - 1] - noisyHR[w.end + 1]).rounded()
            }
            let minutes = timeline.minute(day: d, hour: 0)..<timeline.minute(day: d, hour: 24)
            if let zoneFloor = zones.zones(age: Double(p.age), restingHRBpm: today.restingHRBpm).dropFirst().first?.lowBpm {
                snap.zoneMinutes = Double(minutes.filter { noisyHR[$0] >= zoneFloor }.count)
            }
            snap.steps = timeline.cadence[minutes].reduce(0, +).rounded()
            snap.walkMinutes = Double(minutes.filter { walkingCadence.contains(timeline.cadence[$0]) }.count)
            snap.workoutMinutes = Double(timeline.workouts.filter { $0.day == d }.reduce(0) { $0 + $1.end - $1.start })
            if let sleep = timeline.sleeps.first(where: { $0.day == d }) {
                let asleep = (sleep.start..<sleep.end).filter {
                    [.core, .deep, .rem].contains(timeline.state[$0])
                }.count
                snap.sleepHours = Double(asleep) / 60
            }
            snap.vo2Max = (today.vo2Max * 10).rounded() / 10
            snap.bodyMassKg = (today.bodyMassKg * 10).rounded() / 10
            return snap
        }
    }
}
