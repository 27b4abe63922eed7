import XCTest
@testable import ResonanceLab

/// Oura API v2 and Garmin Connect exports, fixtures written from each layout's public
/// documentation: detection, rows read / accepted / rejected per file, exact rows per
/// table with first and last values to the millisecond, and each format's trap.
final class OuraGarminFormatsTests: XCTestCase {
    /// Oura's two clocks: heartrate `timestamp` in UTC or with an offset (and a
    /// `timestamp_unix` in milliseconds), sleep samples stamped from a local time with
    /// its offset; the night's lowest heart rate on bedtime_end's local date.
    func testOuraHeartRateAndSleepDocuments() throws {
        let dir = try makeTempDir() + "/ana"
        let hrPath = try writeFixture("""
            {"data": [
              {"bpm": 61, "source": "awake", "timestamp": "2024-03-01T07:00:00.250+00:00", "timestamp_unix": 1709276400250},
              {"bpm": 0, "source": "awake", "timestamp": "2024-03-01T07:05:00+00:00"},
              {"bpm": 72, "source": "rest", "timestamp": "2024-03-01T09:30:00.125+01:00"},
              {"bpm": 65, "source": "live", "timestamp_unix": 1709280000500},
              {"bpm": null, "source": "live", "timestamp": "2024-03-01T09:40:00+01:00"}
            ], "next_token": null}
            """, to: dir + "/heartrate.json")
        let sleepPath = try writeFixture("""
            {"data": [
              {"id": "a", "day": "2024-03-02", "type": "long_sleep",
               "bedtime_start": "2024-03-01T23:00:00+01:00", "bedtime_end": "2024-03-02T00:28:00+01:00",
               "heart_rate": {"interval": 300.0, "items": [60, null, 55, 52.5], "timestamp": "2024-03-01T23:00:00.000+01:00"},
               "hrv": {"interval": 300.0, "items": [null, 41, 38], "timestamp": "2024-03-01T23:00:00.000+01:00"},
               "sleep_phase_5_min": "442211112233334444", "lowest_heart_rate": 52, "average_hrv": 40,
               "deep_sleep_duration": 1200, "light_sleep_duration": 1200},
              {"id": "b", "day": "2024-03-02", "type": "late_nap",
               "bedtime_start": "2024-03-02T14:00:00+01:00", "bedtime_end": "2024-03-02T14:30:00+01:00",
               "heart_rate": null, "hrv": null, "sleep_phase_5_min": "", "lowest_heart_rate": 58},
              {"id": "c", "type": "long_sleep", "bedtime_start": "2024-03-03T23:00:00+01:00", "bedtime_end": "x"}
            ], "next_token": "abc"}
            """, to: dir + "/sleep.json")
        XCTAssertEqual(try SourceFormat.detect(path: hrPath), .oura)
        XCTAssertEqual(try SourceFormat.detect(path: sleepPath), .oura)
        // --tz changes nothing: every time carries its offset.
        let (ws, m) = try importSources([dir], tz: "America/New_York")
        assertAccounting(m)
        let bySource = Dictionary(uniqueKeysWithValues: m.sources.map { (($0.path as NSString).lastPathComponent, $0) })
        let hrFile = try XCTUnwrap(bySource["heartrate.json"])
        XCTAssertEqual(hrFile.format, "oura")
        XCTAssertEqual([hrFile.rowsRead, hrFile.accepted, hrFile.rejected], [5, 3, 2])
        XCTAssertTrue(hrFile.notes.contains { $0.contains("timestamp_unix read in ms") }, "\(hrFile.notes)")
        let sleepFile = try XCTUnwrap(bySource["sleep.json"])
        XCTAssertEqual([sleepFile.rowsRead, sleepFile.accepted, sleepFile.rejected], [3, 2, 1])
        XCTAssertEqual(try ws.read(Reject.self).map { "\(($0.sourceFile as NSString).lastPathComponent):\($0.line) \($0.reason)" }, [
            "heartrate.json:3 bpm outside 20–250", "heartrate.json:6 no bpm",
            "sleep.json:11 unparsable bedtime_start or bedtime_end",
        ])

        let hr = try ws.read(HRSample.self)
        XCTAssertEqual(hr.map { Timestamp.iso($0.timestampMs) }, [
            "2024-03-01T07:00:00.250Z", "2024-03-01T08:00:00.500Z", "2024-03-01T08:30:00.125Z",
            "2024-03-01T22:00:00.000Z", "2024-03-01T22:10:00.000Z", "2024-03-01T22:15:00.000Z",
        ])
        XCTAssertEqual(hr.map(\.bpm), [61, 65, 72, 60, 55, 52.5])
        XCTAssertEqual(Set(hr.map(\.source)), ["oura"])
        let hrv = try ws.read(HRVSample.self)
        XCTAssertEqual(hrv.map { Timestamp.iso($0.timestampMs) }, ["2024-03-01T22:05:00.000Z", "2024-03-01T22:10:00.000Z"])
        XCTAssertEqual(hrv.map(\.rmssdMs), [41, 38])
        XCTAssertEqual(hrv.map(\.sdnnMs), [nil, nil])
        // One interval per run of equal characters; the last run ends at bedtime_end.
        let sleep = try ws.read(SleepEpisode.self)
        XCTAssertEqual(sleep.map { [Timestamp.iso($0.startMs), Timestamp.iso($0.endMs), $0.stage.rawValue, $0.source] }, [
            ["2024-03-01T22:00:00.000Z", "2024-03-01T22:10:00.000Z", "awake", "oura"],
            ["2024-03-01T22:10:00.000Z", "2024-03-01T22:20:00.000Z", "core", "oura"],
            ["2024-03-01T22:20:00.000Z", "2024-03-01T22:40:00.000Z", "deep", "oura"],
            ["2024-03-01T22:40:00.000Z", "2024-03-01T22:50:00.000Z", "core", "oura"],
            ["2024-03-01T22:50:00.000Z", "2024-03-01T23:10:00.000Z", "rem", "oura"],
            ["2024-03-01T23:10:00.000Z", "2024-03-01T23:28:00.000Z", "awake", "oura"],
        ])
        // bedtime_end is 23:28Z on March 1st but 00:28 local on March 2nd: the local date wins;
        // the nap's lowest heart rate is no resting heart rate.
        XCTAssertEqual(try ws.read(DailyInputRow.self), [
            DailyInputRow(subject: "ana", date: "2024-03-02", metric: "resting_hr", value: 52, unit: "bpm", source: "oura"),
        ])
    }

    func testOuraTimeWithoutOffsetIsReadInTzElseUTCWithAWarning() throws {
        let path = try writeFixture("""
            {"data": [{"bpm": 70, "source": "awake", "timestamp": "2024-03-01T07:00:00.250"}], "next_token": null}
            """, to: try makeTempDir() + "/kim/heartrate.json")
        let (tz, _) = try importSources([path], tz: "Europe/Berlin")
        XCTAssertEqual(try tz.read(HRSample.self).map { Timestamp.iso($0.timestampMs) }, ["2024-03-01T06:00:00.250Z"])
        var warnings: [String] = []
        let ws = Workspace(path: try makeTempDir() + "/ws")
        var options = Importer.Options()
        options.warning = { warnings.append($0) }
        _ = try Importer.run(sources: [path], workspace: ws, options: options)
        XCTAssertEqual(warnings, ["kim/heartrate.json: 1 Oura times without an offset: read as UTC (give --tz)"])
        XCTAssertEqual(try ws.read(HRSample.self).map { Timestamp.iso($0.timestampMs) }, ["2024-03-01T07:00:00.250Z"])
    }

    func testOuraOffsetOfAnISOTime() {
        XCTAssertEqual(Oura.offsetMinutes("2024-03-02T00:28:00+01:00"), 60)
        XCTAssertEqual(Oura.offsetMinutes("2024-03-02T00:28:00.5-04:30"), -270)
        XCTAssertEqual(Oura.offsetMinutes("2024-03-02T00:28:00Z"), 0)
        XCTAssertNil(Oura.offsetMinutes("2024-03-02T00:28:00"))
    }
    /// Garmin Connect export: nights from their GMT timestamps (not moved by --tz), the
    /// stage totals not turned into intervals, the overnight HRV at the night's start,
    /// and daily summaries whose `restingHeartRate: 0` (not worn) is missing, never 0 bpm.
    func testGarminSleepAndDailySummariesWithZeroRestingHeartRate() throws {
        let dir = try makeTempDir() + "/export/DI_CONNECT"
        let sleepPath = try writeFixture("""
            [{"calendarDate": "2024-03-01", "sleepStartTimestampGMT": "2024-02-29T22:30:00.0",
              "sleepEndTimestampGMT": "2024-03-01T06:15:30.0", "sleepWindowConfirmationType": "ENHANCED_CONFIRMED_FINAL",
              "deepSleepSeconds": 5400, "lightSleepSeconds": 14400, "remSleepSeconds": 6000, "awakeSleepSeconds": 2130,
              "avgOvernightHrv": 48.5},
             {"calendarDate": "2024-03-02", "sleepWindowConfirmationType": "UNCONFIRMED", "deepSleepSeconds": 0},
             {"calendarDate": "2024-03-03", "sleepStartTimestampGMT": "2024-03-02T23:05:00.0",
              "sleepEndTimestampGMT": "2024-03-03T07:00:00.250", "deepSleepSeconds": 4000, "lightSleepSeconds": 15000,
              "remSleepSeconds": 7000, "awakeSleepSeconds": 2000}]
            """, to: dir + "/DI-Connect-Wellness/2024-02-29_2024-06-08_123456_sleepData.json")
        let udsPath = try writeFixture("""
            [{"userProfilePK": 123456, "calendarDate": "2024-03-01", "totalSteps": 8500, "restingHeartRate": 54, "minHeartRate": 50},
             {"userProfilePK": 123456, "calendarDate": "2024-03-02", "totalSteps": 1200, "restingHeartRate": 0},
             {"userProfilePK": 123456, "calendarDate": "2024-03-03", "totalSteps": 0, "restingHeartRate": 0},
             {"userProfilePK": 123456, "calendarDate": "bad", "totalSteps": 100, "restingHeartRate": 60},
             {"userProfilePK": 123456, "calendarDate": "2024-03-05", "totalSteps": 9000.0, "restingHeartRate": 57}]
            """, to: dir + "/DI-Connect-Aggregator/UDSFile_2024-02-29_2024-06-08.json")
        XCTAssertEqual(try SourceFormat.detect(path: sleepPath), .garmin)
        XCTAssertEqual(try SourceFormat.detect(path: udsPath), .garmin)
        let (ws, m) = try importSources([sleepPath, udsPath], tz: "America/New_York", subject: "lee")
        assertAccounting(m)
        XCTAssertEqual(m.sources.map(\.format), ["garmin", "garmin"])
        let sleepFile = m.sources[0], uds = m.sources[1]
        XCTAssertEqual([sleepFile.rowsRead, sleepFile.accepted, sleepFile.rejected], [3, 2, 1])
        XCTAssertEqual([uds.rowsRead, uds.accepted, uds.rejected], [4, 3, 1])
        XCTAssertEqual(uds.unusedRecords, ["day without restingHeartRate or totalSteps (0: not worn)": 1])
        XCTAssertEqual(try ws.read(Reject.self).map(\.reason),
                       ["no or unparsable sleepStartTimestampGMT or sleepEndTimestampGMT", "unparsable calendarDate"])
        let sleep = try ws.read(SleepEpisode.self)
        XCTAssertEqual(sleep.map { [Timestamp.iso($0.startMs), Timestamp.iso($0.endMs), $0.stage.rawValue, $0.source] }, [
            ["2024-02-29T22:30:00.000Z", "2024-03-01T06:15:30.000Z", "in_bed", "garmin"],
            ["2024-03-02T23:05:00.000Z", "2024-03-03T07:00:00.250Z", "in_bed", "garmin"],
        ])
        let hrv = try ws.read(HRVSample.self)
        XCTAssertEqual(hrv.map { Timestamp.iso($0.timestampMs) }, ["2024-02-29T22:30:00.000Z"])
        XCTAssertEqual(hrv.map(\.rmssdMs), [48.5])
        XCTAssertEqual(try ws.read(HRSample.self), [])
        XCTAssertEqual(try ws.read(DailyInputRow.self), [
            DailyInputRow(subject: "lee", date: "2024-03-01", metric: "resting_hr", value: 54, unit: "bpm", source: "garmin"),
            DailyInputRow(subject: "lee", date: "2024-03-01", metric: "steps", value: 8500, unit: "count", source: "garmin"),
            DailyInputRow(subject: "lee", date: "2024-03-02", metric: "steps", value: 1200, unit: "count", source: "garmin"),
            DailyInputRow(subject: "lee", date: "2024-03-05", metric: "resting_hr", value: 57, unit: "bpm", source: "garmin"),
            DailyInputRow(subject: "lee", date: "2024-03-05", metric: "steps", value: 9000, unit: "count", source: "garmin"),
        ])
        XCTAssertFalse(try ws.read(DailyInputRow.self).contains { $0.value == 0 })
    }
    /// Google Fit daily activity metrics across the spring DST change: the date from the
    /// file name, each time with its own offset; the all-days summary is skipped.
    func testGoogleFitDailyActivityBucketsAcrossDSTAndSummarySkipped() throws {
        let dir = try makeTempDir() + "/mia"
        let header = "Start time,End time,Move Minutes count,Calories (kcal),Distance (m),Heart Points,Heart Minutes,"
            + "Average heart rate (bpm),Max heart rate (bpm),Min heart rate (bpm),Average speed (m/s),Max speed (m/s),"
            + "Min speed (m/s),Step count"
        let path = try writeFixture(header + """

            00:00:00.000+01:00,00:15:00.000+01:00,,1.2,,,,62.5,65,60,,,,
            00:15:00.000+01:00,00:30:00.000+01:00,,1.2,,,,,,,,,,
            01:45:00.000+01:00,02:00:00.000+01:00,,1.2,,,,58,60,55,,,,40
            03:00:00.000+02:00,03:15:00.000+02:00,1,5.0,120,,,300,,,,,,
            09:30:00.000+02:00,09:45:00.000+02:00,10,50,900,10,10,110.25,130,90,1.2,2,0.5,1100

            """, to: dir + "/2024-03-31.csv")
        try writeFixture("Date,Move Minutes count,Calories (kcal),Average heart rate (bpm),Step count\n2024-03-31,11,60,80,1140\n",
                         to: dir + "/Daily activity metrics.csv")
        XCTAssertEqual(try SourceFormat.detect(path: path), .googleFit)
        let (ws, m) = try importSources([dir], tz: "America/New_York")
        assertAccounting(m)
        XCTAssertEqual(m.sources.map(\.format), ["google-fit"])
        let s = m.sources[0]
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [4, 3, 1])
        XCTAssertEqual(s.unusedRecords, ["bucket without Average heart rate (bpm) or Step count": 1])
        XCTAssertEqual(m.skipped?.map(\.path), ["mia/Daily activity metrics.csv"])
        XCTAssertEqual(m.skipped?.map(\.reason), ["Google Fit all-days summary (Daily activity metrics.csv): daily totals, no samples"])
        XCTAssertEqual(try ws.read(Reject.self).map(\.line), [5])
        let hr = try ws.read(HRSample.self)
        XCTAssertEqual(hr.map { Timestamp.iso($0.timestampMs) },
                       ["2024-03-30T23:00:00.000Z", "2024-03-31T00:45:00.000Z", "2024-03-31T07:30:00.000Z"])
        XCTAssertEqual(hr.map(\.bpm), [62.5, 58, 110.25])
        XCTAssertEqual(Set(hr.map(\.source)), ["google_fit"])
        XCTAssertEqual(try ws.read(DailyInputRow.self), [
            DailyInputRow(subject: "mia", date: "2024-03-31", metric: "steps", value: 1140, unit: "count", source: "google_fit"),
        ])
    }
    func testGoogleFitTimeWithoutOffsetIsReadInTzElseUTCWithAWarning() throws {
        let path = try writeFixture("Start time,End time,Average heart rate (bpm),Step count\n10:15:00.000,10:30:00.000,70,\n",
                                    to: try makeTempDir() + "/kim/2024-07-01.csv")
        let (tz, _) = try importSources([path], tz: "Europe/Berlin")
        XCTAssertEqual(try tz.read(HRSample.self).map { Timestamp.iso($0.timestampMs) }, ["2024-07-01T08:15:00.000Z"])
        var warnings: [String] = []
        let ws = Workspace(path: try makeTempDir() + "/ws")
        var options = Importer.Options()
        options.warning = { warnings.append($0) }
        _ = try Importer.run(sources: [path], workspace: ws, options: options)
        XCTAssertEqual(warnings, ["kim/2024-07-01.csv: 1 Google Fit times without an offset: read as UTC (give --tz)"])
        XCTAssertEqual(try ws.read(HRSample.self).map { Timestamp.iso($0.timestampMs) }, ["2024-07-01T10:15:00.000Z"])
    }
}
