import XCTest
@testable import ResonanceLab

/// The product's skip: less than 30 % of the song heard; the export's flag kept beside it.
final class SkipRuleTests: XCTestCase {
    func timed(_ p: Play) -> TimedPlay {
        var counts = PlayCleaningCounts()
        return PlayTiming.resolve([p], counts: &counts)[0]
    }

    func testQuarterPlayWithoutFlagIsASkipAndLateFlaggedPlayIsNot() throws {
        let c = SessionConstants.defaults
        // 50 of 200 s = 25 % heard, the export says not skipped: a skip by the product's rule.
        let quarter = timed(play("q", "2022-02-07T20:00:00.000Z", "2022-02-07T20:00:50.000Z", media: 200, played: 50))
        XCTAssertEqual(quarter.listenFraction, 0.25)
        XCTAssertTrue(quarter.skipped(c))
        // 180 of 200 s = 90 % heard, the export's skip flag set: not a skip by the rule …
        let late = timed(play("l", "2022-02-07T20:10:00.000Z", "2022-02-07T20:13:00.000Z", media: 200, played: 180, skipped: true))
        XCTAssertFalse(late.skipped(c))
        // … a skip under the variant in which the export's flag counts.
        XCTAssertTrue(late.skipped(try SessionConstants(replacing: ["skip_export_flag_counts": 1])))
        // Without a media duration the fraction is unknown: the export's flag decides.
        let unknown = timed(play("u", "2022-02-07T20:20:00.000Z", "2022-02-07T20:20:30.000Z", media: nil, played: 30, skipped: true))
        XCTAssertTrue(unknown.skipped(c))
    }

    func testSessionPlaysCarryTheRuleAndTheExportFlag() throws {
        let plays = [
            play("q", "2022-02-07T20:00:00.000Z", "2022-02-07T20:00:50.000Z", song: "s1", media: 200, played: 50),
            play("l", "2022-02-07T20:01:00.000Z", "2022-02-07T20:04:00.000Z", song: "s2", media: 200, played: 180, skipped: true),
            play("f", "2022-02-07T20:04:00.000Z", "2022-02-07T20:07:20.000Z", song: "s3", media: 200, played: 200),
        ]
        let out = try SessionsStage.run(plays: plays, hr: [], nn: [:], sdnn: [], sleep: [], workouts: [], constants: .defaults)
        XCTAssertEqual(out.plays.map(\.skipped), [true, false, false])
        XCTAssertEqual(out.plays.map(\.exportSkipped), [false, true, false])
        // The session counts skips by the rule: 1 of 3.
        XCTAssertEqual(out.sessions.map(\.skips), [1])
        // And the impact penalty follows the rule: 25 % heard is a late skip (≥ 15 %):
        // calm = energy = 0.5 + (0.25 − 0.5)·0.2 − 0.15 = 0.3.
        let q = out.plays[0]
        let scores = Impact.of(hrDeltaBpm: nil, hrvDeltaMs: nil, listenFraction: q.listenFraction ?? .nan, skipped: q.skipped,
                               constants: .defaults)
        XCTAssertEqual(scores.calm, 0.3, accuracy: 1e-12)
    }

    /// Spotify and Last.fm give no song length: the listened fraction is unknown, so the
    /// tables leave it empty (not 1), while the session score takes the plays as heard in full.
    func testUnknownSongLengthLeavesTheListenedFractionEmpty() throws {
        let plays = [
            play("a", "2022-02-07T20:00:00.000Z", "2022-02-07T20:00:50.000Z", song: "s1", media: nil, played: 50, skipped: true),
            play("b", "2022-02-07T20:01:00.000Z", "2022-02-07T20:06:00.000Z", song: "s2", media: nil, played: 300),
        ]
        let out = try SessionsStage.run(plays: plays, hr: [], nn: [:], sdnn: [], sleep: [], workouts: [], constants: .defaults)
        XCTAssertEqual(out.plays.map(\.listenFraction), [nil, nil])
        XCTAssertEqual(out.plays.map(\.skipped), [true, false], "the export's flag decides")
        XCTAssertEqual(out.sessions.map(\.avgListen), [nil])
        let c = SessionConstants.defaults
        XCTAssertEqual(out.sessions[0].sessionScore,
                       SessionScore.score(skipRate: 0.5, hrvDeltaMs: nil, avgListen: 1, sleepScore: nil, constants: c), accuracy: 1e-12)
        // One play of known length among them: the mean over the known ones.
        let mixed = try SessionsStage.run(plays: plays + [play("c", "2022-02-07T20:06:10.000Z", "2022-02-07T20:07:50.000Z",
                                                               song: "s3", media: 200, played: 100)],
                                          hr: [], nn: [:], sdnn: [], sleep: [], workouts: [], constants: .defaults)
        XCTAssertEqual(mixed.sessions.map(\.avgListen), [0.5])
    }
}
