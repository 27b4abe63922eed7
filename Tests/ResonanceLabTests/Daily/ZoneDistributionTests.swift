import XCTest
@testable import ResonanceLab

/// The female HRmax adjustment, the zone distribution of workout heart rate, its zone
/// score, the 80/20 check and the weekly summary (docs/engines/heart-coach.md, Zones).
final class ZoneDistributionTests: XCTestCase {
    let engine = ZoneDistributionEngine()

    func testFemaleAdjustmentLowersTheMaximumByOneBeat() {
        let zones = HeartRateZoneEngine()
        XCTAssertEqual(zones.maxHR(age: 40, sex: "male"), 180, accuracy: 1e-12)
        XCTAssertEqual(zones.maxHR(age: 40, sex: "female"), 179, accuracy: 1e-12)
        XCTAssertEqual(zones.maxHR(age: 40), 180, accuracy: 1e-12, "no sex: Tanaka's pooled equation")
        XCTAssertEqual(zones.maxHR(age: 40, sex: "other"), 180, accuracy: 1e-12)
        // Zone 2 from 60 % of the reserve: 60 + 0.6·(179 − 60) = 131.4 for a woman.
        XCTAssertEqual(zones.zones(age: 40, restingHRBpm: 60, sex: "female")[1].lowBpm, 131.4, accuracy: 1e-9)
    }

    /// 100·Σ wᵢ·min(1, mᵢ/tᵢ), weights 0.10/0.15/0.35/0.25/0.15, targets 10/14/4/1.5/0.5.
    func testZoneScore() {
        XCTAssertEqual(engine.score([10, 14, 4, 1.5, 0.5]), 100, accuracy: 1e-9)
        XCTAssertEqual(engine.score([100, 100, 100, 100, 100]), 100, accuracy: 1e-9, "each zone capped at its target")
        XCTAssertEqual(engine.score([5, 0, 8, 0, 0]), 100 * (0.10 * 0.5 + 0.35), accuracy: 1e-9)
        XCTAssertEqual(engine.score([0, 7, 0, 0.75, 0]), 100 * (0.15 * 0.5 + 0.25 * 0.5), accuracy: 1e-9)
        XCTAssertEqual(engine.score([0, 0, 0, 0, 0]), 0)
    }

    /// Easy = zones 1–2; the check holds from 0.80.
    func testEightyTwentyCheck() {
        XCTAssertEqual(engine.easyShare([7, 9, 4, 0, 0]), 0.8)
        XCTAssertEqual(try XCTUnwrap(engine.easyShare([7, 8.9, 4.1, 0, 0])), 0.795, accuracy: 1e-12)
        XCTAssertNil(engine.easyShare([0, 0, 0, 0, 0]))
    }

    /// moderate/150 + vigorous/75 ≥ 1.
    func testAHATarget() {
        XCTAssertTrue(engine.ahaMet(moderateMinutes: 150, vigorousMinutes: 0))
        XCTAssertTrue(engine.ahaMet(moderateMinutes: 0, vigorousMinutes: 75))
        XCTAssertTrue(engine.ahaMet(moderateMinutes: 75, vigorousMinutes: 37.5))
        XCTAssertFalse(engine.ahaMet(moderateMinutes: 149, vigorousMinutes: 0))
        XCTAssertFalse(engine.ahaMet(moderateMinutes: 74, vigorousMinutes: 37))
    }

    /// Male, 40, resting HR 60: maximum 180, reserve 120; zones 120–132–144–156–168–180.
    /// A 30-minute workout: 10 min at 125 bpm (zone 1, 54 % of reserve: moderate), 10 at
    /// 150 (zone 3, 75 %: vigorous), 10 at 170 (zone 5, 92 %: vigorous); samples outside
    /// the workout do not count. Score 100·(0.10 + 0.35 + 0.15) = 60, easy share 1/3.
    func testRowsFromWorkoutHeartRate() throws {
        let d = Timestamp.daysFromCivil(2026, 3, 2)
        let start = Int64(d) * 86_400_000 + 10 * 3_600_000
        var hr = WorkoutHeartRate(workouts: [Workout(subject: "A", startMs: start, endMs: start + 30 * 60_000, activity: "run")])
        for second in stride(from: 0, to: 1800, by: 5) {
            let bpm = second < 600 ? 125.0 : second < 1200 ? 150 : 170
            hr.add(subject: "A", timeMs: start + Int64(second) * 1000, bpm: bpm)
        }
        for minute in 31..<90 { hr.add(subject: "A", timeMs: start + Int64(minute) * 60_000, bpm: 150) }
        hr.add(subject: "B", timeMs: start, bpm: 150)
        let days = [d, d + 3, d + 7].map { DailySnapshot(subject: "A", day: $0, restingHRBpm: 60) }
            + [DailySnapshot(subject: "A", day: d + 8)]
        let rows = engine.rows(days, heartRate: hr, subjects: DailySubjects([SubjectRow(subject: "A", birthYear: 1986, sex: "male", source: "t")]))
        XCTAssertEqual(rows.map(\.date), ["2026-03-02", "2026-03-05", "2026-03-09"], "no row without a resting HR")
        XCTAssertEqual(rows[0].zoneMinutes, [10, 0, 10, 0, 10])
        XCTAssertEqual(rows[0].zoneScore, 60, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(rows[0].easyShare), 1.0 / 3, accuracy: 1e-12)
        XCTAssertEqual(rows[0].rule8020, false)
        XCTAssertEqual([rows[0].weekModerateMinutes, rows[0].weekVigorousMinutes], [10, 20])
        XCTAssertFalse(rows[0].ahaMet, "10/150 + 20/75 = 0.33")
        // Three days later the week still holds the workout; seven days later it does not.
        XCTAssertEqual(rows[1].zoneMinutes, [0, 0, 0, 0, 0])
        XCTAssertNil(rows[1].easyShare)
        XCTAssertNil(rows[1].rule8020)
        XCTAssertEqual([rows[1].weekModerateMinutes, rows[1].weekVigorousMinutes], [10, 20])
        XCTAssertEqual([rows[2].weekModerateMinutes, rows[2].weekVigorousMinutes], [0, 0])

        // For a woman (maximum 179) 170 bpm is still zone 5 and 125 zone 1.
        let female = engine.rows(Array(days.prefix(1)), heartRate: hr,
                                 subjects: DailySubjects([SubjectRow(subject: "A", birthYear: 1986, sex: "female", source: "t")]))
        XCTAssertEqual(female[0].zoneMinutes, [10, 0, 10, 0, 10])
        // Without an age, no row.
        XCTAssertTrue(engine.rows(days, heartRate: hr, subjects: DailySubjects()).isEmpty)

        // The table round-trips through its own type.
        let ws = Workspace(path: try makeTempDir())
        try ws.write(rows)
        XCTAssertEqual(try ws.read(ZoneDayRow.self), rows)
        let text = try String(contentsOfFile: ws.file(ZoneDayRow.fileName), encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("subject,date,zone1_min,zone2_min,zone3_min,zone4_min,zone5_min,zone_score,easy_share,rule_80_20,week_moderate_min,week_vigorous_min,aha_met\nA,2026-03-02,10.0,0.0,10.0,0.0,10.0,60.0,"), text)
    }
}
