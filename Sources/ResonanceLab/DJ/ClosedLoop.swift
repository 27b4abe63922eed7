import Foundation

/// Who picks the next song in the closed-loop simulation.
public enum DJPolicy: String, CaseIterable, Sendable {
    /// The product's ranking with the state engine and the learner, as on the phone.
    case dj
    /// Uniform over the library (songs not started within the recency window).
    case random
    /// The song the listener has played most (history before the simulation included).
    case mostPlayed = "most_played"
    /// The product's ranking with every term weight 0 but the historical effect's (no
    /// time-of-day factor, no transition factor): what the learner alone is worth.
    case learnedEffect = "learned_effect"
    /// Knows the planted effects: the song that best fulfils the need.
    case oracle
}

/// Settings of the closed-loop simulation (docs/dj.md, Simulation).
public struct DJSimulationOptions: Sendable, Equatable {
    /// First seed; seeds run `seed`, `seed + 1`, ….
    public var seed: UInt64 = 0
    public var seeds: Int = 5
    /// Listeners per persona profile in each seed.
    public var replicas: Int = 3
    public var days: Int = 14
    /// Catalogue songs per seed.
    public var songs: Int = 300
    /// Largest library a listener draws (their profile's size when smaller).
    public var libraryCap: Int = 120
    public var songsPerSession: Int = 6
    /// Correlation between a song's planted calmness and its BPM and energy (0–1), in
    /// the planted world.
    public var featureRelation: Double = 0.5
    /// How song features relate to song effects (docs/dj.md, Worlds).
    public var world: DJWorld = .planted
    public var variant: StateVariant = .specification
    /// First simulated day, days since 1970-01-01 (default 2026-01-05, a Monday).
    public var firstDay: Int = 20458

    public init() {}
}

/// Sums over decisions of one policy and need.
public struct NeedTally: Sendable, Equatable {
    public var decisions = 0
    public var realised = 0.0, realisedCount = 0
    public var planted = 0.0
    public var regret = 0.0
    public var skips = 0
    public var bpmStep = 0.0, bpmStepCount = 0

    mutating func add(_ o: NeedTally) {
        decisions += o.decisions; realised += o.realised; realisedCount += o.realisedCount; planted += o.planted
        regret += o.regret; skips += o.skips; bpmStep += o.bpmStep; bpmStepCount += o.bpmStepCount
    }
}

/// One listener's (or one seed's) results: per policy, per need and per day.
public struct ClosedLoopTally: Sendable, Equatable {
    /// [policy][need]: each policy's own closed-loop decisions.
    public var needs: [[NeedTally]]
    /// [policy][day]: decisions and summed regret.
    public var days: [[NeedTally]]
    /// [policy][need]: every policy's pick scored at the shared decision points (the
    /// random policy's trajectory: the same listener, time, state, need and history).
    public var shared: [[NeedTally]]

    init(days: Int) {
        needs = Array(repeating: Array(repeating: NeedTally(), count: MusicNeed.allCases.count), count: DJPolicy.allCases.count)
        shared = needs
        self.days = Array(repeating: Array(repeating: NeedTally(), count: days), count: DJPolicy.allCases.count)
    }

    mutating func add(_ o: ClosedLoopTally) {
        for p in needs.indices {
            for n in needs[p].indices { needs[p][n].add(o.needs[p][n]); shared[p][n].add(o.shared[p][n]) }
            for d in days[p].indices { days[p][d].add(o.days[p][d]) }
        }
    }
}

/// How well a song's planted ΔHR (bpm) fulfils a need: calm wants HR down (−ΔHR),
/// energize up (+ΔHR), the other needs a steady HR (−|ΔHR|).
public func needFulfilment(_ need: MusicNeed, deltaHRBpm e: Double) -> Double {
    switch need {
    case .calm: return -e
    case .energize: return e
    case .focus, .maintain, .transition: return -abs(e)
    }
}

/// One simulated listener: a persona profile with a library drawn from the seed's
/// catalogue, planted per-song effects (the world's song ΔHR × sensitivity × taste + an
/// individual deviation) and skip probabilities from genre liking.
struct SimulatedListener {
    let profile: PersonaProfile
    let index: Int
    /// Catalogue indices of the library.
    let library: [Int]
    let effectHR: [Double]
    let effectRMSSD: [Double]
    let priorPlays: [Int]
    let skipProbability: [Double]

    /// Library by Efraimidis–Spirakis weighted sampling (key u^(1/w), w = popularity ×
    /// genre affinity); individual deviation N(0, 1) bpm / ms; prior plays uniform in
    /// 0…12·w/max w; skip probability min(0.9, 2·propensity·(1.2 − liking)), liking the
    /// genre affinity over its maximum.
    init(profile: PersonaProfile, index: Int, world: SimulatedWorld, libraryCap: Int) {
        self.profile = profile; self.index = index
        var random = SeededRandom(seed: DJStreams.seed(world.seed, "listener", index))
        let affinity = profile.listening.genreAffinity
        let maxAffinity = max(affinity.max() ?? 1, 1e-9)
        let songs = world.catalogue.songs
        let weight = songs.map { max(1e-9, $0.popularity * (affinity.indices.contains($0.genre) ? affinity[$0.genre] : 1)) }
        let keys = weight.map { w in log(max(random.uniform(), 1e-300)) / w }
        let size = min(songs.count, max(1, min(profile.listening.librarySize, libraryCap)))
        library = keys.indices.sorted { keys[$0] != keys[$1] ? keys[$0] > keys[$1] : $0 < $1 }.prefix(size).sorted()
        let maxWeight = library.map { weight[$0] }.max() ?? 1
        var hr: [Double] = [], rmssd: [Double] = [], prior: [Int] = [], skip: [Double] = []
        for i in library {
            let liking = (affinity.indices.contains(songs[i].genre) ? affinity[songs[i].genre] : maxAffinity) / maxAffinity
            hr.append(world.deltaHRBpm[i] * profile.sensitivity * world.taste(liking: liking) + random.normal())
            rmssd.append(songs[i].deltaRMSSDMs * profile.sensitivity + random.normal())
            prior.append(Int(12 * weight[i] / maxWeight * random.uniform()))
            skip.append(min(0.9, 2 * profile.listening.skipPropensity * (1.2 - liking)))
        }
        effectHR = hr; effectRMSSD = rmssd; priorPlays = prior; skipProbability = skip
    }
}

/// One listening session of a simulated day: when it starts (s after midnight), its
/// exogenous HR offset (bpm) and SDNN factor, and the workout it belongs to, if any.
struct ListeningSessionPlan {
    var startS: Double
    var hrOffsetBpm: Double
    var sdnnFactor: Double
    var workout: (startS: Double, endS: Double, liftBpm: Double)?
}

/// The closed-loop simulation (docs/dj.md, Simulation): each listener lives the same
/// days under every policy; the policy picks each song from the state its own picks
/// produced; the listener's heart answers with the planted response plus noise; the
/// learner (`SongLearner`, as in `dj replay` and the `ema` model) learns a session's
/// plays under its context once the session ends, when it is long enough to be kept.
/// Along the random policy's trajectory every policy also picks at each decision, from
/// that trajectory's state and history: the shared decision points.
public struct ClosedLoop: Sendable {
    public let options: DJSimulationOptions
    public let state: StateConstants
    public let ranking: RankingConstants
    /// The ranking of the learned-effect-only policy.
    public let effectOnly: RankingConstants
    public let impact: ImpactConstants
    public let songEffect: SongEffectConstants
    public let sessions: SessionConstants

    /// Seconds between HR samples and between SDNN samples; minutes of physiology
    /// before each session's first song, so that the windows are full.
    static let hrStepS = 5.0, sdnnStepS = 60.0, warmupS = 600.0

    public init(options: DJSimulationOptions, registry: ConstantsRegistry) {
        self.options = options
        state = StateConstants(registry: registry); ranking = RankingConstants(registry: registry)
        impact = ImpactConstants(registry: registry); songEffect = SongEffectConstants(registry: registry)
        sessions = SessionConstants(registry: registry)
        // Valid by construction (the five weights sum to 1; every value in range).
        let alone = try? registry.replacing(RankingConstants.spec.name, with: [
            "bpm_weight": 0, "energy_weight": 0, "familiarity_weight": 0, "historical_weight": 1, "context_weight": 0,
            "time_of_day_floor": 1, "transition_base": 1,
        ])
        effectOnly = alone.map { RankingConstants(registry: $0) } ?? ranking
    }

    /// The listeners of one seed: the persona profiles, each `replicas` times.
    func listeners(_ world: SimulatedWorld) -> [SimulatedListener] {
        let profiles = PersonaProfile.all
        return (0..<(profiles.count * options.replicas)).map {
            SimulatedListener(profile: profiles[$0 % profiles.count], index: $0, world: world, libraryCap: options.libraryCap)
        }
    }

    /// Every policy on one listener's days.
    func run(_ listener: SimulatedListener, world: SimulatedWorld) -> ClosedLoopTally {
        var tally = ClosedLoopTally(days: options.days)
        for (p, policy) in DJPolicy.allCases.enumerated() {
            let one = run(listener, world: world, policy: policy)
            tally.needs[p] = one.needs[0]; tally.days[p] = one.days[0]
            if policy == .random { tally.shared = one.shared }
        }
        return tally
    }

    /// The day's sessions, drawn from the listener's profile: `sessionsPerDay` ± ½
    /// (1–4) at its start hours (+ up to 30 min), each stressed with probability 0.3
    /// (HR + 8–20 bpm, SDNN × 0.45–0.7) or not (HR − 3…+8 bpm, SDNN × 0.85–1.25); on a
    /// workout day one session during the workout (HR lifted by intensity × reserve) and
    /// one 3 minutes after it (post-workout, the lift decaying with τ = 5 min).
    func schedule(_ l: SimulatedListener, day: Int, seed: UInt64) -> [ListeningSessionPlan] {
        var random = SeededRandom(seed: DJStreams.seed(seed, "listener", l.index, "day", day))
        let h = l.profile.listening
        let count = min(4, max(1, Int((h.sessionsPerDay + random.uniform(-0.5, 0.5)).rounded())))
        var out: [ListeningSessionPlan] = []
        for k in 0..<count {
            let hour = (h.startHours.isEmpty ? 18 : h.startHours[k % h.startHours.count]) + random.uniform(0, 0.5)
            let stressed = random.uniform() < 0.3
            let calmOffset = random.uniform(-3, 8), stressOffset = random.uniform(8, 20)
            let calmFactor = random.uniform(0.85, 1.25), stressFactor = random.uniform(0.45, 0.7)
            out.append(ListeningSessionPlan(startS: hour * 3600, hrOffsetBpm: stressed ? stressOffset : calmOffset,
                                        sdnnFactor: stressed ? stressFactor : calmFactor, workout: nil))
        }
        let weekday = Timestamp.isoWeekday(Int64(options.firstDay + day) * 86_400_000)
        for w in l.profile.workouts where w.weekdays.contains(weekday) {
            let start = w.startHour * 3600, end = start + w.minutes * 60
            let lift = w.intensity * (l.profile.maxHRBpm - l.profile.restingHRBpm)
            let offset = random.uniform(-2, 4), factor = random.uniform(0.6, 0.9)
            out.append(ListeningSessionPlan(startS: start + 120, hrOffsetBpm: offset, sdnnFactor: factor, workout: (start, end, lift)))
            out.append(ListeningSessionPlan(startS: end + 180, hrOffsetBpm: offset, sdnnFactor: factor, workout: (start, end, lift)))
        }
        return out.sorted { $0.startS < $1.startS }
    }

    /// One policy on one listener's days (tally with a single policy row; on the random
    /// policy's trajectory, `shared` holds every policy's pick at its decisions).
    func run(_ l: SimulatedListener, world: SimulatedWorld, policy: DJPolicy) -> ClosedLoopTally {
        var tally = ClosedLoopTally(days: options.days)
        let engine = DJStateEngine(constants: state, variant: options.variant)
        let rankers = [RankingEngine(constants: ranking), RankingEngine(constants: effectOnly)]
        let contexts = ListeningContext.allCases
        let n = l.library.count
        let songs = world.catalogue.songs
        let sounds = l.library.map { world.sounds[$0] }
        var learner = SongLearner(constants: songEffect, contexts: contexts.count)
        var plays = l.priorPlays, keptPlays = [Int](repeating: 0, count: n)
        var contextPlays = [Int](repeating: 0, count: n * contexts.count)
        var lastPlayed = [Int64?](repeating: nil, count: n)
        var pattern = EnergyPattern(constants: state)
        var restingHRs: [Double] = [], sdnns: [Double] = []
        let recencyMs = Int64(ranking.recencyMinutes * 60_000)
        let stepMs = Int64(state.stepSeconds * 1000)
        let minSessionMs = Double(sessions.minSessionMs) / 1000

        for day in 0..<options.days {
            let dayMs = Int64(options.firstDay + day) * 86_400_000
            let weekday = Timestamp.isoWeekday(dayMs)
            let baseline = PersonalBaseline.from(dailyRestingHR: restingHRs, dailySDNN: sdnns, age: Double(l.profile.age),
                                                 constants: state)
            let plan = schedule(l, day: day, seed: world.seed)
            let workouts = plan.compactMap { $0.workout }.map { (startMs: dayMs + Int64($0.startS * 1000), endMs: dayMs + Int64($0.endS * 1000)) }
            var dayHR: [Double] = [], daySDNN: [Double] = []

            for (si, session) in plan.enumerated() {
                let stream = { (name: String) in
                    SeededRandom(seed: DJStreams.seed(world.seed, "listener", l.index, "day", day, "session", si, name))
                }
                var body = stream("body"), chance = stream("play"), own = stream(policy.rawValue)
                var hr: [TimedSample] = [], sdnn: [TimedSample] = []
                var responses: [MusicResponse] = []
                var noise = 0.0
                var nextHR = session.startS - Self.warmupS, nextSDNN = nextHR
                func ms(_ s: Double) -> Int64 { dayMs + Int64((s * 1000).rounded()) }
                func lift(_ t: Double) -> Double {
                    guard let w = session.workout, t > w.startS else { return 0 }
                    let on = w.liftBpm * (1 - exp(-(min(t, w.endS) - w.startS) / 60))
                    return t <= w.endS ? on : on * exp(-(t - w.endS) / 300)
                }
                func advance(to t: Double) {
                    while nextHR <= t {
                        noise = 0.95 * noise + body.normal()
                        var music = 0.0
                        for r in responses { music += r.value(at: nextHR).hrBpm }
                        let bpm = l.profile.restingHRBpm + session.hrOffsetBpm + lift(nextHR) + music + noise
                        hr.append(TimedSample(tMs: ms(nextHR), value: max(30, bpm)))
                        nextHR += Self.hrStepS
                    }
                    while nextSDNN <= t {
                        var music = 0.0
                        for r in responses { music += r.value(at: nextSDNN).rmssdMs }
                        let v = l.profile.sdnnMs * session.sdnnFactor * (1 - 0.5 * min(1, lift(nextSDNN) / 60)) + music + 2 * body.normal()
                        sdnn.append(TimedSample(tMs: ms(nextSDNN), value: max(5, v)))
                        nextSDNN += Self.sdnnStepS
                    }
                }
                var tick = (ms(session.startS - Self.warmupS) / stepMs + 1) * stepMs
                func context(_ t: Int64) -> DJContext {
                    DJStateEngine.context(at: t, localMs: t, workouts: workouts, state: state, sessions: sessions)
                }
                func cell(_ t: Int64) -> Int { EnergyPattern.cell(weekday: weekday, hour: Int((t - dayMs) / 3_600_000)) }
                func usualEnergy(_ t: Int64) -> Double? { pattern.usual(cell(t)) }
                /// The 30-s states up to `t`, for the usual-energy pattern (joined at the day's end).
                func runTicks(to t: Int64) {
                    while tick <= t {
                        let s = engine.state(at: tick, hr: hr, sdnn: sdnn, baseline: baseline, context: context(tick),
                                             usualEnergy: usualEnergy(tick))
                        pattern.add(s, cell: cell(tick))
                        tick += stepMs
                    }
                }
                var t = session.startS
                var history: [SongSound] = []
                var previous: DJState?
                // The session's plays, learned at its end under its context (the DJ
                // context of its first song, mapped to a session context).
                var sessionContext: Int?
                var learnedLater: [(song: Int, play: LearnedPlay)] = []
                for _ in 0..<options.songsPerSession {
                    advance(to: t)
                    runTicks(to: ms(t))
                    let stateTick = tick - stepMs
                    let now = ms(t)
                    let ctx = context(stateTick)
                    let lc = contexts.firstIndex(of: ranking.learningContext(ctx)) ?? 0
                    if sessionContext == nil { sessionContext = lc }
                    let s = engine.state(at: stateTick, hr: hr, sdnn: sdnn, baseline: baseline, context: ctx,
                                         usualEnergy: usualEnergy(stateTick), previous: previous)
                    previous = s
                    let hour = Double(now - dayMs) / 3_600_000
                    let eligible = (0..<n).filter { i in lastPlayed[i].map { now - $0 >= recencyMs } ?? true }
                    let pool = eligible.isEmpty ? Array(0..<n) : eligible
                    // Regret's best song: over every song the DJ may pick (recency is a
                    // penalty of its score, not a filter), so regret is never negative.
                    let fulfil = (0..<n).map { needFulfilment(s.need, deltaHRBpm: l.effectHR[$0]) }
                    let best = fulfil.max() ?? 0
                    let skipDraw = chance.uniform(), cutDraw = chance.uniform()
                    func pick(_ who: DJPolicy, _ random: inout SeededRandom) -> Int {
                        switch who {
                        case .random: return pool[random.int(in: 0...(pool.count - 1))]
                        case .mostPlayed: return pool.max { plays[$0] != plays[$1] ? plays[$0] < plays[$1] : $0 > $1 } ?? 0
                        case .oracle: return pool.max { fulfil[$0] != fulfil[$1] ? fulfil[$0] < fulfil[$1] : $0 > $1 } ?? 0
                        case .dj, .learnedEffect:
                            let ranker = rankers[who == .dj ? 0 : 1]
                            let scores = (0..<n).map { i in
                                ranker.score(sounds[i], memory: SongMemory(inContext: learner.state(song: i, context: lc),
                                                                           anyContext: learner.anyContext(song: i), plays: plays[i],
                                                                           contextPlays: contextPlays[i * contexts.count + lc],
                                                                           contextKnownPlays: keptPlays[i], lastPlayedMs: lastPlayed[i]),
                                             state: s, hour: hour, now: now)
                            }
                            return ranker.order(sounds, scores: scores, session: history).first?.index ?? 0
                        }
                    }
                    let ni = MusicNeed.allCases.firstIndex(of: s.need) ?? 3
                    let chosen = pick(policy, &own)
                    if policy == .random {
                        // The other policies draw nothing: only random picks at random.
                        for (p, other) in DJPolicy.allCases.enumerated() {
                            let i = other == policy ? chosen : pick(other, &own)
                            var one = NeedTally()
                            one.decisions = 1
                            one.planted = l.effectHR[i]
                            one.regret = best - fulfil[i]
                            tally.shared[p][ni].add(one)
                        }
                    }
                    let song = songs[l.library[chosen]]
                    let skipped = skipDraw < l.skipProbability[chosen]
                    let duration = skipped ? 30 + 30 * cutDraw : song.durationS
                    responses.removeAll { $0.endS + 100 < t }
                    responses.append(MusicResponse(startS: t, endS: t + duration, durationS: song.durationS,
                                                   deltaHRBpm: l.effectHR[chosen], deltaRMSSDMs: l.effectRMSSD[chosen]))
                    advance(to: t + duration)
                    runTicks(to: ms(t + duration))
                    let during = DJStateEngine.window(hr, endingAt: ms(t + duration), seconds: duration)
                    let first = during.prefix { $0.tMs <= ms(t + 30) }.map(\.value)
                    let last = during.filter { $0.tMs > ms(t + duration - 30) }.map(\.value)
                    let measuredHR = first.isEmpty || last.isEmpty ? nil : Stats.median(last) - Stats.median(first)
                    let sdnnDuring = DJStateEngine.window(sdnn, endingAt: ms(t + duration), seconds: duration)
                    let measuredSDNN = sdnnDuring.count >= 2 ? (sdnnDuring.last?.value ?? 0) - (sdnnDuring.first?.value ?? 0) : nil
                    learnedLater.append((chosen, LearnedPlay(hrDeltaBpm: measuredHR, hrvDeltaMs: measuredSDNN, hrvFromRR: false,
                                                             listenFraction: duration / song.durationS, skipped: skipped,
                                                             impact: impact)))
                    plays[chosen] += 1; lastPlayed[chosen] = now

                    var one = NeedTally()
                    one.decisions = 1
                    if let measuredHR { one.realised = measuredHR; one.realisedCount = 1 }
                    one.planted = l.effectHR[chosen]
                    one.regret = best - fulfil[chosen]
                    one.skips = skipped ? 1 : 0
                    if let a = history.last?.bpm, let b = sounds[chosen].bpm { one.bpmStep = abs(a - b); one.bpmStepCount = 1 }
                    tally.needs[0][ni].add(one)
                    tally.days[0][day].add(one)
                    history.append(sounds[chosen])
                    t += duration + 2
                }
                // A session shorter than the minimum (first start to last end) is dropped
                // and teaches nothing, as the sessions stage drops it.
                if let sc = sessionContext, t - 2 - session.startS >= minSessionMs {
                    for (i, play) in learnedLater {
                        learner.learn(play, song: i, context: sc)
                        keptPlays[i] += 1; contextPlays[i * contexts.count + sc] += 1
                    }
                }
                dayHR += hr.map(\.value); daySDNN += sdnn.map(\.value)
            }
            pattern.endDay()
            if !dayHR.isEmpty { restingHRs.append(Stats.quantile(dayHR, state.restingHRQuantile)) }
            if !daySDNN.isEmpty { sdnns.append(Stats.median(daySDNN)) }
        }
        return tally
    }

    /// Every seed: per seed, the listeners' tallies summed in listener order (`jobs`
    /// listeners at a time; results identical for any `jobs`).
    public func run(jobs: Int) throws -> [(seed: UInt64, tally: ClosedLoopTally)] {
        var out: [(seed: UInt64, tally: ClosedLoopTally)] = []
        for k in 0..<options.seeds {
            let seed = options.seed &+ UInt64(k)
            let world = SimulatedWorld(seed: seed, songs: options.songs, featureRelation: options.featureRelation, world: options.world)
            let parts = try Parallel.map(listeners(world), jobs: jobs) { run($0, world: world) }
            var total = ClosedLoopTally(days: options.days)
            for p in parts { total.add(p) }
            out.append((seed, total))
        }
        return out
    }
}
