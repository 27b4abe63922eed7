import Foundation
import XCTest

final class ValidateCommandTests: XCTestCase {
    func testHelp() throws {
        try assertHelp(["validate"], usage: "resonance validate", options: ["<workspace>", "--report-dir <dir>"])
    }

    func testWritesTheReportNamedAfterTheWorkspace() throws {
        let dir = try makeTempDir()
        let ws = try importSample(into: dir)
        let run = try resonance("validate", ws, "--report-dir", dir + "/report", "--quiet")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertEqual(run.stdout + run.stderr, "")
        let markdown = try String(contentsOfFile: dir + "/report/validation.md", encoding: .utf8)
        XCTAssertTrue(markdown.hasPrefix("# Validation report: ws\n"), String(markdown.prefix(80)))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/report/validation.json")))
        XCTAssertNotNil(json as? [String: Any])
    }

    func testBadArgumentsAreUsageErrors() throws {
        let ws = try makeTempDir()
        assertUsageError(try resonance("validate", ws), "Missing expected argument '--report-dir <dir>'")
        assertUsageError(try resonance("validate", ws + "/absent", "--report-dir", ws + "/report"), "\(ws)/absent: no such workspace folder")
    }
}
