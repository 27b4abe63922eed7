import XCTest
@testable import ResonanceLab

/// Asleep time counted once per night whatever the sources; stages by source priority.
final class SleepOverlapTests: XCTestCase {
    let hour: Int64 = 3_600_000
    let night = ms("2026-01-05T23:00:00.000Z")

    /// A watch staging 23:00–07:00 (core, 2 h deep, core) and a sleep app recording the
    /// same night as one unspecified `asleep` row 22:30–06:30.
    func twoSources() -> [SleepEpisode] {
        [SleepEpisode(subject: "u", startMs: night, endMs: night + hour, stage: .core, source: "Watch"),
         SleepEpisode(subject: "u", startMs: night + hour, endMs: night + 3 * hour, stage: .deep, source: "Watch"),
         SleepEpisode(subject: "u", startMs: night + 3 * hour, endMs: night + 8 * hour, stage: .core, source: "Watch"),
         SleepEpisode(subject: "u", startMs: night - hour / 2, endMs: night + 7 * hour + hour / 2, stage: .asleep, source: "SleepApp")]
    }

    func testOverlappingNightsCountOnce() throws {
        let periods = SleepLink.periods(twoSources(), constants: .defaults)
        XCTAssertEqual(periods.count, 1)
        let p = periods[0]
        // Union 22:30–07:00 = 8.5 h (the rows sum to 8 + 8 = 16 h); 7.5 h counted twice.
        XCTAssertEqual(p.measuredAsleepMs, 17 * hour / 2)
        XCTAssertEqual(p.asleepMs, 17 * hour / 2)
        XCTAssertEqual(p.overlapMs, 15 * hour / 2)
        // The staged watch outranks the app: its 2 h of deep sleep stand.
        XCTAssertEqual(p.deepMs, 2 * hour)
        let counts = SourceOverlaps(periods: periods, hr: HeartRateSources.Overlap())
        XCTAssertEqual(counts.sleepNights, 1)
        XCTAssertEqual(counts.sleepOverlapMs, 15 * hour / 2)
    }

    func testDailySleepHoursCountTheNightOnceOnTheMorningItEnds() throws {
        let ws = Workspace(path: try makeTempDir())
        try ws.write(twoSources())
        try DailyStage().run(ws, StageContext())
        let rows = try ws.read(DailyRow.self)
        // One night, ending 2026-01-06 07:00: 8.5 h, not 16 h; nothing on the evening before.
        XCTAssertEqual(rows.map(\.snapshot.date), ["2026-01-06"])
        XCTAssertEqual(rows[0].snapshot.sleepHours, 8.5)
    }

    func testHeartRateOfTwoSourcesInOneMinuteReadsTheDenserSource() {
        let t0 = ms("2026-01-05T10:00:00.000Z")
        // Minute 1: a chest strap every second (60 samples) and a watch sample; minute 2:
        // the watch alone; minute 3: one sample each (a tie, byte order: "strap" < "watch").
        var times: [Int64] = [], sources: [String] = []
        for s in 0..<60 { times.append(t0 + Int64(s) * 1000); sources.append("strap") }
        times.append(t0 + 30_000); sources.append("watch")
        times.append(t0 + 90_000); sources.append("watch")
        times.append(t0 + 120_000); sources.append("watch")
        times.append(t0 + 121_000); sources.append("strap")
        let r = HeartRateSources.keep(timesMs: times, sources: sources)
        XCTAssertEqual(r.overlap, HeartRateSources.Overlap(minutes: 2, samplesSetAside: 2))
        XCTAssertFalse(r.keep[60], "the watch sample in the strap's minute")
        XCTAssertTrue(r.keep[61], "the watch alone")
        XCTAssertFalse(r.keep[62]); XCTAssertTrue(r.keep[63])
        // One source: everything kept, nothing counted.
        let one = HeartRateSources.keep(timesMs: times, sources: times.map { _ in "watch" })
        XCTAssertEqual(one.overlap, HeartRateSources.Overlap())
        XCTAssertTrue(one.keep.allSatisfy { $0 })
    }
}
