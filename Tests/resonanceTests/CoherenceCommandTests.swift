import Foundation
import XCTest

final class CoherenceCommandTests: XCTestCase {
    func testHelp() throws {
        try assertHelp(["coherence"], usage: "resonance coherence",
                       options: ["<workspace>", "--window <window>", "--step <step>", "--breathing-rate <breathing-rate>", "--method <method>", "--every-step", "--hr-sampling <hr-sampling>",
                                 "--artifacts <artifacts>"])
    }

    /// S01 is scored from its R-R intervals, S02 (heart rate only) from hr.csv.
    func testScoresBothSampleSubjects() throws {
        let ws = try importSample(into: try makeTempDir())
        let run = try resonance("coherence", ws, "--progress")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertEqual(run.stdout, "")
        XCTAssertTrue(run.stderr.contains("coherence: 1 subject from RR, 1 from HR"), run.stderr)
        let rows = try String(contentsOfFile: ws + "/coherence.csv", encoding: .utf8).split(separator: "\n").dropFirst()
        XCTAssertEqual(Set(rows.map { $0.prefix(while: { $0 != "," }) }), ["S01", "S02"])
    }

    func testBadArgumentsAreUsageErrors() throws {
        let ws = try makeTempDir()
        assertUsageError(try resonance("coherence", ws + "/absent"), "\(ws)/absent: no such workspace folder")
        assertUsageError(try resonance("coherence", ws, "--window", "15"),
                         "--window must be 16–3600 s (the range of coherence.window_seconds), got 15.")
        assertUsageError(try resonance("coherence", ws, "--step", "0"),
                         "--step must be 1–3600 s (the range of coherence.step_seconds), got 0.")
        assertUsageError(try resonance("coherence", ws, "--breathing-rate", "0"),
                         "--breathing-rate must be 2–30 breaths/min (the range of coherence.breathing_rate_per_min), got 0.")
        assertUsageError(try resonance("coherence", ws, "--breathing-rate", "1e9"),
                         "--breathing-rate must be 2–30 breaths/min (the range of coherence.breathing_rate_per_min), got 1e+09.")
        assertUsageError(try resonance("coherence", ws, "--artifacts", "magic"),
                         "The value 'magic' is invalid for '--artifacts <artifacts>'")
    }
}
