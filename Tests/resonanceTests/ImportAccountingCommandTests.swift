import Foundation
import XCTest

/// `resonance import` accounts for every file, as a user sees it: the files skipped in one
/// line on stderr, a file without accepted rows as a warning and exit code 3, a forced
/// format that does not fit named with the layout it expects (docs/import.md).
final class ImportAccountingCommandTests: XCTestCase {
    private func manifest(_ ws: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: ws + "/manifest.json")))
            as? [String: Any])
    }

    /// An E4 Connect session folder (ACC BVP EDA HR IBI TEMP tags info.txt): all 8 files in
    /// the manifest, tags and the raw channels read, info.txt skipped with its reason, and
    /// one line on stderr that shows without --progress and not under --quiet.
    func testE4ConnectFolderListsAllEightFiles() throws {
        let dir = try makeTempDir()
        try writeE4ConnectSession(dir + "/study/P1")
        let run = try resonance("import", dir + "/study", "--out", dir + "/ws")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderr, "import: 1 file skipped (see manifest.json)\n")
        let m = try manifest(dir + "/ws")
        let sources = m["sources"] as? [[String: Any]] ?? []
        XCTAssertEqual(sources.map { "\($0["path"]!) \($0["format"]!)" },
                       ["study/P1/ACC.csv e4-signal", "study/P1/BVP.csv e4-signal", "study/P1/EDA.csv e4-signal",
                        "study/P1/HR.csv e4-hr", "study/P1/IBI.csv e4-ibi", "study/P1/TEMP.csv e4-signal", "study/P1/tags.csv e4-tags"])
        XCTAssertEqual(sources.last?["accepted"] as? Int, 2)
        let skipped = m["skipped"] as? [[String: String]] ?? []
        XCTAssertEqual(skipped.map { $0["path"]! }, ["study/P1/info.txt"])
        XCTAssertEqual(skipped.last?["reason"], "Empatica E4 session description (info.txt): no measurements")
        let labels = try String(contentsOfFile: dir + "/ws/labels.csv", encoding: .utf8)
        XCTAssertEqual(labels, "subject,start,end,label\nP1,2024-03-01T08:00:30.250Z,2024-03-01T08:00:30.250Z,e4_tag\n"
            + "P1,2024-03-01T08:00:45.500Z,2024-03-01T08:00:45.500Z,e4_tag\n")

        let quiet = try resonance("import", dir + "/study", "--out", dir + "/ws2", "--quiet")
        XCTAssertEqual(quiet.status, ExitStatus.success, quiet.stderr)
        XCTAssertEqual(quiet.stderr, "")
        // Byte-identical outputs across runs.
        for table in ["manifest.json", "hr.csv", "rr.csv", "labels.csv", "rejects.csv"] {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/ws/" + table)),
                           try Data(contentsOf: URL(fileURLWithPath: dir + "/ws2/" + table)), table)
        }
    }

    /// A `notes.docx` and a hidden file in a folder are listed as skipped.
    func testUnknownAndHiddenFilesAreListedSkipped() throws {
        let dir = try makeTempDir()
        try writeFixture("timestamp,bpm\n2024-03-01T08:00:00Z,61\n", to: dir + "/study/P1/hr_log.csv")
        try writeFixture("PK\u{3}\u{4}\"not text", to: dir + "/study/P1/notes.docx")
        try writeFixture("x", to: dir + "/study/P1/.DS_Store")
        let run = try resonance("import", dir + "/study", "--out", dir + "/ws", "--progress")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("skipped study/P1/notes.docx: unknown extension .docx"), run.stderr)
        XCTAssertTrue(lines.contains("skipped study/P1/.DS_Store: hidden file"), run.stderr)
        XCTAssertEqual(lines.filter { $0.hasPrefix("import: ") }, ["import: 2 files skipped (see manifest.json)"])
        let skipped = try manifest(dir + "/ws")["skipped"] as? [[String: String]] ?? []
        XCTAssertEqual(skipped, [["path": "study/P1/.DS_Store", "reason": "hidden file"],
                                 ["path": "study/P1/notes.docx", "reason": "unknown extension .docx"]])
    }

    /// Every bpm out of range: one warning line naming the file, the rows read and the top
    /// reason, exit 3 (the other file imported); --allow-empty exits 0.
    func testAnAllRejectedFileExitsThreeUnlessAllowed() throws {
        let dir = try makeTempDir()
        try writeFixture("time,bpm\n2024-03-01T08:00:00Z,300\n2024-03-01T08:00:01Z,310\n2024-03-01T08:00:02Z,0\n",
                         to: dir + "/study/P1/heart.csv")
        try writeFixture("time,bpm\n2024-03-01T09:00:00Z,60\n", to: dir + "/study/P2/heart.csv")
        let run = try resonance("import", dir + "/study", "--out", dir + "/ws", "--quiet")
        XCTAssertEqual(run.status, 3, run.stderr)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderr.split(separator: "\n").map(String.init), [
            "warning: study/P1/heart.csv: no rows accepted: 3 rows read, all rejected (top reason: bpm outside 20–250, 3 rows; "
                + "the first, line 2: 2024-03-01T08:00:00Z,300; see rejects.csv)",
            "error: 1 of 2 files gave no accepted row (see manifest.json; --allow-empty accepts them)",
        ])
        let hr = try String(contentsOfFile: dir + "/ws/hr.csv", encoding: .utf8)
        XCTAssertEqual(hr.split(separator: "\n").count, 1 + 1, "the other file is imported")

        let allowed = try resonance("import", dir + "/study", "--out", dir + "/ws2", "--quiet", "--allow-empty")
        XCTAssertEqual(allowed.status, ExitStatus.success, allowed.stderr)
        XCTAssertEqual(allowed.stderr.split(separator: "\n").count, 1, "the warning stays: \(allowed.stderr)")

        // A single file named on the command line is no different.
        let single = try resonance("import", dir + "/study/P1/heart.csv", "--out", dir + "/ws3", "--quiet")
        XCTAssertEqual(single.status, 3, single.stderr)
        XCTAssertTrue(single.stderr.hasPrefix("warning: P1/heart.csv: no rows accepted: 3 rows read"), single.stderr)
    }

    /// A semicolon file with day-first times: naming the columns is enough to choose the
    /// generic reader; the warning shows the first rejected line as the file has it and
    /// points at --time-format, which reads it; `rejects.csv`'s `raw` is that line.
    func testNamedColumnsChooseTheGenericReaderAndAnUnreadTimePointsAtTimeFormat() throws {
        let dir = try makeTempDir()
        let path = try writeFixture("Zeit;Puls\n31/01/2024 08:00:00;72\n31/01/2024 08:00:01;73\n", to: dir + "/herz.csv")
        for separator in [";", "\t"] {
            let file = try writeFixture(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
                .replacingOccurrences(of: ";", with: separator), to: dir + "/sep\(separator == ";" ? "semicolon" : "tab")/herz.csv")
            let run = try resonance("import", file, "--out", dir + "/ws-\(separator.utf8.first ?? 0)", "--quiet",
                                    "--time-column", "Zeit", "--bpm-column", "Puls")
            XCTAssertEqual(run.status, 3, run.stderr)
            XCTAssertTrue(run.stderr.contains("herz.csv: no rows accepted: 2 rows read, all rejected (top reason: "
                + "unparsable time, 2 rows; the first, line 2: 31/01/2024 08:00:00\(separator)72; give the time column's layout "
                + "with --time-format"), run.stderr)
            let rejects = try String(contentsOfFile: dir + "/ws-\(separator.utf8.first ?? 0)/rejects.csv", encoding: .utf8)
            XCTAssertTrue(rejects.contains("31/01/2024 08:00:00\(separator)72"), rejects)
            XCTAssertFalse(rejects.contains("31/01/2024 08:00:00,72"), rejects)
        }
        let read = try resonance("import", path, "--out", dir + "/ws", "--quiet", "--time-column", "Zeit", "--bpm-column", "Puls",
                                 "--time-format", "dd/MM/yyyy HH:mm:ss", "--tz", "UTC")
        XCTAssertEqual(read.status, ExitStatus.success, read.stderr)
        XCTAssertEqual(try String(contentsOfFile: dir + "/ws/hr.csv", encoding: .utf8).split(separator: "\n").count, 1 + 2)
    }

    func testForcedFormatThatDoesNotFitNamesTheExpectedHeader() throws {
        let dir = try makeTempDir()
        let path = try writeFixture("time,rr\n2024-03-01T08:00:00Z,812\n", to: dir + "/P1/rr.txt")
        assertFailure(try resonance("import", path, "--out", dir + "/ws", "--format", "kubios-rr"),
                      "\(path): not in --format kubios-rr, which expects a header of two columns 'Time(s)' and 'RR(s)'",
                      "found first line 'time,rr'")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/ws/manifest.json"))
    }

    /// Polar Flow's R-R text (no header, elapsed seconds and R-R in ms) is found by its
    /// content, read with the units noted.
    func testPolarFlowRRTextIsDetected() throws {
        let dir = try makeTempDir()
        let path = try writeFixture("0.812\t812\n1.602\t790\n2.447\t845\n3.277\t830\n4.077\t800\n4.897\t820\n",
                                    to: dir + "/P1/Running_2024-03-01_RR.txt")
        let run = try resonance("import", path, "--out", dir + "/ws", "--quiet", "--start", "2024-03-01T08:00:00Z")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        let rr = try String(contentsOfFile: dir + "/ws/rr.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(rr.first, "subject,timestamp,rr_ms,source")
        XCTAssertEqual(rr[1], "P1,2024-03-01T08:00:00.812Z,812.0,rr-text")
        XCTAssertEqual(rr.last, "P1,2024-03-01T08:00:04.897Z,820.0,rr-text")
        let source = (try manifest(dir + "/ws")["sources"] as? [[String: Any]])?.first
        XCTAssertEqual(source?["format"] as? String, "rr-text")
        let notes = source?["notes"] as? [String] ?? []
        XCTAssertTrue(notes.contains { $0.hasPrefix("elapsed time in seconds") }, "\(notes)")
        XCTAssertTrue(notes.contains { $0.hasPrefix("rr values in milliseconds") }, "\(notes)")
    }
}
