import Foundation
import XCTest
@testable import ResonanceLab

/// `effects --onset`: on plays whose responses rise with a 20-s onset (the
/// whole-pipeline simulation of `EffectsPipelineTests`, another τ), the profile
/// likelihood picks the grid's 22 s for ΔHR, where the constant (45 s) would be
/// assumed; `estimated` takes it, `profiled` takes it with intervals widened by half
/// of each song's shift from the constant's estimate, `fixed` keeps the constant.
final class OnsetProfileTests: XCTestCase {
    func testProfileFindsTheOnsetTheResponsesFollow() throws {
        var rng = SeededRandom(seed: 2027)
        let songs = 60, listeners = 6, playsPerListener = 300, onset = 20.0, release = 6.0
        let effect = (0..<songs).map { _ in rng.normal(mean: -1.5, sd: 3) }
        let duration = (0..<songs).map { _ in rng.uniform(150, 300) }
        let plateau = (0..<songs).map { effect[$0] / Exposure.fraction(playedS: duration[$0], windowS: 30, onsetS: onset) }
        var plays: [Play] = [], hr: [HRSample] = []
        let t0 = ms("2022-02-07T06:00:00.000Z")
        for j in 0..<listeners {
            var t = Double(t0) / 1000
            var previous: (song: Int, played: Double, end: Double)?
            for n in 0..<playsPerListener {
                if n % 12 == 0 { t += 3 * 3600; previous = nil }
                let i = min(songs - 1, Int(rng.uniform() * Double(songs)))
                let media = duration[i], skipped = rng.uniform() < 0.35
                let played = skipped ? rng.uniform(35, 120) : media
                let start = t, end = t + played
                plays.append(Play(subject: "u\(j)", playId: "u\(j)-\(n)", songId: "s\(i)", title: "", artist: "", album: "",
                                  playlist: "pl\(i % 5)", startedAtMs: Int64(start * 1000), endedAtMs: Int64(end * 1000),
                                  mediaDurationS: media, playedS: played, endReason: skipped ? "skip" : "end", skipped: skipped))
                for offset in [0.0, 5, 10, 15, 20, 25, 30] {
                    for rel in [min(offset, played), max(0, played - offset)] {
                        var level = plateau[i] * (1 - exp(-rel / onset))
                        if let q = previous {
                            level += plateau[q.song] * (1 - exp(-q.played / onset)) * exp(-(start + rel - q.end) / release)
                        }
                        hr.append(HRSample(subject: "u\(j)", timestampMs: Int64((start + rel) * 1000),
                                           bpm: 65 + level + rng.normal(mean: 0, sd: 1), source: "sim"))
                    }
                }
                previous = (i, played, end)
                t = end + rng.uniform(0, 10)
            }
        }
        let sessions = try SessionsStage.run(plays: plays, hr: hr, nn: [:], sdnn: [], sleep: [], workouts: [], constants: .defaults)
        let index = PlayIndex(sessions.plays)
        let k = MixedModelConstants(registry: .defaults)
        XCTAssertEqual(k.onsetTimeConstantS, 45)
        let c = SessionConstants(registry: .defaults)
        let estimated = MixedEffects.profiledOnset(index, .deltaHR, c, k, .estimated).selection
        XCTAssertEqual(estimated.bestOnsetS, 22)  // the grid's nearest steps are 18 and 22 s
        XCTAssertEqual(estimated.onsetS, 22)
        XCTAssertGreaterThan(estimated.likelihoodRatio, k.onsetTestLR)
        let profiled = MixedEffects.profiledOnset(index, .deltaHR, c, k, .profiled)
        XCTAssertEqual(profiled.selection.onsetS, 22)
        XCTAssertTrue(profiled.selection.widened)
        let fixed = MixedEffects.profiledOnset(index, .deltaHR, c, k, .fixed)
        XCTAssertEqual(fixed.selection.onsetS, 45)
        XCTAssertEqual(fixed.selection.likelihoodRatio, 0)
        // Profiled takes the 22-s estimates and adds (0.5·(ŝ(22) − ŝ(45)))² to each variance.
        let best = MixedEffects.profiledOnset(index, .deltaHR, c, k, .estimated).fit
        XCTAssertEqual(k.onsetShiftWeight, 0.5)
        var widened = 0
        for i in 0..<fixed.fit.song.count where fixed.fit.songPlays[i] > 0 {
            XCTAssertEqual(profiled.fit.song[i], best.song[i])
            let shift = 0.5 * (best.song[i] - fixed.fit.song[i])
            XCTAssertEqual(profiled.fit.songVariance[i], best.songVariance[i] + shift * shift, accuracy: 1e-12)
            if shift * shift > 0.01 * best.songVariance[i] { widened += 1 }
        }
        XCTAssertGreaterThan(widened, 30)
    }
}
