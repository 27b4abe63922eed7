import XCTest
@testable import ResonanceLab

/// The receipt of a replayed DJ decision: the pick's score drivers, worked by hand.
final class DJReceiptsTests: XCTestCase {
    let pick = SongScore(songId: "s1", targetBPM: 100, bpmMatch: 0.8, energyMatch: 0.6, familiarity: 0.2, historicalEffect: 0.5,
                         contextAlignment: 0.7, recencyPenalty: 0.5, timeOfDay: 1, final: 0.32, neutralTerms: 0)
    let sound = SongSound(songId: "s1", artist: "A", genre: "pop", bpm: 110, energy: 0.4)

    func testDriversArePointsFromTheNeutralScoreLargestFirst() {
        let d = RankingEngine().drivers(pick, sound: sound)
        // Points: weight × (term − 0.5); recency −0.5 × penalty. |−0.25| > 0.05 > 0.045 = |−0.045| (name order) > 0.02 > 0.
        XCTAssertEqual(d.map(\.name), ["recency_penalty", "context_alignment", "bpm_match", "familiarity", "energy_match",
                                       "historical_effect"])
        XCTAssertEqual(d.map(\.points), [-0.25, 0.25 * 0.2, 0.15 * 0.3, 0.15 * -0.3, 0.20 * 0.1, 0], accuracy: 1e-12)
        XCTAssertEqual(d[2].raw, 110)
        XCTAssertEqual(d[2].comparedWith, "target 100.0 bpm")
        XCTAssertEqual(d[0].direction, "lowers")
    }

    func testRecencyIsNoDriverWithoutAPenalty() {
        var fresh = pick
        fresh.recencyPenalty = 0
        XCTAssertFalse(RankingEngine().drivers(fresh, sound: sound).map(\.name).contains("recency_penalty"))
    }

    func testReceiptNamesThePickAndItsTopThreeDrivers() throws {
        let row = DJDecisionRow(subject: "L", playId: "p7", startedAtMs: 0, songId: "s9", context: "work", need: "calm", arousal: 0.4,
                                stress: 0.8, energy: 0.3, confidence: 0.75, targetBPM: 100, candidates: 5, playedRank: 3, playedWasCandidate: true,
                                topSongId: "s1", playedScore: 0.2, topScore: 0.32, bpmMatch: 0, energyMatch: 0, familiarity: 0,
                                historicalEffect: 0, contextAlignment: 0, recencyPenalty: 0, timeOfDay: 1, neutralTerms: 0,
                                predictedPlayedDeltaHRBpm: nil, predictedTopDeltaHRBpm: nil, predictedPlayedDeltaRMSSDMs: nil,
                                predictedTopDeltaRMSSDMs: nil)
        let r = DJReplay.receipt(row, pick: pick, sound: sound, ranker: RankingEngine()).map(\.receipt)
        XCTAssertEqual(r.count, 3)
        XCTAssertEqual(Set(r.map(\.key)), ["p7"])
        XCTAssertEqual(Set(r.map(\.decision)), ["s1"])
        XCTAssertEqual(r.map(\.engine), ["ranking", "ranking", "ranking"])
        XCTAssertEqual(r.map(\.factor), ["recency_penalty", "context_alignment", "bpm_match"])
        XCTAssertEqual(r.first?.confidence, 0.75)
        // Weighted score 0.15·0.8 + 0.20·0.6 + 0.15·0.2 + 0.25·0.5 + 0.25·0.7 = 0.57; context's share 0.175 / 0.57.
        XCTAssertEqual(r[1].share ?? .nan, 0.175 / 0.57, accuracy: 1e-12)
    }
}
