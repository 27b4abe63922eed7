import Foundation

/// The day-level physiology of one persona on one simulated date: where the profile
/// and its `DailyPattern` put resting HR, HRV, recovery, sleep, steps and body mass
/// that day. Minute-level and beat-level signals are built around it.
struct PersonaDay: Sendable {
    var restingHRBpm: Double
    var sdnnMs: Double
    var rmssdMs: Double
    var recovery1mBpm: Double
    var sleepHours: Double
    var steps: Double
    var bodyMassKg: Double

    /// `days` consecutive days. Day-to-day noise is AR(1) with coefficient 0.5 (resting
    /// HR and HRV carry over from one day to the next), scaled to the pattern's SDs;
    /// ln HRV noise is shifted by −σ²/2 so that the mean of SDNN stays the profile's.
    /// Each day's last normal draw once planted VO2 max, which the watch now estimates
    /// from resting HR (`DailyMeasurement`); it is still drawn, so that every later
    /// day keeps its values.
    static func series(_ p: PersonaProfile, days: Int, random: inout SeededRandom) -> [PersonaDay] {
        var rhrNoise = 0.0, hrvNoise = 0.0
        let carry = 0.5, fresh = (1 - carry * carry).squareRoot()
        return (0..<days).map { d in
            rhrNoise = carry * rhrNoise + fresh * random.normal()
            hrvNoise = carry * hrvNoise + fresh * random.normal()
            let (rhrShift, lnHRVShift) = p.pattern.offsets(day: d, days: days)
            let sigma = p.pattern.hrvNoise
            let hrvFactor = exp(lnHRVShift + sigma * hrvNoise - sigma * sigma / 2)
            let day = PersonaDay(
                restingHRBpm: p.restingHRBpm * (1 + rhrShift + p.pattern.rhrNoise * rhrNoise),
                sdnnMs: p.sdnnMs * hrvFactor,
                rmssdMs: p.rmssdMs * hrvFactor,
                recovery1mBpm: p.recovery1mBpm * (1 + 0.06 * random.normal()),
                sleepHours: min(11, max(3, p.sleepHours + p.pattern.sleepNoiseHours * random.normal())),
                steps: p.steps * exp(0.2 * random.normal() - 0.02),
                bodyMassKg: p.weightKg + 0.25 * random.normal())
            _ = random.normal()
            return day
        }
    }
}
