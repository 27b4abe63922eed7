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
    /// The population prior's posterior (`PopulationPrior`): the song with the best
    /// expected need fulfilment for this listener.
    case bayes
    /// The same posterior, one draw per song (Thompson sampling, Chapelle & Li 2011):
    /// the song whose draw fulfils the need best.
    case thompson
    /// `bayes` with the ranking's content terms as the song level's prior mean, their
    /// weight learned from the plays (`PopulationPrior.content`).
    case hybrid

    /// The policies that learn from the population prior.
    static let learning: [DJPolicy] = [.bayes, .thompson, .hybrid]
    /// The target policies of off-policy evaluation (docs/dj.md, Off-policy evaluation):
    /// all but the learning policies, whose picks need every listener's earlier days.
    static let offPolicyTargets: [DJPolicy] = allCases.filter { !learning.contains($0) }
    /// The off-policy targets that pick one song for sure (all but `random`).
    static let deterministic: [DJPolicy] = offPolicyTargets.filter { $0 != .random }
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
    /// Also run the logging behaviour policy and write its propensity log and the
    /// one-step truth at its decisions (docs/dj.md, Off-policy evaluation).
    public var logPropensities = false

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
    /// The logging behaviour policy's temperature (`propensityLog`).
    public let ope: OPEConstants
    /// The learning policies' fallbacks (`PopulationPrior`).
    public let learning: LearningConstants

    /// Seconds between HR samples and between SDNN samples; minutes of physiology
    /// before each session's first song, so that the windows are full.
    static let hrStepS = 5.0, sdnnStepS = 60.0, warmupS = 600.0

    public init(options: DJSimulationOptions, registry: ConstantsRegistry) {
        self.options = options
        state = StateConstants(registry: registry); ranking = RankingConstants(registry: registry)
        impact = ImpactConstants(registry: registry); songEffect = SongEffectConstants(registry: registry)
        sessions = SessionConstants(registry: registry); ope = OPEConstants(registry: registry)
        learning = LearningConstants(registry: registry)
        // Valid by construction (the five weights sum to 1; every value in range).
        let alone = try? registry.replacing(RankingConstants.spec.name, with: [
            "bpm_weight": 0, "energy_weight": 0, "familiarity_weight": 0, "historical_weight": 1, "context_weight": 0,
            "time_of_day_floor": 1, "transition_base": 1,
        ])
        effectOnly = alone.map { RankingConstants(registry: $0) } ?? ranking
    }

    /// The listeners of one seed: the persona profiles, each `replicas` times, listener k
    /// drawn like persona k mod 10 (`PersonaProfile.drawn`) from its own `profile` stream.
    func listeners(_ world: SimulatedWorld) -> [SimulatedListener] {
        let profiles = PersonaProfile.all
        return (0..<(profiles.count * options.replicas)).map {
            var random = SeededRandom(seed: DJStreams.seed(world.seed, "listener", $0, "profile"))
            return SimulatedListener(profile: profiles[$0 % profiles.count].drawn(random: &random), index: $0, world: world,
                                     libraryCap: options.libraryCap)
        }
    }

    /// Every policy on the days of `listeners` living together (`population`): per
    /// listener, every policy's closed loop and the shared decision points.
    func run(_ listeners: [SimulatedListener], world: SimulatedWorld, jobs: Int) throws -> [ClosedLoopTally] {
        var tallies = listeners.map { _ in ClosedLoopTally(days: options.days) }
        for (p, policy) in DJPolicy.allCases.enumerated() {
            for (j, one) in try population(listeners, world: world, policy: policy, jobs: jobs).enumerated() {
                tallies[j].needs[p] = one.tally.needs[0]; tallies[j].days[p] = one.tally.days[0]
                if policy == .random { tallies[j].shared = one.tally.shared }
            }
        }
        return tallies
    }

    /// Every policy on one listener's days, the listener its own population.
    func run(_ listener: SimulatedListener, world: SimulatedWorld) -> ClosedLoopTally {
        (try? run([listener], world: world, jobs: 1).first) ?? ClosedLoopTally(days: options.days)
    }

    /// Every listener of a seed living `policy`'s days together: at each day's start the
    /// population prior is estimated afresh from every listener's plays of the earlier
    /// days (in listener order; never a later play) for the policies that read it (the
    /// learning policies, and random for the learning policies' picks at its decisions),
    /// then each listener lives the day (`jobs` at a time; results identical for any `jobs`).
    func population(_ listeners: [SimulatedListener], world: SimulatedWorld, policy: DJPolicy, jobs: Int) throws -> [PolicyLoop] {
        let z = contentIndex(world), genres = world.catalogue.songs.map(\.genre)
        let reads = policy == .random || DJPolicy.learning.contains(policy)
        var loops = listeners.map { PolicyLoop(self, listener: $0, world: world, policy: policy) }
        for day in 0..<options.days {
            let prior = reads ? PopulationPrior(loops.flatMap(\.heard), contentIndex: z, genres: genres, constants: learning) : nil
            loops = try Parallel.map(loops, jobs: jobs) { loop in
                var next = loop
                if let prior { next.learn(from: prior) }
                next.live(day: day)
                return next
            }
        }
        return loops
    }

    /// Each catalogue song's content index (`hybrid`): the product ranking's BPM and
    /// energy terms for the calm need at energy 0.5 by day, weighted as the ranking
    /// weighs them (0–1; 1: as calm-sounding as the formula wants).
    func contentIndex(_ world: SimulatedWorld) -> [Double] {
        let ranker = RankingEngine(constants: ranking)
        let state = DJState(tMs: 0, arousal: 0, stress: 0, energy: 0.5, focus: 0.5, valence: 0.5, arousalConfidence: 1,
                            stressConfidence: 1, confidence: 1, context: .relaxation, need: .calm, hrSamples: 0, sdnnSamples: 0)
        let total = max(1e-9, ranking.bpmWeight + ranking.energyWeight)
        return world.sounds.map { sound in
            let score = ranker.score(sound, memory: SongMemory(), state: state, hour: 12, now: 0)
            return (ranking.bpmWeight * score.bpmMatch + ranking.energyWeight * score.energyMatch) / total
        }
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

    /// One policy on one listener's days, the listener its own population (tally with a
    /// single policy row; on the random policy's trajectory, `shared` holds every
    /// policy's pick at its decisions).
    func run(_ l: SimulatedListener, world: SimulatedWorld, policy: DJPolicy) -> ClosedLoopTally {
        (try? population([l], world: world, policy: policy, jobs: 1).first?.tally) ?? ClosedLoopTally(days: options.days)
    }

    /// Every seed: per seed, the listeners' tallies summed in listener order (`jobs`
    /// listeners at a time; results identical for any `jobs`).
    public func run(jobs: Int) throws -> [(seed: UInt64, tally: ClosedLoopTally)] {
        var out: [(seed: UInt64, tally: ClosedLoopTally)] = []
        for k in 0..<options.seeds {
            let seed = options.seed &+ UInt64(k)
            let world = SimulatedWorld(seed: seed, songs: options.songs, featureRelation: options.featureRelation, world: options.world)
            let parts = try run(listeners(world), world: world, jobs: jobs)
            var total = ClosedLoopTally(days: options.days)
            for p in parts { total.add(p) }
            out.append((seed, total))
        }
        return out
    }
}

/// One session's simulated heart: HR every `hrStepS` and SDNN every `sdnnStepS` from
/// `warmupS` before the session's start — the resting level with the session's offset
/// and SDNN factor, the workout's lift, the responses to the songs heard, and noise.
struct SessionHeart {
    let profile: PersonaProfile
    let plan: ListeningSessionPlan
    let dayMs: Int64
    var body: SeededRandom
    var hr: [TimedSample] = [], sdnn: [TimedSample] = []
    var responses: [MusicResponse] = []
    private var noise = 0.0
    private var nextHR: Double, nextSDNN: Double

    init(profile: PersonaProfile, plan: ListeningSessionPlan, dayMs: Int64, body: SeededRandom) {
        self.profile = profile; self.plan = plan; self.dayMs = dayMs; self.body = body
        nextHR = plan.startS - ClosedLoop.warmupS; nextSDNN = nextHR
    }

    /// Epoch ms of `s` seconds after the day's midnight.
    func ms(_ s: Double) -> Int64 { dayMs + Int64((s * 1000).rounded()) }

    /// The workout's HR lift at `t` (bpm): rising with τ = 1 min, decaying with τ = 5 min after it.
    func lift(_ t: Double) -> Double {
        guard let w = plan.workout, t > w.startS else { return 0 }
        let on = w.liftBpm * (1 - exp(-(min(t, w.endS) - w.startS) / 60))
        return t <= w.endS ? on : on * exp(-(t - w.endS) / 300)
    }

    /// The samples up to `t` (s after midnight): HR with AR(1) noise (0.95), SDNN with white noise.
    mutating func advance(to t: Double) {
        while nextHR <= t {
            noise = 0.95 * noise + body.normal()
            var music = 0.0
            for r in responses { music += r.value(at: nextHR).hrBpm }
            let bpm = profile.restingHRBpm + plan.hrOffsetBpm + lift(nextHR) + music + noise
            hr.append(TimedSample(tMs: ms(nextHR), value: max(30, bpm)))
            nextHR += ClosedLoop.hrStepS
        }
        while nextSDNN <= t {
            var music = 0.0
            for r in responses { music += r.value(at: nextSDNN).rmssdMs }
            let v = profile.sdnnMs * plan.sdnnFactor * (1 - 0.5 * min(1, lift(nextSDNN) / 60)) + music + 2 * body.normal()
            sdnn.append(TimedSample(tMs: ms(nextSDNN), value: max(5, v)))
            nextSDNN += ClosedLoop.sdnnStepS
        }
    }
}

/// One simulated day of a listener: its index, midnight (epoch ms), ISO weekday, the
/// baseline from earlier days and the day's workouts.
struct SimulatedDay {
    let index: Int
    let dayMs: Int64
    let weekday: Int
    let baseline: PersonalBaseline
    let workouts: [(startMs: Int64, endMs: Int64)]

    /// The usual-energy cell of `t` (epoch ms, the day's local clock).
    func cell(_ t: Int64) -> Int { EnergyPattern.cell(weekday: weekday, hour: Int((t - dayMs) / 3_600_000)) }
}

/// One listening session in progress: its heart, its draws (skips and cuts; the
/// policy's own), the next state tick (epoch ms), its clock (s after midnight), the
/// songs heard, the last state, its learning context and the plays it teaches at its end.
struct SessionRun {
    var heart: SessionHeart
    var chance: SeededRandom, own: SeededRandom
    var tick: Int64
    var t: Double
    var history: [SongSound] = []
    var previous: DJState?
    /// The DJ context of the session's first song, mapped to a session context.
    var context: Int?
    var learnedLater: [(song: Int, play: LearnedPlay)] = []
    /// Per play of `learnedLater`, its slot (`PopulationPrior.slot`).
    var slots: [Int] = []
}

/// What every policy sees at one decision: the state, its learning context, the hour and
/// time, the songs it may pick (`pool`: none started within the recency window, else
/// all), each song's planted fulfilment of the need and the best of them, the session's
/// songs so far.
struct DecisionPoint {
    let state: DJState
    let learningContext: Int
    let hour: Double
    let nowMs: Int64
    let pool: [Int]
    let fulfil: [Double]
    let best: Double
    let history: [SongSound]

    var needIndex: Int { MusicNeed.allCases.firstIndex(of: state.need) ?? 3 }
}

/// One policy living one listener's days (`ClosedLoop.run(_:world:policy:)`): what it
/// carries from session to session — the learner, play counts, last starts, the
/// usual-energy pattern, earlier days' resting HR and SDNN — and its tally.
struct PolicyLoop {
    let loop: ClosedLoop
    let listener: SimulatedListener
    let world: SimulatedWorld
    let policy: DJPolicy
    let engine: DJStateEngine
    /// The DJ's ranking and the learned-effect-only one.
    let rankers: [RankingEngine]
    let sounds: [SongSound]
    let stepMs: Int64, recencyMs: Int64
    var learner: SongLearner
    var plays: [Int], keptPlays: [Int], contextPlays: [Int]
    var lastPlayed: [Int64?]
    var pattern: EnergyPattern
    var restingHRs: [Double] = [], sdnns: [Double] = []
    var tally: ClosedLoopTally
    /// The population prior of the day, each library song's belief from it (without and
    /// with content), the listener's own plays per song and slot (count, summed ΔHR,
    /// bpm) and the plays they teach the population.
    var prior: PopulationPrior
    var songPriors: [[Belief]] = [[], []]
    var ownPlays: [Int], ownSumBpm: [Double]
    var heard: [HeardPlay] = []
    /// Every library song's posterior without and with content (`beliefs`), as of the
    /// day's prior and the sessions learned so far.
    var beliefCache: [[Belief]] = [[], []]
    /// The logging behaviour policy's softmax temperature (`ope` engine), nil for the
    /// judged policies; its log and the truth at its decisions (`PropensityLog`).
    let behaviourTemperature: Double?
    var log = PropensityLog()
    static let contexts = ListeningContext.allCases

    init(_ loop: ClosedLoop, listener l: SimulatedListener, world: SimulatedWorld, policy: DJPolicy, behaviourTemperature: Double? = nil) {
        self.loop = loop; listener = l; self.world = world; self.policy = policy
        self.behaviourTemperature = behaviourTemperature
        engine = DJStateEngine(constants: loop.state, variant: loop.options.variant)
        rankers = [RankingEngine(constants: loop.ranking), RankingEngine(constants: loop.effectOnly)]
        sounds = l.library.map { world.sounds[$0] }
        stepMs = Int64(loop.state.stepSeconds * 1000); recencyMs = Int64(loop.ranking.recencyMinutes * 60_000)
        learner = SongLearner(constants: loop.songEffect, contexts: Self.contexts.count)
        plays = l.priorPlays; keptPlays = [Int](repeating: 0, count: l.library.count)
        contextPlays = [Int](repeating: 0, count: l.library.count * Self.contexts.count)
        lastPlayed = [Int64?](repeating: nil, count: l.library.count)
        pattern = EnergyPattern(constants: loop.state)
        tally = ClosedLoopTally(days: loop.options.days)
        ownPlays = [Int](repeating: 0, count: l.library.count * PopulationPrior.slots)
        ownSumBpm = [Double](repeating: 0, count: ownPlays.count)
        prior = PopulationPrior([], contentIndex: [], genres: [], constants: loop.learning)
        learn(from: prior)
    }

    /// The day's population prior and every library song's belief from it.
    mutating func learn(from prior: PopulationPrior) {
        self.prior = prior
        songPriors = [prior.plain, prior.content].map { level in
            listener.library.map { prior.song($0, listener: listener.index, level: level) }
        }
        refreshBeliefs()
    }

    /// The posteriors afresh, for the policies that read them (the learning policies, and
    /// random for their picks at its decisions): they change only with the day's prior
    /// and when a session's plays are learned.
    mutating func refreshBeliefs() {
        guard policy == .random || DJPolicy.learning.contains(policy) else { return }
        beliefCache = [beliefs(content: false), beliefs(content: true)]
    }

    /// One day: its sessions in order, then the day's states join the usual-energy
    /// pattern and its resting HR and median SDNN the later days' baselines.
    mutating func live(day: Int) {
        let dayMs = Int64(loop.options.firstDay + day) * 86_400_000
        let baseline = PersonalBaseline.from(dailyRestingHR: restingHRs, dailySDNN: sdnns, age: Double(listener.profile.age),
                                             constants: loop.state)
        let plan = loop.schedule(listener, day: day, seed: world.seed)
        let workouts = plan.compactMap { $0.workout }.map { (startMs: dayMs + Int64($0.startS * 1000), endMs: dayMs + Int64($0.endS * 1000)) }
        let frame = SimulatedDay(index: day, dayMs: dayMs, weekday: Timestamp.isoWeekday(dayMs), baseline: baseline, workouts: workouts)
        var dayHR: [Double] = [], daySDNN: [Double] = []
        for (si, session) in plan.enumerated() {
            let heart = listen(session, index: si, day: frame)
            dayHR += heart.hr.map(\.value); daySDNN += heart.sdnn.map(\.value)
        }
        pattern.endDay()
        if !dayHR.isEmpty { restingHRs.append(Stats.quantile(dayHR, loop.state.restingHRQuantile)) }
        if !daySDNN.isEmpty { sdnns.append(Stats.median(daySDNN)) }
    }

    /// The random stream `name` of session `si` of `day`.
    func stream(_ name: String, day: SimulatedDay, session si: Int) -> SeededRandom {
        SeededRandom(seed: DJStreams.seed(world.seed, "listener", listener.index, "day", day.index, "session", si, name))
    }

    /// One session: `songsPerSession` songs one after the other; its plays are learned at
    /// its end under its context. Returns the session's heart, with its samples.
    mutating func listen(_ plan: ListeningSessionPlan, index si: Int, day: SimulatedDay) -> SessionHeart {
        let heart = SessionHeart(profile: listener.profile, plan: plan, dayMs: day.dayMs, body: stream("body", day: day, session: si))
        var s = SessionRun(heart: heart, chance: stream("play", day: day, session: si),
                           own: stream(behaviourTemperature == nil ? policy.rawValue : "behaviour", day: day, session: si),
                           tick: (heart.ms(plan.startS - ClosedLoop.warmupS) / stepMs + 1) * stepMs, t: plan.startS)
        for _ in 0..<loop.options.songsPerSession { playSong(&s, day: day) }
        // A session shorter than the minimum (first start to last end) is dropped
        // and teaches nothing, as the sessions stage drops it.
        if let sc = s.context, s.t - 2 - plan.startS >= Double(loop.sessions.minSessionMs) / 1000 {
            for (j, (i, play)) in s.learnedLater.enumerated() {
                learner.learn(play, song: i, context: sc)
                keptPlays[i] += 1; contextPlays[i * Self.contexts.count + sc] += 1
                // The learning policies learn ΔHR from plays heard past the skip share
                // (and, unless `workout_plays_teach`, not from a workout's).
                if let y = play.hrDeltaBpm, !play.skipped, loop.learning.workoutPlaysTeach >= 0.5 || !PopulationPrior.inWorkout(s.slots[j]) {
                    let at = i * PopulationPrior.slots + s.slots[j]
                    ownPlays[at] += 1; ownSumBpm[at] += y
                    heard.append(HeardPlay(listener: listener.index, song: listener.library[i], slot: s.slots[j], deltaHRBpm: y))
                }
            }
            refreshBeliefs()
        }
        return s.heart
    }

    /// The DJ context at `t` (epoch ms).
    func context(_ t: Int64, _ day: SimulatedDay) -> DJContext {
        DJStateEngine.context(at: t, localMs: t, workouts: day.workouts, state: loop.state, sessions: loop.sessions)
    }

    /// The 30-s states up to `t` (epoch ms), added to the day's usual-energy pattern.
    mutating func runTicks(_ s: inout SessionRun, to t: Int64, day: SimulatedDay) {
        while s.tick <= t {
            let state = engine.state(at: s.tick, hr: s.heart.hr, sdnn: s.heart.sdnn, baseline: day.baseline,
                                     context: context(s.tick, day), usualEnergy: pattern.usual(day.cell(s.tick)))
            pattern.add(state, cell: day.cell(s.tick))
            s.tick += stepMs
        }
    }

    /// One song: the policy picks at the session's decision point (on the random
    /// trajectory every policy picks there too), the listener hears it, the pick is tallied.
    mutating func playSong(_ s: inout SessionRun, day: SimulatedDay) {
        let point = decisionPoint(&s, day: day)
        let skipDraw = s.chance.uniform(), cutDraw = s.chance.uniform()
        // The logging behaviour policy draws its song and notes what the targets pick.
        let logged = behaviourTemperature.map { behave(point, temperature: $0, &s, skipDraw: skipDraw, cutDraw: cutDraw) }
        let chosen = logged?.song ?? pick(policy, at: point, random: &s.own)
        if policy == .random { tallyShared(point, chosen: chosen, random: &s.own) }
        s.slots.append(PopulationPrior.slot(point.state.context, position: s.history.count))
        let heard = hear(chosen, &s, skipDraw: skipDraw, cutDraw: cutDraw, day: day)
        if let logged { record(logged, reward: needFulfilment(point.state.need, deltaHRBpm: heard.measuredHR ?? 0)) }
        plays[chosen] += 1; lastPlayed[chosen] = point.nowMs

        var one = NeedTally()
        one.decisions = 1
        if let measured = heard.measuredHR { one.realised = measured; one.realisedCount = 1 }
        one.planted = listener.effectHR[chosen]
        one.regret = point.best - point.fulfil[chosen]
        one.skips = heard.skipped ? 1 : 0
        if let a = s.history.last?.bpm, let b = sounds[chosen].bpm { one.bpmStep = abs(a - b); one.bpmStepCount = 1 }
        tally.needs[0][point.needIndex].add(one)
        tally.days[0][day.index].add(one)
        s.history.append(sounds[chosen])
        s.t += heard.durationS + 2
    }

    /// The session brought to its clock, and what the policies see there: the state at
    /// the last tick, the songs they may pick, each song's fulfilment of the need.
    mutating func decisionPoint(_ s: inout SessionRun, day: SimulatedDay) -> DecisionPoint {
        s.heart.advance(to: s.t)
        runTicks(&s, to: s.heart.ms(s.t), day: day)
        let stateTick = s.tick - stepMs
        let now = s.heart.ms(s.t)
        let ctx = context(stateTick, day)
        let lc = Self.contexts.firstIndex(of: loop.ranking.learningContext(ctx)) ?? 0
        if s.context == nil { s.context = lc }
        let state = engine.state(at: stateTick, hr: s.heart.hr, sdnn: s.heart.sdnn, baseline: day.baseline, context: ctx,
                                 usualEnergy: pattern.usual(day.cell(stateTick)), previous: s.previous)
        s.previous = state
        let n = listener.library.count
        let eligible = (0..<n).filter { i in lastPlayed[i].map { now - $0 >= recencyMs } ?? true }
        // Regret's best song: over every song the DJ may pick (recency is a
        // penalty of its score, not a filter), so regret is never negative.
        let fulfil = (0..<n).map { needFulfilment(state.need, deltaHRBpm: listener.effectHR[$0]) }
        return DecisionPoint(state: state, learningContext: lc, hour: Double(now - day.dayMs) / 3_600_000, nowMs: now,
                             pool: eligible.isEmpty ? Array(0..<n) : eligible, fulfil: fulfil, best: fulfil.max() ?? 0,
                             history: s.history)
    }

    /// The library index of the song `who` picks at `d`; only the random policy draws.
    func pick(_ who: DJPolicy, at d: DecisionPoint, random: inout SeededRandom) -> Int {
        switch who {
        case .random: return d.pool[random.int(in: 0...(d.pool.count - 1))]
        case .mostPlayed: return d.pool.max { plays[$0] != plays[$1] ? plays[$0] < plays[$1] : $0 > $1 } ?? 0
        case .oracle: return d.pool.max { d.fulfil[$0] != d.fulfil[$1] ? d.fulfil[$0] < d.fulfil[$1] : $0 > $1 } ?? 0
        case .dj, .learnedEffect:
            let ranker = rankers[who == .dj ? 0 : 1]
            return ranker.order(sounds, scores: scores(ranker, at: d), session: d.history).first?.index ?? 0
        case .bayes, .thompson, .hybrid: return learnedPick(who, at: d)
        }
    }

    /// Library song `i`'s own evidence, net of the day's slot offsets.
    func evidence(_ i: Int) -> OwnEvidence {
        let k = PopulationPrior.slots
        var e = OwnEvidence()
        for c in 0..<k where ownPlays[i * k + c] > 0 {
            e.plays += ownPlays[i * k + c]
            e.residualSumBpm += ownSumBpm[i * k + c] - Double(ownPlays[i * k + c]) * prior.slotOffsetBpm[c]
        }
        return e
    }

    /// Every library song's posterior effect for the listener (with `content`, the song
    /// level with the content index), with the listener's offset and their genre's.
    func beliefs(content: Bool) -> [Belief] {
        let priors = songPriors[content ? 1 : 0]
        let own = sounds.indices.map(evidence)
        let pairs = zip(priors, own).map { (prior: $0, evidence: $1) }
        let b = prior.offset(pairs, base: 0, variance: prior.listenerOffsetVarianceBpm2)
        let genre = listener.library.map { world.catalogue.songs[$0].genre }
        var g: [Int: Double] = [:]
        for k in Set(genre) {
            g[k] = prior.offset(pairs.indices.filter { genre[$0] == k }.map { pairs[$0] }, base: b, variance: prior.genreOffsetVarianceBpm2)
        }
        return sounds.indices.map { prior.posterior(priors[$0], offset: b + (g[genre[$0]] ?? 0), own: own[$0]) }
    }

    /// A learning policy's pick from the pool at `d`: the best expected need fulfilment
    /// (`bayes`, `hybrid`) or the best fulfilment of one posterior draw per song
    /// (`thompson`, from a stream of its own per listener, trajectory and decision time,
    /// so runs are identical and no other stream shifts); ties to the lower index.
    func learnedPick(_ who: DJPolicy, at d: DecisionPoint) -> Int {
        let belief = beliefCache[who == .hybrid ? 1 : 0]
        let value: [Double]
        if who == .thompson {
            var draw = SeededRandom(seed: DJStreams.seed(world.seed, "listener", listener.index, policy.rawValue, "thompson", d.nowMs))
            value = d.pool.map { needFulfilment(d.state.need, deltaHRBpm: belief[$0].mean + belief[$0].variance.squareRoot() * draw.normal()) }
        } else {
            value = d.pool.map { PopulationPrior.expectedFulfilment(d.state.need, belief[$0]) }
        }
        return zip(d.pool, value).max { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 > $1.0 }?.0 ?? 0
    }

    /// `ranker`'s score of every library song at `d`, from what the learner knows.
    func scores(_ ranker: RankingEngine, at d: DecisionPoint) -> [SongScore] {
        let lc = d.learningContext, k = Self.contexts.count
        return sounds.indices.map { i in
            ranker.score(sounds[i], memory: SongMemory(inContext: learner.state(song: i, context: lc),
                                                       anyContext: learner.anyContext(song: i), plays: plays[i],
                                                       contextPlays: contextPlays[i * k + lc],
                                                       contextKnownPlays: keptPlays[i], lastPlayedMs: lastPlayed[i]),
                         state: d.state, hour: d.hour, now: d.nowMs)
        }
    }

    /// On the random policy's trajectory: every policy's pick at the same decision point,
    /// tallied into `shared` (the other policies draw nothing: only random picks at random).
    mutating func tallyShared(_ d: DecisionPoint, chosen: Int, random: inout SeededRandom) {
        for (p, other) in DJPolicy.allCases.enumerated() {
            let i = other == policy ? chosen : pick(other, at: d, random: &random)
            var one = NeedTally()
            one.decisions = 1
            one.planted = listener.effectHR[i]
            one.regret = d.best - d.fulfil[i]
            tally.shared[p][d.needIndex].add(one)
        }
    }

    /// The chosen song heard from the session's clock (`hearing`) and its play kept to
    /// learn at the session's end.
    mutating func hear(_ chosen: Int, _ s: inout SessionRun, skipDraw: Double, cutDraw: Double,
                       day: SimulatedDay) -> (durationS: Double, skipped: Bool, measuredHR: Double?) {
        let song = world.catalogue.songs[listener.library[chosen]]
        let t = s.t
        let h = hearing(chosen, heart: &s.heart, at: t, skipDraw: skipDraw, cutDraw: cutDraw)
        runTicks(&s, to: s.heart.ms(t + h.durationS), day: day)
        s.learnedLater.append((chosen, LearnedPlay(hrDeltaBpm: h.measuredHR, hrvDeltaMs: h.measuredSDNN, hrvFromRR: false,
                                                   listenFraction: h.durationS / song.durationS, skipped: h.skipped, impact: loop.impact)))
        return (h.durationS, h.skipped, h.measuredHR)
    }

    /// The heart hearing song `chosen` from `t` (s after midnight) — whole, or when the
    /// skip draw falls below the song's skip probability cut after a share
    /// `skip_listen_fraction`·(0.1 + 0.9·cut draw) of its length (3–30 %: a skip as the
    /// product specification defines it) — whether it is a skip by that rule on the heard
    /// share, and the HR change measured over it (median of its last 30 s − of its first
    /// 30 s) and the SDNN change. Depends only on the heart and the draws, so a copy of
    /// the heart tells what another song would have done at the same decision.
    func hearing(_ chosen: Int, heart: inout SessionHeart, at t: Double, skipDraw: Double, cutDraw: Double)
        -> (durationS: Double, skipped: Bool, measuredHR: Double?, measuredSDNN: Double?) {
        let song = world.catalogue.songs[listener.library[chosen]]
        let skipShare = loop.sessions.skipListenFraction
        let duration = skipDraw < listener.skipProbability[chosen] ? song.durationS * skipShare * (0.1 + 0.9 * cutDraw) : song.durationS
        let skipped = duration / song.durationS < skipShare
        heart.responses.removeAll { $0.endS + 100 < t }
        heart.responses.append(MusicResponse(startS: t, endS: t + duration, durationS: song.durationS,
                                             deltaHRBpm: listener.effectHR[chosen], deltaRMSSDMs: listener.effectRMSSD[chosen]))
        heart.advance(to: t + duration)
        let end = heart.ms(t + duration), firstEnd = heart.ms(t + 30), lastStart = heart.ms(t + duration - 30)
        let during = DJStateEngine.window(heart.hr, endingAt: end, seconds: duration)
        let first = during.prefix { $0.tMs <= firstEnd }.map(\.value)
        let last = during.filter { $0.tMs > lastStart }.map(\.value)
        let measuredHR = first.isEmpty || last.isEmpty ? nil : Stats.median(last) - Stats.median(first)
        let sdnnDuring = DJStateEngine.window(heart.sdnn, endingAt: end, seconds: duration)
        let measuredSDNN = sdnnDuring.count >= 2 ? (sdnnDuring.last?.value ?? 0) - (sdnnDuring.first?.value ?? 0) : nil
        return (duration, skipped, measuredHR, measuredSDNN)
    }
}
