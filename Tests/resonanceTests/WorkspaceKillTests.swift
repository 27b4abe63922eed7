import Foundation
import ResonanceLab
import XCTest

/// Import and a stage killed (SIGKILL) at random moments (docs/workspace.md, "The commit
/// protocol"). After every kill:
/// - the next command succeeds, and what it sees is the old workspace or the new one,
///   byte for byte, never a mix: a partial state is accepted by no command;
/// - it has removed or completed what the killed run left;
/// - running the killed command again succeeds and gives the new workspace.
final class WorkspaceKillTests: XCTestCase {
    /// Kills per scenario (import, hrv), at moments drawn from a fixed seed.
    static let kills = 12

    /// R-R intervals of `subjects` recordings, `beats` each, one CSV per subject folder.
    func writeRecordings(_ dir: String, subjects: Int, beats: Int, seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for s in 0..<subjects {
            var text = "time,rr\n"
            var ms: Int64 = 1_709_280_000_000 + Int64(s) * 86_400_000
            for _ in 0..<beats {
                let rr = (800 + 60 * random.normal()).rounded()
                ms += Int64(rr)
                text += Timestamp.iso(ms) + "," + String(Int(rr)) + "\n"
            }
            _ = try writeFixture(text, to: "\(dir)/S\(s + 1)/beats.csv")
        }
    }

    /// Runs `arguments` to completion, timing it.
    func timed(_ arguments: [String]) throws -> Double {
        let start = Date()
        let run = try resonance(arguments)
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        return Date().timeIntervalSince(start)
    }

    /// Starts `arguments`, kills it after `seconds` (unless it is done), and waits for it.
    func kill(_ arguments: [String], after seconds: Double) throws {
        let command = try launch(arguments)
        usleep(useconds_t(seconds * 1e6))
        if command.process.isRunning { Foundation.kill(command.process.processIdentifier, SIGKILL) }
        _ = try command.finish()
    }

    /// Every file of a workspace folder except the lock, by name.
    func snapshot(_ ws: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: ws) where name != ".lock" {
            out[name] = try Data(contentsOf: URL(fileURLWithPath: ws + "/" + name))
        }
        return out
    }

    /// Kills `command` (its workspace argument `ws`, made anew from `old` each time) at
    /// random moments and checks each outcome against the workspaces `old` and `new`.
    func killRepeatedly(_ command: [String], ws: String, old: String, new: String, seed: UInt64) throws {
        let before = try snapshot(old), after = try snapshot(new)
        XCTAssertNotEqual(before, after)
        let timing = ws + "-timing"
        try FileManager.default.copyItem(atPath: old, toPath: timing)
        let duration = try timed(command.map { $0 == "WS" ? timing : $0 })
        var random = SeededRandom(seed: seed)
        var outcomes: [String: Int] = [:]
        for k in 0..<Self.kills {
            try? FileManager.default.removeItem(atPath: ws)
            try FileManager.default.copyItem(atPath: old, toPath: ws)
            let at = random.uniform(0.02, 1.4) * duration
            try kill(command.map { $0 == "WS" ? ws : $0 }, after: at)
            let journal = FileManager.default.fileExists(atPath: ws + "/.journal")
            // The next command (a reader) completes or discards, then reads the workspace whole.
            let report = ws + "-report"
            let next = try resonance("validate", ws, "--report-dir", report, "--quiet")
            XCTAssertEqual(next.status, ExitStatus.success, "kill \(k) at \(at) s: \(next.stderr)")
            XCTAssertEqual(try leftovers(ws), [], "kill \(k) at \(at) s")
            let seen = try snapshot(ws)
            let outcome = seen == before ? "old" : seen == after ? "new" : "mixed"
            XCTAssertNotEqual(outcome, "mixed", "kill \(k) at \(at) s: \(seen.keys.sorted())")
            if journal { XCTAssertEqual(outcome, "new", "kill \(k): a commit past its journal must complete") }
            outcomes[outcome + (journal ? " (completed by the next command)" : ""), default: 0] += 1
            // The killed command again: it succeeds and gives the new workspace.
            let again = try resonance(command.map { $0 == "WS" ? ws : $0 } + ["--quiet"])
            XCTAssertEqual(again.status, ExitStatus.success, again.stderr)
            XCTAssertEqual(try snapshot(ws), after, "kill \(k): rerun")
        }
        print("kill test \(command[0]): run \(String(format: "%.2f", duration)) s; outcomes \(outcomes.sorted { $0.key < $1.key })")
    }

    func testImportAndHRVKilledAtRandomMomentsLeaveTheOldOrTheNewWorkspace() throws {
        let dir = try makeTempDir()
        try writeRecordings(dir + "/a", subjects: 3, beats: 30_000, seed: 1)
        try writeRecordings(dir + "/b", subjects: 3, beats: 30_000, seed: 2)
        let old = dir + "/old", new = dir + "/new"
        for (ws, source) in [(old, "a"), (new, "b")] {
            XCTAssertEqual(try resonance("import", dir + "/" + source, "--out", ws, "--quiet").status, ExitStatus.success)
        }
        // import b over the workspace of a.
        try killRepeatedly(["import", dir + "/b", "--out", "WS", "--jobs", "1"], ws: dir + "/ws", old: old, new: new, seed: 11)
        // hrv on the workspace of b.
        let withHRV = dir + "/new-hrv"
        try FileManager.default.copyItem(atPath: new, toPath: withHRV)
        XCTAssertEqual(try resonance("hrv", withHRV, "--quiet", "--jobs", "1").status, ExitStatus.success)
        try killRepeatedly(["hrv", "WS", "--jobs", "1"], ws: dir + "/ws2", old: new, new: withHRV, seed: 12)
    }
}
