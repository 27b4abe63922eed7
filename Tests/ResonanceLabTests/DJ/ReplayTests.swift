import XCTest
@testable import ResonanceLab

/// Replay on logged listening: no look-ahead, ranks and the summary's hit rates.
final class ReplayTests: XCTestCase {
    let t0: Int64 = 20458 * 86_400_000 + 14 * 3_600_000

    func play(_ i: Int, song: String, hrDelta: Double, playlist: String = "") -> SessionPlayRow {
        let start = t0 + Int64(i) * 240_000
        return SessionPlayRow(subject: "L", sessionId: "L-1", playId: "p\(i)", songId: song,
                              biometrics: WindowBiometrics(hrStart: 70, hrEnd: 70 + hrDelta, hrvStart: 40, hrvEnd: 40,
                                                           hrvSource: "rr", notes: []),
                              quality: "ok", playlist: playlist, startedAtMs: start, endedAtMs: start + 200_000, playedS: 200,
                              listenFraction: 1, skipped: false, context: "relaxation", timeSlot: "afternoon")
    }

    func replay(_ plays: [SessionPlayRow]) -> [DJDecisionRow] {
        let hr = (0..<400).map { TimedSample(tMs: t0 - 600_000 + Int64($0) * 5000, value: 75) }
        return DJReplay(registry: .defaults).listener(plays: plays, hr: hr, sdnn: [], workouts: [], features: [:], offsets: [:]).decisions
    }

    func testAnEffectLearnedAfterAPlayNeverChangesItsDecision() {
        let plays = [play(0, song: "a", hrDelta: -4), play(1, song: "b", hrDelta: 3), play(2, song: "a", hrDelta: -2),
                     play(3, song: "b", hrDelta: 1), play(4, song: "b", hrDelta: 0)]
        let base = replay(plays)
        XCTAssertEqual(base.count, 5)
        // Change what the last two plays teach, and add a later play of a new song.
        var changed = plays
        changed[3].biometrics.hrEnd = 90
        changed[4].biometrics.hrEnd = 40
        changed.append(play(5, song: "d", hrDelta: -9))
        let after = replay(changed)
        XCTAssertEqual(Array(after.prefix(4)), Array(base.prefix(4)), "decisions up to play 3 see nothing of plays 3 and later")
        XCTAssertNotEqual(after[4], base[4], "play 4's decision does see what play 3 taught")
    }

    func testCandidatesAreEarlierSongsAndThePlayedOne() {
        let rows = replay([play(0, song: "a", hrDelta: -4), play(1, song: "b", hrDelta: 3), play(2, song: "a", hrDelta: -2)])
        XCTAssertEqual(rows.map(\.candidates), [1, 2, 2])
        XCTAssertEqual(rows[0].playedRank, 1)
        XCTAssertNil(rows[0].predictedPlayedDeltaHRBpm, "nothing learned before the first play")
        XCTAssertEqual(rows[2].predictedPlayedDeltaHRBpm ?? .nan, 0.4 * -4, accuracy: 1e-12, "EMA from 0 with α 0.4, play 0 only")
        // Play 2 (song a, started 8 min after a's first play) carries its recency penalty.
        XCTAssertEqual(rows[2].recencyPenalty, 1 - 8.0 / 60, accuracy: 1e-12)
        // Playlists limit candidates to earlier songs of the same playlist.
        let listed = replay([play(0, song: "a", hrDelta: 0, playlist: "P"), play(1, song: "b", hrDelta: 0, playlist: "Q"),
                             play(2, song: "c", hrDelta: 0, playlist: "P")])
        XCTAssertEqual(listed.map(\.candidates), [1, 1, 2])
    }

    func testSummaryHitRates() {
        func row(_ rank: Int, _ need: String, top: Double?, played: Double?, neutral: Int = 0) -> DJDecisionRow {
            DJDecisionRow(subject: "L", playId: "p", startedAtMs: 0, songId: "s", context: "work", need: need, arousal: 0, stress: 0,
                          energy: 0, confidence: 0, targetBPM: 100, candidates: 20, playedRank: rank, topSongId: "t", playedScore: 0,
                          topScore: 0, bpmMatch: 0, energyMatch: 0, familiarity: 0, historicalEffect: 0, contextAlignment: 0,
                          recencyPenalty: 0, timeOfDay: 1, neutralTerms: neutral, predictedPlayedDeltaHRBpm: played,
                          predictedTopDeltaHRBpm: top, predictedPlayedDeltaRMSSDMs: nil, predictedTopDeltaRMSSDMs: nil)
        }
        let s = DJReplay.summary([row(1, "calm", top: -3, played: -3), row(4, "calm", top: -5, played: -1),
                                  row(7, "maintain", top: 1, played: nil, neutral: 2),
                                  row(12, "maintain", top: nil, played: nil, neutral: 1)])
        func v(_ need: String, _ m: String) -> Double? { s.first { $0.need == need && $0.metric == m }?.value }
        XCTAssertEqual(v("all", "top1_rate"), 0.25)
        XCTAssertEqual(v("all", "top5_rate"), 0.5)
        XCTAssertEqual(v("all", "top10_rate"), 0.75)
        XCTAssertEqual(v("all", "dm_delta_hr_bpm"), -2, "mean of (−3 − −3) and (−5 − −1)")
        XCTAssertEqual(v("calm", "top5_rate"), 1)
        XCTAssertNil(v("maintain", "dm_delta_hr_bpm"))
        XCTAssertNil(v("focus", "top1_rate"))
        // Only the play whose song had neither BPM nor energy (both terms neutral) counts.
        XCTAssertEqual(v("all", "played_without_features"), 1)
        XCTAssertEqual(v("calm", "played_without_features"), 0)
    }
}
