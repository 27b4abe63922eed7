import Foundation
import XCTest

final class ImportCommandTests: XCTestCase {
    func testHelp() throws {
        try assertHelp(["import"], usage: "resonance import",
                       options: ["<source>", "--out <dir>", "--format <format>", "--tz <zone>", "--subject <id>",
                                 "--constants <file>", "--jobs <jobs>", "--quiet"])
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

    func testMissingSourceFailsNamingIt() throws {
        let dir = try makeTempDir()
        assertFailure(try resonance("import", dir + "/absent.csv", "--out", dir + "/ws"),
                      dir + "/absent.csv", "no such file or folder")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/ws/hr.csv"))
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
}
