import Foundation
import XCTest

final class EffectsCommandTests: XCTestCase {
    func testHelp() throws {
        try assertHelp(["effects"], usage: "resonance effects", options: ["<workspace>", "--model <model>"])
    }

    func testEstimatesTheSamplesSongs() throws {
        let ws = try importSample(into: try makeTempDir())
        XCTAssertEqual(try resonance("sessions", ws, "--quiet").status, ExitStatus.success)
        let run = try resonance("effects", ws)
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertEqual(run.stdout, "")
        for table in ["song_effects.csv", "playlist_effects.csv", "persona_effects.csv"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: ws + "/" + table), table)
        }
    }

    func testWithoutSessionsFailsSayingWhatToRun() throws {
        let ws = try importSample(into: try makeTempDir())
        assertFailure(try resonance("effects", ws), "\(ws)/session_plays.csv", "resonance sessions")
    }

    func testBadArgumentsAreUsageErrors() throws {
        let ws = try makeTempDir()
        assertUsageError(try resonance("effects", ws + "/absent"), "\(ws)/absent: no such workspace folder")
        assertUsageError(try resonance("effects", ws, "--model", "oracle"), "The value 'oracle' is invalid for '--model <model>'")
    }
}
