import Foundation
import XCTest
@testable import ResonanceLab

/// Inputs a careless script produces: each is a rejected row, a skipped file or a
/// one-line error, never data read wrong.
final class ImportHardeningTests: XCTestCase {
    /// 9999-12-31T23:00 in Los Angeles is 10000-01-01T07:00Z, and 0000-01-01 00:00 in
    /// Tokyo (local mean time, +09:18:59) is in the year −1: neither has a canonical form.
    func testTimesLeavingTheYearsAfterZoneConversionAreRejectedRows() throws {
        for (zone, time) in [("America/Los_Angeles", "9999-12-31T23:00:00"), ("Asia/Tokyo", "0000-01-01T00:00:00")] {
            let path = try writeFixture("time,bpm\n\(time),60\n2024-03-01T08:00:00,61\n", to: try makeTempDir() + "/hr.csv")
            let (ws, manifest) = try importSources([path], tz: zone)
            assertAccounting(manifest)
            XCTAssertEqual(try ws.read(HRSample.self).map(\.bpm), [61], zone)
            XCTAssertEqual(try ws.read(Reject.self).map(\.line), [2], zone)
            XCTAssertEqual(try ws.read(Reject.self).map(\.reason), ["unparsable time"], zone)
        }
    }

    func testHexadecimalAndNonFiniteNumbersAreRejectedRows() throws {
        let path = try writeFixture("time,bpm\n2024-03-01T08:00:00Z,0x3C\n2024-03-01T08:00:01Z,nan\n"
                                    + "2024-03-01T08:00:02Z,inf\n2024-03-01T08:00:03Z,6e1\n", to: try makeTempDir() + "/hr.csv")
        let (ws, manifest) = try importSources([path])
        assertAccounting(manifest)
        XCTAssertEqual(try ws.read(HRSample.self).map(\.bpm), [60])
        XCTAssertEqual(try ws.read(Reject.self).map(\.line), [2, 3, 4])
    }

    func testZoneOffsetsBeyondFourteenHoursAreRejected() throws {
        XCTAssertNil(Timestamp.parseISO("2024-03-01T08:00:00+99:99"))
        XCTAssertNil(Timestamp.parseISO("2024-03-01T08:00:00+14:01"))
        XCTAssertNil(Timestamp.parseISO("2024-03-01T08:00:00-15:00"))
        XCTAssertNil(Timestamp.parseISO("2024-03-01T08:00:00+05:60"))
        // Kiribati (+14:00) and Baker Island (−12:00) are the extremes in use.
        XCTAssertEqual(Timestamp.parseISO("2024-03-01T14:00:00+14:00")?.ms, Timestamp.parseISO("2024-03-01T00:00:00Z")?.ms)
        XCTAssertEqual(Timestamp.parseISO("2024-03-01T00:00:00-12:00")?.ms, Timestamp.parseISO("2024-03-01T12:00:00Z")?.ms)
        XCTAssertEqual(Timestamp.parseISO("2024-03-01T05:30:00+0530")?.ms, Timestamp.parseISO("2024-03-01T00:00:00Z")?.ms)
    }

    /// A negative interval would move the clock back, and the next good beat would land
    /// on the previous one's time and be merged as a duplicate.
    func testNegativePhysioNetValueIsRejectedAndDoesNotMoveTheClock() throws {
        let path = try writeFixture("0.8\n-0.5\n0.9\n", to: try makeTempDir() + "/x_rr_secs.txt")
        let (ws, manifest) = try importSources([path])
        assertAccounting(manifest)
        XCTAssertEqual(try ws.read(RRInterval.self).map(\.timestampMs), [800, 1700])
        XCTAssertEqual(try ws.read(Reject.self).map(\.reason), ["rr not positive"])
        XCTAssertEqual(manifest.sources.first?.duplicates, 0)
    }

    func testARowWithMoreFieldsThanTheHeaderIsARejectedRow() throws {
        let path = try writeFixture("time,bpm\n2024-03-01T08:00:00Z,60\n2024-03-01T08:00:01Z,61,62\n", to: try makeTempDir() + "/hr.csv")
        let (ws, manifest) = try importSources([path])
        assertAccounting(manifest)
        XCTAssertEqual(try ws.read(HRSample.self).map(\.bpm), [60])
        let rejects = try ws.read(Reject.self)
        XCTAssertEqual(rejects.map(\.line), [3])
        XCTAssertEqual(rejects.map(\.column), [3])
        XCTAssertEqual(rejects.map(\.reason), ["3 fields but the header names 2"])
    }

    func testACanonicalRowWithExtraFieldsIsARejectedRow() throws {
        let path = try writeFixture("subject,timestamp,bpm,source\nA,2024-03-01T08:00:00.000Z,60,x\nA,2024-03-01T08:00:01.000Z,61,x,extra\n",
                                    to: try makeTempDir() + "/hr.csv")
        let (ws, manifest) = try importSources([path])
        assertAccounting(manifest)
        XCTAssertEqual(try ws.read(HRSample.self).map(\.bpm), [60])
        XCTAssertEqual(try ws.read(Reject.self).map(\.line), [3])
    }

    /// Every format with a header: E4 (start time and IBI), Apple Health, Stress-Predict labels.
    func testRowsWiderThanTheHeaderAreRejectedInEveryFormat() throws {
        let dir = try makeTempDir() + "/S01"
        let files = [
            ("IBI.csv", "1644226061.0, IBI\n1.0,0.8\n2.0,0.9,7\n"),
            ("health.csv", "type,sourceName,unit,startDate,endDate,value\n"
                + "HKQuantityTypeIdentifierHeartRate,Watch,count/min,2023-11-14 23:10:00 +0000,2023-11-14 23:10:00 +0000,60\n"
                + "HKQuantityTypeIdentifierHeartRate,Watch,count/min,2023-11-14 23:11:00 +0000,2023-11-14 23:11:00 +0000,61,extra\n"),
            ("labels.csv", "Participant,HR,respr,Time(sec),Label\n1,68.42,14.2,1700000000,0\n1,66.65,14.2,1700000001,0,9\n"),
        ]
        for (name, text) in files {
            let (ws, manifest) = try importSources([try writeFixture(text, to: dir + "/" + name)])
            assertAccounting(manifest)
            XCTAssertEqual(manifest.sources.first?.accepted, 1, name)
            let rejects = try ws.read(Reject.self)
            XCTAssertEqual(rejects.map(\.line), [3], name)
            XCTAssertEqual(rejects.first?.reason.hasSuffix("fields but the header names \(rejects.first.map { $0.column - 1 } ?? 0)"), true, name)
        }
    }

    func testARepeatedColumnIsAnErrorNamingBoth() throws {
        for (header, message) in [("time,bpm,bpm", "hr.csv:1:3: 'bpm' repeats the heart rate column 'bpm' (column 2)"),
                                  ("time,hr,heart_rate", "hr.csv:1:3: 'heart_rate' repeats the heart rate column 'hr' (column 2)"),
                                  ("time,bpm,note,Note", "hr.csv:1:4: 'Note' repeats column 'note' 'note' (column 3)")] {
            let path = try writeFixture("\(header)\n2024-03-01T08:00:00Z,60,61,62\n", to: try makeTempDir() + "/hr.csv")
            XCTAssertThrowsError(try importSources([path])) { error in
                XCTAssertTrue("\(error)".hasSuffix(message), "\(error)")
            }
        }
    }

    func testAFIFOIsAnErrorNotAHang() throws {
        let dir = try makeTempDir()
        let fifo = dir + "/hr.csv"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertThrowsError(try importSources([fifo])) { error in
            XCTAssertEqual("\(error)", "\(fifo): cannot read file: not a regular file")
        }
        XCTAssertThrowsError(try CSVReader(path: fifo).forEachRecord { _ in }) { error in
            XCTAssertEqual("\(error)", "\(fifo): cannot read file: not a regular file")
        }
        // In a dataset folder it is skipped like any file that holds no rows.
        try writeFixture("time,bpm\n2024-03-01T08:00:00Z,60\n", to: dir + "/b.csv")
        var progress: [String] = []
        let ws = Workspace(path: try makeTempDir() + "/ws")
        try Importer.run(sources: [dir], workspace: ws, options: .init(progress: { progress.append($0) }))
        XCTAssertEqual(try ws.read(HRSample.self).map(\.bpm), [60])
        XCTAssertTrue(progress.contains("skipped \(fifo): not a regular file"), "\(progress)")
    }

    /// A killed run leaves `hr.csv.PID.tmp` beside the tables; re-importing the folder
    /// must not take it for a canonical table, and the next import into that folder
    /// removes it with a note.
    func testLeftoverTemporaryFilesAreNeverDataAndAreRemovedByTheNextRun() throws {
        let source = try writeFixture("time,bpm\n2024-03-01T08:00:00Z,60\n", to: try makeTempDir() + "/in/a.csv")
        let (ws, _) = try importSources([source])
        // A pid that cannot be running (above Linux's pid_max limit of 2^22).
        let dead = Int32(1 << 22) + 1
        let partial = ws.file("hr.csv.\(dead).tmp"), run = ws.file(".rr.csv.run3.\(dead)-2.tmp")
        let live = ws.file("rr.csv.\(getppid()).tmp")
        for path in [partial, run, live] {
            try writeFixture("subject,timestamp,bpm,source\nX,2024-03-01T09:00:00.000Z,99,csv\n", to: path)
        }
        let copy = Workspace(path: try makeTempDir() + "/copy")
        var progress: [String] = []
        let manifest = try Importer.run(sources: [ws.path], workspace: copy, options: .init(progress: { progress.append($0) }))
        XCTAssertEqual(try copy.read(HRSample.self).map(\.bpm), [60], "a temporary file was read as data")
        XCTAssertFalse(manifest.sources.contains { $0.path.hasSuffix(".tmp") })
        XCTAssertTrue(progress.contains("skipped \(partial): temporary file, not data"), "\(progress)")

        progress = []
        var options = Importer.Options()
        options.warning = { progress.append($0) }
        try Importer.run(sources: [source], workspace: ws, options: options)
        XCTAssertFalse(FileManager.default.fileExists(atPath: partial))
        XCTAssertFalse(FileManager.default.fileExists(atPath: run))
        XCTAssertTrue(FileManager.default.fileExists(atPath: live), "a live process's file was removed")
        XCTAssertTrue(progress.contains("removed \(partial): left by an interrupted run"), "\(progress)")
        XCTAssertTrue(progress.contains("removed \(run): left by an interrupted run"), "\(progress)")
        XCTAssertEqual(TemporaryFiles.ownerPID("hr.csv.123.tmp"), 123)
        XCTAssertEqual(TemporaryFiles.ownerPID(".hr.csv.run2.123-4.tmp"), 123)
        XCTAssertNil(TemporaryFiles.ownerPID("hr.csv"))
    }

    func testAHugeRejectedFieldIsTruncatedWithItsLength() throws {
        let huge = String(repeating: "é", count: 150_000)   // 300 000 bytes
        let path = try writeFixture("time,bpm\n2024-03-01T08:00:00Z,\(huge)\n", to: try makeTempDir() + "/hr.csv")
        let (ws, manifest) = try importSources([path])
        assertAccounting(manifest)
        let raw = try XCTUnwrap(try ws.read(Reject.self).first?.raw)
        XCTAssertEqual(raw, "2024-03-01T08:00:00Z," + String(repeating: "é", count: 89) + "… [300021 bytes]")
        XCTAssertLessThan(try FileManager.default.attributesOfItem(atPath: ws.file("rejects.csv"))[.size] as? Int ?? .max, 1000)
        XCTAssertEqual(ImportSink.excerpt("short"), "short")
    }

    func testAnIDColumnIsNotASubjectAndARowIDSubjectColumnIsWarnedAbout() throws {
        let dir = try makeTempDir() + "/P7"
        var text = "id,time,bpm\n"
        for i in 0..<3 { text += "\(i),2024-03-01T08:00:0\(i)Z,6\(i)\n" }
        let (ws, manifest) = try importSources([try writeFixture(text, to: dir + "/hr.csv")])
        XCTAssertEqual(manifest.subjects.map(\.subject), ["P7"])
        XCTAssertEqual(try ws.read(HRSample.self).count, 3)

        var rows = "subject,time,bpm\n"
        for i in 0..<1200 { rows += "r\(i),2024-03-01T08:00:00Z,60\n" }
        var warnings: [String] = []
        var options = Importer.Options()
        options.warning = { warnings.append($0) }
        let out = Workspace(path: try makeTempDir() + "/ws")
        let m = try Importer.run(sources: [try writeFixture(rows, to: dir + "/rows.csv")], workspace: out, options: options)
        let warning = "1200 subjects in 1200 rows: the subject column looks like a row id (each subject holds about 1 KB of memory until the import ends, at most --max-subjects 100000)"
        XCTAssertTrue(m.sources[0].notes.contains(warning), "\(m.sources[0].notes)")
        XCTAssertEqual(warnings, ["P7/rows.csv: " + warning])
    }
}
