import Foundation
import XCTest
@testable import ResonanceLab

/// Contexts in the listener's local time, and plays measured from sparse heart rate.
final class LocalTimeAndSparseHRTests: XCTestCase {
    /// 06:00 PST on Friday 2024-03-01 is 14:00 UTC.
    func testA0600PSTPlayIsMorning() throws {
        var p = play("a", "2024-03-01T14:00:00.000Z", "2024-03-01T14:06:00.000Z", media: 360)
        let utc = try SessionsStage.run(plays: [p], hr: [], nn: [:], sdnn: [], sleep: [], workouts: [], constants: .defaults)
        XCTAssertEqual([utc.plays[0].context, utc.plays[0].timeSlot], ["work", "afternoon"], "read as UTC")
        p.utcOffsetMin = -480
        let own = try SessionsStage.run(plays: [p], hr: [], nn: [:], sdnn: [], sleep: [], workouts: [], constants: .defaults)
        XCTAssertEqual([own.plays[0].context, own.plays[0].timeSlot], ["morning", "morning"])
        XCTAssertEqual([own.sessions[0].context, own.sessions[0].timeSlot], ["morning", "morning"])
        p.utcOffsetMin = nil
        let zoned = try SessionsStage.run(plays: [p], hr: [], nn: [:], sdnn: [], sleep: [], workouts: [], constants: .defaults,
                                          clock: LocalClock(zone: TimeZone(identifier: "America/Los_Angeles")))
        XCTAssertEqual([zoned.plays[0].context, zoned.plays[0].timeSlot], ["morning", "morning"])
    }

    /// The local weekday decides the weekend: Sunday 23:30 in Tokyo is Sunday 14:30 UTC,
    /// but 08:00 Monday in Tokyo (Sunday 23:00 UTC) is a weekday commute.
    func testLocalWeekday() throws {
        var p = play("a", "2024-03-03T23:00:00.000Z", "2024-03-03T23:03:20.000Z")
        p.utcOffsetMin = 540
        let out = try SessionsStage.run(plays: [p], hr: [], nn: [:], sdnn: [], sleep: [], workouts: [], constants: .defaults)
        XCTAssertEqual(out.plays[0].context, "commute")
    }

    func testSparseHeartRateUsesTheNearestSamplesWithTheToleranceInTheFlag() throws {
        let c = SessionConstants.defaults
        XCTAssertEqual(c.playHRNearestMaxMs, 300_000)
        let plays = [
            play("a", "2024-03-01T10:00:00.000Z", "2024-03-01T10:04:00.000Z"),
            play("b", "2024-03-01T12:00:00.000Z", "2024-03-01T12:10:00.000Z"),
            play("c", "2024-03-01T15:00:00.000Z", "2024-03-01T15:04:00.000Z"),
        ]
        func hr(_ t: String, _ bpm: Double) -> HRSample { HRSample(subject: "u1", timestampMs: ms(t), bpm: bpm, source: "watch") }
        // a: samples 2 min before and 1.5 min after; b: one sample in its middle only;
        // c: nearest sample 20 min away.
        let samples = [hr("2024-03-01T09:58:00.000Z", 70), hr("2024-03-01T10:05:30.000Z", 80),
                       hr("2024-03-01T12:05:00.000Z", 66), hr("2024-03-01T15:24:00.000Z", 90)]
        let out = try SessionsStage.run(plays: plays, hr: samples, nn: [:], sdnn: [], sleep: [], workouts: [], constants: c)
        let (a, b, cc) = (out.plays[0], out.plays[1], out.plays[2])
        XCTAssertEqual(a.biometrics.hrStart, 70); XCTAssertEqual(a.biometrics.hrEnd, 80); XCTAssertEqual(a.biometrics.hrDelta, 10)
        XCTAssertEqual(a.quality, "hr_nearest_within_300s")
        // One sample 5 min from both ends: a level, no change.
        XCTAssertEqual(b.biometrics.hrStart, 66); XCTAssertNil(b.biometrics.hrEnd)
        XCTAssertEqual(b.quality, "hr_nearest_within_300s")
        XCTAssertEqual(cc.quality, "no_physiology")
    }
}
