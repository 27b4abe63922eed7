import XCTest
@testable import ResonanceLab

/// Samsung Health, Withings, Polar Flow and WHOOP exports, fixtures written from each
/// export's documented layout: detection, rows read / accepted / rejected per file,
/// exact rows per table with first and last values to the millisecond, and each
/// format's trap.
final class WearableServiceFormatsTests: XCTestCase {
    func testSamsungHealthHeartRateWithBOMAndMetadataLine() throws {
        let ns = "com.samsung.health.heart_rate."
        let header = ["source", "tag_id", "create_sh_ver", "heart_beat_count", "start_time", "custom", "binning_data",
                      "modify_sh_ver", "update_time", "create_time", "max", "min", "time_offset", "deviceuuid", "comment",
                      "pkg_name", "end_time", "datauuid", "heart_rate"]
            .enumerated().map { $0.offset < 2 ? $0.element : ns + $0.element }.joined(separator: ",")
        func row(_ start: String, _ offset: String, _ bpm: String) -> String {
            "0,21313,60001,1,\(start),,,60001,\(start),\(start),\(bpm),\(bpm),\(offset),dev1,,com.sec.android.app.shealth,\(start),uuid,\(bpm),"
        }
        let path = try writeFixture("\u{FEFF}com.samsung.shealth.tracker.heart_rate,6313007,3\n\(header),\n"
            + [row("2024-03-01 08:00:00.250", "UTC+0100", "72.0"), row("2024-03-01 08:10:00.000", "UTC+0100", "0"),
               row("2024-03-01 08:05:00.000", "UTC+0100", ""), row("2024-03-01 07:55:00.500", "UTC+0100", "64.0"),
               row("2024-03-01 08:20:00.125", "UTC-0500", "80.0")].joined(separator: "\n") + "\n",
            to: try makeTempDir() + "/sam/com.samsung.shealth.tracker.heart_rate.20240302120000.csv")
        // The same file under another name is still recognised by its metadata line.
        XCTAssertEqual(try SourceFormat.detect(path: path), .samsungHeartRate)
        let renamed = try writeFixture(try String(contentsOfFile: path, encoding: .utf8), to: try makeTempDir() + "/hr_export.csv")
        XCTAssertEqual(try SourceFormat.detect(path: renamed), .samsungHeartRate)
        // --tz changes nothing: start_time is UTC.
        let (ws, m) = try importSources([path], tz: "Europe/Berlin")
        let s = m.sources[0]
        XCTAssertEqual(s.format, "samsung-hr")
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [5, 3, 2])
        XCTAssertEqual(try ws.read(Reject.self).map(\.reason), ["no heart rate (empty or 0)", "no heart rate (empty or 0)"])
        XCTAssertEqual(try ws.read(Reject.self).map(\.line), [4, 5])
        let hr = try ws.read(HRSample.self)
        XCTAssertEqual(hr.count, 3)
        XCTAssertEqual(hr.map { Timestamp.iso($0.timestampMs) },
                       ["2024-03-01T07:55:00.500Z", "2024-03-01T08:00:00.250Z", "2024-03-01T08:20:00.125Z"])
        XCTAssertEqual(hr.map(\.bpm), [64, 72, 80])
        XCTAssertEqual(Set(hr.map(\.source)), ["samsung_health"])
        XCTAssertFalse(s.notes.contains { $0.hasPrefix("naive local times") }, "\(s.notes)")
    }

    func testUTCOffsetTexts() {
        XCTAssertEqual(UTCOffset.minutes("UTC+0100"), 60)
        XCTAssertEqual(UTCOffset.minutes("UTC-05:00"), -300)
        XCTAssertEqual(UTCOffset.minutes("UTC+0530"), 330)
        XCTAssertEqual(UTCOffset.minutes("UTCZ"), 0)
        XCTAssertEqual(UTCOffset.minutes("UTC"), 0)
        XCTAssertEqual(UTCOffset.minutes("-03:30"), -210)
        XCTAssertNil(UTCOffset.minutes("UTC+1500"))
        XCTAssertNil(UTCOffset.minutes("UTC+01:75"))
        XCTAssertNil(UTCOffset.minutes("Europe/Paris"))
    }

    func testWithingsBracketedArraysUnsortedRows() throws {
        let dir = try makeTempDir() + "/wil"
        let path = try writeFixture("""
            start,duration,value
            2024-03-01T09:00:00+01:00,"[60,60,30]","[72,0,74]"
            2024-03-01T07:00:00.500Z,"[60]","[61]"
            2024-03-01T10:00:00+01:00,"[60,60]","[80]"
            2024-03-01T10:30:00+01:00,"[60]","[400]"
            2024-03-01T03:15:00-05:00,"[5,5]","[90,91]"

            """, to: dir + "/raw_hr_hr.csv")
        // Another raw_ file with the same header is not heart rate: skipped in a folder.
        try writeFixture("start,duration,value\n2024-03-01T09:00:00+01:00,\"[60]\",\"[12]\"\n", to: dir + "/raw_tracker_steps.csv")
        let (ws, m) = try importSources([dir])
        XCTAssertEqual(m.sources.map(\.format), ["withings-hr"])
        XCTAssertEqual(m.skipped?.map(\.path), ["wil/raw_tracker_steps.csv"])
        let s = m.sources[0]
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [5, 3, 2])
        XCTAssertEqual(try ws.read(Reject.self).map(\.reason), ["1 values but 2 durations", HRConstants.defaults.rejectReason])
        let hr = try ws.read(HRSample.self)
        // 09:00+01:00 is 08:00Z: samples at +0 s and +120 s (the 0 at +60 s is no reading);
        // 03:15-05:00 is 08:15Z: +0 s and +5 s.
        XCTAssertEqual(hr.map { Timestamp.iso($0.timestampMs) }, ["2024-03-01T07:00:00.500Z", "2024-03-01T08:00:00.000Z",
                                                              "2024-03-01T08:02:00.000Z", "2024-03-01T08:15:00.000Z",
                                                              "2024-03-01T08:15:05.000Z"])
        XCTAssertEqual(hr.map(\.bpm), [61, 72, 74, 90, 91])
        XCTAssertTrue(s.notes.contains { $0.contains("5 samples from 5 rows; 1 value of 0") }, "\(s.notes)")
    }

    func testWithingsArrays() {
        XCTAssertEqual(Withings.array("[60, 60.5]"), [60, 60.5])
        XCTAssertEqual(Withings.array("[]"), [])
        XCTAssertNil(Withings.array("60"))
        XCTAssertNil(Withings.array("[60,,1]"))
        XCTAssertNil(Withings.array("[0x3C]"))
    }

    /// A Polar Flow session export: the summary block, then 1 Hz samples.
    static let polarFlowSession = """
        Name,Sport,Date,Start time,Duration,Total distance (km),Average heart rate (bpm),Average speed (km/h),Max speed (km/h),Average pace (min/km),Max pace (min/km),Calories,Fat percentage of calories(%),Average cadence (rpm),Average stride length (cm),Running index,Training load,Ascent (m),Descent (m),Average power (W),Max power (W),Notes,Height (cm),Weight (kg),HR max,HR sit,VO2max,
        Jane Doe,RUNNING,01-03-2024,08:00:00,00:00:05,0.02,95,10.2,11.0,5:52,5:27,3,40,80,,,,,,,,,170,60,190,55,48,
        Sample rate,Time,HR (bpm),Speed (km/h),Pace (min/km),Cadence,Altitude (m),Stride length (m),Distances (m),Temperatures (C),Power (W),
        1,00:00:00,90,0.0,,,,,0.00,,,
        ,00:00:01,92,9.5,6:19,80,,,2.6,,,
        ,00:00:02,,10.1,5:56,80,,,5.4,,,
        ,00:00:03,97,10.8,5:33,82,,,8.4,,,
        ,00:00:04,99,11.0,5:27,82,,,11.5,,,

        """

    func testPolarFlowSessionInTheGivenZone() throws {
        let path = try writeFixture(Self.polarFlowSession, to: try makeTempDir() + "/jane/Jane_Doe_2024-03-01_08-00-00.csv")
        let (ws, m) = try importSources([path], tz: "Europe/Helsinki")
        let s = m.sources[0]
        XCTAssertEqual(s.format, "polar-flow")
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [6, 5, 1])
        XCTAssertEqual(try ws.read(Reject.self).map(\.reason), ["no heart rate (empty or 0)"])
        XCTAssertEqual(try ws.read(Reject.self).map(\.line), [6])
        // 08:00 in Helsinki (UTC+2 in March) is 06:00Z.
        let hr = try ws.read(HRSample.self)
        XCTAssertEqual(hr.count, 4)
        XCTAssertEqual(hr.first.map { Timestamp.iso($0.timestampMs) }, "2024-03-01T06:00:00.000Z")
        XCTAssertEqual(hr.last.map { Timestamp.iso($0.timestampMs) }, "2024-03-01T06:00:04.000Z")
        XCTAssertEqual(hr.map(\.bpm), [90, 92, 97, 99])
        XCTAssertEqual(try ws.read(Workout.self).map { [Timestamp.iso($0.startMs), Timestamp.iso($0.endMs), $0.activity] },
                       [["2024-03-01T06:00:00.000Z", "2024-03-01T06:00:05.000Z", "RUNNING"]])
        XCTAssertFalse(s.notes.contains { $0.contains("read as UTC") }, "\(s.notes)")
    }

    func testPolarFlowWithoutTimeZoneWarns() throws {
        let path = try writeFixture(Self.polarFlowSession, to: try makeTempDir() + "/jane/Jane_Doe_2024-03-01_08-00-00.csv")
        var warnings: [String] = []
        let ws = Workspace(path: try makeTempDir() + "/ws")
        var options = Importer.Options()
        options.warning = { warnings.append($0) }
        let m = try Importer.run(sources: [path], workspace: ws, options: options)
        XCTAssertEqual(warnings, ["jane/Jane_Doe_2024-03-01_08-00-00.csv: Polar Flow times carry no zone: read as UTC (give --tz for the zone of the recording)"])
        XCTAssertTrue(m.sources[0].notes.contains("Polar Flow times carry no zone: read as UTC (give --tz for the zone of the recording)"))
        XCTAssertEqual(try ws.read(HRSample.self).first.map { Timestamp.iso($0.timestampMs) }, "2024-03-01T08:00:00.000Z")
    }

    func testPolarFlowClockAndDate() {
        XCTAssertEqual(PolarFlow.clock("01:02:03"), 3_723_000)
        XCTAssertEqual(PolarFlow.clock("00:00:01.5"), 1500)
        XCTAssertNil(PolarFlow.clock("00:60:00"))
        XCTAssertNil(PolarFlow.clock("12:00"))
        XCTAssertEqual(PolarFlow.date("29-02-2024"), Timestamp.parseISO("2024-02-29T00:00:00Z")!.ms)
        XCTAssertNil(PolarFlow.date("30-02-2024"))
        XCTAssertNil(PolarFlow.date("2024-03-01"))
    }

    /// A WHOOP export of a member who flew from New York to Paris: newest rows first,
    /// each in its own Cycle timezone, the current cycle without end or sleep.
    func testWhoopAcrossZonesNewestFirst() throws {
        let dir = try makeTempDir() + "/kim"
        try writeFixture("""
            Cycle start time,Cycle end time,Cycle timezone,Recovery score %,Resting heart rate (bpm),Heart rate variability (ms),Skin temp (celsius),Blood oxygen %,Day Strain,Energy burned (cal),Max HR (bpm),Average HR (bpm),Sleep onset,Wake onset,Sleep performance %,Respiratory rate (rpm),Asleep duration (min),In bed duration (min),Light sleep duration (min),Deep (SWS) duration (min),REM duration (min),Awake duration (min),Sleep need (min),Sleep debt (min),Sleep efficiency %,Sleep consistency %
            2024-03-03 07:30:00,,UTC+01:00,,,,,,3.1,500,120,70,,,,,,,,,,,,,,
            2024-03-02 07:10:00,2024-03-03 07:30:00,UTC+01:00,55,58,41.5,33.1,96.0,12.0,2400,160,75,2024-03-02 23:05:10,2024-03-03 07:25:00,80,15.2,420,470,200,100,120,50,480,20,90,70
            2024-03-01 06:00:00,2024-03-02 01:10:00,UTC-05:00,70,52,63.25,33.4,97.0,9.5,2100,150,68,2024-03-01 22:30:00,2024-03-02 06:00:00,92,14.8,440,450,210,110,120,10,470,0,95,80

            """, to: dir + "/physiological_cycles.csv")
        try writeFixture("""
            Cycle start time,Cycle end time,Cycle timezone,Sleep onset,Wake onset,Sleep performance %,Respiratory rate (rpm),Asleep duration (min),In bed duration (min),Light sleep duration (min),Deep (SWS) duration (min),REM duration (min),Awake duration (min),Sleep need (min),Sleep debt (min),Sleep efficiency %,Sleep consistency %,Nap
            2024-03-02 07:10:00,2024-03-03 07:30:00,UTC+01:00,2024-03-02 23:05:10,2024-03-03 07:25:00,80,15.2,420,470,200,100,120,50,480,20,90,70,false
            2024-03-02 07:10:00,2024-03-03 07:30:00,UTC+01:00,2024-03-02 14:00:00,2024-03-02 14:30:00,,,25,30,20,5,0,5,,,83,,true
            2024-03-01 06:00:00,2024-03-02 01:10:00,UTC-05:00,2024-03-01 22:30:00,2024-03-02 06:00:00,92,14.8,440,450,210,110,120,10,470,0,95,80,false

            """, to: dir + "/sleeps.csv")
        try writeFixture("""
            Cycle start time,Cycle end time,Cycle timezone,Workout start time,Workout end time,Duration (min),Activity name,Activity Strain,Energy burned (cal),Max HR (bpm),Average HR (bpm),HR Zone 1 %,HR Zone 2 %,HR Zone 3 %,HR Zone 4 %,HR Zone 5 %,GPS enabled
            2024-03-02 07:10:00,2024-03-03 07:30:00,UTC+01:00,2024-03-02 18:00:00,2024-03-02 18:45:30,45,Running,10.2,500,170,150,10,20,30,30,10,false
            2024-03-01 06:00:00,2024-03-02 01:10:00,UTCZ,2024-03-01 12:00:00,2024-03-01 11:00:00,0,Walking,1,50,100,90,100,0,0,0,0,false
            2024-03-01 06:00:00,2024-03-02 01:10:00,UTC-05:00,2024-03-01 17:15:00,2024-03-01 18:15:00,60,Cycling,9.0,600,160,140,10,20,40,20,10,false

            """, to: dir + "/workouts.csv")
        let (ws, m) = try importSources([dir])
        XCTAssertEqual(m.sources.map(\.format), ["whoop", "whoop", "whoop"])
        let bySource = Dictionary(uniqueKeysWithValues: m.sources.map { (($0.path as NSString).lastPathComponent, $0) })
        let cycles = try XCTUnwrap(bySource["physiological_cycles.csv"])
        XCTAssertEqual([cycles.rowsRead, cycles.accepted, cycles.rejected], [2, 2, 0])
        XCTAssertEqual(cycles.unusedRecords, ["cycle without Heart rate variability (ms), Sleep onset or Resting heart rate": 1])
        let sleeps = try XCTUnwrap(bySource["sleeps.csv"])
        XCTAssertEqual([sleeps.rowsRead, sleeps.accepted, sleeps.rejected], [3, 3, 0])
        let workouts = try XCTUnwrap(bySource["workouts.csv"])
        XCTAssertEqual([workouts.rowsRead, workouts.accepted, workouts.rejected], [3, 2, 1])
        XCTAssertEqual(try ws.read(Reject.self).map(\.reason), ["end before start"])
        // 22:30 in New York (UTC−5) is 03:30Z; 23:05:10 in Paris (UTC+1) is 22:05:10Z.
        let hrv = try ws.read(HRVSample.self)
        XCTAssertEqual(hrv.map { Timestamp.iso($0.timestampMs) }, ["2024-03-02T03:30:00.000Z", "2024-03-02T22:05:10.000Z"])
        XCTAssertEqual(hrv.map(\.rmssdMs), [63.25, 41.5])
        XCTAssertEqual(hrv.map(\.sdnnMs), [nil, nil])
        // Resting heart rate is a daily aggregate: no hr.csv rows, a daily input on the wake onset's local date.
        XCTAssertEqual(try ws.read(HRSample.self), [])
        XCTAssertEqual(try ws.read(DailyInputRow.self), [
            DailyInputRow(subject: "kim", date: "2024-03-02", metric: "resting_hr", value: 52, unit: "bpm", source: "whoop"),
            DailyInputRow(subject: "kim", date: "2024-03-03", metric: "resting_hr", value: 58, unit: "bpm", source: "whoop"),
        ])
        let sleep = try ws.read(SleepEpisode.self)
        XCTAssertEqual(sleep.map { [Timestamp.iso($0.startMs), Timestamp.iso($0.endMs), $0.stage.rawValue, $0.source] }, [
            ["2024-03-02T03:30:00.000Z", "2024-03-02T11:00:00.000Z", "in_bed", "whoop"],
            ["2024-03-02T13:00:00.000Z", "2024-03-02T13:30:00.000Z", "in_bed", "whoop_nap"],
            ["2024-03-02T22:05:10.000Z", "2024-03-03T06:25:00.000Z", "in_bed", "whoop"],
        ])
        XCTAssertEqual(try ws.read(Workout.self).map { [Timestamp.iso($0.startMs), Timestamp.iso($0.endMs), $0.activity] }, [
            ["2024-03-01T22:15:00.000Z", "2024-03-01T23:15:00.000Z", "Cycling"],
            ["2024-03-02T17:00:00.000Z", "2024-03-02T17:45:30.000Z", "Running"],
        ])
        XCTAssertFalse(m.sources.contains { $0.notes.contains { $0.contains("read as UTC") } })
    }

    func testWhoopRowWithoutZoneIsReadInTzElseUTCWithAWarning() throws {
        let path = try writeFixture("""
            Cycle start time,Cycle end time,Cycle timezone,Workout start time,Workout end time,Duration (min),Activity name
            2024-03-01 06:00:00,2024-03-02 01:10:00,,2024-03-01 17:15:00.250,2024-03-01 18:15:00,60,Cycling

            """, to: try makeTempDir() + "/kim/workouts.csv")
        let (tz, _) = try importSources([path], tz: "America/New_York")
        XCTAssertEqual(try tz.read(Workout.self).map { Timestamp.iso($0.startMs) }, ["2024-03-01T22:15:00.250Z"])
        var warnings: [String] = []
        let ws = Workspace(path: try makeTempDir() + "/ws")
        var options = Importer.Options()
        options.warning = { warnings.append($0) }
        _ = try Importer.run(sources: [path], workspace: ws, options: options)
        XCTAssertEqual(warnings, ["kim/workouts.csv: 2 WHOOP times without a Cycle timezone: read as UTC (give --tz)"])
        XCTAssertEqual(try ws.read(Workout.self).map { Timestamp.iso($0.startMs) }, ["2024-03-01T17:15:00.250Z"])
    }
}
