import Foundation

/// Who picks the next song in the closed-loop simulation.
public enum DJPolicy: String, CaseIterable, Sendable {
    /// The product's ranking with the state engine and the learner, as on the phone.
    case dj
    /// Uniform over the library (songs not started within the recency window).
    case random
    /// The song the listener has played most (history before the simulation included).
    case mostPlayed = "most_played"
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
    /// Correlation between a song's planted calmness and its BPM and energy (0–1).
    public var featureRelation: Double = 0.5
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
    /// [policy][need]
    public var needs: [[NeedTally]]
    /// [policy][day]: decisions and summed regret.
    public var days: [[NeedTally]]

    init(days: Int) {
        needs = Array(repeating: Array(repeating: NeedTally(), count: MusicNeed.allCases.count), count: DJPolicy.allCases.count)
        self.days = Array(repeating: Array(repeating: NeedTally(), count: days), count: DJPolicy.allCases.count)
    }

    mutating func add(_ o: ClosedLoopTally) {
        for p in needs.indices {
            for n in needs[p].indices { needs[p][n].add(o.needs[p][n]) }
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
/// catalogue, planted per-song effects (song effect × sensitivity + an individual
/// deviation) and skip probabilities from genre liking.
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
            hr.append(songs[i].deltaHRBpm * profile.sensitivity + random.normal())
            rmssd.append(songs[i].deltaRMSSDMs * profile.sensitivity + random.normal())
            prior.append(Int(12 * weight[i] / maxWeight * random.uniform()))
            let liking = (affinity.indices.contains(songs[i].genre) ? affinity[songs[i].genre] : maxAffinity) / maxAffinity
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
/// learner updates after each play.
public struct ClosedLoop: Sendable {
    public let options: DJSimulationOptions
    public let state: StateConstants
    public let ranking: RankingConstants
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

    /// One policy on one listener's days (tally with a single policy row).
    func run(_ l: SimulatedListener, world: SimulatedWorld, policy: DJPolicy) -> ClosedLoopTally {
        var tally = ClosedLoopTally(days: options.days)
        let engine = DJStateEngine(constants: state, variant: options.variant)
        let ranker = RankingEngine(constants: ranking)
        let nc = DJContext.allCases.count, n = l.library.count
        let songs = world.catalogue.songs
        let sounds = l.library.map { world.sounds[$0] }
        var anyState = [EMAState?](repeating: nil, count: n)
        var contextState = [EMAState?](repeating: nil, count: n * nc)
        var plays = l.priorPlays, simPlays = [Int](repeating: 0, count: n), contextPlays = [Int](repeating: 0, count: n * nc)
        var lastPlayed = [Int64?](repeating: nil, count: n)
        var patternSum = [Double](repeating: 0, count: 7 * 24), patternCount = [Double](repeating: 0, count: 7 * 24)
        var restingHRs: [Double] = [], sdnns: [Double] = []
        let recencyMs = Int64(ranking.recencyMinutes * 60_000)
        let stepMs = Int64(state.stepSeconds * 1000)

        for day in 0..<options.days {
            let dayMs = Int64(options.firstDay + day) * 86_400_000
            let weekday = Timestamp.isoWeekday(dayMs)
            let baseline = PersonalBaseline.from(dailyRestingHR: restingHRs, dailySDNN: sdnns, age: Double(l.profile.age),
                                                 constants: state)
            let plan = schedule(l, day: day, seed: world.seed)
            let workouts = plan.compactMap { $0.workout }.map { (startMs: dayMs + Int64($0.startS * 1000), endMs: dayMs + Int64($0.endS * 1000)) }
            var dayHR: [Double] = [], daySDNN: [Double] = []
            var pendingSum = [Double](repeating: 0, count: 7 * 24), pendingCount = [Double](repeating: 0, count: 7 * 24)

            for (si, session) in plan.enumerated() {
                var body = SeededRandom(seed: DJStreams.seed(world.seed, "listener", l.index, "day", day, "session", si, "body"))
                var chance = SeededRandom(seed: DJStreams.seed(world.seed, "listener", l.index, "day", day, "session", si, "play"))
                var own = SeededRandom(seed: DJStreams.seed(world.seed, "listener", l.index, "day", day, "session", si, policy.rawValue))
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
                func usualEnergy(_ t: Int64) -> Double? {
                    let cell = (weekday - 1) * 24 + min(23, Int((t - dayMs) / 3_600_000))
                    return patternCount[cell] >= state.patternMinStates ? patternSum[cell] / patternCount[cell] : nil
                }
                /// The 30-s states up to `t`, for the usual-energy table (committed at the day's end).
                func runTicks(to t: Int64) {
                    while tick <= t {
                        let s = engine.state(at: tick, hr: hr, sdnn: sdnn, baseline: baseline, context: context(tick),
                                             usualEnergy: usualEnergy(tick))
                        let cell = (weekday - 1) * 24 + min(23, Int((tick - dayMs) / 3_600_000))
                        pendingSum[cell] += state.energyArousalWeight * s.arousal + state.energyCalmWeight * (1 - s.stress)
                        pendingCount[cell] += 1
                        tick += stepMs
                    }
                }
                var t = session.startS
                var history: [SongSound] = []
                var previous: DJState?
                for _ in 0..<options.songsPerSession {
                    advance(to: t)
                    runTicks(to: ms(t))
                    let stateTick = tick - stepMs
                    let now = ms(t)
                    let ctx = context(stateTick)
                    let s = engine.state(at: stateTick, hr: hr, sdnn: sdnn, baseline: baseline, context: ctx,
                                         usualEnergy: usualEnergy(stateTick), previous: previous)
                    previous = s
                    let hour = Double(now - dayMs) / 3_600_000
                    let eligible = (0..<n).filter { i in lastPlayed[i].map { now - $0 >= recencyMs } ?? true }
                    let pool = eligible.isEmpty ? Array(0..<n) : eligible
                    let fulfil = pool.map { needFulfilment(s.need, deltaHRBpm: l.effectHR[$0]) }
                    let best = fulfil.max() ?? 0
                    let skipDraw = chance.uniform(), cutDraw = chance.uniform()
                    let pick: Int
                    switch policy {
                    case .random: pick = pool[own.int(in: 0...(pool.count - 1))]
                    case .mostPlayed: pick = pool.max { plays[$0] != plays[$1] ? plays[$0] < plays[$1] : $0 > $1 } ?? 0
                    case .oracle: pick = pool[fulfil.firstIndex(of: best) ?? 0]
                    case .dj:
                        let ci = DJContext.allCases.firstIndex(of: ctx) ?? 0
                        let scores = (0..<n).map { i in
                            ranker.score(sounds[i], memory: SongMemory(inContext: contextState[i * nc + ci], anyContext: anyState[i],
                                                                       plays: plays[i], contextPlays: contextPlays[i * nc + ci],
                                                                       contextKnownPlays: simPlays[i], lastPlayedMs: lastPlayed[i]),
                                         state: s, hour: hour, now: now)
                        }
                        pick = ranker.order(sounds, scores: scores, session: history).first?.index ?? 0
                    }
                    let song = songs[l.library[pick]]
                    let skipped = skipDraw < l.skipProbability[pick]
                    let duration = skipped ? 30 + 30 * cutDraw : song.durationS
                    responses.removeAll { $0.endS + 100 < t }
                    responses.append(MusicResponse(startS: t, endS: t + duration, durationS: song.durationS,
                                                   deltaHRBpm: l.effectHR[pick], deltaRMSSDMs: l.effectRMSSD[pick]))
                    advance(to: t + duration)
                    runTicks(to: ms(t + duration))
                    let during = DJStateEngine.window(hr, endingAt: ms(t + duration), seconds: duration)
                    let first = during.prefix { $0.tMs <= ms(t + 30) }.map(\.value)
                    let last = during.filter { $0.tMs > ms(t + duration - 30) }.map(\.value)
                    let measuredHR = first.isEmpty || last.isEmpty ? nil : Stats.median(last) - Stats.median(first)
                    let sdnnDuring = DJStateEngine.window(sdnn, endingAt: ms(t + duration), seconds: duration)
                    let measuredSDNN = sdnnDuring.count >= 2 ? (sdnnDuring.last?.value ?? 0) - (sdnnDuring.first?.value ?? 0) : nil
                    let scores = Impact.of(hrDeltaBpm: measuredHR, hrvDeltaMs: measuredSDNN, listenFraction: duration / song.durationS,
                                           skipped: skipped, constants: impact)
                    let ci = DJContext.allCases.firstIndex(of: ctx) ?? 0
                    var inContext = contextState[pick * nc + ci] ?? EMAState(constants: songEffect)
                    var overall = anyState[pick] ?? EMAState(constants: songEffect)
                    EMALearner.update(&inContext, scores: scores, hrDeltaBpm: measuredHR, rmssdDeltaMs: measuredSDNN,
                                      skipped: skipped, constants: songEffect)
                    EMALearner.update(&overall, scores: scores, hrDeltaBpm: measuredHR, rmssdDeltaMs: measuredSDNN,
                                      skipped: skipped, constants: songEffect)
                    contextState[pick * nc + ci] = inContext; anyState[pick] = overall
                    plays[pick] += 1; simPlays[pick] += 1; contextPlays[pick * nc + ci] += 1; lastPlayed[pick] = now

                    let ni = MusicNeed.allCases.firstIndex(of: s.need) ?? 3
                    var one = NeedTally()
                    one.decisions = 1
                    if let measuredHR { one.realised = measuredHR; one.realisedCount = 1 }
                    one.planted = l.effectHR[pick]
                    one.regret = best - needFulfilment(s.need, deltaHRBpm: l.effectHR[pick])
                    one.skips = skipped ? 1 : 0
                    if let a = history.last?.bpm, let b = sounds[pick].bpm { one.bpmStep = abs(a - b); one.bpmStepCount = 1 }
                    tally.needs[0][ni].add(one)
                    tally.days[0][day].add(one)
                    history.append(sounds[pick])
                    t += duration + 2
                }
                dayHR += hr.map(\.value); daySDNN += sdnn.map(\.value)
            }
            for i in patternSum.indices { patternSum[i] += pendingSum[i]; patternCount[i] += pendingCount[i] }
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
            let world = SimulatedWorld(seed: seed, songs: options.songs, featureRelation: options.featureRelation)
            let parts = try Parallel.map(listeners(world), jobs: jobs) { run($0, world: world) }
            var total = ClosedLoopTally(days: options.days)
            for p in parts { total.add(p) }
            out.append((seed, total))
        }
        return out
    }
}
