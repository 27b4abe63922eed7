import Foundation
import XCTest
@testable import ResonanceLab

/// Recovery of planted effects by the mixed model on seeded per-play simulations
/// with known truth (the acceptance criteria of the persona check: r ≥ 0.9 for songs
/// with ≥ 10 plays, 95 % interval coverage within 90–98 %, sensitivity Spearman ≥ 0.8).
final class MixedModelTests: XCTestCase {
    struct Simulation {
        var data: ResponseData
        var songTruth: [Double]
        var sensitivityTruth: [Double]
    }

    /// Songs with effects ~ N(−1.5, 3²) bpm, listeners with sensitivities spread over
    /// 0.4…1.6 (mean exactly 1), 70 % full plays and 30 % skips, exponential onset
    /// (τ 45 s) and release (τ 6 s) of each effect so the previous song carries over
    /// into the start value and the change, context and time-slot shifts, and
    /// N(0, 2.5²) noise. Song popularity is skewed so some
    /// songs have very few plays.
    static func simulate(seed: UInt64, songs: Int = 200, listeners: Int = 10, plays: Int = 8000) -> Simulation {
        var rng = SeededRandom(seed: seed)
        let truth = (0..<songs).map { _ in rng.normal(mean: -1.5, sd: 3) }
        var lambda = (0..<listeners).map { Double($0) / Double(max(1, listeners - 1)) * 1.2 + 0.4 }
        let meanLambda = lambda.reduce(0, +) / Double(listeners)
        lambda = lambda.map { $0 / meanLambda }
        let contextShift = [0.8, -0.5, 0.0, 0.3, -0.6, 1.2]
        let slotShift = [-0.4, 0.2, 0.3, -0.1]
        var d = ResponseData(songs: songs, listeners: listeners, contexts: contextShift.count, slots: slotShift.count)
        // Songs last 150–300 s; a song's effect is the expected change of a full play.
        let duration = (0..<songs).map { _ in rng.uniform(150, 300) }
        // The previous play of each listener (song, seconds played) while its effect
        // is still wearing off; a new session (25 %) starts with none.
        var previous = [(song: Int, played: Double)?](repeating: nil, count: listeners)
        for _ in 0..<plays {
            let j = rng.int(in: 0...(listeners - 1))
            // Skewed popularity: u² concentrates plays on low indices.
            let u = rng.uniform()
            let i = min(songs - 1, Int(u * u * Double(songs)))
            let c = rng.int(in: 0...(contextShift.count - 1)), t = rng.int(in: 0...(slotShift.count - 1))
            let skipped = rng.uniform() < 0.3
            let played = skipped ? rng.uniform(5, 60) : duration[i]
            let e = Exposure.relative(playedS: played, durationS: duration[i], windowS: 30, onsetS: 45)
            if rng.uniform() < 0.25 { previous[j] = nil }
            let gap = rng.uniform(0, 10)
            var k = 0.0, level = 0.0
            if let q = previous[j] {
                k = Exposure.carryOver(previousPlayedS: q.played, previousDurationS: duration[q.song], gapS: gap,
                                       playedS: played, windowS: 30, onsetS: 45, releaseS: 6)
                let plateau = lambda[j] * truth[q.song] / Exposure.fraction(playedS: duration[q.song], windowS: 30, onsetS: 45)
                level = plateau * (1 - exp(-q.played / 45)) * exp(-(gap + min(30, played) / 2) / 6)
            }
            let x = 70 + 5 * lambda[j] + level + rng.normal(mean: 0, sd: 2)
            let carried = previous[j].map { lambda[j] * truth[$0.song] * k } ?? 0
            let y = contextShift[c] + slotShift[t] + e * lambda[j] * truth[i] - carried + rng.normal(mean: 0, sd: 2.5)
            d.append(song: i, listener: j, context: c, slot: t, y: y, exposure: e,
                     previousSong: previous[j]?.song, carry: k, group: played < 60 ? 1 : 0, start: x)
            previous[j] = (i, played)
        }
        return Simulation(data: d, songTruth: truth, sensitivityTruth: lambda)
    }

    struct Recovery { var r: Double; var coverage: Double; var spearman: Double; var songs: Int }

    static func recovery(_ sim: Simulation, _ fit: MixedFit) -> Recovery {
        var est: [Double] = [], tru: [Double] = []
        var covered = 0
        for i in 0..<sim.songTruth.count where fit.songPlays[i] >= 10 {
            est.append(fit.song[i]); tru.append(sim.songTruth[i])
            let half = 1.959963984540054 * fit.songVariance[i].squareRoot()
            if abs(fit.song[i] - sim.songTruth[i]) <= half { covered += 1 }
        }
        return Recovery(r: Stats.pearson(est, tru), coverage: Double(covered) / Double(est.count),
                        spearman: Stats.spearman(fit.listener, sim.sensitivityTruth), songs: est.count)
    }

    func testRecoversPlantedSongEffectsAndSensitivities() {
        // Five independent seeds: every one must meet the criteria, and the pooled
        // coverage must be near nominal (a miscalibrated SE fails one or the other).
        var coveredTotal = 0.0, songsTotal = 0.0
        for seed: UInt64 in [11, 22, 33, 44, 55] {
            let sim = Self.simulate(seed: seed)
            let fit = MixedModel.fit(sim.data, term: .sensitivity, constants: .defaults)
            XCTAssertTrue(fit.converged, "seed \(seed)")
            let rec = Self.recovery(sim, fit)
            print("mixed simulation seed \(seed): r = \(rec.r), coverage = \(rec.coverage) over \(rec.songs) songs, sensitivity Spearman = \(rec.spearman), iterations = \(fit.iterations)")
            XCTAssertGreaterThanOrEqual(rec.r, 0.9, "seed \(seed)")
            XCTAssertGreaterThanOrEqual(rec.coverage, 0.88, "seed \(seed)")  // 200 songs: binomial sd ≈ 1.5 %
            XCTAssertGreaterThanOrEqual(rec.spearman, 0.8, "seed \(seed)")
            coveredTotal += rec.coverage * Double(rec.songs); songsTotal += Double(rec.songs)
        }
        let pooled = coveredTotal / songsTotal
        print("mixed simulation pooled coverage = \(pooled)")
        XCTAssertGreaterThanOrEqual(pooled, 0.90)
        XCTAssertLessThanOrEqual(pooled, 0.98)
    }

    func testSongsWithFewerPlaysShrinkMore() {
        let sim = Self.simulate(seed: 7)
        let fit = MixedModel.fit(sim.data, term: .sensitivity, constants: .defaults)
        let played = (0..<sim.songTruth.count).filter { fit.songPlays[$0] > 0 }
        let few = played.filter { fit.songPlays[$0] < 15 }.map { fit.songShrinkage[$0] }
        let many = played.filter { fit.songPlays[$0] > 60 }.map { fit.songShrinkage[$0] }
        XCTAssertFalse(few.isEmpty); XCTAssertFalse(many.isEmpty)
        XCTAssertGreaterThan(Stats.mean(few), Stats.mean(many))
        // Every posterior lies between the prior mean and the song's data; SE falls with plays.
        XCTAssertGreaterThan(Stats.mean(played.filter { fit.songPlays[$0] < 15 }.map { fit.songVariance[$0] }),
                             Stats.mean(played.filter { fit.songPlays[$0] > 60 }.map { fit.songVariance[$0] }))
    }

    func testSkipLinearProbabilityModelRecoversSongSkipRates() {
        // 150 songs with skip probabilities 0.05…0.6, 10 listeners adding −0.1…+0.1.
        var rng = SeededRandom(seed: 99)
        let songs = 150, listeners = 10
        let p = (0..<songs).map { 0.05 + 0.55 * Double($0) / Double(songs - 1) }
        let a = (0..<listeners).map { -0.1 + 0.2 * Double($0) / Double(listeners - 1) }
        var d = ResponseData(songs: songs, listeners: listeners, contexts: 1, slots: 1)
        for _ in 0..<15_000 {
            let i = rng.int(in: 0...(songs - 1)), j = rng.int(in: 0...(listeners - 1))
            d.append(song: i, listener: j, context: 0, slot: 0, y: rng.uniform() < p[i] + a[j] ? 1 : 0, exposure: 1, start: nil)
        }
        let fit = MixedModel.fit(d, term: .additive, constants: .defaults)
        XCTAssertTrue(fit.converged)
        let r = Stats.pearson(fit.song, p)
        var covered = 0
        for i in 0..<songs where abs(fit.song[i] - p[i]) <= 1.959963984540054 * fit.songVariance[i].squareRoot() { covered += 1 }
        let coverage = Double(covered) / Double(songs)
        print("skip simulation: r = \(r), coverage = \(coverage), listener Spearman = \(Stats.spearman(fit.listener, a))")
        XCTAssertGreaterThan(r, 0.9)
        XCTAssertGreaterThanOrEqual(coverage, 0.88)
        XCTAssertLessThanOrEqual(coverage, 0.99)
        XCTAssertGreaterThan(Stats.spearman(fit.listener, a), 0.8)
    }
}
