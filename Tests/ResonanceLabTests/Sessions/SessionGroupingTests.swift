import XCTest
@testable import ResonanceLab

final class SessionGroupingTests: XCTestCase {
    let c = SessionConstants.defaults

    func sessions(_ plays: [Play]) -> (kept: [[String]], dropped: Int) {
        var counts = PlayCleaningCounts()
        let timed = PlayTiming.resolve(plays, counts: &counts)
        let (ranges, dropped) = SessionGrouping.group(timed, constants: c)
        return (ranges.map { r in r.map { timed[$0].play.playId } }, dropped)
    }

    func testGapOf29MinutesContinuesAnd31MinutesSplits() {
        // a: 10:00–10:06; b starts 29 min after a's END (10:35) → same session;
        // c starts 31 min after b's end (10:41 + 31 = 11:12) → new session.
        let plays = [
            play("a", "2022-02-07T10:00:00.000Z", "2022-02-07T10:06:00.000Z"),
            play("b", "2022-02-07T10:35:00.000Z", "2022-02-07T10:41:00.000Z"),
            play("c", "2022-02-07T11:12:00.000Z", "2022-02-07T11:18:00.000Z"),
        ]
        XCTAssertEqual(sessions(plays).kept, [["a", "b"], ["c"]])
    }

    func testGapFromStartPlusMediaDurationWhenEndIsMissing() {
        // a has no end: its end is start + media 600 s = 10:10. b at 10:39 is 29 min
        // later → same session; measured from a's start (39 min) it would split.
        // c (no end, media 300 s → 10:44) … d at 11:15 is 31 min after → split.
        let plays = [
            play("a", "2022-02-07T10:00:00.000Z", nil, media: 600),
            play("b", "2022-02-07T10:39:00.000Z", nil, media: 300),
            play("d", "2022-02-07T11:15:00.000Z", "2022-02-07T11:21:00.000Z"),
        ]
        XCTAssertEqual(sessions(plays).kept, [["a", "b"], ["d"]])
    }

    func testSessionsShorterThanFiveMinutesAreDroppedAndCounted() {
        // x: 4 min 59 s → dropped; y: exactly 5 min → kept (minimum is inclusive).
        let plays = [
            play("x", "2022-02-07T08:00:00.000Z", "2022-02-07T08:04:59.000Z"),
            play("y", "2022-02-07T12:00:00.000Z", "2022-02-07T12:05:00.000Z"),
        ]
        let out = sessions(plays)
        XCTAssertEqual(out.kept, [["y"]])
        XCTAssertEqual(out.dropped, 1)
    }
}
