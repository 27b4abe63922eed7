import Foundation
@testable import ResonanceLab

/// A seeded listening world built straight from canonical tables, for the effects
/// tests: plays back to back in sessions of 12, HR every 5 s in the first and last 30 s
/// of each play, responding to song effect × listener sensitivity with a first-order
/// onset and release (so plays carry over), plus N(0, 1) bpm noise. A song's effect is
/// the expected change of a full play (its plateau is calibrated by `Exposure.fraction`).
struct PlaySimulation {
    var seed: UInt64
    var songs: Int
    var listeners: Int
    var playsPerListener: Int
    /// Onset and release time constants (s).
    var onsetS: Double
    var releaseS = 6.0
    /// Listener sensitivities (mean 1); all 1 when nil.
    var sensitivities: [Double]?
    /// Share of plays skipped, and how long a skipped play lasts (s).
    var skipShare: Double
    var skippedPlayedS: ClosedRange<Double>
    /// Songs drawn as ⌊u²·songs⌋ (popular songs first) rather than ⌊u·songs⌋.
    var skewedSongs: Bool

    struct World {
        var effect: [Double]
        var plays: [Play]
        var hr: [HRSample]
    }

    func run() -> World {
        var rng = SeededRandom(seed: seed)
        let effect = (0..<songs).map { _ in rng.normal(mean: -1.5, sd: 3) }
        let duration = (0..<songs).map { _ in rng.uniform(150, 300) }
        let plateau = (0..<songs).map { effect[$0] / Exposure.fraction(playedS: duration[$0], windowS: 30, onsetS: onsetS) }
        let lambda = sensitivities ?? [Double](repeating: 1, count: listeners)
        var plays: [Play] = [], hr: [HRSample] = []
        let t0 = ms("2022-02-07T06:00:00.000Z")
        for j in 0..<listeners {
            var t = Double(t0) / 1000
            var previous: (song: Int, played: Double, end: Double)?
            for n in 0..<playsPerListener {
                if n % 12 == 0 { t += 3 * 3600; previous = nil }
                let u = rng.uniform(), i = min(songs - 1, Int((skewedSongs ? u * u : u) * Double(songs)))
                let media = duration[i], skipped = rng.uniform() < skipShare
                let played = skipped ? rng.uniform(skippedPlayedS.lowerBound, skippedPlayedS.upperBound) : media
                let start = t, end = t + played
                plays.append(Play(subject: "u\(j)", playId: "u\(j)-\(n)", songId: "s\(i)", title: "", artist: "", album: "",
                                  playlist: "pl\(i % 5)", startedAtMs: Int64(start * 1000), endedAtMs: Int64(end * 1000),
                                  mediaDurationS: media, playedS: played, endReason: skipped ? "skip" : "end", skipped: skipped))
                for offset in [0.0, 5, 10, 15, 20, 25, 30] {
                    for rel in [min(offset, played), max(0, played - offset)] {
                        var level = lambda[j] * plateau[i] * (1 - exp(-rel / onsetS))
                        if let q = previous {
                            level += lambda[j] * plateau[q.song] * (1 - exp(-q.played / onsetS)) * exp(-(start + rel - q.end) / releaseS)
                        }
                        hr.append(HRSample(subject: "u\(j)", timestampMs: Int64((start + rel) * 1000),
                                           bpm: 65 + level + rng.normal(mean: 0, sd: 1), source: "sim"))
                    }
                }
                previous = (i, played, end)
                t = end + rng.uniform(0, 10)
            }
        }
        return World(effect: effect, plays: plays, hr: hr)
    }
}
