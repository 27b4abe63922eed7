import Foundation

/// One row of `dj_decisions.csv` (docs/tables.md): the DJ's decision at the start of
/// one logged play, from what was known before it — state, context, need, the rank of
/// the song actually played among the candidates, the DJ's top pick, every score
/// component of the played song, and the ΔHR (bpm) and ΔRMSSD (ms) the effects learned
/// so far predict for the played song and for the top pick.
public struct DJDecisionRow: Equatable, Sendable {
    public var subject: String
    public var playId: String
    public var startedAtMs: Int64
    public var songId: String
    public var context: String
    public var need: String
    public var arousal: Double
    public var stress: Double
    public var energy: Double
    public var confidence: Double
    public var targetBPM: Double
    public var candidates: Int
    public var playedRank: Int
    /// Whether the played song was among the DJ's candidates before it was added (an
    /// earlier-played song of the playlist).
    public var playedWasCandidate: Bool
    public var topSongId: String
    public var playedScore: Double
    public var topScore: Double
    public var bpmMatch: Double
    public var energyMatch: Double
    public var familiarity: Double
    public var historicalEffect: Double
    public var contextAlignment: Double
    public var recencyPenalty: Double
    public var timeOfDay: Double
    public var neutralTerms: Int
    public var predictedPlayedDeltaHRBpm: Double?
    public var predictedTopDeltaHRBpm: Double?
    public var predictedPlayedDeltaRMSSDMs: Double?
    public var predictedTopDeltaRMSSDMs: Double?
}

extension DJDecisionRow: CanonicalRow {
    public static let fileName = "dj_decisions.csv"
    public static let header = [
        "subject", "play_id", "started_at", "song_id", "context", "need", "arousal", "stress", "energy", "confidence", "target_bpm",
        "candidates", "played_rank", "played_was_candidate", "top_song_id", "played_score", "top_score", "bpm_match", "energy_match", "familiarity",
        "historical_effect", "context_alignment", "recency_penalty", "time_of_day", "neutral_terms",
        "predicted_played_delta_hr_bpm", "predicted_top_delta_hr_bpm", "predicted_played_delta_rmssd_ms", "predicted_top_delta_rmssd_ms",
    ]

    public func write(to w: CSVWriter) {
        w.field(subject); w.field(playId); w.field(timestampMs: startedAtMs); w.field(songId); w.field(context); w.field(need)
        w.field(arousal); w.field(stress); w.field(energy); w.field(confidence); w.field(targetBPM); w.field(candidates)
        w.field(playedRank); w.field(playedWasCandidate); w.field(topSongId); w.field(playedScore); w.field(topScore); w.field(bpmMatch); w.field(energyMatch)
        w.field(familiarity); w.field(historicalEffect); w.field(contextAlignment); w.field(recencyPenalty); w.field(timeOfDay)
        w.field(neutralTerms); w.field(predictedPlayedDeltaHRBpm); w.field(predictedTopDeltaHRBpm)
        w.field(predictedPlayedDeltaRMSSDMs); w.field(predictedTopDeltaRMSSDMs)
    }

    public init(_ r: CanonicalFieldReader) throws {
        self.init(subject: try r.string("subject"), playId: try r.string("play_id"), startedAtMs: try r.timestamp("started_at"),
                  songId: try r.string("song_id"), context: try r.string("context"), need: try r.string("need"),
                  arousal: try r.double("arousal"), stress: try r.double("stress"), energy: try r.double("energy"),
                  confidence: try r.double("confidence"), targetBPM: try r.double("target_bpm"), candidates: try r.count("candidates"),
                  playedRank: try r.count("played_rank"), playedWasCandidate: try r.bool("played_was_candidate"),
                  topSongId: try r.string("top_song_id"),
                  playedScore: try r.double("played_score"), topScore: try r.double("top_score"), bpmMatch: try r.double("bpm_match"),
                  energyMatch: try r.double("energy_match"), familiarity: try r.double("familiarity"),
                  historicalEffect: try r.double("historical_effect"), contextAlignment: try r.double("context_alignment"),
                  recencyPenalty: try r.double("recency_penalty"), timeOfDay: try r.double("time_of_day"),
                  neutralTerms: try r.count("neutral_terms"),
                  predictedPlayedDeltaHRBpm: try r.optionalDouble("predicted_played_delta_hr_bpm"),
                  predictedTopDeltaHRBpm: try r.optionalDouble("predicted_top_delta_hr_bpm"),
                  predictedPlayedDeltaRMSSDMs: try r.optionalDouble("predicted_played_delta_rmssd_ms"),
                  predictedTopDeltaRMSSDMs: try r.optionalDouble("predicted_top_delta_rmssd_ms"))
    }
}

/// The DJ replayed on logged listening (docs/dj.md, Replay). At each play, in time
/// order per listener, only what happened before it is used: the state from the HR and
/// SDNN samples before its start, baselines from earlier days, effects learned from
/// earlier plays, candidates among earlier-played songs; the play is learned from after
/// its decision is written.
public struct DJReplay: Sendable {
    public let state: StateConstants
    public let ranking: RankingConstants
    public let impact: ImpactConstants
    public let songEffect: SongEffectConstants
    public let sessions: SessionConstants
    public let variant: StateVariant

    public init(registry: ConstantsRegistry, variant: StateVariant = .specification) {
        state = StateConstants(registry: registry); ranking = RankingConstants(registry: registry)
        impact = ImpactConstants(registry: registry); songEffect = SongEffectConstants(registry: registry)
        sessions = SessionConstants(registry: registry); self.variant = variant
    }

    /// What one listener's history holds about one song besides its learned effects:
    /// plays (all, for familiarity), kept plays per session context and in all (for
    /// context alignment), its last start and its sound.
    struct SongHistory {
        var index: Int
        var plays = 0
        var keptPlays = 0
        var contextPlays = [Int](repeating: 0, count: ListeningContext.allCases.count)
        var lastPlayedMs: Int64?
        var sound: SongSound
    }

    /// One listener's decisions and their receipts (the DJ's pick with its score drivers).
    public struct Output: Sendable {
        public var decisions: [DJDecisionRow] = []
        public var receipts: [DJReceiptRow] = []
        /// What the listener learned, per (song, session context): songs are the indices
        /// of `songOrder`, contexts of `ListeningContext.allCases`.
        public var learner: SongLearner
        public var songOrder: [String] = []
    }

    /// One listener's decisions. `plays` are the listener's session plays; `rr` their
    /// plausible R-R intervals (ms, by time), whose SDNN over the 10-minute window is
    /// the state's HRV where beats exist; `offsets` the UTC offset (minutes) of plays
    /// that carry one, by play id; `birthYear` the listener's, when known (their age in
    /// the year of each play sets HRmax; the fallback age otherwise). What the listener
    /// has learned is left in `learner` (songs indexed in first-play order, `songOrder`).
    public func listener(plays unsorted: [SessionPlayRow], hr: [TimedSample], sdnn: [TimedSample], rr: [TimedSample] = [],
                         workouts: [(startMs: Int64, endMs: Int64)], features: [String: SongSound],
                         offsets: [String: Int], birthYear: Int? = nil) throws -> Output {
        var physiology = ReplayPhysiology.whole(hr: hr, sdnn: sdnn, rr: rr, restingQuantile: state.restingHRQuantile)
        var decisions: [DJDecisionRow] = [], receipts: [DJReceiptRow] = []
        var out = try listener(plays: unsorted, physiology: &physiology, workouts: workouts, features: features, offsets: offsets,
                               birthYear: birthYear) { decisions.append($0); receipts += $1 }
        (out.decisions, out.receipts) = (decisions, receipts)
        return out
    }

    /// The same, with the physiology whole or held forward in time (`ReplayPhysiology`):
    /// the decisions are made in time order, each reading the windows ending at its tick,
    /// and handed to `decided` with their receipts as they are made (the output's
    /// `decisions` and `receipts` stay empty).
    func listener(plays unsorted: [SessionPlayRow], physiology: inout ReplayPhysiology,
                  workouts: [(startMs: Int64, endMs: Int64)], features: [String: SongSound],
                  offsets: [String: Int], birthYear: Int?,
                  decided: (DJDecisionRow, [DJReceiptRow]) throws -> Void) throws -> Output {
        let plays = unsorted.sorted {
            $0.startedAtMs != $1.startedAtMs ? $0.startedAtMs < $1.startedAtMs : $0.playId.utf8.lexicographicallyPrecedes($1.playId.utf8)
        }
        var replay = ListenerReplay(self, physiology: physiology, workouts: workouts, features: features, offsets: offsets,
                                    birthYear: birthYear)
        for p in plays {
            let decision = try replay.decide(p, physiology: &physiology)
            try decided(decision.row, decision.receipts)
            replay.learn(p, sound: decision.sound)
        }
        return Output(learner: replay.learner, songOrder: replay.order)
    }
}

/// One listener's replay in progress (`DJReplay.listener`): what is known before each
/// play — the songs played and what was learned of them, each playlist's earlier-played
/// songs, the usual energy, the last state, the session's songs so far — and the
/// baseline of the day in progress.
struct ListenerReplay {
    let replay: DJReplay
    let engine: DJStateEngine
    let ranker: RankingEngine
    let workouts: [(startMs: Int64, endMs: Int64)]
    let features: [String: SongSound]
    let offsets: [String: Int]
    let birthYear: Int?
    /// Per UTC day: the day's resting HR and median SDNN, for later days' baselines.
    let days: [Int64], restingByDay: [Int64: Double], sdnnMedianByDay: [Int64: Double]
    /// The longest any window at a tick reaches back, and the state step, ms.
    let lookbackMs: Int64, stepMs: Int64
    var learned: [String: DJReplay.SongHistory] = [:]
    /// The songs in first-play order.
    var order: [String] = []
    var learner: SongLearner
    /// Per playlist, its earlier-played songs (a set, and in the order they joined it).
    var playlistMembers: [String: (set: Set<String>, order: [String])] = [:]
    var usualEnergy: ReplayEnergyPattern
    var previous: DJState?
    var session: (id: String, songs: [SongSound]) = ("", [])
    var baselineOf: (day: Int64, baseline: PersonalBaseline)?

    /// A play's decision: its row, its receipts and the played song's sound.
    struct Decision {
        let row: DJDecisionRow
        let receipts: [DJReceiptRow]
        let sound: SongSound
    }

    init(_ replay: DJReplay, physiology: ReplayPhysiology, workouts: [(startMs: Int64, endMs: Int64)],
         features: [String: SongSound], offsets: [String: Int], birthYear: Int?) {
        let state = replay.state
        self.replay = replay; self.workouts = workouts; self.features = features; self.offsets = offsets
        self.birthYear = birthYear
        engine = DJStateEngine(constants: state, variant: replay.variant)
        ranker = RankingEngine(constants: replay.ranking)
        days = physiology.days; restingByDay = physiology.restingByDay; sdnnMedianByDay = physiology.sdnnMedianByDay
        lookbackMs = Int64(max(state.hrWindowSeconds + state.personalReferenceMinutes * 60, state.hrvWindowSeconds) * 1000) + 1000
        stepMs = Int64(state.stepSeconds * 1000)
        learner = SongLearner(constants: replay.songEffect, contexts: ListeningContext.allCases.count)
        usualEnergy = ReplayEnergyPattern(constants: state, stepMs: stepMs, lookbackMs: lookbackMs)
    }

    /// The baseline of UTC day `day`, from the earlier days (kept while the day lasts).
    mutating func baseline(day: Int64) -> PersonalBaseline {
        if baselineOf?.day != day {
            let earlier = days.filter { $0 < day }
            baselineOf = (day, PersonalBaseline.from(dailyRestingHR: earlier.compactMap { restingByDay[$0] },
                                                     dailySDNN: earlier.compactMap { sdnnMedianByDay[$0] },
                                                     age: birthYear.map { Double(Timestamp.civil(fromDays: day).year - $0) },
                                                     constants: replay.state))
        }
        return baselineOf?.baseline ?? .fallback(replay.state)
    }

    /// The state at the tick of `p`'s start, from the physiology before it, with its
    /// context and local time; the state is counted into the usual energy.
    mutating func state(_ p: SessionPlayRow, physiology: inout ReplayPhysiology) throws -> (state: DJState, context: DJContext, localMs: Int64) {
        let state = replay.state
        let baseline = baseline(day: Timestamp.floorDivMod(p.startedAtMs, ReplayPhysiology.dayMs).0)
        let tick = Timestamp.floorDivMod(p.startedAtMs, stepMs).0 * stepMs
        let offsetMs = Int64(offsets[p.playId] ?? 0) * 60_000
        let localMs = p.startedAtMs + offsetMs
        let ctx = DJStateEngine.context(at: tick, localMs: localMs, workouts: workouts, state: state, sessions: replay.sessions)
        // The earlier play's states up to this decision count first: they precede it.
        try usualEnergy.count(before: tick, physiology: &physiology, engine: engine)
        let usual = usualEnergy.usual(localMs: localMs)
        try physiology.hold(fromMs: tick - lookbackMs, throughMs: tick)
        let s = engine.state(at: tick, hr: physiology.hr, sdnn: physiology.sdnn,
                             beatSDNNMs: physiology.beatSDNN(endingAt: tick, seconds: state.hrvWindowSeconds), baseline: baseline,
                             context: ctx, usualEnergy: usual, previous: previous)
        previous = s
        usualEnergy.decided(s, endMs: p.endedAtMs, offsetMs: offsetMs, baseline: baseline)
        return (s, ctx, localMs)
    }

    /// The DJ's decision at `p`: its state, the candidates — earlier-played songs (of the
    /// play's playlist when it has one) and the song played — ranked, and the row and
    /// receipts of the played song's rank and the DJ's top pick.
    mutating func decide(_ p: SessionPlayRow, physiology: inout ReplayPhysiology) throws -> Decision {
        let (s, ctx, localMs) = try state(p, physiology: &physiology)
        if session.id != p.sessionId { session = (p.sessionId, []) }
        let hour = Double(Timestamp.floorDivMod(localMs, ReplayPhysiology.dayMs).1) / 3_600_000
        let sound = learned[p.songId]?.sound ?? features[p.songId]
            ?? SongSound(songId: p.songId, artist: "", genre: "", bpm: nil, energy: nil)
        var candidates = p.playlist.isEmpty ? order : playlistMembers[p.playlist]?.order ?? []
        let wasCandidate = candidates.contains(p.songId)
        if !wasCandidate { candidates.append(p.songId) }
        let sounds = candidates.map { learned[$0]?.sound ?? sound }
        let lc = ListeningContext.allCases.firstIndex(of: replay.ranking.learningContext(ctx)) ?? 0
        let scores = candidates.map { id -> SongScore in
            let l = learned[id]
            let memory = SongMemory(inContext: l.flatMap { learner.state(song: $0.index, context: lc) },
                                    anyContext: l.flatMap { learner.anyContext(song: $0.index) }, plays: l?.plays ?? 0,
                                    contextPlays: l?.contextPlays[lc] ?? 0, contextKnownPlays: l?.keptPlays ?? 0,
                                    lastPlayedMs: l?.lastPlayedMs)
            return ranker.score(learned[id]?.sound ?? sound, memory: memory, state: s, hour: hour, now: p.startedAtMs)
        }
        let ranked = ranker.order(sounds, scores: scores, session: session.songs)
        let playedAt = ranked.firstIndex { candidates[$0.index] == p.songId } ?? 0
        let top = ranked.first?.index ?? 0
        let row = self.row(p, state: s, context: ctx, candidates: candidates, wasCandidate: wasCandidate, top: candidates[top],
                           mine: scores[candidates.firstIndex(of: p.songId) ?? 0],
                           playedScore: ranked[playedAt].adjusted, playedRank: playedAt + 1, topScore: ranked.first?.adjusted ?? 0)
        return Decision(row: row, receipts: DJReplay.receipt(row, pick: scores[top], sound: sounds[top], ranker: ranker), sound: sound)
    }

    /// The learned ΔHR or ΔRMSSD of song `id` in any context, nil before a play taught it.
    func predicted(_ id: String, _ key: KeyPath<EMAState, Double>, _ count: KeyPath<EMAState, Int>) -> Double? {
        guard let i = learned[id]?.index, let e = learner.anyContext(song: i), e[keyPath: count] > 0 else { return nil }
        return e[keyPath: key]
    }

    /// The decision row of `p`: the state, the played song's rank and score components
    /// (`mine`), the DJ's top pick and what each is predicted to do.
    func row(_ p: SessionPlayRow, state s: DJState, context ctx: DJContext, candidates: [String], wasCandidate: Bool, top: String, mine: SongScore,
             playedScore: Double, playedRank: Int, topScore: Double) -> DJDecisionRow {
        DJDecisionRow(
            subject: p.subject, playId: p.playId, startedAtMs: p.startedAtMs, songId: p.songId, context: ctx.rawValue,
            need: s.need.rawValue, arousal: s.arousal, stress: s.stress, energy: s.energy, confidence: s.confidence,
            targetBPM: mine.targetBPM, candidates: candidates.count, playedRank: playedRank, playedWasCandidate: wasCandidate,
            topSongId: top, playedScore: playedScore, topScore: topScore, bpmMatch: mine.bpmMatch,
            energyMatch: mine.energyMatch, familiarity: mine.familiarity, historicalEffect: mine.historicalEffect,
            contextAlignment: mine.contextAlignment, recencyPenalty: mine.recencyPenalty, timeOfDay: mine.timeOfDay,
            neutralTerms: mine.neutralTerms,
            predictedPlayedDeltaHRBpm: predicted(p.songId, \.hrDelta, \.hrPlays),
            predictedTopDeltaHRBpm: predicted(top, \.hrDelta, \.hrPlays),
            predictedPlayedDeltaRMSSDMs: predicted(p.songId, \.rmssdDelta, \.rmssdPlays),
            predictedTopDeltaRMSSDMs: predicted(top, \.rmssdDelta, \.rmssdPlays))
    }

    /// Learns from `p` after its decision: its effect only when its session was kept,
    /// under the session's context; its play, start and playlist always.
    mutating func learn(_ p: SessionPlayRow, sound: SongSound) {
        var l = learned[p.songId] ?? DJReplay.SongHistory(index: order.count, sound: sound)
        if learned[p.songId] == nil { order.append(p.songId) }
        if let kept = ListeningContext(rawValue: p.sessionContext), let sc = ListeningContext.allCases.firstIndex(of: kept) {
            learner.learn(LearnedPlay(p, impact: replay.impact), song: l.index, context: sc)
            l.contextPlays[sc] += 1
            l.keptPlays += 1
        }
        l.plays += 1
        l.lastPlayedMs = p.startedAtMs
        learned[p.songId] = l
        if playlistMembers[p.playlist, default: ([], [])].set.insert(p.songId).inserted {
            playlistMembers[p.playlist]?.order.append(p.songId)
        }
        session.songs.append(sound)
    }
}

/// The replay's usual energy (docs/engines/dj.md, State): the 30-s states of each play,
/// at its decision and every tick after it up to the play's end or the next play's
/// decision, at the play's local time; a local day's states join the pattern once a
/// later day's state or decision comes.
struct ReplayEnergyPattern {
    private var pattern: EnergyPattern
    private let constants: StateConstants
    private let stepMs: Int64, lookbackMs: Int64
    /// The local day in progress.
    private var day: Int64?
    /// The play whose later ticks are still to be counted: its last counted tick, its
    /// end, its UTC offset (ms), baseline and context.
    private var open: (tick: Int64, endMs: Int64, offsetMs: Int64, baseline: PersonalBaseline, context: DJContext)?

    init(constants: StateConstants, stepMs: Int64, lookbackMs: Int64) {
        pattern = EnergyPattern(constants: constants)
        self.constants = constants; self.stepMs = stepMs; self.lookbackMs = lookbackMs
    }

    /// Ends the day in progress when `localMs` falls on a later one.
    private mutating func reach(_ localMs: Int64) {
        let d = Timestamp.floorDivMod(localMs, ReplayPhysiology.dayMs).0
        if let day, d > day { pattern.endDay() }
        day = max(day ?? d, d)
    }

    /// The usual energy at the local time `localMs` of a decision.
    mutating func usual(localMs: Int64) -> Double? {
        reach(localMs)
        return pattern.usual(EnergyPattern.cell(localMs: localMs))
    }

    /// Counts a play's decision state `s` (unless its tick was counted already) and
    /// keeps the play open for its later ticks.
    mutating func decided(_ s: DJState, endMs: Int64, offsetMs: Int64, baseline: PersonalBaseline) {
        if open.map({ s.tMs > $0.tick }) ?? true { pattern.add(s, cell: EnergyPattern.cell(localMs: s.tMs + offsetMs)) }
        open = (max(s.tMs, open?.tick ?? s.tMs), endMs, offsetMs, baseline, s.context)
    }

    /// Counts the open play's states at its ticks before `limitMs`, up to its end.
    mutating func count(before limitMs: Int64, physiology: inout ReplayPhysiology, engine: DJStateEngine) throws {
        guard var play = open else { return }
        while play.tick + stepMs < limitMs, play.tick + stepMs <= play.endMs {
            play.tick += stepMs
            let t = play.tick
            try physiology.hold(fromMs: t - lookbackMs, throughMs: t)
            let s = engine.state(at: t, hr: physiology.hr, sdnn: physiology.sdnn,
                                 beatSDNNMs: physiology.beatSDNN(endingAt: t, seconds: constants.hrvWindowSeconds),
                                 baseline: play.baseline, context: play.context)
            reach(t + play.offsetMs)
            pattern.add(s, cell: EnergyPattern.cell(localMs: t + play.offsetMs))
        }
        open = play
    }
}

/// One row of `dj_replay_summary.csv` (docs/tables.md): a replay metric over every
/// decision, or over those of one need.
public struct DJReplaySummaryRow: Equatable, Sendable {
    public var need: String
    public var metric: String
    public var value: Double?
}

extension DJReplaySummaryRow: CanonicalRow {
    public static let fileName = "dj_replay_summary.csv"
    public static let header = ["need", "metric", "value"]

    public func write(to w: CSVWriter) {
        w.field(need); w.field(metric); w.field(value)
    }

    public init(_ r: CanonicalFieldReader) throws {
        self.init(need: try r.string("need"), metric: try r.string("metric"), value: try r.optionalDouble("value"))
    }
}

extension DJReplay {
    /// Per need and over all (`all`): decisions; the share whose played song is in the
    /// DJ's top 1, 5 and 10 with the played song added to the candidates
    /// (`top<k>_rate`) and over the candidates the DJ had without it
    /// (`top<k>_rate_without_added`: a played song that was no candidate is a miss); and the direct-method estimate — the mean of the learned
    /// ΔHR (bpm) and ΔRMSSD (ms) of the DJ's pick minus that of the played song, over the
    /// decisions where both songs have a learned value.
    public static func summary(_ rows: [DJDecisionRow]) -> [DJReplaySummaryRow] {
        var tally = SummaryTally()
        for r in rows { tally.add(r) }
        return tally.rows
    }

    /// The summary counted as the decisions come, in order, so that they need not be kept:
    /// per need (and all), the decisions, how often the played song was in the top 1, 5 and
    /// 10 (and, without the plays that added it, `_without_added`), the direct-method
    /// differences of the DJ's pick − the played song (their count and mean, summed in the
    /// decisions' order), and the played songs scored without features.
    public struct SummaryTally: Sendable {
        private struct Part: Sendable {
            var decisions = 0, top = [0, 0, 0], topWithoutAdded = [0, 0, 0], withoutFeatures = 0
            var hr = (n: 0, sum: 0.0), rmssd = (n: 0, sum: 0.0)
        }
        private static let needs = ["all"] + MusicNeed.allCases.map(\.rawValue)
        private static let tops = [1, 5, 10]
        private var parts = [Part](repeating: Part(), count: needs.count)

        public init() {}

        /// What the summary reads of one decision.
        public struct Entry: Sendable {
            let need: String, playedRank: Int, playedWasCandidate: Bool, neutralTerms: Int
            /// The DJ's pick − the played song, by the direct method.
            let hrDifference: Double?, rmssdDifference: Double?

            public init(_ r: DJDecisionRow) {
                need = r.need; playedRank = r.playedRank; playedWasCandidate = r.playedWasCandidate; neutralTerms = r.neutralTerms
                hrDifference = r.predictedTopDeltaHRBpm.flatMap { t in r.predictedPlayedDeltaHRBpm.map { t - $0 } }
                rmssdDifference = r.predictedTopDeltaRMSSDMs.flatMap { t in r.predictedPlayedDeltaRMSSDMs.map { t - $0 } }
            }
        }

        public mutating func add(_ r: DJDecisionRow) { add(Entry(r)) }

        public mutating func add(_ e: Entry) {
            add(e, to: 0)
            if let i = Self.needs.indices.dropFirst().first(where: { Self.needs[$0] == e.need }) { add(e, to: i) }
        }

        private mutating func add(_ e: Entry, to i: Int) {
            parts[i].decisions += 1
            for (k, top) in Self.tops.enumerated() where e.playedRank <= top {
                parts[i].top[k] += 1
                if e.playedWasCandidate { parts[i].topWithoutAdded[k] += 1 }
            }
            if let d = e.hrDifference { parts[i].hr.n += 1; parts[i].hr.sum += d }
            if let d = e.rmssdDifference { parts[i].rmssd.n += 1; parts[i].rmssd.sum += d }
            if e.neutralTerms == 2 { parts[i].withoutFeatures += 1 }
        }

        public var rows: [DJReplaySummaryRow] {
            var out: [DJReplaySummaryRow] = []
            for (need, p) in zip(Self.needs, parts) {
                let n = Double(p.decisions)
                out.append(DJReplaySummaryRow(need: need, metric: "decisions", value: n))
                for (k, top) in Self.tops.enumerated() {
                    out.append(DJReplaySummaryRow(need: need, metric: "top\(top)_rate", value: p.decisions == 0 ? nil : Double(p.top[k]) / n))
                    out.append(DJReplaySummaryRow(need: need, metric: "top\(top)_rate_without_added",
                                                  value: p.decisions == 0 ? nil : Double(p.topWithoutAdded[k]) / n))
                }
                out.append(DJReplaySummaryRow(need: need, metric: "dm_decisions_hr", value: Double(p.hr.n)))
                out.append(DJReplaySummaryRow(need: need, metric: "dm_delta_hr_bpm", value: p.hr.n == 0 ? nil : p.hr.sum / Double(p.hr.n)))
                out.append(DJReplaySummaryRow(need: need, metric: "dm_decisions_rmssd", value: Double(p.rmssd.n)))
                out.append(DJReplaySummaryRow(need: need, metric: "dm_delta_rmssd_ms",
                                              value: p.rmssd.n == 0 ? nil : p.rmssd.sum / Double(p.rmssd.n)))
                // Played songs without BPM and energy: both content terms scored neutral.
                out.append(DJReplaySummaryRow(need: need, metric: "played_without_features", value: Double(p.withoutFeatures)))
            }
            return out
        }
    }
}

/// `resonance dj replay WS`: the DJ's decision at every logged play (docs/dj.md, Replay).
public struct DJReplayStage: Stage {
    public var variant: StateVariant
    /// The listener's zone for plays without a UTC offset (`--tz`), as `SessionsStage`'s.
    public var timeZone: TimeZone?

    public init(variant: StateVariant = .specification, timeZone: TimeZone? = nil) {
        self.variant = variant; self.timeZone = timeZone
    }

    public var name: String { "dj replay" }
    public var version: String { "1.1.0" }
    public var reads: [String] {
        [SessionPlayRow.fileName, Play.fileName, HRSample.fileName, HRVSample.fileName, RRInterval.fileName, CombinedRR.fileName, Workout.fileName,
         SongFeatureRow.fileName, SubjectRow.fileName]
    }
    public var writes: [String] { [DJDecisionRow.fileName, DJReplaySummaryRow.fileName, DJReceiptRow.fileName] }
    public var engines: [String] { ["rr", "state", "ranking", "impact", "song_effect", "sessions"] }
    /// Song features are shared by every listener.
    public var perSubject: Bool { false }

    /// What a log without propensities cannot give (docs/dj.md, Off-policy evaluation).
    public static let noPolicyValue = "dj replay: these plays carry no propensities (the probability with which whoever chose each song "
        + "chose it), so no new policy's value can be estimated from them; the direct-method difference is the learned effects' "
        + "guess, not an estimate. Off-policy evaluation needs a log with propensities: `resonance dj simulate --log-propensities`, "
        + "then `resonance dj ope`."

    public func run(_ ws: Workspace, _ context: StageContext) throws {
        ws.session?.record(setting: "state_variant", variant.rawValue)
        let sessionPlays = try ws.subjectIndex(SessionPlayRow.self), playIndex = try ws.subjectIndex(Play.self)
        let hr = try ws.subjectIndex(HRSample.self), sdnn = try ws.subjectIndex(HRVSample.self)
        let rr = try ws.analysisRRIndex(), workouts = try ws.subjectIndex(Workout.self)
        let plausible = RRConstants(registry: context.registry)
        var features: [String: SongSound] = [:]
        for f in try ws.readIfPresent(SongFeatureRow.self) ?? [] {
            features[f.songId] = SongSound(songId: f.songId, artist: f.artist, genre: f.genre, bpm: f.bpm, energy: f.energy, valence: f.valence)
        }
        var birthYears: [String: Int] = [:]
        for r in try ws.readIfPresent(SubjectRow.self) ?? [] { if let y = r.birthYear { birthYears[r.subject] = y } }
        let replay = DJReplay(registry: context.registry, variant: variant)
        let clock = LocalClock(zone: timeZone)
        // Listeners in byte order, each read and replayed in its worker.
        let subjects = sessionPlays.subjects.sorted(by: SubjectOrder.precedes)
        let decisions = try ws.writer(DJDecisionRow.self), receipts = try ws.writer(DJReceiptRow.self)
        var tally = DJReplay.SummaryTally()
        try Parallel.forEach(subjects, jobs: context.jobs, { subject -> ([DJReplay.SummaryTally.Entry], EncodedRows, EncodedRows) in
            let mine = try sessionPlays.rows(SessionPlayRow.self, of: subject)
            // Each play's UTC offset by the sessions' clock: its own, else the zone's, else 0.
            var own: [String: Int] = [:]
            for p in try playIndex.rows(Play.self, of: subject) { own[p.playId] = Int((clock.localMs(p) - p.startedAtMs) / 60_000) }
            let sdnnSamples = try sdnn.rows(HRVSample.self, of: subject)
                .compactMap { s in s.sdnnMs.map { TimedSample(tMs: s.timestampMs, value: $0) } }.sorted { $0.tMs < $1.tMs }
            let workoutSpans = try workouts.rows(Workout.self, of: subject).map { ($0.startMs, $0.endMs) }
            // Heart rate and R-R are held forward in time as the decisions are made, and each
            // decision and its receipts are encoded as they are made; a subject whose rows go
            // back in time is read whole.
            func replayed(_ physiology: ReplayPhysiology) throws -> ([DJReplay.SummaryTally.Entry], EncodedRows, EncodedRows) {
                var physiology = physiology, entries: [DJReplay.SummaryTally.Entry] = [], receiptsPart: EncodedRows?
                let decisionsPart = try Workspace.encode { decisions in
                    receiptsPart = try Workspace.encode { receipts in
                        _ = try replay.listener(plays: mine, physiology: &physiology, workouts: workoutSpans, features: features,
                                                offsets: own, birthYear: birthYears[subject]) { row, rows in
                            row.write(to: decisions)
                            try decisions.endRow()
                            for r in rows { r.write(to: receipts); try receipts.endRow() }
                            entries.append(.init(row))
                        }
                    }
                }
                return (entries, decisionsPart, receiptsPart ?? EncodedRows(rows: 0, spilled: nil, bytes: []))
            }
            do {
                return try replayed(try .streamed(hr: hr, rr: rr, subject: subject, sdnn: sdnnSamples, plausible: plausible,
                                                  restingQuantile: replay.state.restingHRQuantile))
            } catch is OutOfOrder {
                let heart = try hr.series(HRSample.self, of: subject), beats = try rr.series(RRInterval.self, of: subject)
                return try replayed(.whole(
                    hr: zip(heart.timestampsMs, heart.values).map { TimedSample(tMs: $0.0, value: $0.1) }.sorted { $0.tMs < $1.tMs },
                    sdnn: sdnnSamples,
                    rr: zip(beats.timestampsMs, beats.values).filter { $0.1 >= plausible.rrMinMs && $0.1 <= plausible.rrMaxMs }
                        .map { TimedSample(tMs: $0.0, value: $0.1) }.sorted { $0.tMs < $1.tMs },
                    restingQuantile: replay.state.restingHRQuantile))
            }
        }, inOrder: { mine, decided, receipted in
            // The decisions are counted into the summary as they are written; the receipts only written.
            for r in mine { tally.add(r) }
            try decisions.append(decided)
            try receipts.append(receipted)
        })
        try decisions.commit()
        try receipts.commit()
        let summary = tally.rows
        try ws.write(summary)
        let all = summary.filter { $0.need == "all" }
        func value(_ m: String) -> String { all.first { $0.metric == m }?.value.map { String(format: "%.3f", $0) } ?? "–" }
        context.progress.note("dj replay: \(plural(decisions.rows, "decision")); played song in the DJ's top 1/5/10: \(value("top1_rate"))/"
            + "\(value("top5_rate"))/\(value("top10_rate")); direct-method ΔHR of the DJ's pick − the played song: \(value("dm_delta_hr_bpm")) bpm")
        context.warnings.note(DJReplayStage.noPolicyValue)
    }
}
