import Foundation
import XCTest

final class EffectsCommandTests: XCTestCase {
    func testHelp() throws {
        try assertHelp(["effects"], usage: "resonance effects", options: ["<workspace>", "--model <model>", "--onset <mode>"])
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
        assertUsageError(try resonance("effects", ws, "--onset", "guessed"), "The value 'guessed' is invalid for '--onset <mode>'")
    }

    /// The manifest records how the mixed model took its onset, per metric: the mode,
    /// the onset used, the profile's best and the likelihood-ratio statistic.
    func testManifestRecordsTheOnsetDecision() throws {
        let ws = try importSample(into: try makeTempDir())
        XCTAssertEqual(try resonance("sessions", ws, "--quiet").status, ExitStatus.success)
        for mode in ["fixed", "profiled"] {
            let run = try resonance("effects", ws, "--model", "mixed", "--onset", mode, "--quiet")
            XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
            let manifest = try String(contentsOfFile: ws + "/manifest.json", encoding: .utf8)
            XCTAssertTrue(manifest.contains("\"onset\" : \"\(mode)\""), manifest)
            XCTAssertTrue(manifest.contains("\"onset_delta_hr_bpm\" : \""), manifest)
            if mode == "fixed" { XCTAssertTrue(manifest.contains("\"onset_delta_hr_bpm\" : \"45 s (best 45 s, 2Δℓ 0.0)\""), manifest) }
        }
    }
}
