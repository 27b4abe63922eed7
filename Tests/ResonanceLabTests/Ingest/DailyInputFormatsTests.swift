import XCTest
@testable import ResonanceLab

/// The exports that state per-day values: Health Auto Export CSV, Fitbit daily resting
/// heart rate and the generic daily-metrics CSV. Known rows → the exact daily_inputs.csv
/// rows (units converted, a day's rows combined), rejects with line, column and reason,
/// and rows read = accepted + rejected.
final class DailyInputFormatsTests: XCTestCase {
    func testHealthAutoExportCSVConvertsUnitsCombinesADayAndRejectsByColumn() throws {
        let dir = try makeTempDir() + "/ana"
        let path = try writeFixture("""
            Date,Active Energy (kJ),Apple Exercise Time (min),Heart Rate [Min] (count/min),Heart Rate Variability (ms),Resting Heart Rate (count/min),Step Count (count),VO2 Max (ml/(kg·min)),Walking Heart Rate Average (count/min),Weight & Body Mass (lb),Sleep Analysis [Asleep] (hr)
            2024-03-01 00:00:00 -0500,418.4,30,48,42.5,57,4000,41.2,95,154.3,7.5
            2024-03-01 12:00:00 -0500,836.8,15,,,59,6000,,,,
            2024-03-02 00:00:00 -0500,,,50,,,,,,,
            2024-03-02 00:00:00 -0500,,abc,,,,,,,,
            2024-03-02 00:00:00 -0500,,,,,300,,,,,
            bad-date,,,,,58,,,,,
            2024-03-03,,,,,,0,,,,

            """, to: dir + "/HealthAutoExport-2024-03-01-2024-03-03.csv")
        XCTAssertEqual(try SourceFormat.detect(path: path), .healthAutoExportCSV)
        let (ws, m) = try importSources([dir])
        assertAccounting(m)
        XCTAssertEqual(m.sources.map(\.format), ["health-auto-export-csv"])
        let s = m.sources[0]
        // Lines 4 and 8 carry no value read (a heart-rate minimum, a zero step count): not rows read.
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [5, 2, 3])
        XCTAssertEqual(s.unusedRecords, ["column Heart Rate [Min] (count/min) (not read)": 2,
                                         "column Sleep Analysis [Asleep] (hr) (not read)": 1, "rows without a value read": 2])
        XCTAssertEqual(try ws.read(Reject.self).map { "\($0.line):\($0.column) \($0.reason)" },
                       ["5:3 not a number ≥ 0", "6:6 bpm outside 20–250", "7:1 unparsable Date (yyyy-MM-dd[ HH:mm:ss[ ±hhmm]])"])
        func row(_ metric: String, _ value: Double, _ unit: String) -> DailyInputRow {
            DailyInputRow(subject: "ana", date: "2024-03-01", metric: metric, value: value, unit: unit, source: "health_auto_export")
        }
        // 418.4 + 836.8 kJ = 300 kcal; 30 + 15 min; resting HR (57 + 59) / 2; 154.3 lb in kg.
        let rows = try ws.read(DailyInputRow.self)
        XCTAssertEqual(rows.map(\.metric), ["active_energy", "body_mass", "exercise_minutes", "resting_hr", "steps", "vo2_max", "walking_hr"])
        XCTAssertEqual(rows[0].value, 300, accuracy: 1e-9)
        XCTAssertEqual(rows[1].value, 154.3 * 0.45359237, accuracy: 1e-9)
        XCTAssertEqual(Array(rows[2...]), [row("exercise_minutes", 45, "min"), row("resting_hr", 58, "bpm"),
                                            row("steps", 10000, "count"), row("vo2_max", 41.2, "mL/kg/min"), row("walking_hr", 95, "bpm")])
        let hrv = try ws.read(HRVSample.self)
        XCTAssertEqual(hrv.map { Timestamp.iso($0.timestampMs) }, ["2024-03-01T05:00:00.000Z"])
        XCTAssertEqual(hrv.map(\.sdnnMs), [42.5])
    }

    func testHealthAutoExportCSVUnitItCannotConvertNamesTheHeaderColumn() throws {
        let path = try writeFixture("Date,Step Count (count),Weight & Body Mass (stone)\n2024-03-01,10,11\n",
                                    to: try makeTempDir() + "/bo/export.csv")
        XCTAssertEqual(try SourceFormat.detect(path: path), .healthAutoExportCSV)
        XCTAssertThrowsError(try importSources([path])) { error in
            XCTAssertEqual("\(error)", "\(path):1:3: 'Weight & Body Mass (stone)': unit 'stone' is not one body_mass is converted from")
        }
    }

    func testFitbitRestingHeartRateOnItsDateZeroRejected() throws {
        let dir = try makeTempDir() + "/cy"
        let path = try writeFixture("""
            [{"dateTime":"03/01/24 00:00:00","value":{"date":"03/01/24","value":57.4,"error":6.8}},
             {"dateTime":"03/02/24 00:00:00","value":{"date":"03/02/24","value":0.0,"error":0.0}},
             {"dateTime":"03/03/24 00:00:00","value":{"value":58.5,"error":3.1}},
             {"dateTime":"nonsense","value":{"date":"13/45/24","value":60,"error":2}},
             {"dateTime":"03/05/24 00:00:00","value":{"date":"03/05/24","value":400,"error":2}}]
            """, to: dir + "/resting_heart_rate-2024-03-01.json")
        XCTAssertEqual(try SourceFormat.detect(path: path), .fitbitRestingHR)
        let (ws, m) = try importSources([dir])
        assertAccounting(m)
        let s = m.sources[0]
        XCTAssertEqual(s.format, "fitbit-resting-hr")
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [5, 2, 3])
        XCTAssertEqual(try ws.read(Reject.self).map { "\($0.line) \($0.reason)" },
                       ["2 value 0: no resting heart rate estimate that day", "4 unparsable date (MM/dd/yy) and dateTime",
                        "5 bpm outside 20–250"])
        XCTAssertEqual(try ws.read(DailyInputRow.self), [
            DailyInputRow(subject: "cy", date: "2024-03-01", metric: "resting_hr", value: 57.4, unit: "bpm", source: "fitbit"),
            DailyInputRow(subject: "cy", date: "2024-03-03", metric: "resting_hr", value: 58.5, unit: "bpm", source: "fitbit"),
        ])
    }

    func testDailyMetricsLongFormWithSubjectsAndUnits() throws {
        let dir = try makeTempDir() + "/study"
        let path = try writeFixture("""
            subject,date,metric,value,unit
            P1,2024-03-01,resting_hr,58,count/min
            P1,2024-03-01,body_mass,150,lb
            P1,2024-03-01,steps,5000,
            P1,2024-03-01,steps,2500,count
            ,2024-03-02,exercise_minutes,0.5,hr
            P2,2024-03-01,sleep,7,h
            P2,2024-03-01,height,180,stone
            P2,2024/03/01,steps,10,
            P2,2024-03-01,steps,-1,
            P2,2024-03-01,vo2_max,45.5,mL/(kg·min)

            """, to: dir + "/daily.csv")
        XCTAssertEqual(try SourceFormat.detect(path: path), .dailyMetrics)
        let (ws, m) = try importSources([path], subject: "P0")
        assertAccounting(m)
        let s = m.sources[0]
        XCTAssertEqual(s.format, "daily-metrics")
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [10, 6, 4])
        XCTAssertEqual(try ws.read(Reject.self).map { "\($0.line):\($0.column)" }, ["7:3", "8:5", "9:2", "10:4"])
        let rows = try ws.read(DailyInputRow.self).map { "\($0.subject) \($0.date) \($0.metric) \(CSVWriter.format($0.value)) \($0.unit)" }
        // 150 lb = 68.0388555 kg; 5000 + 2500 steps; 0.5 hr = 30 min; subjects in byte order.
        XCTAssertEqual(rows, ["P0 2024-03-02 exercise_minutes 30.0 min", "P1 2024-03-01 body_mass 68.0388555 kg",
                              "P1 2024-03-01 resting_hr 58.0 bpm", "P1 2024-03-01 steps 7500.0 count",
                              "P2 2024-03-01 vo2_max 45.5 mL/kg/min"])
        XCTAssertEqual(Set(try ws.read(DailyInputRow.self).map(\.source)), ["daily_metrics"])
    }

    func testDailyMetricsWideFormAndAnUnknownColumnForced() throws {
        let dir = try makeTempDir() + "/dee"
        let path = try writeFixture("""
            date,resting_hr,steps,vo2_max
            2024-03-01,61,8000,
            2024-03-02,,,
            2024-03-03,x,100,
            2024-03-04,15,100,

            """, to: dir + "/metrics.csv")
        XCTAssertEqual(try SourceFormat.detect(path: path), .dailyMetrics)
        let (ws, m) = try importSources([dir])
        assertAccounting(m)
        let s = m.sources[0]
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [3, 1, 2])
        XCTAssertEqual(s.unusedRecords, ["rows without a value": 1])
        XCTAssertEqual(try ws.read(Reject.self).map { "\($0.line):\($0.column) \($0.reason)" },
                       ["4:2 resting_hr is not a number", "5:2 bpm outside 20–250"])
        XCTAssertEqual(try ws.read(DailyInputRow.self), [
            DailyInputRow(subject: "dee", date: "2024-03-01", metric: "resting_hr", value: 61, unit: "bpm", source: "daily_metrics"),
            DailyInputRow(subject: "dee", date: "2024-03-01", metric: "steps", value: 8000, unit: "count", source: "daily_metrics"),
        ])
        let forced = try writeFixture("date,resting_hr,sleep_hours\n2024-03-01,60,7\n", to: try makeTempDir() + "/e/x.csv")
        XCTAssertThrowsError(try importSources([forced], format: .dailyMetrics)) { error in
            XCTAssertEqual("\(error)", "\(forced):1:3: 'sleep_hours' is not a daily metric (resting_hr, hr_recovery_1m, vo2_max, steps, "
                + "exercise_minutes, active_energy, walking_hr, body_mass, height) nor date, subject, metric, value or unit")
        }
    }
}
