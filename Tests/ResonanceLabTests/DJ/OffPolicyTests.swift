import XCTest
@testable import ResonanceLab

/// The off-policy estimators on logs small enough to work by hand, the reward model's
/// cross-fitting, the target policies' probabilities, and the propensity log of a small
/// simulation.
final class OffPolicyTests: XCTestCase {
    /// Listener A: (r 2, w 2, q̂(a) 1, q̂π 1.5), (r −1, w 0, 0, 1); listener B: (4, 4, 3, 3), (0, 0, 0.5, 2).
    let four = [
        OPEDecision(listener: "A", rewardBpm: 2, weight: 2, modelLogged: 1, modelTarget: 1.5),
        OPEDecision(listener: "A", rewardBpm: -1, weight: 0, modelLogged: 0, modelTarget: 1),
        OPEDecision(listener: "B", rewardBpm: 4, weight: 4, modelLogged: 3, modelTarget: 3),
        OPEDecision(listener: "B", rewardBpm: 0, weight: 0, modelLogged: 0.5, modelTarget: 2),
    ]

    func testEstimatorsByHand() throws {
        let s = OPESums(four, clip: 100)
        // IPS (2·2 + 4·4)/4; SNIPS 20/(2 + 4); DR (1.5 + 2·1 + 1 + 3 + 4·1 + 2)/4; Kish 6²/(2² + 4²).
        XCTAssertEqual(try XCTUnwrap(s.estimate(.ips)), 5, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(s.estimate(.snips)), 20.0 / 6, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(s.estimate(.dr)), 3.375, accuracy: 1e-12)
        XCTAssertEqual(s.effectiveSampleSize, 1.8, accuracy: 1e-12)
    }

    func testClippedWeights() throws {
        // The weight 4 clipped to 3: IPS (4 + 3·4)/4; SNIPS 16/5; DR (3.5 + 1 + 3 + 3·1 + 2)/4; Kish 5²/(2² + 3²).
        let s = OPESums(four, clip: 3)
        XCTAssertEqual(try XCTUnwrap(s.estimate(.ips)), 4, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(s.estimate(.snips)), 3.2, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(s.estimate(.dr)), 3.125, accuracy: 1e-12)
        XCTAssertEqual(s.effectiveSampleSize, 25.0 / 13, accuracy: 1e-12)
        XCTAssertNil(OPESums([four[1]], clip: 3).estimate(.snips), "no matched decision: no self-normalised estimate")
    }

    func testBootstrapOverListenersByHand() throws {
        // Two listeners: a resample is AA, AB or BB; with 500 draws both AA and BB occur
        // more than 2.5 % of the time, so the interval runs from AA's estimate to BB's:
        // IPS 2·4/4 to 2·16/4, SNIPS 4/2 to 16/4, DR 2·4.5/4 to 2·9/4.
        let i = OffPolicy.bootstrap([OPESums(four.prefix(2), clip: 100), OPESums(four.suffix(2), clip: 100)], resamples: 500)
        XCTAssertEqual(i[.ips]?.low ?? .nan, 2, accuracy: 1e-12); XCTAssertEqual(i[.ips]?.high ?? .nan, 8, accuracy: 1e-12)
        XCTAssertEqual(i[.snips]?.low ?? .nan, 2, accuracy: 1e-12); XCTAssertEqual(i[.snips]?.high ?? .nan, 4, accuracy: 1e-12)
        XCTAssertEqual(i[.dr]?.low ?? .nan, 2.25, accuracy: 1e-12); XCTAssertEqual(i[.dr]?.high ?? .nan, 4.5, accuracy: 1e-12)
        XCTAssertTrue(OffPolicy.bootstrap([OPESums(four, clip: 100)], resamples: 500).isEmpty, "one listener: no interval")
    }

    func row(_ listener: String, _ song: String, _ reward: Double, dj: String = "S1") -> DJPropensityRow {
        DJPropensityRow(seed: 0, listener: listener, decision: 0, need: "calm", song: song, propensity: 0.5, rewardBpm: reward,
                        picks: [dj, "S9", "S9", "S9"], candidates: ["S1", "S2", "S3", "S4"])
    }

    func testTargetProbabilities() {
        let r = row("L0", "S2", 1)
        XCTAssertEqual(r.probability(of: .random), 0.25)
        XCTAssertEqual(r.probability(of: .dj), 0)
        XCTAssertEqual(row("L0", "S1", 1).probability(of: .dj), 1)
        XCTAssertEqual(row("L0", "S7", 1).probability(of: .random), 0, "not a candidate")
        XCTAssertEqual(r.choices(of: .oracle).map(\.song), ["S9"])
    }

    func testCrossFittedRewardModelByHand() throws {
        // L0 (fold 0) is modelled from L1 only and L1 from L0: calm means 3 in both folds;
        // with 2 prior plays, for L0 q̂(S1) = (6 + 2·3)/3 = 4, q̂(S2) = 3; for L1 q̂(S1) = (2 + 6)/3, q̂(S3) = 3.
        let log = [row("L0", "S1", 2), row("L0", "S2", 4), row("L1", "S1", 6), row("L1", "S3", 0)]
        let d = OffPolicy.decisions(log, policy: .dj, priorPlays: 2)
        XCTAssertEqual(d.map(\.weight), [2, 0, 2, 0])
        for (have, want) in zip(d.map(\.modelLogged), [4, 3, 8.0 / 3, 3]) { XCTAssertEqual(have, want, accuracy: 1e-12) }
        for (have, want) in zip(d.map(\.modelTarget), [4, 4, 8.0 / 3, 8.0 / 3]) { XCTAssertEqual(have, want, accuracy: 1e-12) }
        // IPS (2·2 + 2·6)/4; SNIPS 16/4; DR (4 − 4 + 4 + 8/3 + 2·(6 − 8/3) + 8/3)/4.
        let rows = OffPolicy.rows(log, policy: .dj, constants: ConstantsRegistry.defaults.ope)
        XCTAssertEqual(rows.map(\.estimator), ["ips", "snips", "dr"])
        for r in rows { XCTAssertEqual(r.valueBpm ?? .nan, 4, accuracy: 1e-12, r.estimator) }
        XCTAssertEqual(rows.first?.matched, 2); XCTAssertEqual(rows.first?.listeners, 2)
        XCTAssertEqual(rows.first?.effectiveSampleSize ?? .nan, 2, accuracy: 1e-12)
    }

    func testPropensityLogOfASmallSimulation() throws {
        var o = DJSimulationOptions()
        o.seeds = 1; o.replicas = 1; o.days = 2; o.songs = 60; o.libraryCap = 30; o.songsPerSession = 3; o.logPropensities = true
        let loop = ClosedLoop(options: o, registry: .defaults)
        let logged = try loop.propensityLog(jobs: 2)
        // One row per decision the behaviour policy made: the days' sessions × songs.
        let world = SimulatedWorld(seed: 0, songs: 60, featureRelation: 0.5)
        let scheduled = loop.listeners(world).reduce(0) { n, l in
            n + (0..<o.days).reduce(0) { $0 + loop.schedule(l, day: $1, seed: 0).count * o.songsPerSession }
        }
        XCTAssertEqual(logged.rows.count, scheduled)
        XCTAssertTrue(logged.rows.allSatisfy { $0.propensity > 0 && $0.propensity <= 1 && $0.candidates.count <= 30 })
        XCTAssertTrue(logged.rows.allSatisfy { $0.picks[DJPolicy.deterministic.firstIndex(of: .oracle) ?? 0] != "" })
        XCTAssertEqual(logged.truth.map(\.policy), DJPolicy.offPolicyTargets.map(\.rawValue))
        XCTAssertTrue(logged.truth.allSatisfy { $0.decisions == scheduled })
        // The oracle's song fulfils the need at least as well as a random candidate on average.
        let truth = Dictionary(uniqueKeysWithValues: logged.truth.map { ($0.policy, $0.valueBpm ?? .nan) })
        XCTAssertGreaterThan(truth["oracle"] ?? .nan, truth["random"] ?? .nan)
        XCTAssertEqual(try loop.propensityLog(jobs: 1).rows, logged.rows, "the same log for any jobs")
    }
}
