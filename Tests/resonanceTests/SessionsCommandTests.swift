import Foundation
import XCTest

final class SessionsCommandTests: XCTestCase {
    func testHelp() throws {
        try assertHelp(["sessions"], usage: "resonance sessions", options: ["<workspace>"])
    }

    /// S02's 13 Apple Music rows: one rejected at import, the 12 others in one session.
    func testReconstructsTheSamplesSession() throws {
        let ws = try importSample(into: try makeTempDir())
        let run = try resonance("sessions", ws, "--progress")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertEqual(run.stdout, "")
        XCTAssertTrue(run.stderr.contains("12 plays → 12 kept"), run.stderr)
        XCTAssertEqual(try String(contentsOfFile: ws + "/sessions.csv", encoding: .utf8).split(separator: "\n").count, 1 + 1)
        XCTAssertEqual(try String(contentsOfFile: ws + "/session_plays.csv", encoding: .utf8).split(separator: "\n").count, 1 + 12)
    }

    func testBadArgumentsAreUsageErrors() throws {
        let ws = try makeTempDir()
        assertUsageError(try resonance("sessions"), "Missing expected argument '<workspace>'")
        assertUsageError(try resonance("sessions", ws + "/absent"), "\(ws)/absent: no such workspace folder")
    }
}
