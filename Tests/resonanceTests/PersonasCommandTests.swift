import Foundation
import XCTest

final class PersonasCommandTests: XCTestCase {
    func testHelp() throws {
        try assertHelp(["personas", "generate"], usage: "resonance personas generate",
                       options: ["--out <dir>", "--days <days>", "--personas <names>", "--seed <seed>",
                                 "--start-date <YYYY-MM-DD>"])
        try assertHelp(["personas", "report"], usage: "resonance personas report", options: ["<workspace>", "--report-dir <dir>"])
    }

    func testGeneratesOneDayOfOnePersonaAndReportsOnIt() throws {
        let dir = try makeTempDir()
        let generate = try resonance("personas", "generate", "--out", dir + "/ws", "--days", "1", "--personas", "SeniorFit", "--quiet")
        XCTAssertEqual(generate.status, ExitStatus.success, generate.stderr)
        XCTAssertEqual(generate.stdout + generate.stderr, "")
        let daily = try String(contentsOfFile: dir + "/ws/daily.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(daily.count, 1 + 1)
        XCTAssertTrue(daily[1].contains("SeniorFit"), String(daily[1]))
        let report = try resonance("personas", "report", dir + "/ws", "--report-dir", dir + "/reports", "--quiet")
        XCTAssertEqual(report.status, ExitStatus.success, report.stderr)
        XCTAssertGreaterThan(try FileManager.default.contentsOfDirectory(atPath: dir + "/reports").count, 0)
    }

    func testBadArgumentsAreUsageErrors() throws {
        let out = try makeTempDir() + "/ws"
        assertUsageError(try resonance("personas", "generate"), "Missing expected argument '--out <dir>'")
        assertUsageError(try resonance("personas", "generate", "--out", out, "--days", "0"), "--days must be between 1 and 366.")
        assertUsageError(try resonance("personas", "generate", "--out", out, "--days", "367"), "--days must be between 1 and 366.")
        assertUsageError(try resonance("personas", "generate", "--out", out, "--personas", "Nobody"),
                         "--personas: unknown persona 'Nobody' (known: NewMom, ")
        assertUsageError(try resonance("personas", "generate", "--out", out, "--start-date", "2026-13-01"),
                         "--start-date must be a date YYYY-MM-DD, got '2026-13-01'.")
        assertUsageError(try resonance("personas", "generate", "--out", out, "--start-date", "9999-12-30", "--days", "5"),
                         "--start-date 9999-12-30 with --days 5 leaves the years 0000–9999; use a date from 0000-01-02 to 9999-12-26.")
        assertUsageError(try resonance("personas", "generate", "--out", out, "--seed=-1"),
                         "The value '-1' is invalid for '--seed <seed>'")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "a usage error writes nothing")
    }

    func testReportOnAWorkspaceWithoutDailyFails() throws {
        let ws = try importSample(into: try makeTempDir())
        assertFailure(try resonance("personas", "report", ws, "--report-dir", ws + "/reports"), "daily.csv", "not a persona workspace")
    }
}
