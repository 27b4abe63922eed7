import Foundation
import XCTest

final class ImportCommandTests: XCTestCase {
    func testHelp() throws {
        try assertHelp(["import"], usage: "resonance import",
                       options: ["<source>", "--out <dir>", "--format <format>", "--tz <zone>", "--subject <id>",
                                 "--constants <file>", "--jobs <jobs>", "--quiet", "--allow-empty"])
    }

    func testImportsTheSampleAccountingForEveryRow() throws {
        let ws = try makeTempDir() + "/ws"
        let run = try resonance("import", Sample.path, "--out", ws, "--progress")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertEqual(run.stdout, "")
        XCTAssertTrue(run.stderr.hasSuffix(
            "imported \(Sample.files) files, \(Sample.subjects) subjects, \(Sample.rows) rows (\(Sample.rejected) rejected) into \(ws)\n"),
            run.stderr)
        for table in ["hr.csv", "rr.csv", "plays.csv", "labels.csv", "sleep.csv", "workouts.csv", "hrv_samples.csv",
                      "rejects.csv", "manifest.json"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: ws + "/" + table), table)
        }
        // rejects.csv holds one row per rejected input row.
        let rejects = try String(contentsOfFile: ws + "/rejects.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(rejects.count, 1 + Sample.rejected)
    }

    func testBadArgumentsAreUsageErrors() throws {
        let out = try makeTempDir() + "/ws"
        assertUsageError(try resonance("import", "--out", out), "Missing expected argument '<source> ...'")
        assertUsageError(try resonance("import", Sample.path), "Missing expected argument '--out <dir>'")
        assertUsageError(try resonance("import", Sample.path, "--out", out, "--tz", "Mars/Olympus"),
                         "--tz: unknown IANA time zone 'Mars/Olympus'.")
        assertUsageError(try resonance("import", Sample.path, "--out", out, "--format", "xml"),
                         "The value 'xml' is invalid for '--format <format>'")
        assertUsageError(try resonance("import", Sample.path, "--out", out, "--subject", ""),
                         "--subject must not be empty.")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "a usage error writes nothing")
    }

    /// One subject more than `--max-subjects` (default 100 000 in the help) stops the
    /// import with one line naming the file, and writes no workspace.
    func testSubjectsOverTheLimitFailNamingTheFile() throws {
        let dir = try makeTempDir()
        let path = try writeFixture("subject,time,bpm\na,2024-03-01T08:00:00Z,60\nb,2024-03-01T08:00:00Z,61\n",
                                    to: dir + "/P7/rows.csv")
        assertFailure(try resonance("import", path, "--out", dir + "/ws", "--max-subjects", "2"),
                      "P7/rows.csv: more than 2 distinct subjects", "--subject-column", "--max-subjects")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/ws/manifest.json"))
        let run = try resonance("import", path, "--out", dir + "/ws", "--max-subjects", "3")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        assertUsageError(try resonance("import", path, "--out", dir + "/ws", "--max-subjects", "0"),
                         "--max-subjects: at least 1, got 0.")
        let help = try resonance("import", "--help").stdout.replacingOccurrences(of: "\n", with: " ")
            .split(separator: " ").joined(separator: " ")
        XCTAssertTrue(help.contains("about 1 KB of memory until the import ends, and one more is an error. (default: 100000)"), help)
    }

    func testMissingSourceFailsNamingIt() throws {
        let dir = try makeTempDir()
        assertFailure(try resonance("import", dir + "/absent.csv", "--out", dir + "/ws"),
                      dir + "/absent.csv", "no such file or folder")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/ws/hr.csv"))
    }

    /// An Apple Health export.zip whose deflate stream is corrupt (found by the
    /// `format-apple-health-zip` fuzz target, where it once hung the reader) fails at
    /// once with one line naming the archive and the entry, exit 1, and no workspace.
    func testCorruptAppleHealthZipFailsWithOneLine() throws {
        let dir = try makeTempDir()
        let path = dir + "/export.zip"
        try AppleHealthZipFuzzInputs.archive(0).write(to: URL(fileURLWithPath: path))
        assertFailure(try resonance("import", path, "--out", dir + "/ws"),
                      "\(path):0:0: cannot decompress apple_health_export/export.xml: it holds more than the 2774 bytes the archive declares")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/ws/manifest.json"))
    }

    /// A Health Auto Export JSON is detected and read; a malformed one fails with one line
    /// naming the file, line, column and byte, exit 1, and no workspace.
    func testHealthAutoExportJSONImportsAndMalformedFailsWithOneLine() throws {
        let dir = try makeTempDir()
        let good = try writeFixture("""
            {"data": {"metrics": [{"name": "heart_rate", "units": "count/min", "data": [
            {"date": "2024-03-10 01:59:00 -0800", "Min": 58, "Avg": 61.5, "Max": 66},
            {"date": "2024-03-10 03:00:00 -0700", "Min": 60, "Avg": 63, "Max": 67}]}], "workouts": []}}

            """, to: dir + "/P1/HealthAutoExport-20240310-20240310.json")
        let run = try resonance("import", good, "--out", dir + "/ws")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertEqual(try String(contentsOfFile: dir + "/ws/hr.csv", encoding: .utf8),
                       "subject,timestamp,bpm,source\nP1,2024-03-10T09:59:00.000Z,61.5,health_auto_export\n"
                       + "P1,2024-03-10T10:00:00.000Z,63.0,health_auto_export\n")
        let bad = try writeFixture("{\"data\": {\"metrics\": [\n{\"name\": \"heart_rate\", \"data\": [{\"Avg\": 61,, \"Max\": 66}]}]}}\n",
                                   to: dir + "/P2/HealthAutoExport-20240310-20240310.json")
        assertFailure(try resonance("import", bad, "--out", dir + "/ws2"),
                      "\(bad):2:44: malformed Health Auto Export JSON at byte 66: a member name (string) is expected")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/ws2/manifest.json"))
    }

    func testUnknownFormatFailsNamingTheColumnsFound() throws {
        let dir = try makeTempDir()
        let path = try writeFixture("colour,size\nred,3\n", to: dir + "/things.csv")
        assertFailure(try resonance("import", path, "--out", dir + "/ws"), path, "unknown format", "'colour', 'size'")
    }

    /// A bad row is rejected with its line and reason, and the import still succeeds.
    func testUnparsableRowGoesToRejectsWithItsLine() throws {
        let dir = try makeTempDir()
        let path = try writeFixture("""
            time,bpm
            2024-03-01T08:00:00Z,61
            2024-03-01T08:00:01Z,fast
            2024-03-01T08:00:02Z,63

            """, to: dir + "/heart.csv")
        let run = try resonance("import", path, "--out", dir + "/ws", "--subject", "P1", "--quiet")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        let hr = try String(contentsOfFile: dir + "/ws/hr.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(hr.count, 1 + 2)
        let rejects = try String(contentsOfFile: dir + "/ws/rejects.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(rejects.count, 1 + 1)
        XCTAssertTrue(rejects[1].contains(",3,"), String(rejects[1]))
        XCTAssertTrue(rejects[1].contains("fast"), String(rejects[1]))
    }

    /// A folder with one file that cannot be read: the rest imports, the failed file
    /// is named on stderr and in manifest.json, and the exit code is 3; with
    /// --strict the first such file stops the import and nothing is written.
    func testFolderImportRecordsAFailedFileAndExitsThree() throws {
        let dir = try makeTempDir()
        try writeFixture("timestamp,bpm\n2024-03-01T08:00:00Z,61\n2024-03-01T08:00:01Z,62\n", to: dir + "/study/P1/hr_log.csv")
        let bad = try writeFixture("<HealthData>\n<Record type=\"x\"\n</HealthData>\n", to: dir + "/study/P2/export.xml")
        try writeFixture("timestamp,bpm\n2024-03-01T09:00:00Z,70\n", to: dir + "/study/P3/hr_log.csv")

        let ws = dir + "/ws"
        let run = try resonance("import", dir + "/study", "--out", ws, "--quiet")
        XCTAssertEqual(run.status, 3, run.stderr)
        XCTAssertEqual(run.stdout, "")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, run.stderr)
        XCTAssertTrue(lines[0].hasPrefix("warning: study/P2/export.xml: failed: \(bad):3:"), lines[0])
        XCTAssertTrue(lines[0].contains("malformed XML"), lines[0])
        XCTAssertEqual(lines.last, "error: 1 of 3 files failed (see manifest.json)")
        // The other two files are imported.
        let hr = try String(contentsOfFile: ws + "/hr.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(hr.count, 1 + 3)
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: ws + "/manifest.json"))) as? [String: Any]
        let sources = manifest?["sources"] as? [[String: Any]] ?? []
        XCTAssertEqual(sources.map { $0["path"] as? String }, ["study/P1/hr_log.csv", "study/P2/export.xml", "study/P3/hr_log.csv"])
        XCTAssertEqual(sources.map { $0["failure"] != nil }, [false, true, false])
        XCTAssertTrue((sources[1]["failure"] as? String)?.contains("malformed XML") == true, "\(sources[1])")

        let strictWS = dir + "/strict"
        let strict = try resonance("import", dir + "/study", "--out", strictWS, "--quiet", "--strict")
        assertFailure(strict, "\(bad):3:", "malformed XML")
        XCTAssertFalse(FileManager.default.fileExists(atPath: strictWS + "/hr.csv"), "--strict writes no table")
    }
}
