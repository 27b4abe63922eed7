import Foundation
import ResonanceLab
import XCTest

/// docs/workspace.md as a user meets it: every command refuses a folder that is not a
/// workspace and a table that does not match the manifest, and the next command
/// completes or removes what a killed one left.
final class WorkspaceIntegrityTests: XCTestCase {
    /// Every command reading a workspace, with the arguments it needs besides the folder.
    static let readers: [[String]] = [
        ["hrv"], ["coherence"], ["sessions"], ["effects"], ["daily"], ["validate", "--report-dir", "REPORT"],
    ]

    func command(_ reader: [String], _ ws: String, _ dir: String) -> [String] {
        [reader[0], ws] + reader.dropFirst().map { $0 == "REPORT" ? dir + "/report" : $0 }
    }

    /// A pid that cannot be running (above Linux's pid_max limit of 2^22).
    static let deadPID = Int32(1 << 22) + 1

    func testEveryStageRefusesAFolderWithoutManifest() throws {
        let dir = try makeTempDir(), empty = dir + "/E"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        for reader in Self.readers {
            assertFailure(try resonance(command(reader, empty, dir)), "\(empty): not a workspace: no manifest.json")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: empty), [], "a refused folder stays untouched")
        try Data("{}".utf8).write(to: URL(fileURLWithPath: empty + "/manifest.json"))
        assertFailure(try resonance("hrv", empty), "\(empty)/manifest.json: not a valid workspace manifest")
    }

    func testEveryManifestListsEveryTableWithRowsAndDigest() throws {
        let ws = try importSample(into: try makeTempDir())
        XCTAssertEqual(try resonance("hrv", ws, "--quiet").status, ExitStatus.success)
        let tables = try readManifest(ws).tables
        XCTAssertEqual(tables.map(\.name), ["daily_inputs.csv", "hr.csv", "hrv.csv", "hrv_samples.csv", "labels.csv", "plays.csv",
                                            "rejects.csv", "rr.csv", "sleep.csv", "subjects.csv", "waveforms.bin",
                                            "waveforms.csv", "workouts.csv"])
        for t in tables {
            XCTAssertEqual(t.sha256, try SHA256.hex(ofFile: ws + "/" + t.name), t.name)
            // waveforms.bin counts its segments, the rows of waveforms.csv.
            let text = try String(contentsOfFile: ws + "/" + (t.name == "waveforms.bin" ? "waveforms.csv" : t.name), encoding: .utf8)
            XCTAssertEqual(t.rows, text.split(separator: "\n").count - 1, t.name)
        }
        // The sample's 1608 IBI rows, and one reject per rejected row.
        XCTAssertEqual(tables.first { $0.name == "rr.csv" }?.rows, 1608)
        XCTAssertEqual(tables.first { $0.name == "rejects.csv" }?.rows, Sample.rejected)
    }

    /// A renamed header column, `abc` in `rr_ms` and a last row cut short each change
    /// the digest: validate and hrv refuse the table, naming it, and write nothing.
    func testTamperedTablesAreRefusedNamingTheTable() throws {
        let dir = try makeTempDir()
        let ws = try importSample(into: dir)
        let original = try String(contentsOfFile: ws + "/rr.csv", encoding: .utf8)
        var lines = original.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let renamed = ([lines[0].replacingOccurrences(of: "rr_ms", with: "rr_sec")] + lines.dropFirst()).joined(separator: "\n")
        var fields = lines[4].split(separator: ",").map(String.init)
        fields[2] = "abc"
        lines[4] = fields.joined(separator: ",")
        let letters = lines.joined(separator: "\n")
        let rows = original.split(separator: "\n").map(String.init)
        let lastFields = rows[rows.count - 1].split(separator: ",")
        let cut = (rows.dropLast() + ["\(lastFields[0]),\(lastFields[1]),8"]).joined(separator: "\n") + "\n"
        for (what, text) in [("renamed column", renamed), ("abc", letters), ("cut row", cut)] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: ws + "/rr.csv"))
            for reader in [["hrv"], ["validate", "--report-dir", "REPORT"]] {
                let run = try resonance(command(reader, ws, dir))
                assertFailure(run, "\(ws)/rr.csv: does not match manifest.json")
                XCTAssertFalse(FileManager.default.fileExists(atPath: ws + "/hrv.csv"), what)
                XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/report/validation.md"), what)
            }
        }
        // Without the digest, the header and the values are still checked as read.
        try Data(renamed.utf8).write(to: URL(fileURLWithPath: ws + "/rr.csv"))
        assertFailure(try resonance("hrv", ws, "--no-verify"), "\(ws)/rr.csv:1:3:")
        try Data(letters.utf8).write(to: URL(fileURLWithPath: ws + "/rr.csv"))
        assertFailure(try resonance("hrv", ws, "--no-verify"), "\(ws)/rr.csv:5:3: 'rr_ms' is not a number: 'abc'")
        try Data(original.utf8).write(to: URL(fileURLWithPath: ws + "/rr.csv"))
        XCTAssertEqual(try resonance("hrv", ws, "--quiet").status, ExitStatus.success)
    }

    /// A table the manifest does not list (left from an earlier import) is not read.
    func testUnlistedTablesAreIgnoredWithANote() throws {
        let dir = try makeTempDir()
        let ws = try importSample(into: dir)
        XCTAssertEqual(try resonance("hrv", ws, "--quiet").status, ExitStatus.success)
        let daily = try resonance("daily", ws, "--quiet")
        XCTAssertEqual(daily.status, ExitStatus.success, daily.stderr)
        let withHRV = try String(contentsOfFile: ws + "/daily.csv", encoding: .utf8)
        // Re-importing makes a new workspace: hrv.csv is no longer part of it.
        XCTAssertEqual(try resonance("import", Sample.path, "--out", ws, "--quiet").status, ExitStatus.success)
        XCTAssertNil(try readManifest(ws).table("hrv.csv"))
        let again = try resonance("daily", ws, "--quiet")
        XCTAssertEqual(again.status, ExitStatus.success, again.stderr)
        XCTAssertTrue(again.stderr.contains("note: \(ws)/hrv.csv: not listed in manifest.json, ignored"), again.stderr)
        XCTAssertNotEqual(try String(contentsOfFile: ws + "/daily.csv", encoding: .utf8), withHRV,
                          "the unlisted hrv.csv still fed the daily HRV")
    }

    /// A run killed after its commit point (journal in place, some tables renamed): the
    /// next command completes the commit, so it sees the new tables with the new manifest,
    /// never a new hr.csv beside an old rr.csv and an old manifest.
    func testAnInterruptedCommitIsCompletedByTheNextCommand() throws {
        let dir = try makeTempDir()
        let old = try importSample(into: dir)
        let newer = dir + "/new"
        let source = try writeFixture("time,bpm,rr\n2024-03-01T08:00:00Z,60,1000\n2024-03-01T08:00:01Z,61,990\n",
                                      to: dir + "/in/a.csv")
        XCTAssertEqual(try resonance("import", source, "--out", newer, "--quiet").status, ExitStatus.success)
        // The state a kill between two renames leaves: hr.csv renamed, the rest staged.
        let staging = ".staging.\(Self.deadPID).tmp"
        try FileManager.default.createDirectory(atPath: old + "/" + staging, withIntermediateDirectories: false)
        let names = try readManifest(newer).tables.map(\.name) + ["manifest.json"]
        for name in names {
            let target = name == "hr.csv" ? old + "/hr.csv" : old + "/" + staging + "/" + name
            try? FileManager.default.removeItem(atPath: target)
            try FileManager.default.copyItem(atPath: newer + "/" + name, toPath: target)
        }
        try Data((staging + "\n" + names.joined(separator: "\n") + "\n").utf8)
            .write(to: URL(fileURLWithPath: old + "/.journal"))
        let run = try resonance("validate", old, "--report-dir", dir + "/report")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertTrue(run.stderr.contains("note: \(old): completed the commit of an interrupted run"), run.stderr)
        for name in names {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: old + "/" + name)),
                           try Data(contentsOf: URL(fileURLWithPath: newer + "/" + name)), name)
        }
        XCTAssertEqual(try leftovers(old), [])
    }

    /// A run killed before its commit point leaves a staging folder and temporary files:
    /// the next command of any kind removes them with a note and reads the old workspace.
    func testLeftoversOfAKilledRunAreRemovedByTheNextCommand() throws {
        let dir = try makeTempDir()
        let ws = try importSample(into: dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: ws + "/manifest.json"))
        let staging = ws + "/.staging.\(Self.deadPID).tmp"
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: false)
        try Data("subject,timestamp,rr_ms,source\nX,2024-03-01T08:00:00.000Z,8,x\n".utf8)
            .write(to: URL(fileURLWithPath: staging + "/rr.csv"))
        let partial = ws + "/hrv.csv.\(Self.deadPID).tmp"
        try Data("subject,window_start\n".utf8).write(to: URL(fileURLWithPath: partial))
        let run = try resonance("coherence", ws, "--quiet")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertTrue(run.stderr.contains("note: removed \(staging): left by an interrupted run"), run.stderr)
        XCTAssertTrue(run.stderr.contains("note: removed \(partial): left by an interrupted run"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: staging))
        XCTAssertFalse(FileManager.default.fileExists(atPath: partial))
        var expected = try JSONDecoder().decode(Manifest.self, from: before)
        XCTAssertEqual(try readManifest(ws).tables.filter { $0.name != "coherence.csv" }, expected.tables)
        expected.tables = []
        var now = try readManifest(ws)
        now.tables = []
        XCTAssertEqual(now, expected, "a stage changes only the table list")
    }
}
