import Foundation
import XCTest

/// `resonance import` of a folder holding the three per-day exports (Health Auto Export
/// CSV, Fitbit daily resting heart rate, a wide daily-metrics CSV): each read by its own
/// format into one daily_inputs.csv, which `resonance daily` then reads; and a
/// daily-metrics file with a column that is no metric stops with file, line and column.
final class ImportDailyInputsCommandTests: XCTestCase {
    func testFolderOfDailyExportsFillsDailyInputsAndTheMorningTables() throws {
        let dir = try makeTempDir()
        try writeFixture("Date/Time,Resting Heart Rate (count/min),Step Count (count),Heart Rate [Max] (count/min)\n"
            + "2024-03-01 00:00:00,57,4000,150\n", to: dir + "/study/p1/HealthAutoExport-2024-03-01-2024-03-01.csv")
        try writeFixture("[{\"dateTime\":\"03/02/24 00:00:00\",\"value\":{\"date\":\"03/02/24\",\"value\":58.5,\"error\":4.1}}]",
                         to: dir + "/study/p1/resting_heart_rate-2024-03-02.json")
        try writeFixture("date,resting_hr,steps\n2024-03-03,60,9000\n", to: dir + "/study/p1/metrics.csv")
        let run = try resonance("import", dir + "/study", "--out", dir + "/ws")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        let manifest = try XCTUnwrap(JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: dir + "/ws/manifest.json"))) as? [String: Any])
        let sources = manifest["sources"] as? [[String: Any]] ?? []
        XCTAssertEqual(sources.map { "\($0["path"]!) \($0["format"]!) \($0["rowsRead"]!)" },
                       ["study/p1/HealthAutoExport-2024-03-01-2024-03-01.csv health-auto-export-csv 1",
                        "study/p1/metrics.csv daily-metrics 1", "study/p1/resting_heart_rate-2024-03-02.json fitbit-resting-hr 1"])
        XCTAssertEqual(try String(contentsOfFile: dir + "/ws/daily_inputs.csv", encoding: .utf8), """
            subject,date,metric,value,unit,source
            p1,2024-03-01,resting_hr,57.0,bpm,health_auto_export
            p1,2024-03-01,steps,4000.0,count,health_auto_export
            p1,2024-03-02,resting_hr,58.5,bpm,fitbit
            p1,2024-03-03,resting_hr,60.0,bpm,daily_metrics
            p1,2024-03-03,steps,9000.0,count,daily_metrics

            """)
        let daily = try resonance("daily", dir + "/ws")
        XCTAssertEqual(daily.status, ExitStatus.success, daily.stderr)
        let mornings = try String(contentsOfFile: dir + "/ws/morning_recovery.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(mornings.count, 4, "one morning per day of daily.csv")
        XCTAssertTrue(mornings[0].hasSuffix("sleep_debt_h,strain_index,readiness_level,agreement,disagreement_driver"), String(mornings[0]))
        XCTAssertTrue(mornings[1].hasPrefix("p1,2024-03-01,,,,57.0,"), String(mornings[1]))
        XCTAssertEqual(try String(contentsOfFile: dir + "/ws/morning_receipts.csv", encoding: .utf8),
                       "subject,date,metric,version,value,unit,confidence,window_start,window_end,window_rule,inputs,input_digest,explanation\n",
                       "resting HR alone has no baseline yet: no score, no sleep, no activity")
    }

    func testDailyMetricsColumnThatIsNoMetricNamesLineAndColumn() throws {
        let dir = try makeTempDir()
        let path = try writeFixture("date,resting_hr,sleep_hours\n2024-03-01,60,7\n", to: dir + "/m.csv")
        let run = try resonance("import", path, "--format", "daily-metrics", "--subject", "P1", "--out", dir + "/ws")
        XCTAssertNotEqual(run.status, ExitStatus.success)
        XCTAssertTrue(run.stderr.contains("m.csv:1:3: 'sleep_hours' is not a daily metric ("), run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/ws/daily_inputs.csv"))
    }
}
