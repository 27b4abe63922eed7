import XCTest
@testable import ResonanceLab

/// Health Auto Export JSON, fixtures written to the app's documented layout: detection,
/// rows read / accepted / rejected, exact rows per table with first and last values to
/// the millisecond, a DST change inside the export, nulls that stay missing, and malformed
/// JSON reported with its position.
final class HealthAutoExportTests: XCTestCase {
    static let export = """
        {"data": {"metrics": [
          {"name": "heart_rate", "units": "count/min", "data": [
            {"date": "2024-03-10 01:59:00 -0800", "Min": 58, "Avg": 61.5, "Max": 66, "source": "Apple Watch"},
            {"date": "2024-03-10 03:00:00 -0700", "Min": 60, "Avg": 63, "Max": 67, "source": "Apple Watch"},
            {"date": "2024-03-10 03:05:00 -0700", "Min": null, "Avg": null, "Max": null},
            {"date": "2024-03-10 03:10:00 -0700", "Min": 70, "Avg": 72.25, "Max": 75, "source": "Jane\\u2019s Apple Watch"}
          ]},
          {"name": "resting_heart_rate", "units": "count/min", "data": [
            {"date": "2024-03-09 00:00:00 -0800", "qty": 52, "source": "Apple Watch"},
            {"date": "2024-03-10 00:00:00 -0800", "qty": null, "source": "Apple Watch"},
            {"date": "2024-03-10 23:30:00 -0700", "qty": 55, "source": "Apple Watch"}
          ]},
          {"units": "ms", "data": [
            {"date": "2024-03-10 03:00:00 -0700", "qty": 42.1, "source": "Apple Watch"},
            {"date": "2024-03-10 04:00:00 -0700", "qty": 0}
          ], "name": "heart_rate_variability"},
          {"name": "step_count", "units": "count", "data": [
            {"date": "2024-03-10 08:00:00 -0700", "qty": 100, "source": "Jane\\u2019s iPhone"},
            {"date": "2024-03-10 20:00:00 -0700", "qty": 250.5, "source": "Jane\\u2019s iPhone"},
            {"date": "2024-03-10 21:00:00 -0700", "qty": 0, "source": "Jane\\u2019s iPhone"}
          ]},
          {"name": "active_energy", "units": "kcal", "data": [
            {"date": "2024-03-10 08:00:00 -0700", "qty": 1.5}, {"date": "2024-03-10 09:00:00 -0700", "qty": 2}
          ]},
          {"name": "sleep_analysis", "units": "hr", "data": [
            {"date": "2024-03-10 00:00:00 -0800", "inBedStart": "2024-03-09 23:10:00 -0800",
             "inBedEnd": "2024-03-10 07:05:00 -0700", "sleepStart": "2024-03-09 23:30:00 -0800",
             "sleepEnd": "2024-03-10 06:55:00 -0700", "asleep": 6.4, "inBed": 6.9, "core": 3.5, "deep": 1.2,
             "rem": 1.7, "awake": 0.3, "source": "Apple Watch"},
            {"date": "2024-03-11 00:00:00 -0700", "totalSleep": 7, "core": 4, "deep": 1, "rem": 2, "awake": 0,
             "sleepStart": "2024-03-10 23:00:00 -0700", "sleepEnd": "2024-03-11 06:00:00 -0700", "source": "Apple Watch"},
            {"date": "2024-03-12 00:00:00 -0700", "core": 4, "deep": 1, "rem": 2, "source": "Apple Watch"}
          ]}
        ],
        "workouts": [
          {"id": "A1", "name": "Running", "start": "2024-03-10 07:00:00 -0700", "end": "2024-03-10 07:30:15 -0700",
           "duration": 1815, "activeEnergyBurned": {"qty": 350, "units": "kcal"},
           "heartRateData": [{"date": "2024-03-10 07:01:00 -0700", "Avg": 140, "Min": 130, "Max": 150}]},
          {"id": "A2", "name": "Walking", "start": "2024-03-10 09:00:00 -0700"}
        ]}}

        """

    func testMetricsSleepAndWorkoutsAcrossADSTChange() throws {
        let path = try writeFixture(Self.export, to: try makeTempDir() + "/jane/HealthAutoExport-20240309-20240311.json")
        XCTAssertEqual(try SourceFormat.detect(path: path), .healthAutoExport)
        let (ws, m) = try importSources([path])
        let s = m.sources[0]
        XCTAssertEqual(s.format, "health-auto-export")
        // 4 heart rate + 3 resting + 2 HRV + 3 steps + 3 sleep + 2 workouts; active_energy is not read.
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [17, 12, 5])
        XCTAssertEqual(s.unusedRecords, ["points of metric active_energy (not read)": 2])
        XCTAssertEqual(try ws.read(Reject.self).map(\.reason), [
            "heart_rate point without Avg", "resting_heart_rate qty not a number ≥ 0",
            "heart_rate_variability qty not a positive number",
            "sleep_analysis point without an in-bed or asleep interval (start before end)",
            "workout without a readable start and end",
        ])
        XCTAssertEqual(try ws.read(Reject.self).map(\.line), [5, 10, 15, 32, 39])
        // 01:59 PST and 03:00 PDT are one minute apart: 09:59Z and 10:00Z.
        let hr = try ws.read(HRSample.self)
        XCTAssertEqual(hr.map { Timestamp.iso($0.timestampMs) },
                       ["2024-03-10T09:59:00.000Z", "2024-03-10T10:00:00.000Z", "2024-03-10T10:10:00.000Z"])
        XCTAssertEqual(hr.map(\.bpm), [61.5, 63, 72.25])
        XCTAssertEqual(Set(hr.map(\.source)), ["health_auto_export"])
        let hrv = try ws.read(HRVSample.self)
        XCTAssertEqual(hrv.map { Timestamp.iso($0.timestampMs) }, ["2024-03-10T10:00:00.000Z"])
        XCTAssertEqual(hrv.map(\.sdnnMs), [42.1])
        XCTAssertEqual(hrv.map(\.rmssdMs), [nil])
        // The local date, not the UTC one: 23:30 PDT on the 10th is 06:30Z on the 11th.
        // A null resting heart rate and a zero step count state nothing.
        XCTAssertEqual(try ws.read(DailyInputRow.self), [
            DailyInputRow(subject: "jane", date: "2024-03-09", metric: "resting_hr", value: 52, unit: "bpm", source: "Apple Watch"),
            DailyInputRow(subject: "jane", date: "2024-03-10", metric: "resting_hr", value: 55, unit: "bpm", source: "Apple Watch"),
            DailyInputRow(subject: "jane", date: "2024-03-10", metric: "steps", value: 350.5, unit: "count",
                          source: "Jane\u{2019}s iPhone"),
        ])
        // In bed and asleep intervals only; the stage totals make no interval.
        let sleep = try ws.read(SleepEpisode.self)
        XCTAssertEqual(sleep.map { [Timestamp.iso($0.startMs), Timestamp.iso($0.endMs), $0.stage.rawValue, $0.source] }, [
            ["2024-03-10T07:10:00.000Z", "2024-03-10T14:05:00.000Z", "in_bed", "Apple Watch"],
            ["2024-03-10T07:30:00.000Z", "2024-03-10T13:55:00.000Z", "asleep", "Apple Watch"],
            ["2024-03-11T06:00:00.000Z", "2024-03-11T13:00:00.000Z", "asleep", "Apple Watch"],
        ])
        XCTAssertEqual(try ws.read(Workout.self).map { [Timestamp.iso($0.startMs), Timestamp.iso($0.endMs), $0.activity] }, [
            ["2024-03-10T14:00:00.000Z", "2024-03-10T14:30:15.000Z", "Running"],
        ])
    }

    func testUnaggregatedSleepStagesAreIntervals() throws {
        let path = try writeFixture("""
            {"data": {"metrics": [{"name": "sleep_analysis", "units": "hr", "data": [
              {"startDate": "2024-03-10 01:00:00 -0800", "endDate": "2024-03-10 03:30:00 -0700", "value": "Core", "qty": 0.5, "source": "Watch"},
              {"startDate": "2024-03-10 03:30:00 -0700", "endDate": "2024-03-10 04:00:00 -0700", "value": "Nap", "qty": 0.5}
            ]}]}}
            """, to: try makeTempDir() + "/p/export.json")
        let (ws, m) = try importSources([path])
        XCTAssertEqual([m.sources[0].rowsRead, m.sources[0].accepted, m.sources[0].rejected], [2, 1, 1])
        XCTAssertEqual(try ws.read(SleepEpisode.self).map { [Timestamp.iso($0.startMs), Timestamp.iso($0.endMs), $0.stage.rawValue] },
                       [["2024-03-10T09:00:00.000Z", "2024-03-10T10:30:00.000Z", "core"]])
    }

    /// The reader hands over the same points whatever the chunk size (a point split across chunks).
    func testChunkBoundariesDoNotChangeThePoints() throws {
        let path = try writeFixture(Self.export, to: try makeTempDir() + "/p/export.json")
        func items(_ chunk: Int) throws -> [String] {
            var out: [String] = []
            var reader = HealthAutoExportReader(path: path)
            reader.chunkSize = chunk
            try reader.forEachItem { item, bytes, line in out.append("\(item) \(line) \(String(decoding: bytes, as: UTF8.self))") }
            return out
        }
        let whole = try items(1 << 16)
        XCTAssertEqual(whole.count, 19)
        XCTAssertTrue(whole[0].hasPrefix("point(metric: \"heart_rate\") 3 {\"date\": \"2024-03-10 01:59:00 -0800\""), whole[0])
        // The HRV metric's name comes after its points: they are held until its object closes.
        XCTAssertTrue(whole[7].hasPrefix("point(metric: \"heart_rate_variability\") 14 "), whole[7])
        XCTAssertTrue(whole[18].hasPrefix("workout 39 {\"id\": \"A2\""), whole[18])
        for chunk in [1, 7, 64] { XCTAssertEqual(try items(chunk), whole, "chunk \(chunk)") }
    }

    func testMalformedJSONNamesFileLineAndByte() throws {
        let dir = try makeTempDir()
        func message(_ text: String) throws -> String {
            let path = try writeFixture(text, to: dir + "/p/export.json")
            do {
                try HealthAutoExportReader(path: path).forEachItem { _, _, _ in }
            } catch {
                return "\(error)".replacingOccurrences(of: path, with: "F")
            }
            return "no error"
        }
        let head = "{\"data\": {\"metrics\": [\n"
        XCTAssertEqual(try message(head + "{\"name\": \"heart_rate\", \"data\": [{\"Avg\": 61,, \"Max\": 66}]}]}}\n"),
                       "F:2:44: malformed Health Auto Export JSON at byte 66: a member name (string) is expected")
        XCTAssertEqual(try message(head + "{\"name\": \"heart_rate\", \"data\": [{\"Avg\": 6x1}]}]}}\n"),
                       "F:2:41: malformed Health Auto Export JSON at byte 63: malformed number")
        XCTAssertEqual(try message(head + "{\"name\": \"heart_rate\", \"data\": [{\"Avg\": 61}"),
                       "F:2:44: malformed Health Auto Export JSON at byte 66: truncated JSON")
        XCTAssertEqual(try message("[1, 2]"), "F:1:1: malformed Health Auto Export JSON at byte 0: the top level is not an object")
        XCTAssertEqual(try message("{\"data\": {}} x"), "F:1:14: malformed Health Auto Export JSON at byte 13: text after the top-level object")
        XCTAssertEqual(try message("{\"data\": [}"), "F:1:11: malformed Health Auto Export JSON at byte 10: a value is missing")
        XCTAssertEqual(try message("{\"data\": [1}"), "F:1:12: malformed Health Auto Export JSON at byte 11: mismatched bracket")
        // Through the importer the error names the file and fails the import.
        let path = try writeFixture(head + "{\"name\": \"heart_rate\", \"data\": [{\"Avg\": 61,, \"Max\": 66}]}]}}\n",
                                    to: dir + "/q/export.json")
        XCTAssertThrowsError(try importSources([path], format: .healthAutoExport)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(path):2:44: malformed Health Auto Export JSON"), "\(error)")
        }
    }

    /// Every truncation of the export, and each byte replaced by a bracket, a quote or a
    /// letter, is either a one-line error naming the file or rows accounted for.
    func testTruncatedAndMutatedExportsFailCleanly() throws {
        let bytes = Array(Self.export.utf8)
        let path = try makeTempDir() + "/p/export.json"
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        var errors = 0, read = 0
        func check(_ input: [UInt8]) throws {
            try Data(input).write(to: URL(fileURLWithPath: path))
            var options = Importer.Options()
            options.format = .healthAutoExport
            do {
                let s = try Importer.readInMemory(path, options: options)
                XCTAssertEqual(s.rowsRead, s.accepted + s.rejected)
                read += 1
            } catch {
                XCTAssertTrue("\(error)".hasPrefix("\(path):"), "\(error)")
                XCTAssertFalse("\(error)".contains("\n"), "\(error)")
                errors += 1
            }
        }
        for end in stride(from: 0, to: bytes.count, by: 11) { try check(Array(bytes[..<end])) }
        for at in stride(from: 0, to: bytes.count, by: 17) {
            for b: UInt8 in [123, 93, 34, 120] {
                var m = bytes
                m[at] = b
                try check(m)
            }
        }
        XCTAssertGreaterThan(errors, 0)
        XCTAssertGreaterThan(read, 0)
    }
}
