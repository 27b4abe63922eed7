import Foundation

/// What ranking knows of a song's sound: BPM, energy and valence (nil when unknown),
/// genre ("" when unknown) and artist.
public struct SongSound: Sendable, Equatable {
    public var songId: String
    public var artist: String
    public var genre: String
    public var bpm: Double?
    public var energy: Double?
    public var valence: Double?

    public init(songId: String, artist: String, genre: String, bpm: Double?, energy: Double?, valence: Double? = nil) {
        self.songId = songId; self.artist = artist; self.genre = genre; self.bpm = bpm; self.energy = energy; self.valence = valence
    }
}

/// What the listener's history says about one song at the moment of a decision, from
/// earlier plays only: the learned effect in the decision's context and over all
/// contexts, play counts (all and in the decision's context) and when it was last played.
public struct SongMemory: Sendable, Equatable {
    /// The EMA state of (song, decision context); nil when the song has no play in it.
    public var inContext: EMAState?
    /// The EMA state of the song over every context; nil when never played.
    public var anyContext: EMAState?
    /// Plays of the song (for familiarity), those in the decision's context, and
    /// those whose context is known (for context alignment).
    public var plays: Int
    public var contextPlays: Int
    public var contextKnownPlays: Int
    /// Epoch ms of the last play's start, nil when never played.
    public var lastPlayedMs: Int64?

    public init(inContext: EMAState? = nil, anyContext: EMAState? = nil, plays: Int = 0, contextPlays: Int = 0,
                contextKnownPlays: Int = 0, lastPlayedMs: Int64? = nil) {
        self.inContext = inContext; self.anyContext = anyContext; self.plays = plays; self.contextPlays = contextPlays
        self.contextKnownPlays = contextKnownPlays
        self.lastPlayedMs = lastPlayedMs
    }
}

/// Every component of one song's score (product specification, song score), each in
/// its own unit: the five terms in [0, 1] (familiarity up to its boost), the recency
/// penalty in [0, 1], the time-of-day score in [0, 1], and the final score.
public struct SongScore: Sendable, Equatable {
    public var songId: String
    public var targetBPM: Double
    public var bpmMatch: Double
    public var energyMatch: Double
    public var familiarity: Double
    public var historicalEffect: Double
    public var contextAlignment: Double
    public var recencyPenalty: Double
    public var timeOfDay: Double
    public var final: Double
    /// Terms scored neutral for want of a feature (BPM, energy).
    public var neutralTerms: Int
}

/// The AI DJ's song ranking (docs/engines/dj.md, Ranking).
public struct RankingEngine: Sendable {
    public let constants: RankingConstants

    public init(constants: RankingConstants = .defaults) {
        self.constants = constants
    }

    private var c: RankingConstants { constants }

    /// Target BPM (product specification, target BPM): the need's range interpolated by
    /// energy, − 10 when calm at arousal > 0.6, capped at 100 from 21:00 to 06:00,
    /// clamped to 50–180. `hour` is the local hour (0 ≤ h < 24).
    public func targetBPM(_ s: DJState, hour: Double) -> Double {
        let range = c.bpmRanges[MusicNeed.allCases.firstIndex(of: s.need) ?? 3]
        var target = range.lowerBound + s.energy * (range.upperBound - range.lowerBound)
        if s.need == .calm && s.arousal > c.calmArousalAbove { target -= c.calmArousalBPMDrop }
        if isNight(hour) { target = min(target, c.nightMaxBPM) }
        return clamp(target, c.targetBPMMin...c.targetBPMMax)
    }

    func isNight(_ hour: Double) -> Bool {
        c.nightStartHour > c.nightEndHour ? hour >= c.nightStartHour || hour < c.nightEndHour
            : hour >= c.nightStartHour && hour < c.nightEndHour
    }

    /// Target energy per need (the toolkit's choice; maintain keeps the state's energy).
    public func targetEnergy(_ s: DJState) -> Double {
        switch s.need {
        case .energize: return c.energizeTargetEnergy
        case .calm: return c.calmTargetEnergy
        case .focus: return c.focusTargetEnergy
        case .transition: return c.transitionTargetEnergy
        case .maintain: return s.energy
        }
    }

    /// Time-of-day score (the toolkit's choice): 1 when the song's BPM is at or below
    /// the hour's cap (100 at night, 120 in the morning until 09:00, none otherwise),
    /// max(0, 1 − (BPM − cap)/30) above it; 1 without a BPM.
    public func timeOfDay(bpm: Double?, hour: Double) -> Double {
        guard let bpm else { return 1 }
        let cap: Double? = isNight(hour) ? c.nightMaxBPM : hour < c.morningEndHour ? c.morningMaxBPM : nil
        guard let cap, bpm > cap else { return 1 }
        return max(0, 1 - (bpm - cap) / c.timeOfDayBPMTolerance)
    }

    /// The learned score of an effect for a need: calm → calm, energize → energy, focus
    /// → focus, maintain → mean of calm and energy, transition → 0.5; blended toward
    /// 0.5 by the effect's confidence. The effect is the (song, context) state when the
    /// song has a play in the context, else the song's state over all contexts.
    public func historicalEffect(_ m: SongMemory, need: MusicNeed) -> Double {
        guard let e = m.inContext ?? m.anyContext else { return 0.5 }
        let raw: Double
        switch need {
        case .calm: raw = e.scores.calm
        case .energize: raw = e.scores.energy
        case .focus: raw = e.scores.focus
        case .maintain: raw = (e.scores.calm + e.scores.energy) / 2
        case .transition: raw = 0.5
        }
        return 0.5 + e.confidence * (raw - 0.5)
    }

    /// Recency penalty: 1 − minutes/60 for a song started within the last 60 minutes.
    public func recency(lastPlayedMs: Int64?, now: Int64) -> Double {
        guard let last = lastPlayedMs, c.recencyMinutes > 0 else { return 0 }
        let minutes = Double(now - last) / 60_000
        return minutes >= 0 && minutes < c.recencyMinutes ? 1 - minutes / c.recencyMinutes : 0
    }

    /// The score of `song` for the listener in state `s` at local `hour`.
    public func score(_ song: SongSound, memory m: SongMemory, state s: DJState, hour: Double, now: Int64) -> SongScore {
        let target = targetBPM(s, hour: hour)
        var neutral = 0
        let bpmMatch: Double
        if let bpm = song.bpm { bpmMatch = max(0, 1 - abs(bpm - target) / c.bpmTolerance) } else { bpmMatch = c.neutralScore; neutral += 1 }
        let energyMatch: Double
        if let e = song.energy { energyMatch = 1 - abs(e - targetEnergy(s)) } else { energyMatch = c.neutralScore; neutral += 1 }
        // The focus boost replaces the stress boost (the specification assigns it second).
        var boost = 1.0
        if s.stress > c.stressFamiliarityAbove { boost = c.stressFamiliarityBoost }
        if s.need == .focus { boost = c.focusFamiliarityBoost }
        let familiarity = min(1, Double(m.plays) / c.familiarFullPlays) * boost
        let history = historicalEffect(m, need: s.need)
        let alignment = (Double(m.contextPlays) + c.contextPriorPlays * 0.5) / (Double(m.contextKnownPlays) + c.contextPriorPlays)
        let recencyPenalty = recency(lastPlayedMs: m.lastPlayedMs, now: now)
        let tod = timeOfDay(bpm: song.bpm, hour: hour)
        let weighted = c.bpmWeight * bpmMatch + c.energyWeight * energyMatch + c.familiarityWeight * familiarity
            + c.historicalWeight * history + c.contextWeight * (alignment.isFinite ? alignment : 0.5)
            - c.recencyWeight * recencyPenalty
        let final = weighted * (c.timeOfDayFloor + (1 - c.timeOfDayFloor) * tod)
        return SongScore(songId: song.songId, targetBPM: target, bpmMatch: bpmMatch, energyMatch: energyMatch,
                         familiarity: familiarity, historicalEffect: history,
                         contextAlignment: alignment.isFinite ? alignment : 0.5, recencyPenalty: recencyPenalty,
                         timeOfDay: tod, final: final, neutralTerms: neutral)
    }

    /// Transition score from `from` to `to` (product specification, transition control):
    /// 0.4·max(0, 1 − ΔBPM/30) + 0.4·max(0, 1 − Δenergy/0.4) + 0.1 for a shared genre;
    /// a smoothness whose feature is missing on either side is neutral.
    public func transition(from: SongSound, to: SongSound) -> Double {
        let bpm = from.bpm.flatMap { a in to.bpm.map { b in max(0, 1 - abs(a - b) / c.transitionBPMTolerance) } } ?? c.neutralScore
        let energy = from.energy.flatMap { a in to.energy.map { b in max(0, 1 - abs(a - b) / c.transitionEnergyTolerance) } }
            ?? c.neutralScore
        let genre = !from.genre.isEmpty && from.genre == to.genre ? c.transitionGenreBonus : 0
        return c.transitionBPMWeight * bpm + c.transitionEnergyWeight * energy + genre
    }

    /// Final score × (0.7 + 0.3·t), t the transition score from the session's last song.
    public func adjusted(_ score: Double, transition t: Double) -> Double {
        score * (c.transitionBase + (1 - c.transitionBase) * t)
    }

    /// Whether playing `artist` after `history` (the session's songs, oldest first) would
    /// put more than `max_same_artist_in_row` songs of one artist in a row; an unknown
    /// artist ("") matches none unless `unknown_artist_matches`.
    public func breaksArtistRule(_ artist: String, after history: [SongSound]) -> Bool {
        let limit = Int(c.maxSameArtistInRow)
        guard history.count >= limit, !artist.isEmpty || c.unknownArtistMatches >= 0.5 else { return false }
        return history.suffix(limit).allSatisfy { $0.artist == artist }
    }

    /// The order in which the DJ would play `candidates` next: by transition-adjusted
    /// score (the plain score for a session's first song), highest first, ties by song
    /// id; songs that would break the same-artist rule go after every other song.
    /// Returns indices into `candidates` and each one's adjusted score.
    public func order(_ candidates: [SongSound], scores: [SongScore], session: [SongSound]) -> [(index: Int, adjusted: Double)] {
        let last = session.last
        let ranked = candidates.indices.map { i -> (index: Int, adjusted: Double, blocked: Bool) in
            let value = last.map { self.adjusted(scores[i].final, transition: transition(from: $0, to: candidates[i])) } ?? scores[i].final
            return (i, value, breaksArtistRule(candidates[i].artist, after: session))
        }
        return ranked.sorted { a, b in
            if a.blocked != b.blocked { return !a.blocked }
            if a.adjusted != b.adjusted { return a.adjusted > b.adjusted }
            return candidates[a.index].songId.utf8.lexicographicallyPrecedes(candidates[b.index].songId.utf8)
        }.map { ($0.index, $0.adjusted) }
    }
}
