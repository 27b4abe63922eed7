import Foundation
import XCTest
@testable import ResonanceLab

/// `resonance daily`'s RMSSD-only days, wear time and local days (docs/methods.md, "Daily engines").
final class DailyStageLocalInputsTests: XCTestCase {
    let day1 = Int64(Timestamp.daysFromCivil(2026, 6, 1)) * 86_400_000
    let hour: Int64 = 3_600_000

    /// One HR sample (60 bpm) every minute of each hour in `hours` of the UTC day at `dayMs`.
    func samples(_ subject: String, _ dayMs: Int64, hours: Range<Int>) -> [HRSample] {
        hours.flatMap { h in (0..<60).map { HRSample(subject: subject, timestampMs: dayMs + Int64(h) * hour + Int64($0) * 60_000, bpm: 60, source: "t") } }
    }

    func testRMSSDOnlyDaysAreConvertedAndFlagged() throws {
        let ws = Workspace(path: try makeTempDir())
        let day2 = day1 + 24 * hour
        try ws.write([
            // Day 1: SDNN and RMSSD samples: SDNN read as measured, RMSSD reported beside it.
            HRVSample(subject: "u", timestampMs: day1 + hour, sdnnMs: 55, rmssdMs: 40, source: "t"),
            // Day 2: RMSSD only (a WHOOP or Oura night): mean 42 ms → SDNN 1.19 × 42 = 49.98 ms.
            HRVSample(subject: "u", timestampMs: day2 + hour, rmssdMs: 40, source: "t"),
            HRVSample(subject: "u", timestampMs: day2 + 2 * hour, rmssdMs: 44, source: "t"),
        ])
        try DailyStage().run(ws, StageContext())
        let rows = try ws.read(DailyRow.self)
        XCTAssertEqual(rows.map(\.snapshot.date), ["2026-06-01", "2026-06-02"])
        XCTAssertEqual(rows[0].snapshot.hrvSDNNMs, 55)
        XCTAssertEqual(rows[0].snapshot.hrvRMSSDMs, 40)
        XCTAssertEqual(rows[0].snapshot.hrvBasis, "sdnn")
        XCTAssertEqual(try XCTUnwrap(rows[1].snapshot.hrvSDNNMs), 49.98, accuracy: 1e-9)
        XCTAssertEqual(rows[1].snapshot.hrvRMSSDMs, 42)
        XCTAssertEqual(rows[1].snapshot.hrvBasis, "rmssd_converted")
        // No heart rate at all: wear time unknown, not zero, and no low_wear flag.
        XCTAssertNil(rows[1].snapshot.wearHours)
        XCTAssertFalse(rows[1].flags.contains("low_wear"))
        let text = try String(contentsOfFile: ws.file(DailyRow.fileName), encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("subject,date,resting_hr,hrv_sdnn,"), text)
        XCTAssertTrue(text.contains(",flags,bio_age,bio_age_category,stress_trend,wear_hours,hrv_rmssd,hrv_basis,local_time\n"), text)
        XCTAssertTrue(text.contains(",,42.0,rmssd_converted,utc\n"), text)
    }

    func testWearTimeThresholdAtTenHours() throws {
        let ws = Workspace(path: try makeTempDir())
        let day2 = day1 + 24 * hour, day3 = day2 + 24 * hour
        // 10 hours (600 samples) on day 1, 9 hours (540 samples) on day 2, none on day 3 (a workout only).
        try ws.write(samples("u", day1, hours: 0..<10) + samples("u", day2, hours: 5..<14))
        try ws.write([Workout(subject: "u", startMs: day3 + 9 * hour, endMs: day3 + 10 * hour, activity: "walk")])
        try DailyStage().run(ws, StageContext())
        let rows = try ws.read(DailyRow.self)
        XCTAssertEqual(rows.map(\.snapshot.wearHours), [10, 9, 0])
        XCTAssertEqual(rows.map { $0.flags.contains("low_wear") }, [false, true, true])
        XCTAssertEqual(rows[0].snapshot.restingHRBpm, 60)
        XCTAssertNil(rows[1].snapshot.restingHRBpm, "540 samples, but in 9 hours: no resting HR of its own")
    }

    func testLowWearDayHasNoStressScore() throws {
        // A flat week, then a day whose resting HR would read as calm.
        var days = (0..<7).map { DailySnapshot(subject: "u", day: $0, restingHRBpm: 60, hrvSDNNMs: 50 + Double($0 % 2)) }
        var today = DailySnapshot(subject: "u", day: 7, restingHRBpm: 52, hrvSDNNMs: 70)
        today.wearHours = 9.999
        days.append(today)
        var worn = days
        worn[7].wearHours = 10
        let low = DailyEngines.assess(history: days).last
        let ok = DailyEngines.assess(history: worn).last
        XCTAssertNil(low?.stress)
        XCTAssertEqual(low?.row.stressLevel, "")
        XCTAssertEqual(low?.flags.last, "low_wear")
        XCTAssertEqual(ok?.stress?.level, .relaxed, "the same day worn 10 hours is scored")
        XCTAssertFalse(ok?.flags.contains("low_wear") ?? true)
    }

    func testLocalDaysFollowPlaysOffsetSubjectsZoneAndTheOption() throws {
        let ws = Workspace(path: try makeTempDir())
        // 23:30 UTC on 1 June: 00:30 on 2 June in London (BST), 1 June in UTC.
        let late = day1 + 23 * hour + hour / 2
        try ws.write([Workout(subject: "listener", startMs: late, endMs: late + hour, activity: "run"),
                      Workout(subject: "london", startMs: late, endMs: late + hour, activity: "run"),
                      Workout(subject: "other", startMs: late, endMs: late + hour, activity: "run")])
        // The listener's plays say −10 h (Hawaii): 13:30 on 1 June, whatever its subjects.csv zone.
        try ws.write([Play(subject: "listener", playId: "p", songId: "s", title: "t", artist: "a", album: "", playlist: "",
                           startedAtMs: day1, endedAtMs: day1 + 200_000, mediaDurationS: 200, playedS: 200, endReason: "",
                           skipped: false, utcOffsetMin: -600)])
        try ws.write([SubjectRow(subject: "listener", timeZone: "Asia/Tokyo", source: "csv"),
                      SubjectRow(subject: "london", timeZone: "Europe/London", source: "csv")])
        try DailyStage().run(ws, StageContext())
        var rows = try ws.read(DailyRow.self)
        XCTAssertEqual(rows.map(\.snapshot.subject), ["listener", "london", "other"])
        XCTAssertEqual(rows.map(\.snapshot.date), ["2026-06-01", "2026-06-02", "2026-06-01"])
        XCTAssertEqual(rows.map(\.snapshot.localTime), ["plays_offset", "zone:Europe/London", "utc"])
        // --tz reaches only the subject without an offset or a zone of its own.
        try DailyStage(timeZone: TimeZone(identifier: "Asia/Tokyo")).run(ws, StageContext())
        rows = try ws.read(DailyRow.self)
        XCTAssertEqual(rows.map(\.snapshot.date), ["2026-06-01", "2026-06-02", "2026-06-02"])
        XCTAssertEqual(rows.map(\.snapshot.localTime), ["plays_offset", "zone:Europe/London", "tz:Asia/Tokyo"])
    }

    func testHourlyStressRowsForEveryScoredDay() throws {
        let ws = Workspace(path: try makeTempDir())
        var hr: [HRSample] = [], hrv: [HRVSample] = []
        for d in 0..<5 {
            let start = day1 + Int64(d) * 24 * hour
            hr += samples("u", start, hours: 0..<12)
            hrv.append(HRVSample(subject: "u", timestampMs: start + hour, sdnnMs: [50, 40, 60, 45, 55][d], source: "t"))
        }
        try ws.write(hr)
        try ws.write(hrv)
        try DailyStage().run(ws, StageContext())
        let daily = try ws.read(DailyRow.self)
        let hourly = try ws.read(StressHourlyRow.self)
        // Days 4 and 5 have three baseline days: 24 hours each.
        XCTAssertEqual(Set(hourly.map(\.date)), ["2026-06-04", "2026-06-05"])
        XCTAssertEqual(hourly.count, 48)
        for row in hourly {
            XCTAssertEqual(row.multiplier, StressConstants.defaults.circadianMultipliers[row.hour])
            let sdnn = try XCTUnwrap(daily.first { $0.snapshot.date == row.date }?.snapshot.hrvSDNNMs)
            XCTAssertEqual(row.hrvEstimateMs, sdnn * row.multiplier, accuracy: 1e-9)
        }
        // Hour 8 (×1.00) is the day's own stress. The third day has a stress score (from the
        // SDNN stability of three days) but two baseline days: no HRV z-score, no hours.
        XCTAssertNotNil(daily[2].stress)
        for d in daily where d.stress != nil && d.snapshot.date >= "2026-06-04" {
            XCTAssertEqual(hourly.first { $0.date == d.snapshot.date && $0.hour == 8 }?.stress ?? -1, try XCTUnwrap(d.stress), accuracy: 1e-9)
        }
    }
}
