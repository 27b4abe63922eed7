import XCTest
@testable import ResonanceLab

final class DailyRowTests: XCTestCase {
    func testDailyCSVHasTheDesignColumnsAndReadsBack() throws {
        let ws = Workspace(path: try makeTempDir())
        // 2026-01-01 is day 20454: 56 years × 365 + 14 leap days (1972…2024) = 20440 + 14.
        let day = Timestamp.daysFromCivil(2026, 1, 1)
        XCTAssertEqual(day, 20454)
        let rows = [
            DailyRow(snapshot: DailySnapshot(subject: "NewMom", day: day, restingHRBpm: 68, hrvSDNNMs: 31.5, sleepHours: 5.25),
                     stress: 61.2, stressLevel: "balanced", readiness: 44, readinessLevel: "moderate",
                     anomaly: 1.7, flags: ["anomaly", "regression"], bioAge: 34.5, bioAgeCategory: "watchful"),
            DailyRow(snapshot: DailySnapshot(subject: "NewMom", day: day + 1), stress: nil, stressLevel: "",
                     readiness: nil, readinessLevel: "", anomaly: nil, flags: []),
        ]
        try ws.write(rows)
        let text = try String(contentsOfFile: ws.file("daily.csv"), encoding: .utf8)
        XCTAssertEqual(text.split(separator: "\n").first,
                       "subject,date,resting_hr,hrv_sdnn,recovery_1m,recovery_2m,vo2max,zone_minutes,steps,walk_minutes,workout_minutes,sleep_hours,body_mass,stress,stress_level,readiness,readiness_level,anomaly,flags,bio_age,bio_age_category,stress_trend,wear_hours,hrv_rmssd,hrv_basis,local_time")
        XCTAssertEqual(text.split(separator: "\n")[1],
                       "NewMom,2026-01-01,68.0,31.5,,,,,,,,5.25,,61.2,balanced,44.0,moderate,1.7,anomaly;regression,34.5,watchful,,,,,")
        XCTAssertEqual(try ws.read(DailyRow.self), rows)
    }

    func testBadDateNamesFileLineAndColumn() throws {
        let path = try writeFixture(DailyRow.header.joined(separator: ",") + "\nA,2026-13-01" + String(repeating: ",", count: 24) + "\n",
                                    to: try makeTempDir() + "/daily.csv")
        XCTAssertThrowsError(try Workspace.readTable(DailyRow.self, path: path)) { error in
            XCTAssertEqual("\(error)", "\(path):2:2: 'date' is not a YYYY-MM-DD date: '2026-13-01'")
        }
    }
}
