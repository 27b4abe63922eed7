import Foundation
import XCTest

/// An Apple Health export carrying every per-day record type the coach reads, imported
/// and run through `resonance daily` as a user does: each record lands in its table, and
/// `daily.csv` has recovery, VO2 max, steps and BioAge on the day that has them.
final class AppleHealthDailyCommandTests: XCTestCase {
    func testEveryDailyRecordTypeReachesDailyCSV() throws {
        func record(_ type: String, _ unit: String, _ start: String, _ value: String, end: String? = nil) -> String {
            "<Record type=\"HKQuantityTypeIdentifier\(type)\" sourceName=\"Watch\" unit=\"\(unit)\" "
                + "startDate=\"\(start)\" endDate=\"\(end ?? start)\" value=\"\(value)\"/>"
        }
        let day = "2024-03-04 12:00:00 -0800"
        let xml = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<HealthData locale=\"en_US\">",
                   "<Me HKCharacteristicTypeIdentifierDateOfBirth=\"1990-01-01\" HKCharacteristicTypeIdentifierBiologicalSex=\"HKBiologicalSexFemale\"/>",
                   record("RestingHeartRate", "count/min", day, "58"),
                   record("HeartRateRecoveryOneMinute", "count/min", day, "25"),
                   record("VO2Max", "mL/min·kg", day, "38"),
                   record("StepCount", "count", day, "8000"),
                   record("StepCount", "count", "2024-03-05 12:00:00 -0800", "5000"),
                   record("AppleExerciseTime", "min", day, "30"),
                   record("ActiveEnergyBurned", "kcal", day, "400"),
                   record("WalkingHeartRateAverage", "count/min", day, "95"),
                   record("BodyMass", "kg", day, "60"),
                   record("Height", "cm", day, "165"),
                   record("HeartRateVariabilitySDNN", "ms", day, "45"),
                   "<Record type=\"HKCategoryTypeIdentifierSleepAnalysis\" sourceName=\"Watch\" startDate=\"2024-03-03 22:00:00 -0800\" "
                       + "endDate=\"2024-03-04 06:00:00 -0800\" value=\"HKCategoryValueSleepAnalysisAsleepCore\"/>",
                   "</HealthData>", ""].joined(separator: "\n")
        let dir = try makeTempDir()
        try writeFixture(xml, to: dir + "/dana/export.xml")
        let run = try resonance("import", dir + "/dana/export.xml", "--subject", "dana", "--out", dir + "/ws")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertEqual(try String(contentsOfFile: dir + "/ws/daily_inputs.csv", encoding: .utf8), """
            subject,date,metric,value,unit,source
            dana,2024-03-04,active_energy,400.0,kcal,Watch
            dana,2024-03-04,body_mass,60.0,kg,Watch
            dana,2024-03-04,exercise_minutes,30.0,min,Watch
            dana,2024-03-04,height,165.0,cm,Watch
            dana,2024-03-04,hr_recovery_1m,25.0,bpm,Watch
            dana,2024-03-04,resting_hr,58.0,bpm,Watch
            dana,2024-03-04,steps,8000.0,count,Watch
            dana,2024-03-04,vo2_max,38.0,mL/kg/min,Watch
            dana,2024-03-04,walking_hr,95.0,bpm,Watch
            dana,2024-03-05,steps,5000.0,count,Watch

            """)
        let subjects = try String(contentsOfFile: dir + "/ws/subjects.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertTrue(subjects[1].hasPrefix("dana,1990,female,"), String(subjects[1]))

        let daily = try resonance("daily", dir + "/ws")
        XCTAssertEqual(daily.status, ExitStatus.success, daily.stderr)
        let lines = try String(contentsOfFile: dir + "/ws/daily.csv", encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        func row(_ i: Int) -> [String: String] {
            Dictionary(uniqueKeysWithValues: zip(header, lines[i].split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
        }
        let (d4, d5) = (row(1), row(2))
        XCTAssertEqual([d4["date"], d5["date"]], ["2024-03-04", "2024-03-05"])
        XCTAssertEqual([d4["resting_hr"], d4["recovery_1m"], d4["vo2max"], d4["steps"], d4["hrv_sdnn"], d4["sleep_hours"], d4["body_mass"]],
                       ["58.0", "25.0", "38.0", "8000.0", "45.0", "8.0", "60.0"])
        XCTAssertEqual([d5["steps"], d5["vo2max"], d5["bio_age"]], ["5000.0", "", ""], "the second day has steps only")
        // BioAge of a woman of 34 (1990 → 2024): VO2 norm 43 + 0.9 × (40 − 43) = 40.3 →
        // (40.3 − 38) × 0.8 = 1.84 y; resting HR (58 − 74) × 0.4 = −6.4 y; SDNN
        // (50 − 45) × 0.15 = 0.75 y; sleep 8 h inside 7–9 h → 0; BMI 60 / 1.65² = 22.039
        // with the export's height → 0.039 × 0.6 y; over the weights present (0.88).
        let bmiYears = abs(60 / (1.65 * 1.65) - 22) * 0.6
        let expected = 34 + (0.2 * 1.84 + 0.22 * -6.4 + 0.22 * 0.75 + 0.12 * 0 + 0.12 * bmiYears) / 0.88
        XCTAssertEqual(try XCTUnwrap(Double(d4["bio_age"] ?? "")), expected, accuracy: 1e-9)
        XCTAssertEqual(d4["bio_age_category"], "on_track")
        XCTAssertFalse(d4["flags"]?.contains("bmi_height_assumed") ?? true, "the export's height is used")
    }
}
