import XCTest
@testable import ResonanceLab

/// Apple Health export.xml and the per-type CSVs of conversion scripts, fixtures
/// written from the export's documented element and attribute names.
final class AppleHealthXMLTests: XCTestCase {
    static let export = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
        <!ATTLIST HealthData locale CDATA #REQUIRED>
        ]>
        <HealthData locale="en_US">
         <ExportDate value="2024-03-02 10:00:00 -0800"/>
         <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-01-01" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" creationDate="2024-03-01 06:00:05 -0800" startDate="2024-03-01 06:00:00 -0800" endDate="2024-03-01 06:00:00 -0800" value="62">
          <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="0"/>
         </Record>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2024-03-01 06:05:00 -0800" endDate="2024-03-01 06:05:00 -0800" value="300"/>
         <Record type="HKQuantityTypeIdentifierRestingHeartRate" sourceName="Watch" unit="count/min" startDate="2024-03-01 00:00:00 -0800" endDate="2024-03-01 23:59:00 -0800" value="55"/>
         <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Watch" unit="ms" startDate="2024-03-01 06:10:00 -0800" endDate="2024-03-01 06:11:00 -0800" value="48.2">
          <HeartRateVariabilityMetadataList>
           <InstantaneousBeatsPerMinute bpm="60" time="6:10:01.00 AM"/>
           <InstantaneousBeatsPerMinute bpm="62" time="6:10:01.97 AM"/>
           <InstantaneousBeatsPerMinute bpm="58" time="6:10:03.00 AM"/>
           <InstantaneousBeatsPerMinute bpm="120" time="6:10:04.00 AM"/>
          </HeartRateVariabilityMetadataList>
         </Record>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2024-03-01 07:00:00 -0800" endDate="2024-03-01 07:10:00 -0800" value="800"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2024-03-01 07:10:00 -0800" endDate="2024-03-01 07:20:00 -0800" value="900"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" startDate="2024-03-01 00:30:00 -0800" endDate="2024-03-01 01:30:00 -0800" value="HKCategoryValueSleepAnalysisAsleepCore"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" startDate="2024-03-01 01:30:00 -0800" endDate="2024-03-01 02:30:00 -0800" value="HKCategoryValueSleepAnalysisBogus"/>
         <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Watch" startDate="2024-03-01 07:00:00 -0800" endDate="2024-03-01 07:30:00 -0800">
          <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="2024-03-01 07:00:00 -0800" endDate="2024-03-01 07:30:00 -0800" average="140" unit="count/min"/>
         </Workout>
         <ActivitySummary dateComponents="2024-03-01" activeEnergyBurned="400"/>
        </HealthData>

        """

    func testExportXML() throws {
        let path = try writeFixture(Self.export, to: try makeTempDir() + "/carla/apple_health_export/export.xml")
        try writeFixture("<?xml version=\"1.0\"?><ClinicalDocument/>\n", to: (path as NSString).deletingLastPathComponent + "/export_cda.xml")
        let (ws, m) = try importSources([(path as NSString).deletingLastPathComponent])
        XCTAssertEqual(m.sources.count, 1, "export_cda.xml holds no rows we read and is skipped")
        let s = m.sources[0]
        XCTAssertEqual(s.format, "apple-health-xml")
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [9, 7, 2])
        XCTAssertEqual(s.unusedRecords, nil)
        XCTAssertEqual(try ws.read(Reject.self).map(\.reason), [HRConstants.defaults.rejectReason, "unknown sleep value"])
        let t = Timestamp.parseISO("2024-03-01T14:00:00Z")!.ms  // 06:00 −08:00
        // The day's resting heart rate is a per-day value, not a sample.
        XCTAssertEqual(try ws.read(HRSample.self), [HRSample(subject: "apple_health_export", timestampMs: t, bpm: 62, source: "apple_health")])
        XCTAssertEqual(try ws.read(DailyInputRow.self), [
            DailyInputRow(subject: "apple_health_export", date: "2024-03-01", metric: "resting_hr", value: 55, unit: "bpm", source: "Watch"),
            DailyInputRow(subject: "apple_health_export", date: "2024-03-01", metric: "steps", value: 1700, unit: "count", source: "Phone"),
        ])
        XCTAssertEqual(try ws.read(SubjectRow.self), [SubjectRow(subject: "apple_health_export", birthYear: 1990, sex: "female",
                                                                  source: "apple_health")])
        XCTAssertEqual(try ws.read(HRVSample.self).map(\.sdnnMs), [48.2])
        // Beats at 06:10:01.00, 01.97, 03.00, 04.00: steps 970 and 1030 ms agree with
        // 62 and 58 bpm (967.7, 1034.5 ms); 1000 ms against 120 bpm (500 ms) does not.
        XCTAssertEqual(try ws.read(RRInterval.self), [
            RRInterval(subject: "apple_health_export", timestampMs: t + 601_970, rrMs: 970, source: "apple_health_ibi"),
            RRInterval(subject: "apple_health_export", timestampMs: t + 603_000, rrMs: 1030, source: "apple_health_ibi"),
        ])
        XCTAssertEqual(try ws.read(SleepEpisode.self).map(\.stage), [.core])
        XCTAssertEqual(try ws.read(SleepEpisode.self).map(\.source), ["Watch"], "the record's sourceName")
        XCTAssertEqual(try ws.read(Workout.self), [
            Workout(subject: "apple_health_export", startMs: t + 3_600_000, endMs: t + 5_400_000, activity: "running")])
    }

    /// Per-day records on their local date: a step count of two sources on one day keeps
    /// the source with more records (never the sum of both), units are converted, and a
    /// record late in the evening at −08:00 belongs to that evening's date, not the UTC one.
    func testDailyInputsAcrossSourcesUnitsAndLocalDates() throws {
        func record(_ type: String, _ source: String, _ unit: String, _ start: String, _ value: String) -> String {
            "<Record type=\"HKQuantityTypeIdentifier\(type)\" sourceName=\"\(source)\" unit=\"\(unit)\" "
                + "startDate=\"\(start)\" endDate=\"\(start)\" value=\"\(value)\"/>"
        }
        let xml = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<HealthData locale=\"en_US\">",
                   record("StepCount", "Phone", "count", "2024-03-01 08:00:00 -0800", "1000"),
                   record("StepCount", "Phone", "count", "2024-03-01 09:00:00 -0800", "500"),
                   record("StepCount", "Watch", "count", "2024-03-01 08:00:00 -0800", "1400"),
                   record("StepCount", "Watch", "count", "2024-03-01 23:30:00 -0800", "200"),
                   record("StepCount", "Watch", "count", "2024-03-01 23:40:00 -0800", "100"),
                   record("BodyMass", "Scale", "lb", "2024-03-01 07:00:00 -0800", "150"),
                   record("Height", "Phone", "m", "2024-03-01 07:00:00 -0800", "1.7"),
                   record("VO2Max", "Watch", "mL/min·kg", "2024-03-02 10:00:00 -0800", "41.5"),
                   record("VO2Max", "Watch", "mL/min·kg", "2024-03-02 18:00:00 -0800", "42.5"),
                   record("AppleExerciseTime", "Watch", "min", "2024-03-02 10:00:00 -0800", "12"),
                   record("ActiveEnergyBurned", "Watch", "kJ", "2024-03-02 10:00:00 -0800", "418.4"),
                   record("RestingHeartRate", "Watch", "count/min", "2024-03-02 00:00:00 -0800", "400"),
                   "</HealthData>", ""].joined(separator: "\n")
        let path = try writeFixture(xml, to: try makeTempDir() + "/dana/export.xml")
        let (ws, m) = try importSources([path])
        XCTAssertEqual([m.sources[0].rowsRead, m.sources[0].accepted, m.sources[0].rejected], [12, 11, 1])
        func cell(_ date: String, _ metric: String) -> DailyInputRow? {
            try? ws.read(DailyInputRow.self).first { $0.date == date && $0.metric == metric }
        }
        // 2024-03-01: Phone 2 records (1500), Watch 3 records (1700): the watch's count.
        XCTAssertEqual(cell("2024-03-01", "steps")?.value, 1700)
        XCTAssertEqual(cell("2024-03-01", "steps")?.source, "Watch")
        XCTAssertEqual(cell("2024-03-01", "body_mass")?.value ?? .nan, 150 * 0.45359237, accuracy: 1e-9)
        XCTAssertEqual(cell("2024-03-01", "height")?.value ?? .nan, 170, accuracy: 1e-9)
        XCTAssertEqual(cell("2024-03-02", "vo2_max")?.value, 42, "a level's records averaged")
        XCTAssertEqual(cell("2024-03-02", "exercise_minutes")?.value, 12)
        XCTAssertEqual(cell("2024-03-02", "active_energy")?.value ?? .nan, 100, accuracy: 1e-9, "kJ to kcal")
        XCTAssertNil(cell("2024-03-02", "resting_hr"), "400 bpm is rejected")
        XCTAssertEqual(try ws.read(DailyInputRow.self).count, 6)
    }

    func testMalformedXMLNamesFileAndLine() throws {
        let path = try writeFixture("<HealthData>\n<Record type=\"x\"\n</HealthData>\n", to: try makeTempDir() + "/p/export.xml")
        XCTAssertThrowsError(try importSources([path])) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(path):3:"), "\(error)")
            XCTAssertTrue("\(error)".contains("malformed XML"), "\(error)")
        }
    }

    func testWorkoutCSVOfConversionScripts() throws {
        let path = try writeFixture("""
            sourceName,sourceVersion,device,creationDate,startDate,endDate,workoutActivityType,duration,durationUnit,totalDistance,totalDistanceUnit
            Watch,10.0,,2024-03-01 07:31:00 -0800,2024-03-01 07:00:00 -0800,2024-03-01 07:30:00 -0800,HKWorkoutActivityTypeRunning,30,min,5,km
            Watch,10.0,,2024-03-01 19:00:00 -0800,2024-03-01 19:00:00 -0800,2024-03-01 18:00:00 -0800,HKWorkoutActivityTypeYoga,60,min,,

            """, to: try makeTempDir() + "/carla/Workout.csv")
        let (ws, m) = try importSources([path])
        XCTAssertEqual(m.sources[0].format, "apple-health")
        XCTAssertEqual([m.sources[0].rowsRead, m.sources[0].accepted, m.sources[0].rejected], [2, 1, 1])
        XCTAssertEqual(try ws.read(Workout.self).map(\.activity), ["running"])
        XCTAssertEqual(try ws.read(Reject.self).map(\.reason), ["end before start"])
    }
}
