import XCTest
@testable import ResonanceLab

/// Known answers of the ranking: target BPM at every boundary, hand-worked scores,
/// familiarity boosts, recency, time of day, transitions and the same-artist rule (the
/// product specification's decision tests are in `AIDJDecisionConformanceTests`).
final class RankingTests: XCTestCase {
    let ranker = RankingEngine()

    func state(_ need: MusicNeed, arousal: Double = 0.3, stress: Double = 0.4, energy: Double = 0.5) -> DJState {
        DJState(tMs: 0, arousal: arousal, stress: stress, energy: energy, focus: 0.5, valence: 0.5, arousalConfidence: 1,
                stressConfidence: 1, confidence: 1, context: .relaxation, need: need, hrSamples: 10, sdnnSamples: 5)
    }

    func testTargetBPMAtEachBoundary() {
        let ranges: [(MusicNeed, Double, Double)] = [(.energize, 120, 160), (.calm, 60, 90), (.focus, 80, 110), (.maintain, 90, 130),
                                                    (.transition, 100, 120)]
        for (need, low, high) in ranges {
            XCTAssertEqual(ranker.targetBPM(state(need, energy: 0), hour: 12), low, accuracy: 1e-12, need.rawValue)
            XCTAssertEqual(ranker.targetBPM(state(need, energy: 1), hour: 12), high, accuracy: 1e-12, need.rawValue)
            XCTAssertEqual(ranker.targetBPM(state(need, energy: 0.25), hour: 12), low + 0.25 * (high - low), accuracy: 1e-12)
        }
        // Calm: − 10 only above arousal 0.6.
        XCTAssertEqual(ranker.targetBPM(state(.calm, arousal: 0.6, energy: 0.5), hour: 12), 75, accuracy: 1e-12)
        XCTAssertEqual(ranker.targetBPM(state(.calm, arousal: 0.61, energy: 0.5), hour: 12), 65, accuracy: 1e-12)
        XCTAssertEqual(ranker.targetBPM(state(.energize, arousal: 0.9, energy: 0.5), hour: 12), 140, accuracy: 1e-12)
        // Night cap 100 from 21:00 to before 06:00.
        XCTAssertEqual(ranker.targetBPM(state(.maintain, energy: 1), hour: 20.99), 130, accuracy: 1e-12)
        XCTAssertEqual(ranker.targetBPM(state(.maintain, energy: 1), hour: 21), 100, accuracy: 1e-12)
        XCTAssertEqual(ranker.targetBPM(state(.maintain, energy: 1), hour: 5.99), 100, accuracy: 1e-12)
        XCTAssertEqual(ranker.targetBPM(state(.maintain, energy: 1), hour: 6), 130, accuracy: 1e-12)
        XCTAssertEqual(ranker.targetBPM(state(.calm, energy: 0.2), hour: 23), 66, accuracy: 1e-12, "below the cap: unchanged")
    }

    func testTargetBPMIsClampedTo50Through180() throws {
        let wide = RankingEngine(constants: try RankingConstants(replacing: ["calm_bpm_min": 40, "energize_bpm_max": 200]))
        XCTAssertEqual(wide.targetBPM(state(.calm, arousal: 0.9, energy: 0), hour: 12), 50, "40 − 10 → 50")
        XCTAssertEqual(wide.targetBPM(state(.energize, energy: 1), hour: 12), 180, "200 → 180")
        XCTAssertEqual(ranker.targetBPM(state(.calm, arousal: 0.9, energy: 0), hour: 12), 50, "60 − 10 = 50 exactly")
    }

    func memory(confidence: Double = 0.5, lastPlayedMs: Int64? = -1_800_000) -> SongMemory {
        var e = EMAState(constants: .defaults)
        e.scores = PlayScores(calm: 0.7, energy: 0.5, focus: 0.6, moodLift: 0.5)
        e.confidence = confidence
        return SongMemory(inContext: nil, anyContext: e, plays: 5, contextPlays: 2, contextKnownPlays: 4, lastPlayedMs: lastPlayedMs)
    }

    func testHandWorkedScore() {
        // Maintain at energy 0.5: target 110 BPM, target energy 0.5. Song 100 BPM, energy 0.6.
        // BPM 1 − 10/50 = 0.8; energy 0.9; familiarity 5/10 = 0.5; history (0.7 + 0.5)/2 = 0.6
        // blended 0.5 + 0.5·0.1 = 0.55; context (2 + 1)/(4 + 2) = 0.5; recency 1 − 30/60 = 0.5.
        // 0.12 + 0.18 + 0.075 + 0.1375 + 0.125 − 0.25 = 0.3875; time of day 1 → × 1.
        let song = SongSound(songId: "a", artist: "X", genre: "pop", bpm: 100, energy: 0.6)
        let s = ranker.score(song, memory: memory(), state: state(.maintain), hour: 14, now: 0)
        XCTAssertEqual(s.targetBPM, 110, accuracy: 1e-12)
        XCTAssertEqual(s.bpmMatch, 0.8, accuracy: 1e-12)
        XCTAssertEqual(s.energyMatch, 0.9, accuracy: 1e-12)
        XCTAssertEqual(s.familiarity, 0.5, accuracy: 1e-12)
        XCTAssertEqual(s.historicalEffect, 0.55, accuracy: 1e-12)
        XCTAssertEqual(s.contextAlignment, 0.5, accuracy: 1e-12)
        XCTAssertEqual(s.recencyPenalty, 0.5, accuracy: 1e-12)
        XCTAssertEqual(s.timeOfDay, 1)
        XCTAssertEqual(s.final, 0.3875, accuracy: 1e-12)
        XCTAssertEqual(s.neutralTerms, 0)
        // At 22:00 the target is capped at 100: BPM match 1 → 0.4175.
        XCTAssertEqual(ranker.score(song, memory: memory(), state: state(.maintain), hour: 22, now: 0).final, 0.4175, accuracy: 1e-12)
        // 130 BPM at 22:00: BPM match 0.4, time of day 1 − 30/30 = 0 → × 0.5: 0.3275·0.5.
        let fast = SongSound(songId: "b", artist: "X", genre: "pop", bpm: 130, energy: 0.6)
        XCTAssertEqual(ranker.score(fast, memory: memory(), state: state(.maintain), hour: 22, now: 0).final, 0.16375, accuracy: 1e-12)
    }

    func testUnknownFeaturesAreNeutralAndCounted() {
        let song = SongSound(songId: "a", artist: "X", genre: "", bpm: nil, energy: nil)
        let s = ranker.score(song, memory: SongMemory(), state: state(.calm), hour: 23, now: 0)
        XCTAssertEqual(s.bpmMatch, 0.5); XCTAssertEqual(s.energyMatch, 0.5); XCTAssertEqual(s.timeOfDay, 1)
        XCTAssertEqual(s.neutralTerms, 2)
        // No history: familiarity 0, effect 0.5, context (0 + 1)/(0 + 2) = 0.5.
        XCTAssertEqual(s.final, 0.15 * 0.5 + 0.2 * 0.5 + 0 + 0.25 * 0.5 + 0.25 * 0.5, accuracy: 1e-12)
    }

    func testFamiliarityBoostsReplaceEachOther() {
        let song = SongSound(songId: "a", artist: "X", genre: "", bpm: nil, energy: nil)
        func familiarity(_ s: DJState) -> Double { ranker.score(song, memory: memory(), state: s, hour: 12, now: 0).familiarity }
        XCTAssertEqual(familiarity(state(.maintain, stress: 0.6)), 0.5, accuracy: 1e-12, "stress must exceed 0.6")
        XCTAssertEqual(familiarity(state(.maintain, stress: 0.61)), 0.65, accuracy: 1e-12)
        XCTAssertEqual(familiarity(state(.focus, stress: 0.61)), 0.6, accuracy: 1e-12, "focus replaces the stress boost")
        XCTAssertEqual(familiarity(state(.focus, stress: 0.1)), 0.6, accuracy: 1e-12)
    }

    func testHistoricalEffectPerNeed() {
        let m = memory(confidence: 1)
        XCTAssertEqual(ranker.historicalEffect(m, need: .calm), 0.7, accuracy: 1e-12)
        XCTAssertEqual(ranker.historicalEffect(m, need: .energize), 0.5, accuracy: 1e-12)
        XCTAssertEqual(ranker.historicalEffect(m, need: .focus), 0.6, accuracy: 1e-12)
        XCTAssertEqual(ranker.historicalEffect(m, need: .maintain), 0.6, accuracy: 1e-12)
        XCTAssertEqual(ranker.historicalEffect(m, need: .transition), 0.5, accuracy: 1e-12)
        XCTAssertEqual(ranker.historicalEffect(memory(confidence: 0.25), need: .calm), 0.55, accuracy: 1e-12)
        // The (song, context) state wins over the song's state over all contexts.
        var inContext = EMAState(constants: .defaults)
        inContext.scores.calm = 0.1; inContext.confidence = 1
        var both = m
        both.inContext = inContext
        XCTAssertEqual(ranker.historicalEffect(both, need: .calm), 0.1, accuracy: 1e-12)
    }

    func testRecencyWithinSixtyMinutes() {
        XCTAssertEqual(ranker.recency(lastPlayedMs: 0, now: 0), 1)
        XCTAssertEqual(ranker.recency(lastPlayedMs: 0, now: 59 * 60_000), 1.0 / 60, accuracy: 1e-12)
        XCTAssertEqual(ranker.recency(lastPlayedMs: 0, now: 60 * 60_000), 0)
        XCTAssertEqual(ranker.recency(lastPlayedMs: nil, now: 0), 0)
    }

    func testTimeOfDayScore() {
        XCTAssertEqual(ranker.timeOfDay(bpm: 130, hour: 8), 1 - 10.0 / 30, accuracy: 1e-12, "morning cap 120")
        XCTAssertEqual(ranker.timeOfDay(bpm: 130, hour: 9), 1, "no cap from 09:00 to 21:00")
        XCTAssertEqual(ranker.timeOfDay(bpm: 100, hour: 23), 1)
        XCTAssertEqual(ranker.timeOfDay(bpm: 115, hour: 2), 0.5, accuracy: 1e-12)
        XCTAssertEqual(ranker.timeOfDay(bpm: 140, hour: 2), 0)
    }

    func testTransitionFactor() {
        let from = SongSound(songId: "a", artist: "X", genre: "pop", bpm: 100, energy: 0.5)
        let to = SongSound(songId: "b", artist: "Y", genre: "pop", bpm: 115, energy: 0.6)
        // 0.4·(1 − 15/30) + 0.4·(1 − 0.1/0.4) + 0.1 = 0.2 + 0.3 + 0.1.
        XCTAssertEqual(ranker.transition(from: from, to: to), 0.6, accuracy: 1e-12)
        XCTAssertEqual(ranker.adjusted(0.5, transition: 0.6), 0.5 * (0.7 + 0.18), accuracy: 1e-12)
        var far = to
        far.bpm = 160; far.energy = 1; far.genre = "rock"
        XCTAssertEqual(ranker.transition(from: from, to: far), 0, accuracy: 1e-12)
        // The specification's example: 100 → 110 is smoother than 100 → 160.
        let near = SongSound(songId: "c", artist: "Y", genre: "", bpm: 110, energy: 0.5)
        let jump = SongSound(songId: "d", artist: "Y", genre: "", bpm: 160, energy: 0.5)
        XCTAssertEqual(ranker.transition(from: from, to: near), 0.4 * 2 / 3 + 0.4, accuracy: 1e-12)
        XCTAssertGreaterThan(ranker.transition(from: from, to: near), ranker.transition(from: from, to: jump))
    }

    func testAtMostTwoOfOneArtistInARow() throws {
        let a1 = SongSound(songId: "a1", artist: "A", genre: "", bpm: 100, energy: 0.5)
        let a2 = SongSound(songId: "a2", artist: "A", genre: "", bpm: 100, energy: 0.5)
        let b = SongSound(songId: "b", artist: "B", genre: "", bpm: 100, energy: 0.5)
        XCTAssertFalse(ranker.breaksArtistRule("A", after: [a1]))
        XCTAssertTrue(ranker.breaksArtistRule("A", after: [a1, a2]))
        XCTAssertFalse(ranker.breaksArtistRule("A", after: [a1, b]))
        XCTAssertFalse(ranker.breaksArtistRule("A", after: [a1, b, a2]))
        // An unknown artist matches no song: three songs without an artist may follow each other.
        let u1 = SongSound(songId: "u1", artist: "", genre: "", bpm: 100, energy: 0.5)
        let u2 = SongSound(songId: "u2", artist: "", genre: "", bpm: 100, energy: 0.5)
        XCTAssertFalse(ranker.breaksArtistRule("", after: [u1, u2]))
        let same = RankingEngine(constants: RankingConstants(registry: try ConstantsRegistry.defaults.replacing(
            "ranking", with: ["unknown_artist_matches": 1])))
        XCTAssertTrue(same.breaksArtistRule("", after: [u1, u2]), "unless unknown artists count as one")
        let a3 = SongSound(songId: "a3", artist: "A", genre: "", bpm: 100, energy: 0.5)
        let scores = [a3, b].map { SongScore(songId: $0.songId, targetBPM: 100, bpmMatch: 1, energyMatch: 1, familiarity: 0,
                                             historicalEffect: 0.5, contextAlignment: 0.5, recencyPenalty: 0, timeOfDay: 1,
                                             final: $0.artist == "A" ? 0.9 : 0.2, neutralTerms: 0) }
        XCTAssertEqual(ranker.order([a3, b], scores: scores, session: [a1, a2]).map(\.index), [1, 0], "A would be the third in a row")
        XCTAssertEqual(ranker.order([a3, b], scores: scores, session: [a1]).map(\.index), [0, 1])
        XCTAssertEqual(ranker.order([a3], scores: [scores[0]], session: [a1, a2]).map(\.index), [0], "alone, it is still played")
    }
}
