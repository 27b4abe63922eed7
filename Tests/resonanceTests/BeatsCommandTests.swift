import Foundation
import XCTest

/// `resonance beats` as a user runs it: `--timing` and `--timing-runs` on the sample's
/// pulse wave.
final class BeatsCommandTests: XCTestCase {
    /// `--timing-runs` is in the help, is checked before anything is read, and detects each
    /// batch again without changing a byte of what the stage writes.
    func testTimingRunsRepeatDetectionWithTheSameBeats() throws {
        let dir = try makeTempDir()
        try assertHelp(["beats"], usage: "resonance beats", options: ["--timing-runs <n>", "median time"])
        let ws = try importSample(into: dir)
        assertUsageError(try resonance("beats", ws, "--timing-runs", "3"), "--timing-runs needs --timing.")
        assertUsageError(try resonance("beats", ws, "--timing", "--timing-runs", "0"), "--timing-runs must be at least 1 (got 0).")
        XCTAssertFalse(FileManager.default.fileExists(atPath: ws + "/beats.csv"), "a usage error writes nothing")

        let once = try resonance("beats", ws, "--quiet")
        XCTAssertEqual(once.status, ExitStatus.success, once.stderr)
        let single = try Data(contentsOf: URL(fileURLWithPath: ws + "/beats.csv"))
        let timed = try resonance("beats", ws, "--quiet", "--timing", "--timing-runs", "3")
        XCTAssertEqual(timed.status, ExitStatus.success, timed.stderr)
        // S01's pulse wave: 300 s at 64 Hz; no ECG in the sample.
        XCTAssertTrue(timed.stderr.hasPrefix("timing: ECG 0 samples in 0.000 ms; pulse wave 19200 samples in "), timed.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: ws + "/beats.csv")), single)
        XCTAssertGreaterThan(single.count, 1_000)
    }
}
