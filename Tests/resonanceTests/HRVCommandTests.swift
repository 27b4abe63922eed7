import Foundation
import XCTest

final class HRVCommandTests: XCTestCase {
    func testHelp() throws {
        try assertHelp(["hrv"], usage: "resonance hrv",
                       options: ["<workspace>", "--window <window>", "--step <step>", "--artifacts <artifacts>",
                                 "--psd <psd>", "--resample-hz <resample-hz>", "--welch-overlap <welch-overlap>"])
    }

    func testWritesHRVOfTheSample() throws {
        let ws = try importSample(into: try makeTempDir())
        let run = try resonance("hrv", ws, "--progress")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertEqual(run.stdout, "")
        // S01 has 1608 beats (≈ 23.5 min): whole-recording row plus 5-min windows every 60 s.
        let rows = try String(contentsOfFile: ws + "/hrv.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertTrue(rows[0].hasPrefix("subject,window_start,window_end,n_beats,"), String(rows[0]))
        XCTAssertTrue(rows.dropFirst().allSatisfy { $0.hasPrefix("S01,") })
        XCTAssertTrue(run.stderr.contains("wrote \(rows.count - 1) rows"), run.stderr)
    }

    func testBadArgumentsAreUsageErrors() throws {
        let ws = try makeTempDir()
        assertUsageError(try resonance("hrv"), "Missing expected argument '<workspace>'")
        assertUsageError(try resonance("hrv", ws + "/absent"), "\(ws)/absent: no such workspace folder")
        assertUsageError(try resonance("hrv", ws, "--window", "0"), "--window and --step must be between 1 and 86400 seconds.")
        assertUsageError(try resonance("hrv", ws, "--step", "86401"), "--window and --step must be between 1 and 86400 seconds.")
        assertUsageError(try resonance("hrv", ws, "--resample-hz", "65"), "--resample-hz must be between 1 and 64.")
        assertUsageError(try resonance("hrv", ws, "--lambda", "0"), "--lambda must be positive.")
        assertUsageError(try resonance("hrv", ws, "--welch-overlap", "100"), "--welch-overlap must be in [0, 100).")
        assertUsageError(try resonance("hrv", ws, "--welch-pad", "17"), "--welch-pad must be between 1 and 16.")
        assertUsageError(try resonance("hrv", ws, "--artifacts", "magic"), "The value 'magic' is invalid for '--artifacts <artifacts>'")
        XCTAssertFalse(FileManager.default.fileExists(atPath: ws + "/hrv.csv"), "a usage error writes nothing")
    }
}
