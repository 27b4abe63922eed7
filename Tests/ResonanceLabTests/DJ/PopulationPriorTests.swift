import XCTest
@testable import ResonanceLab

/// The learning policies' population prior: moment estimates and the posterior worked by
/// hand, the prior built from earlier days only, Thompson sampling reproducible.
final class PopulationPriorTests: XCTestCase {
    /// Groups (n, mean): (2, −5) from plays −4 and −6, (1, −2): within = 2 / 1; between:
    /// grand mean −4, SSB = 2·1² + 1·2² = 6, n₀ = 3 − 5/3 = 4/3, (6 − 2)/(4/3) = 3.
    func testMomentEstimatesWorkedByHand() {
        XCTAssertEqual(PopulationPrior.within([(2, -5, 16 + 36), (1, -2, 4)], enough: 1, floor: 0.01) ?? .nan, 2, accuracy: 1e-12)
        XCTAssertNil(PopulationPrior.within([(2, -5, 52), (1, -2, 4)], enough: 2, floor: 0.01))
        XCTAssertEqual(PopulationPrior.between([[(2, -5), (1, -2)]], within: 2, enough: 1, floor: 0.01) ?? .nan, 3, accuracy: 1e-12)
        // Offsets +1 and −1 (variance 2) each from one group of sampling variance 0.5: 1.5.
        XCTAssertEqual(PopulationPrior.offsetVariance([(0, 1, 1), (1, 1, -1)], spread: { _ in 0.5 }, enough: 2, floor: 0.01) ?? .nan, 1.5,
                       accuracy: 1e-12)
        XCTAssertNil(PopulationPrior.offsetVariance([(0, 1, 1), (0, 1, -1)], spread: { _ in 0.5 }, enough: 2, floor: 0.01))
        // Between-group spread smaller than the noise explains: truncated at the floor.
        XCTAssertEqual(PopulationPrior.between([[(2, -5), (1, -2)]], within: 10, enough: 1, floor: 0.01), 0.01)
    }

    /// The content slope is kept where the index predicts the song means exactly and
    /// shrunk to 0 where its t² < 1 (z 0…5, means ±1: slope −0.057, SE² 0.085).
    func testContentWeightFadesWhereItPredictsNothing() throws {
        let exact = (0..<6).map { (z: Double($0), mean: 2 + 3 * Double($0), variance: 0.0) }
        let fit = try XCTUnwrap(PopulationPrior.songLevel(exact, content: true, enough: 5, floor: 0.01))
        XCTAssertEqual(fit.slope, 3, accuracy: 1e-12); XCTAssertEqual(fit.intercept, 2, accuracy: 1e-12)
        XCTAssertEqual(fit.varianceBpm2, 0.01)
        let noise = zip(0..<6, [1.0, -1, -1, 1, 1, -1]).map { (z: Double($0), mean: $1, variance: 0.5) }
        let faded = try XCTUnwrap(PopulationPrior.songLevel(noise, content: true, enough: 5, floor: 0.01))
        XCTAssertEqual(faded.slope, 0); XCTAssertEqual(faded.intercept, 0, accuracy: 1e-12)
        // ω² = Σ(y − 0)²/(6 − 2) − 0.5 (the line's two degrees of freedom) = 1.5 − 0.5.
        XCTAssertEqual(faded.varianceBpm2, 1, accuracy: 1e-12)
        XCTAssertNil(PopulationPrior.songLevel(Array(noise.prefix(4)), content: false, enough: 5, floor: 0.01))
    }

    /// Two listeners, one song, the fallbacks in force (σ = 4, τ = β = 2, ω = 4 bpm):
    /// listener 0 heard it at −4 and −6, listener 1 at −2. For listener 1 the song's prior
    /// is from listener 0 only: precision 1/16 + 1/(4 + 16/2) = 7/48, mean −20/7; their
    /// offset (6/7 · 7/188)/(1/4 + 7/188) = 1/9; posterior precision 7/76 + 1/16, mean
    /// −22/9, variance 304/47.
    func testPosteriorOfTwoListenersWorkedByHand() throws {
        let registry = try ConstantsRegistry.defaults.replacing("dj_learning", with: ["min_groups": 1000])
        let plays = [HeardPlay(listener: 0, song: 0, slot: 2, deltaHRBpm: -4), HeardPlay(listener: 0, song: 0, slot: 2, deltaHRBpm: -6),
                     HeardPlay(listener: 1, song: 0, slot: 2, deltaHRBpm: -2)]
        let prior = PopulationPrior(plays, contentIndex: [0.3], genres: [0], constants: LearningConstants(registry: registry))
        XCTAssertEqual(prior.slotOffsetBpm[2], 0)
        let song = prior.song(0, listener: 1, level: prior.plain)
        XCTAssertEqual(song.mean, -20.0 / 7, accuracy: 1e-12); XCTAssertEqual(song.variance, 48.0 / 7, accuracy: 1e-12)
        let own = OwnEvidence(plays: 1, residualSumBpm: -2)
        let offset = prior.offset([(prior: song, evidence: own)], base: 0, variance: prior.listenerOffsetVarianceBpm2)
        XCTAssertEqual(offset, 1.0 / 9, accuracy: 1e-12)
        // The genre's offset on top of it: deviation 6/7 − 1/9 = 47/63, the same weight 7/188.
        XCTAssertEqual(prior.offset([(prior: song, evidence: own)], base: offset, variance: prior.genreOffsetVarianceBpm2),
                       47.0 / 63 * (7.0 / 188) / (1.0 / 4 + 7.0 / 188), accuracy: 1e-12)
        let post = prior.posterior(song, offset: offset, own: own)
        XCTAssertEqual(post.mean, -22.0 / 9, accuracy: 1e-12); XCTAssertEqual(post.variance, 304.0 / 47, accuracy: 1e-12)
        // A listener with no plays of the song: every group is someone else's.
        XCTAssertEqual(prior.song(0, listener: 2, level: prior.plain).mean, (1.0 / 12 * -5 + 1.0 / 20 * -2) / (1.0 / 16 + 1.0 / 12 + 1.0 / 20),
                       accuracy: 1e-12)
    }

    /// A slot is a DJ context and a position in the session; its offset is its plays'
    /// mean ΔHR − the mean of all plays: (10 + 6 − 2)/3 overall, slot 0 at 8, slot 9 at −2.
    func testSlotOffsets() {
        XCTAssertEqual(PopulationPrior.slot(.postWorkout, position: 0), 8)
        XCTAssertEqual(PopulationPrior.slot(.workout, position: 12), 7)
        XCTAssertTrue(PopulationPrior.inWorkout(8)); XCTAssertFalse(PopulationPrior.inWorkout(PopulationPrior.slot(.work, position: 0)))
        let plays = [HeardPlay(listener: 0, song: 0, slot: 0, deltaHRBpm: 10), HeardPlay(listener: 1, song: 3, slot: 0, deltaHRBpm: 6),
                     HeardPlay(listener: 0, song: 1, slot: 9, deltaHRBpm: -2)]
        let offsets = PopulationPrior.slotOffsets(plays)
        XCTAssertEqual(offsets.count, DJContext.allCases.count * 8)
        XCTAssertEqual(offsets[0], 10.0 / 3, accuracy: 1e-12); XCTAssertEqual(offsets[9], -20.0 / 3, accuracy: 1e-12)
        XCTAssertEqual(offsets[1], 0)
    }

    func testExpectedFulfilmentOfABelief() {
        XCTAssertEqual(PopulationPrior.expectedFulfilment(.calm, Belief(mean: 2, variance: 9)), -2)
        XCTAssertEqual(PopulationPrior.expectedFulfilment(.energize, Belief(mean: 2, variance: 9)), 2)
        // E|θ| of N(0, 1) is √(2/π); far from 0 it is |m|.
        XCTAssertEqual(PopulationPrior.expectedFulfilment(.focus, Belief(mean: 0, variance: 1)), -0.797_884_560_8, accuracy: 1e-9)
        XCTAssertEqual(PopulationPrior.expectedFulfilment(.maintain, Belief(mean: -30, variance: 1)), -30, accuracy: 1e-9)
    }

    /// The prior is built from earlier days only: a run of two days decides its first two
    /// days as a run of three does (the third day's plays change nothing before them),
    /// while on day 1 — after the population's first day — the learner with ten
    /// listeners decides otherwise than one alone; on day 0 no one has played anything.
    func testPriorUsesOnlyEarlierDaysOfOtherListeners() throws {
        var three = DJSimulationOptions.small; three.days = 3
        let world = SimulatedWorld(seed: 0, songs: 60, featureRelation: 0.5)
        let two = ClosedLoop(options: .small, registry: .defaults), longer = ClosedLoop(options: three, registry: .defaults)
        let listeners = two.listeners(world)
        let short = try two.population(listeners, world: world, policy: .bayes, jobs: 2).map { $0.tally.days[0] }
        let long = try longer.population(listeners, world: world, policy: .bayes, jobs: 1).map { Array($0.tally.days[0].prefix(2)) }
        XCTAssertEqual(short, long)
        let alone = two.run(listeners[4], world: world, policy: .bayes).days[0]
        XCTAssertEqual(alone[0], short[4][0])
        XCTAssertNotEqual(alone[1], short[4][1])
        XCTAssertGreaterThan(try two.population(listeners, world: world, policy: .bayes, jobs: 1).reduce(0) { $0 + $1.heard.count }, 0)
    }

    /// Thompson sampling draws from its own streams: two runs are identical, its picks
    /// are not the posterior mean's, and the random trajectory is the same with or
    /// without it at the shared decision points.
    func testThompsonSamplingIsReproducible() throws {
        let loop = ClosedLoop(options: DJSimulationOptions.small, registry: .defaults)
        let world = SimulatedWorld(seed: 0, songs: 60, featureRelation: 0.5)
        let listeners = loop.listeners(world)
        let first = try loop.population(listeners, world: world, policy: .thompson, jobs: 2).map(\.tally)
        let second = try loop.population(listeners, world: world, policy: .thompson, jobs: 1).map(\.tally)
        XCTAssertEqual(first, second)
        let bayes = try loop.population(listeners, world: world, policy: .bayes, jobs: 1).map(\.tally)
        XCTAssertNotEqual(first.map(\.needs), bayes.map(\.needs))
        let t = DJPolicy.allCases.firstIndex(of: .thompson) ?? 0, b = DJPolicy.allCases.firstIndex(of: .bayes) ?? 0
        let shared = try loop.run(listeners, world: world, jobs: 2)
        XCTAssertNotEqual(shared.map { $0.shared[t] }, shared.map { $0.shared[b] })
        XCTAssertEqual(shared.map { $0.needs[DJPolicy.allCases.firstIndex(of: .random) ?? 0] },
                       try loop.population(listeners, world: world, policy: .random, jobs: 1).map { $0.tally.needs[0] })
    }
}
