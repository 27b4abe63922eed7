import Foundation
import XCTest
@testable import ResonanceLab

final class DailyStageTests: XCTestCase {
    let day1 = Int64(Timestamp.daysFromCivil(2026, 1, 5)) * 86_400_000
    let hour: Int64 = 3_600_000

    /// Two days of one subject whose every input value is worked out by hand.
    func makeWorkspace() throws -> Workspace {
        let ws = Workspace(path: try makeTempDir())
        let day2 = day1 + 24 * hour
        // Day 1: 100 HR samples 50…149 bpm, one every 6 minutes (10 hours worn); day 2: 59 samples
        // (too few for a resting HR).
        var hr: [HRSample] = []
        for i in 0..<100 { hr.append(HRSample(subject: "u", timestampMs: day1 + Int64(i) * 360_000, bpm: Double(50 + i), source: "t")) }
        for i in 0..<59 { hr.append(HRSample(subject: "u", timestampMs: day2 + Int64(i) * 60_000, bpm: 60, source: "t")) }
        try ws.write(hr)
        try ws.write([HRVSample(subject: "u", timestampMs: day1 + 7 * hour, sdnnMs: 40, source: "t"),
                      HRVSample(subject: "u", timestampMs: day1 + 8 * hour, sdnnMs: 50, source: "t")])
        func window(_ start: Int64, sdnn: Double, reliable: Bool) -> HRVRow {
            var row = HRVRow(subject: "u", windowStartMs: start, windowEndMs: start + 300_000, nBeats: 300,
                             artifactPct: reliable ? 0 : 20, reliable: reliable)
            row.time.sdnn = sdnn
            return row
        }
        try ws.write([window(day1 + hour, sdnn: 99, reliable: true),  // day 1 has wearable samples: not used
                      window(day2 + hour, sdnn: 30, reliable: true), window(day2 + 2 * hour, sdnn: 34, reliable: true),
                      window(day2 + 3 * hour, sdnn: 100, reliable: false)])
        try ws.write([SleepEpisode(subject: "u", startMs: day1 + 23 * hour, endMs: day2 + 6 * hour + hour / 2, stage: .core),
                      SleepEpisode(subject: "u", startMs: day1 + 22 * hour, endMs: day2 + 7 * hour, stage: .inBed)])
        try ws.write([Workout(subject: "u", startMs: day2 + 17 * hour, endMs: day2 + 17 * hour + 45 * 60_000, activity: "walk")])
        return ws
    }

    /// subjects.csv (a woman of 40, 170 cm) and a workout over the samples at 130…149
    /// bpm of day 1 (one every 6 minutes: 20 minutes with a sample); a norms file with resting HR only. Zone 2 from 54.95 + 0.6·(179 −
    /// 54.95) = 129.38, zone 3 from 141.785: 12 minutes in zone 2, 8 in zone 3; score
    /// 100·(0.15·12/14 + 0.35) = 47.857; all 20 minutes ≥ 60 % of the reserve (vigorous).
    /// BioAge: RHR (54.95 − 60)·0.4 = −2.02, zone minutes (30 − 20)/10·0.05 = +0.05, SDNN
    /// not in the table: 40 + (0.22·−2.02 + 0.12·0.05)/0.34.
    func testZonesAndReplacementNorms() throws {
        let ws = try makeWorkspace()
        try ws.write([Workout(subject: "u", startMs: day1 + 480 * 60_000, endMs: day1 + 600 * 60_000, activity: "run")])
        try ws.write([SubjectRow(subject: "u", birthYear: 1986, sex: "female", heightCm: 170, source: "t")])
        let dir = try makeTempDir()
        let norms = try writeFixture("metric,sex,age_years,value,source\nresting_hr,female,20,60,test\nresting_hr,male,20,60,test\n",
                                     to: dir + "/norms.csv")
        try DailyStage(normsFile: norms).run(ws, StageContext())
        let rows = try ws.read(DailyRow.self)
        XCTAssertEqual(rows[0].snapshot.zoneMinutes, 20)
        XCTAssertEqual(try XCTUnwrap(rows[0].bioAge), 40 + (0.22 * -2.02 + 0.12 * 0.05) / 0.34, accuracy: 1e-9)
        XCTAssertEqual(rows[0].bioAgeCategory, "on_track")
        let zones = try ws.read(ZoneDayRow.self)
        XCTAssertEqual(zones.map(\.date), ["2026-01-05"], "day 2 has no resting HR")
        XCTAssertEqual(zones[0].zoneMinutes, [0, 12, 8, 0, 0])
        XCTAssertEqual(zones[0].zoneScore, 100 * (0.15 * 12 / 14 + 0.35), accuracy: 1e-9)
        XCTAssertEqual(zones[0].easyShare, 0.6)
        XCTAssertEqual(zones[0].rule8020, false)
        XCTAssertEqual([zones[0].weekModerateMinutes, zones[0].weekVigorousMinutes], [0, 20])
        XCTAssertFalse(zones[0].ahaMet)

        let bad = try writeFixture("metric,sex,age_years,value,source\nresting_hr,woman,20,60,test\n", to: dir + "/bad.csv")
        XCTAssertThrowsError(try DailyStage(normsFile: bad).run(ws, StageContext())) { error in
            XCTAssertEqual("\(error)", "\(bad):2:2: 'sex' is 'woman'; expected female or male")
        }
    }

    func testInputsPerDayFollowTheDocumentedRules() throws {
        let ws = try makeWorkspace()
        try DailyStage(ageYears: 40).run(ws, StageContext())
        let rows = try ws.read(DailyRow.self)
        XCTAssertEqual(rows.map(\.snapshot.date), ["2026-01-05", "2026-01-06"])
        let (a, b) = (rows[0].snapshot, rows[1].snapshot)
        // 5th percentile (type 7) of 50…149: position 99·0.05 = 4.95 → 54 + 0.95·(55 − 54) = 54.95.
        XCTAssertEqual(try XCTUnwrap(a.restingHRBpm), 54.95, accuracy: 1e-9)
        // Mean of the day's wearable SDNN samples (40 + 50)/2; the hrv.csv window is not used.
        XCTAssertEqual(a.hrvSDNNMs, 45)
        // Zone 2 from 54.95 + 0.6·(208 − 0.7·40 − 54.95) = 129.98 bpm: minutes at 130…149 bpm = 20.
        XCTAssertEqual(a.zoneMinutes, 20)
        XCTAssertNil(a.sleepHours)
        XCTAssertNil(b.restingHRBpm, "59 samples are too few")
        XCTAssertNil(b.zoneMinutes)
        // Median of the reliable windows starting that day: (30 + 34)/2; the unreliable one is left out.
        XCTAssertEqual(b.hrvSDNNMs, 32)
        // 23:00 → 06:30 core sleep ends on day 2 (in_bed is not asleep); a 45-minute walk.
        XCTAssertEqual(b.sleepHours, 7.5)
        XCTAssertEqual(b.workoutMinutes, 45)
        for missing in [\DailySnapshot.recovery1mBpm, \.vo2Max, \.steps, \.walkMinutes, \.bodyMassKg] {
            XCTAssertNil(a[keyPath: missing])
            XCTAssertNil(b[keyPath: missing])
        }
        // The engine columns are the daily engines' on these snapshots, BioAge with --age 40
        // and no sex: RHR (54.95 − 72.5)·0.4 = −7.02, SDNN (50 − 45)·0.15 = +0.75, zone
        // minutes (30 − 20)/10·0.05 = +0.05 → (0.22·−7.02 + 0.22·0.75 + 0.12·0.05)/0.56.
        XCTAssertEqual(rows, DailyEngines.assess(history: [a, b], subjects: DailySubjects(defaultAgeYears: 40)).map(\.row))
        XCTAssertEqual(try XCTUnwrap(rows[0].bioAge), 40 + (0.22 * -7.02 + 0.22 * 0.75 + 0.12 * 0.05) / 0.56, accuracy: 1e-9)
    }

    /// The exports' own daily values fill their columns and replace the percentile rule
    /// for resting HR; a birth year in subjects.csv gives the age for zone minutes.
    func testStatedDailyValuesAndTheSubjectsAge() throws {
        let ws = try makeWorkspace()
        func input(_ date: String, _ metric: DailyMetric, _ value: Double) -> DailyInputRow {
            DailyInputRow(subject: "u", date: date, metric: metric.rawValue, value: value, unit: metric.unit, source: "Watch")
        }
        try ws.write([input("2026-01-05", .restingHR, 52), input("2026-01-05", .steps, 8000), input("2026-01-05", .vo2Max, 44),
                      input("2026-01-06", .hrRecovery1m, 25), input("2026-01-06", .bodyMass, 70.5),
                      input("2026-01-07", .steps, 1200)])
        try ws.write([SubjectRow(subject: "u", birthYear: 1986, sex: "female", source: "apple_health")])
        try DailyStage(ageYears: 70).run(ws, StageContext())
        let rows = try ws.read(DailyRow.self)
        XCTAssertEqual(rows.map(\.snapshot.date), ["2026-01-05", "2026-01-06", "2026-01-07"], "a day with only a stated value is listed")
        let (a, b, c) = (rows[0].snapshot, rows[1].snapshot, rows[2].snapshot)
        XCTAssertEqual(a.restingHRBpm, 52, "the stated resting HR, not the 5th percentile 54.95")
        XCTAssertEqual([a.steps, a.vo2Max, b.recovery1mBpm, b.bodyMassKg, c.steps], [8000, 44, 25, 70.5, 1200])
        XCTAssertNil(b.restingHRBpm)
        // Age 2026 − 1986 = 40 (not --age 70): zone 2 from 52 + 0.6·(208 − 0.7·40 − 52) = 128.8 bpm: minutes at 129…149 = 21.
        XCTAssertEqual(a.zoneMinutes, 21)
    }

    /// Heart-rate recovery from the samples around a workout's end (Cole et al. 1999):
    /// the peak of the last minute, the samples nearest +60 s and +120 s within 10 s.
    func testHeartRateRecoveryAfterEachWorkout() throws {
        let ws = Workspace(path: try makeTempDir())
        let end = day1 + 18 * hour
        let run = Workout(subject: "u", startMs: end - 30 * 60_000, endMs: end, activity: "running")
        let walk = Workout(subject: "u", startMs: end + 3 * hour, endMs: end + 4 * hour, activity: "walk")
        let swim = Workout(subject: "u", startMs: end + 5 * hour, endMs: end + 6 * hour, activity: "swim")
        try ws.write([run, walk, swim])
        func hr(_ t: Int64, _ bpm: Double) -> HRSample { HRSample(subject: "u", timestampMs: t, bpm: bpm, source: "w") }
        try ws.write([
            hr(end - 90_000, 175),  // before the last minute: not the peak
            hr(end - 50_000, 168), hr(end - 5_000, 171), hr(end + 52_000, 140), hr(end + 66_000, 138), hr(end + 131_000, 120),
            hr(walk.endMs - 20_000, 110), hr(walk.endMs + 75_000, 90),  // 15 s from +60 s: too far
            hr(swim.endMs + 60_000, 100),  // no sample in the swim's last minute
        ])
        try DailyStage().run(ws, StageContext())
        let rows = try ws.read(HeartRateRecoveryRow.self)
        XCTAssertEqual(rows.map(\.quality), ["ok", "no_60s", "no_peak"])
        // Peak 171; +60 s: 138 at +66 s (6 s away) is nearer than 140 at +52 s (8 s); +120 s: 120 at +131 s is 11 s away.
        XCTAssertEqual([rows[0].peakBpm, rows[0].hr60sBpm, rows[0].drop1mBpm], [171, 138, 33])
        XCTAssertNil(rows[0].drop2mBpm)
        XCTAssertNil(rows[1].drop1mBpm)
        let day = try XCTUnwrap(try ws.read(DailyRow.self).first { $0.snapshot.date == "2026-01-05" })
        XCTAssertEqual(day.snapshot.recovery1mBpm, 33, "the run's drop is the day's recovery")
    }

    func testWithoutAgeZoneMinutesStayEmpty() throws {
        let ws = try makeWorkspace()
        try DailyStage().run(ws, StageContext())
        XCTAssertNil(try ws.read(DailyRow.self)[0].snapshot.zoneMinutes)
    }

    /// The sample's Apple Health day and E4 half hour, imported and through hrv.
    func testSampleWorkspace() throws {
        let ws = Workspace(path: try makeTempDir())
        for stage: any Stage in [ImportStage(sources: [PipelineTests.sample]), HRVStage(), DailyStage()] {
            try stage.run(ws, StageContext())
        }
        // Both days are short recordings: below 10 worn hours, so no resting HR and no stress.
        let worn = try ws.read(DailyRow.self)
        XCTAssertEqual(worn.map(\.snapshot.wearHours), [1, 1])
        XCTAssertEqual(worn.map { $0.flags.contains("low_wear") }, [true, true])
        XCTAssertEqual(worn.map(\.snapshot.restingHRBpm), [nil, nil])
        XCTAssertEqual(worn.map(\.stress), [nil, nil])
        // With the wear threshold at 0 h, the percentile rule gives each day's resting HR.
        let everyHour = try ConstantsRegistry.defaults.replacing("daily_inputs", with: ["min_wear_hours": 0], version: "1.3.0")
        try DailyStage().run(ws, StageContext(registry: everyHour))
        let rows = try ws.read(DailyRow.self)
        XCTAssertEqual(rows.map { "\($0.snapshot.subject) \($0.snapshot.date)" }, ["S01 2023-11-14", "S02 2023-11-15"])
        let (s01, s02) = (rows[0].snapshot, rows[1].snapshot)
        // S02: Apple Health sleep 23:10 → 06:30 in four asleep stages = 7 h 20 min; three SDNN samples
        // (52.0 + 61.5 + 44.2)/3; a 35-minute walk. Resting HR: numpy.percentile(bpm, 5) of the 240
        // accepted heart.csv samples = 56.8 (the minimum is 56.2).
        XCTAssertEqual(try XCTUnwrap(s02.sleepHours), 7 + 20.0 / 60, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(s02.hrvSDNNMs), (52.0 + 61.5 + 44.2) / 3, accuracy: 1e-12)
        XCTAssertEqual(s02.workoutMinutes, 35)
        XCTAssertEqual(try XCTUnwrap(s02.restingHRBpm), 56.8, accuracy: 1e-9)
        // S01 (E4, no wearable SDNN): 1440 accepted HR samples, numpy.percentile 5 = 64.77; SDNN the
        // median of its 11 reliable 5-minute windows in hrv.csv (pandas: 54.70750876138143).
        XCTAssertEqual(try XCTUnwrap(s01.restingHRBpm), 64.77, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(s01.hrvSDNNMs), 54.70750876138143, accuracy: 1e-9)
        XCTAssertNil(s01.sleepHours)
    }

    /// The persona generator writes daily.csv through the same stage: running it again
    /// on the generated workspace reproduces the file byte for byte.
    func testPersonaWorkspaceDailyIsTheStagesOutput() throws {
        let ws = Workspace(path: try makeTempDir())
        try PersonaGenerator(personas: [PersonaProfile.all[0]], days: 3).generate(into: ws, jobs: 1)
        let generated = try Data(contentsOf: URL(fileURLWithPath: ws.file(DailyRow.fileName)))
        try DailyStage().run(ws, StageContext())
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: ws.file(DailyRow.fileName))), generated)
        XCTAssertEqual(try ws.read(DailyRow.self).count, 3)
    }

    /// Heart rate read a day at a time gives every table what the rows grouped by day give.
    /// Rows whose days come back are held and grouped: here day 1's second source comes
    /// after day 2, and only grouped with day 1's first source does the source rule set it
    /// aside (taken alone, its +9 bpm samples would count).
    func testHeartRateDaysTakenInTimeOrderOrGroupedGiveTheSameTables() throws {
        let day0: Int64 = 1_711_584_000_000  // 2024-03-28T00:00Z
        var watch: [[HRSample]] = [], band: [[HRSample]] = [], both: [[HRSample]] = []
        for d in 0..<4 {
            var w: [HRSample] = [], b: [HRSample] = [], all: [HRSample] = []
            for k in stride(from: 0, to: 86_400, by: 20) {
                let t = day0 + Int64(d) * 86_400_000 + Int64(k) * 1000
                let bpm = (60 + 14 * sin(Double(k) / 4000) + Double((k * 7) % 5)).rounded()
                w.append(HRSample(subject: "A", timestampMs: t, bpm: bpm, source: "watch"))
                all.append(w[w.count - 1])
                // A second source, one sample in some minutes (the watch has three).
                if k % 300 == 0 {
                    b.append(HRSample(subject: "A", timestampMs: t + 2000, bpm: bpm + 9, source: "band"))
                    all.append(b[b.count - 1])
                }
            }
            watch.append(w); band.append(b); both.append(all)
        }
        var outputs: [[String: Data]] = []
        for rows in [both.flatMap { $0 }, both[0] + watch[1] + both[2] + band[1] + both[3]] {
            let ws = Workspace(path: try makeTempDir())
            try ws.write(rows)
            try DailyStage(ageYears: 35).run(ws, StageContext())
            var files: [String: Data] = [:]
            for name in [DailyRow.fileName, ZoneDayRow.fileName, ReceiptRow.fileName, NudgeRow.fileName, CoachingRow.fileName] {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: ws.file(name)))
            }
            outputs.append(files)
        }
        XCTAssertEqual(outputs[0], outputs[1])
        let path = try makeTempDir() + "/" + DailyRow.fileName
        try outputs[0][DailyRow.fileName]?.write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try Workspace.readTable(DailyRow.self, path: path).compactMap(\.snapshot.restingHRBpm).count, 4)
    }
}
