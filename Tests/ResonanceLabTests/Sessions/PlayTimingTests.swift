import XCTest
@testable import ResonanceLab

final class PlayTimingTests: XCTestCase {
    func testBadPlaysAreRepairedDroppedOrMergedAndCounted() {
        var counts = PlayCleaningCounts()
        let out = PlayTiming.resolve([
            // End before start: end ignored, start + media 180 s used, flagged.
            play("back", "2022-02-07T10:00:00.000Z", "2022-02-07T09:59:00.000Z", song: "s1", media: 180),
            // Zero duration: same start and end, nothing played → dropped.
            play("zero", "2022-02-07T10:05:00.000Z", "2022-02-07T10:05:00.000Z", song: "s2", media: nil, played: 0),
            // The same song reported by two devices, overlapping: merged once.
            play("phone", "2022-02-07T10:10:00.000Z", "2022-02-07T10:13:00.000Z", song: "s3", media: 200, played: 180),
            play("watch", "2022-02-07T10:10:02.000Z", "2022-02-07T10:13:20.000Z", song: "s3", media: 200, played: 198),
        ], counts: &counts)
        XCTAssertEqual(out.map(\.play.playId), ["back", "phone"])
        XCTAssertEqual(counts, PlayCleaningCounts(endBeforeStart: 1, zeroDuration: 1, mergedDuplicates: 1))
        XCTAssertEqual(out[0].endMs, ms("2022-02-07T10:03:00.000Z"))
        XCTAssertEqual(out[0].flags, ["end_before_start", "end_unknown"])
        // Merged: the later end and the longer listening (198 / 200 = 0.99).
        XCTAssertEqual(out[1].endMs, ms("2022-02-07T10:13:20.000Z"))
        XCTAssertEqual(out[1].playedS, 198)
        XCTAssertEqual(out[1].listenFraction, 0.99, accuracy: 1e-12)
        XCTAssertEqual(out[1].flags, ["merged_duplicate"])
    }

    func testPlayedTimeFallsBackToTheKnownSpan() {
        var counts = PlayCleaningCounts()
        // No played_s: 10:00:00–10:01:40 = 100 s of a 200 s song → fraction 0.5.
        let out = PlayTiming.resolve([play("a", "2022-02-07T10:00:00.000Z", "2022-02-07T10:01:40.000Z")], counts: &counts)
        XCTAssertEqual(out[0].playedS, 100)
        XCTAssertEqual(out[0].listenFraction, 0.5)
    }
}
