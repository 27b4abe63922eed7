import Foundation
@testable import ResonanceLab
import XCTest

/// Commands running side by side on one workspace (docs/workspace.md, "Locks"), each a
/// separate process as `make -j` or a workflow engine starts them.
final class WorkspaceConcurrencyTests: XCTestCase {
    static let rounds = 20

    /// hrv, coherence and sessions started at the same moment, 20 times: every time all
    /// three succeed and the manifest lists all four outputs with the digests of the bytes
    /// on disk, which are the bytes the stages write one after another. sessions follows
    /// the artifact method of hrv.csv (and records its digest in its lineage), so the
    /// workspace has its hrv.csv already: the hrv started beside sessions rewrites the
    /// same bytes, and sessions reads the same table whether it runs before or after it.
    func testThreeStagesStartedTogetherAllLandInTheManifest() throws {
        let dir = try makeTempDir()
        let template = try importSample(into: dir)
        XCTAssertEqual(try resonance("hrv", template, "--quiet", "--jobs", "1").status, ExitStatus.success)
        let stages = ["hrv", "coherence", "sessions"]
        let reference = dir + "/reference"
        try FileManager.default.copyItem(atPath: template, toPath: reference)
        for stage in stages {
            XCTAssertEqual(try resonance(stage, reference, "--quiet", "--jobs", "1").status, ExitStatus.success)
        }
        let expected = try readManifest(reference).tables
        XCTAssertEqual(expected.count, 16, "12 imported tables (waveforms.csv and waveforms.bin among them) and 4 outputs")
        for round in 0..<Self.rounds {
            let ws = dir + "/round\(round)"
            try FileManager.default.copyItem(atPath: template, toPath: ws)
            let launched = try stages.map { try launch([$0, ws, "--quiet", "--jobs", "1"]) }
            for (stage, command) in zip(stages, launched) {
                let run = try command.finish()
                XCTAssertEqual(run.status, ExitStatus.success, "round \(round), \(stage): \(run.stderr)")
            }
            XCTAssertEqual(try readManifest(ws).tables, expected, "round \(round)")
            try assertManifestMatchesTables(ws)
            XCTAssertEqual(try leftovers(ws), [], "round \(round)")
            try FileManager.default.removeItem(atPath: ws)
        }
    }

    /// A second writer of a table waits, saying so, until the first is done, then commits
    /// its own: here the first writer is this test, holding the table's lock.
    func testASecondWriterOfATableWaitsForTheFirst() throws {
        let ws = try importSample(into: try makeTempDir())
        let lock = try WorkspaceLock(directory: ws)
        XCTAssertTrue(try lock.lock(WorkspaceLock.byte(forTable: "hrv.csv"), exclusive: true, wait: false))
        let hrv = try launch(["hrv", ws, "--quiet"])
        let deadline = Date().addingTimeInterval(30)
        while !hrv.stderr.contains("waiting") && Date() < deadline { usleep(20_000) }
        XCTAssertEqual(hrv.stderr, "note: \(ws): waiting for another run using hrv.csv\n")
        usleep(300_000)
        XCTAssertTrue(hrv.process.isRunning, "hrv went ahead while another run held hrv.csv")
        XCTAssertFalse(FileManager.default.fileExists(atPath: ws + "/hrv.csv"))
        lock.unlock(WorkspaceLock.byte(forTable: "hrv.csv"))
        let run = try hrv.finish()
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertNotNil(try readManifest(ws).table("hrv.csv"))
        try assertManifestMatchesTables(ws)
    }

    /// Two runs writing the same table at once: both succeed, one after the other, and
    /// the table and its manifest entry agree.
    func testTwoWritersOfOneTableNeverCorruptIt() throws {
        let ws = try importSample(into: try makeTempDir())
        for _ in 0..<3 {
            let a = try launch(["hrv", ws, "--quiet", "--jobs", "1"]), b = try launch(["hrv", ws, "--quiet", "--jobs", "1"])
            XCTAssertEqual(try a.finish().status, ExitStatus.success)
            XCTAssertEqual(try b.finish().status, ExitStatus.success)
            try assertManifestMatchesTables(ws)
            XCTAssertEqual(try leftovers(ws), [])
        }
    }
}
