import XCTest
@testable import ResonanceLab

/// The closed-loop simulation: planted features track effects as asked, every policy
/// meets the same world, and results do not depend on jobs.
final class ClosedLoopTests: XCTestCase {
    func testFeaturesTrackEffectsAsStronglyAsAsked() {
        func correlation(_ rho: Double) -> Double {
            let w = SimulatedWorld(seed: 7, songs: 2000, featureRelation: rho)
            return Stats.pearson(w.catalogue.songs.map(\.deltaHRBpm), w.sounds.map { $0.bpm ?? .nan })
        }
        XCTAssertEqual(correlation(0), 0, accuracy: 0.06)
        XCTAssertGreaterThan(correlation(0.5), 0.35)
        XCTAssertLessThan(correlation(0.5), 0.65)
        XCTAssertGreaterThan(correlation(0.95), 0.8)
    }

    func testTruthHoldsEffectsAndFeaturesOfEverySong() {
        let w = SimulatedWorld(seed: 3, songs: 10, featureRelation: 0.5)
        let truth = w.truth()
        XCTAssertEqual(truth.count, 10 * 5)
        XCTAssertEqual(Set(truth.map(\.entity)).count, 10)
        XCTAssertTrue(truth.allSatisfy { $0.entity.hasPrefix("r3.S") })
        XCTAssertEqual(w.featureRows().map(\.songId), w.sounds.map(\.songId))
    }

    func testEveryPolicyMeetsTheSameDays() throws {
        let o = DJSimulationOptions.small
        let loop = ClosedLoop(options: o, registry: .defaults)
        let world = SimulatedWorld(seed: 0, songs: 60, featureRelation: 0.5)
        let listener = loop.listeners(world)[3]
        let tally = loop.run(listener, world: world)
        let perPolicy = tally.days.map { $0.reduce(0) { $0 + $1.decisions } }
        // The known count: each day's scheduled sessions × songs per session, per policy.
        let scheduled = (0..<o.days).map { loop.schedule(listener, day: $0, seed: world.seed).count * o.songsPerSession }
        for (p, policy) in DJPolicy.allCases.enumerated() {
            XCTAssertEqual(tally.days[p].map(\.decisions), scheduled, "\(policy): decisions per day")
            // The per-need and per-day tallies are two sums of the same decisions.
            let byNeed = tally.needs[p].reduce(into: NeedTally()) { $0.add($1) }
            let byDay = tally.days[p].reduce(into: NeedTally()) { $0.add($1) }
            XCTAssertEqual(byNeed.decisions, byDay.decisions, "\(policy)")
            XCTAssertEqual(byNeed.regret, byDay.regret, accuracy: 1e-9, "\(policy)")
            XCTAssertEqual(byNeed.planted, byDay.planted, accuracy: 1e-9, "\(policy)")
        }
        XCTAssertEqual(Set(perPolicy).count, 1, "same sessions and songs per session under every policy: \(perPolicy)")
        XCTAssertGreaterThan(perPolicy[0], 0)
        // At the shared decision points (the random policy's trajectory) every policy
        // picks once per decision.
        let random = DJPolicy.allCases.firstIndex(of: .random) ?? 0
        let oracle = DJPolicy.allCases.firstIndex(of: .oracle) ?? 0
        for (p, policy) in DJPolicy.allCases.enumerated() {
            XCTAssertEqual(tally.shared[p].map(\.decisions), tally.needs[random].map(\.decisions), "\(policy)")
        }
        XCTAssertEqual(tally.shared[random], tally.needs[random].map { t in
            var s = NeedTally(); s.decisions = t.decisions; s.planted = t.planted; s.regret = t.regret; return s
        }, "random's shared picks are its own, drawn from their own stream")
        XCTAssertGreaterThan(tally.needs[random].reduce(0) { $0 + $1.regret }, 0)
        // The best song is over the whole library: the oracle, which skips songs played
        // within the hour, has regret where the best one was just played.
        XCTAssertGreaterThan(tally.needs[oracle].reduce(0) { $0 + $1.regret }, 0)
    }

    /// The simulated DJ learns only from kept sessions: with a minimum session of a
    /// day, nothing is learned and the DJ's picks change; random's do not.
    func testDroppedSessionsTeachTheSimulatedDJNothing() throws {
        let world = SimulatedWorld(seed: 0, songs: 60, featureRelation: 0.5)
        let strict = try ConstantsRegistry.defaults.replacing("sessions", with: ["min_session_minutes": 1440])
        let usual = ClosedLoop(options: .small, registry: .defaults), never = ClosedLoop(options: .small, registry: strict)
        let l = usual.listeners(world)[3]
        XCTAssertNotEqual(usual.run(l, world: world, policy: .learnedEffect), never.run(l, world: world, policy: .learnedEffect))
        XCTAssertEqual(usual.run(l, world: world, policy: .random).needs, never.run(l, world: world, policy: .random).needs)
    }

    func testWorldsRelateFeaturesToEffectsAsDocumented() throws {
        func world(_ w: DJWorld) -> SimulatedWorld { SimulatedWorld(seed: 7, songs: 2000, featureRelation: 0.5, world: w) }
        let planted = world(.planted), genre = world(.genre), none = world(.none), nonlinear = world(.nonlinear)
        XCTAssertEqual(planted.sounds, SimulatedWorld(seed: 7, songs: 2000, featureRelation: 0.5).sounds, "the default world")
        // Genre features: BPM and energy inter-correlated; effects the catalogue's.
        XCTAssertGreaterThan(Stats.pearson(genre.sounds.map { $0.bpm ?? .nan }, genre.sounds.map { $0.energy ?? .nan }), 0.5)
        XCTAssertEqual(genre.deltaHRBpm, genre.catalogue.songs.map(\.deltaHRBpm))
        // No relation: the same features in a random order.
        XCTAssertEqual(none.sounds.map { $0.bpm ?? .nan }.sorted(), genre.sounds.map { $0.bpm ?? .nan }.sorted())
        XCTAssertEqual(Stats.pearson(none.deltaHRBpm, none.sounds.map { $0.bpm ?? .nan }), 0, accuracy: 0.06)
        XCTAssertEqual(Stats.pearson(none.deltaHRBpm, none.sounds.map { $0.energy ?? .nan }), 0, accuracy: 0.06)
        // Non-linear: BPM says little linearly, its square distance from 100 a lot.
        let bpm = nonlinear.sounds.map { $0.bpm ?? .nan }
        XCTAssertGreaterThan(Stats.pearson(nonlinear.deltaHRBpm, bpm.map { ($0 - 100) * ($0 - 100) }), 0.4)
        // Taste: liking 1 keeps an effect, liking 0 turns it around.
        let taste = world(.taste)
        XCTAssertEqual(taste.taste(liking: 1), 1); XCTAssertEqual(taste.taste(liking: 0), -1); XCTAssertEqual(genre.taste(liking: 0), 1)
    }

    /// A skip is cut before `skip_listen_fraction` (30 %) of the song and classified by
    /// its heard share; a play that is not skipped is heard whole.
    func testSkipsAreCutBeforeThirtyPercentOfTheSong() {
        let loop = ClosedLoop(options: DJSimulationOptions.small, registry: .defaults)
        let world = SimulatedWorld(seed: 0, songs: 60, featureRelation: 0.5)
        let l = loop.listeners(world)[3]
        let policy = PolicyLoop(loop, listener: l, world: world, policy: .random)
        let plan = ListeningSessionPlan(startS: 36_000, hrOffsetBpm: 0, sdnnFactor: 1, workout: nil)
        let length = world.catalogue.songs[l.library[0]].durationS
        func hear(skip: Double, cut: Double) -> (durationS: Double, skipped: Bool) {
            var heart = SessionHeart(profile: l.profile, plan: plan, dayMs: 0, body: SeededRandom(seed: 1))
            let h = policy.hearing(0, heart: &heart, at: 36_000, skipDraw: skip, cutDraw: cut)
            return (h.durationS, h.skipped)
        }
        XCTAssertGreaterThan(l.skipProbability[0], 0)
        // 0.3 × (0.1 + 0.9 × 0.5) = 0.165 of the song; 0.3 × 0.1 = 0.03 at the lowest cut.
        XCTAssertEqual(hear(skip: 0, cut: 0.5).durationS, length * 0.165, accuracy: 1e-9)
        XCTAssertEqual(hear(skip: 0, cut: 0).durationS, length * 0.03, accuracy: 1e-9)
        for cut in [0, 0.25, 0.5, 0.75, 0.999_999] {
            let h = hear(skip: 0, cut: cut)
            XCTAssertLessThan(h.durationS / length, 0.3); XCTAssertTrue(h.skipped, "cut \(cut)")
        }
        XCTAssertEqual(hear(skip: 0.95, cut: 0.5).durationS, length)
        XCTAssertFalse(hear(skip: 0.95, cut: 0.5).skipped)
    }

    /// Listener k is persona k mod 10 drawn per seed: sensitivity × e^(0.35·z₁) with the
    /// stream's first normal; other seeds give other profiles, the same seed the same.
    func testPersonaProfilesAreDrawnPerSeed() {
        let loop = ClosedLoop(options: DJSimulationOptions.small, registry: .defaults)
        func profiles(_ seed: UInt64) -> [PersonaProfile] {
            loop.listeners(SimulatedWorld(seed: seed, songs: 60, featureRelation: 0.5)).map(\.profile)
        }
        let zero = profiles(0), one = profiles(1)
        XCTAssertEqual(zero.map(\.name), PersonaProfile.all.map(\.name))
        XCTAssertEqual(zero, profiles(0))
        for (a, b) in zip(zero, one) {
            XCTAssertNotEqual(a.sensitivity, b.sensitivity, a.name)
            XCTAssertNotEqual(a.listening.genreAffinity, b.listening.genreAffinity, a.name)
            XCTAssertNotEqual(a.restingHRBpm, b.restingHRBpm, a.name)
        }
        var random = SeededRandom(seed: 11), copy = random
        let base = PersonaProfile.all[0], drawn = base.drawn(random: &random)
        XCTAssertEqual(drawn.sensitivity, base.sensitivity * exp(0.35 * copy.normal()), accuracy: 1e-12)
        XCTAssertEqual(drawn.listening.genreAffinity, base.listening.genreAffinity.map { $0 * exp(0.5 * copy.normal()) })
        XCTAssertEqual(drawn.age, base.age); XCTAssertEqual(drawn.workouts, base.workouts)
    }

    /// Genre worlds hand the typical sounds to the genres in an order drawn per seed: a
    /// permutation, different across seeds, each genre's mean BPM that of its sound.
    func testGenreSoundOrderIsDrawnPerSeed() {
        func order(_ seed: UInt64) -> [Int] {
            var random = SeededRandom(seed: DJStreams.seed(seed, "world-features"))
            return SimulatedWorld.shuffle(SimulatedWorld.genreSound.count, random: &random)
        }
        let orders = (0..<4).map { order(UInt64($0)) }
        for o in orders { XCTAssertEqual(o.sorted(), Array(0..<SimulatedWorld.genreSound.count)) }
        XCTAssertGreaterThan(Set(orders).count, 1)
        for seed in [0, 1] as [UInt64] {
            let w = SimulatedWorld(seed: seed, songs: 2000, featureRelation: 0.5, world: .genre)
            for g in SongCatalogue.genres.indices {
                let bpm = zip(w.catalogue.songs, w.sounds).filter { $0.0.genre == g }.map { $0.1.bpm ?? .nan }
                XCTAssertEqual(Stats.mean(bpm), SimulatedWorld.genreSound[order(seed)[g]].bpm, accuracy: 3, "seed \(seed), genre \(g)")
            }
        }
    }

    func testResultsDoNotDependOnJobs() throws {
        var o = DJSimulationOptions.small
        o.seeds = 2; o.days = 1
        let loop = ClosedLoop(options: o, registry: .defaults)
        let one = try loop.run(jobs: 1), three = try loop.run(jobs: 3)
        XCTAssertEqual(one.map(\.seed), [0, 1])
        XCTAssertEqual(one.map(\.tally), three.map(\.tally))
    }

    func testNeedFulfilment() {
        XCTAssertEqual(needFulfilment(.calm, deltaHRBpm: -3), 3)
        XCTAssertEqual(needFulfilment(.energize, deltaHRBpm: -3), -3)
        XCTAssertEqual(needFulfilment(.maintain, deltaHRBpm: -3), -3)
        XCTAssertEqual(needFulfilment(.focus, deltaHRBpm: 2), -2)
    }

    func testSeedIntervalIsStudentT() {
        let i = SeedInterval.of([1, 2, 3])
        XCTAssertEqual(i.mean, 2)
        XCTAssertEqual(i.low ?? 0, 2 - 4.303 / 3.0.squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(i.high ?? 0, 2 + 4.303 / 3.0.squareRoot(), accuracy: 1e-12)
        XCTAssertNil(SeedInterval.of([1]).low)
        XCTAssertNil(SeedInterval.of([]).mean)
    }
}

extension DJSimulationOptions {
    /// One seed of one replica over 2 days, 60 songs, libraries of 30, 3 songs a session:
    /// a closed loop small enough for a unit test.
    static var small: DJSimulationOptions {
        var o = DJSimulationOptions()
        o.seeds = 1; o.replicas = 1; o.days = 2; o.songs = 60; o.libraryCap = 30; o.songsPerSession = 3
        return o
    }
}
