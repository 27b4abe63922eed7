import XCTest
@testable import ResonanceLab

/// The daily snapshot reads the simulated signals, never the plan: the same signals
/// under another planted physiology give the same snapshot, other signals under the
/// same plan another one, worked by hand.
final class DailyMeasurementTests: XCTestCase {
    /// NewMom (32 years: HRmax 208 − 0.7·32 = 185.6 bpm), two days, no sleep or workout.
    /// Night 0's window beats at 1000 ms (60 bpm), night 1's at `night1RRMs`; minute HR
    /// 70 except 30 minutes at 140 bpm on day 1.
    func snapshots(night1RRMs: Double, plannedRestingHR: Double, plannedMass: Double = 68,
                   scaleSeed: UInt64 = 1) throws -> [DailySnapshot] {
        let p = try XCTUnwrap(PersonaProfile.named("NewMom"))
        let timeline = PersonaTimeline(firstDay: 0, days: 2)
        let plan = PersonaDay(restingHRBpm: plannedRestingHR, sdnnMs: 38, rmssdMs: 28, recovery1mBpm: 15, sleepHours: 5,
                              steps: 2000, bodyMassKg: plannedMass)
        var noisyHR = Array(repeating: 70.0, count: timeline.minutes)
        let day1 = timeline.minute(day: 1, hour: 12)
        for m in day1..<(day1 + 30) { noisyHR[m] = 140 }
        var beats = try BeatSpans(p, timeline: timeline, days: [plan, plan], sessions: [], meanHR: noisyHR, random: SeededRandom(seed: 0))
        XCTAssertTrue(beats.spans.isEmpty)
        beats.spans = [(0, 1000.0), (1, night1RRMs)].map { day, rr in
            let start = timeline.timeMs(minute: timeline.minute(day: day, hour: 5))
            return RRSpan(day: day, startMs: start, endMs: start + 300_000, hrStepMs: 60_000,
                          beats: (1...Int(300_000 / rr)).map { RRSpan.Beat(timeMs: start + Int64(Double($0) * rr), rrMs: rr) })
        }
        var scale = SeededRandom(seed: scaleSeed)
        return DailyMeasurement.snapshots(p, timeline: timeline, days: [plan, plan],
                                          activity: DailyMeasurement.activity(timeline, days: 2), noisyHR: noisyHR, beats: beats,
                                          zones: HeartRateZoneEngine(), scale: &scale)
    }

    /// Night 1 at 800 ms (75 bpm): the watch's resting HR on day 1 is the mean of the two
    /// nights, 67.5 bpm, so VO2 max is 15.3 × 185.6 / 67.5 = 42.07 → 42.1 (day 0:
    /// 15.3 × 185.6 / 60 = 47.33 → 47.3) and zone 2 starts at 67.5 + 0.6 × (185.6 − 67.5)
    /// = 138.36 bpm: the 30 minutes at 140 count. At 1000 ms both nights (60 bpm) the floor is
    /// 60 + 0.6 × 125.6 = 135.36 bpm, VO2 max 47.3 on both days.
    func testMeasuredValuesFollowTheSignalsWorkedByHand() throws {
        let slow = try snapshots(night1RRMs: 800, plannedRestingHR: 60)
        XCTAssertEqual(slow.map(\.restingHRBpm), [60, 75])
        XCTAssertEqual(slow.map(\.vo2Max), [47.3, 42.1])
        XCTAssertEqual(slow.map(\.zoneMinutes), [0, 30])
        // Night 1 at 700 ms (85.7 bpm): rest 72.86, floor 72.86 + 0.6 × 112.74 = 140.50 bpm —
        // the 30 minutes at 140 no longer count.
        XCTAssertEqual(try snapshots(night1RRMs: 700, plannedRestingHR: 60)[1].zoneMinutes, 0)
        XCTAssertEqual(try snapshots(night1RRMs: 1000, plannedRestingHR: 60).map(\.vo2Max), [47.3, 47.3])
    }

    /// The planted resting HR reaches the snapshot only through the beats: another
    /// planted value with the same signals changes nothing.
    func testPlantedRestingHRIsNotRead() throws {
        XCTAssertEqual(try snapshots(night1RRMs: 800, plannedRestingHR: 60), try snapshots(night1RRMs: 800, plannedRestingHR: 90))
    }

    /// Body mass is a scale's reading of the day's mass: the mass plus the scale's error
    /// (SD 0.2 kg) from its own stream, rounded to 0.1 kg; another stream reads otherwise.
    func testBodyMassIsAScaleReading() throws {
        let a = try snapshots(night1RRMs: 800, plannedRestingHR: 60, plannedMass: 68.0, scaleSeed: 1)
        var scale = SeededRandom(seed: 1)
        let expected = (0..<2).map { _ in ((68.0 + 0.2 * scale.normal()) * 10).rounded() / 10 }
        XCTAssertEqual(a.map(\.bodyMassKg), expected)
        let readings = try (1...20).flatMap { try snapshots(night1RRMs: 800, plannedRestingHR: 60, scaleSeed: $0).compactMap(\.bodyMassKg) }
        XCTAssertGreaterThan(Set(readings).count, 5, "\(readings)")
        let sd = Stats.sd(readings.map { $0 - 68 })
        XCTAssertEqual(sd, 0.2, accuracy: 0.08)
        XCTAssertEqual(Stats.mean(readings), 68, accuracy: 0.1)
    }
}
