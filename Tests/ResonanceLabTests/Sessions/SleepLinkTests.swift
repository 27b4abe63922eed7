import XCTest
@testable import ResonanceLab

final class SleepLinkTests: XCTestCase {
    let c = SessionConstants.defaults

    func stage(_ start: String, _ end: String, _ s: SleepStage) -> SleepEpisode {
        SleepEpisode(subject: "u1", startMs: ms(start), endMs: ms(end), stage: s)
    }

    func testNapIsIgnoredAndTheNightIsScored() {
        let episodes = [
            // A 1 h nap at 15:00 (< 3 h): ignored.
            stage("2022-02-07T15:00:00.000Z", "2022-02-07T16:00:00.000Z", .asleep),
            // The night: 23:00–05:00 core (6 h) + 05:00–06:00 deep (1 h), contiguous.
            stage("2022-02-07T23:00:00.000Z", "2022-02-08T05:00:00.000Z", .core),
            stage("2022-02-08T05:00:00.000Z", "2022-02-08T06:00:00.000Z", .deep),
        ]
        let periods = SleepLink.periods(episodes, constants: c)
        XCTAssertEqual(periods.count, 2)
        // Session ends at 14:30: the nap starts first, but the night (8.5 h later) is linked.
        let night = SleepLink.nextNight(after: ms("2022-02-07T14:30:00.000Z"), in: periods, constants: c)
        XCTAssertEqual(night?.startMs, ms("2022-02-07T23:00:00.000Z"))
        // 7 h asleep, deep 1/7: min(1, 7/8)·0.6 + min(1, (1/7)/0.25)·0.4
        //   = 0.875·0.6 + 0.5714285714…·0.4 = 0.525 + 0.2285714… = 0.7535714…
        XCTAssertEqual(night?.score(c) ?? .nan, 0.525 + 0.4 * (1.0 / 7.0) / 0.25, accuracy: 1e-12)
        XCTAssertEqual(night?.score(c) ?? .nan, 0.753571428571, accuracy: 1e-9)
    }

    func testNoSleepWithinTwelveHours() {
        let periods = SleepLink.periods([stage("2022-02-08T03:00:00.000Z", "2022-02-08T09:00:00.000Z", .asleep)], constants: c)
        // Ends 14:59 → the 03:00 sleep is 12 h 01 min later: outside the window.
        XCTAssertNil(SleepLink.nextNight(after: ms("2022-02-07T14:59:00.000Z"), in: periods, constants: c))
        // Unstaged 6 h: the hours term alone, 6/8 = 0.75.
        XCTAssertEqual(SleepLink.nextNight(after: ms("2022-02-07T15:00:00.000Z"), in: periods, constants: c)?.score(c), 0.75)
    }
}
