import Foundation
import XCTest

final class ConstantsCommandTests: XCTestCase {
    func testHelp() throws {
        try assertHelp(["constants", "show"], usage: "resonance constants show", options: ["--engine <name>", "--constants <file>"])
    }

    private func show(_ arguments: String...) throws -> [String: Any] {
        let run = try resonance(["constants", "show"] + arguments)
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    private func coherenceWindow(_ json: [String: Any]) -> Any? {
        let engines = json["engines"] as? [String: Any]
        let constants = (engines?["coherence"] as? [String: Any])?["constants"] as? [String: Any]
        return (constants?["window_seconds"] as? [String: Any])?["value"]
    }

    func testShowsTheDefaultsAndOneEngine() throws {
        let all = try show()
        let engines = try XCTUnwrap(all["engines"] as? [String: Any])
        XCTAssertTrue(Set(["coherence", "stress", "readiness", "sessions", "mixed_model"]).isSubset(of: engines.keys))
        XCTAssertEqual(coherenceWindow(all) as? Double, 64)
        XCTAssertEqual(Array(try XCTUnwrap(try show("--engine", "stress")["engines"] as? [String: Any]).keys), ["stress"])
    }

    /// A constants file's value is the one shown, and changes the digest.
    func testShowsTheValuesOfAConstantsFile() throws {
        let path = try writeFixture(#"{"engines":{"coherence":{"version":"1.0.0","constants":{"window_seconds":120}}}}"#,
                                    to: try makeTempDir() + "/c.json")
        let custom = try show("--constants", path), defaults = try show()
        XCTAssertEqual(coherenceWindow(custom) as? Double, 120)
        XCTAssertNotEqual(custom["constants_digest"] as? String, defaults["constants_digest"] as? String)
    }

    func testUnknownEngineIsAUsageError() throws {
        assertUsageError(try resonance("constants", "show", "--engine", "warp"), "unknown engine 'warp'")
    }
}
