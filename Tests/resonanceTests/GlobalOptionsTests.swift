import XCTest

/// `--constants`, `--jobs` and `--quiet` on every command, and unknown options.
final class GlobalOptionsTests: XCTestCase {
    static var dir = "", ws = ""

    override class func setUp() {
        super.setUp()
        dir = (try? ClassFolder.make("global")) ?? ""
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(atPath: dir)
        super.tearDown()
    }

    override func setUpWithError() throws {
        if Self.ws.isEmpty {
            Self.ws = try importSample(into: Self.dir)
            XCTAssertEqual(try resonance("sessions", Self.ws, "--quiet").status, ExitStatus.success)
        }
    }

    /// Every command with arguments that would otherwise succeed on the sample workspace.
    var commands: [[String]] {
        let out = Self.dir + "/out-\(UUID().uuidString)"
        return [["import", Sample.path, "--out", out], ["hrv", Self.ws], ["coherence", Self.ws],
                ["sessions", Self.ws], ["effects", Self.ws], ["validate", Self.ws, "--report-dir", out],
                ["constants", "show"], ["personas", "generate", "--out", out, "--days", "1", "--personas", "NewMom"]]
    }

    func testJobsBelowOneIsAUsageErrorOfEveryCommand() throws {
        for command in commands {
            assertUsageError(try resonance(command + ["--jobs", "0"]), "--jobs must be at least 1.")
            assertUsageError(try resonance(command + ["--jobs", "two"]), "The value 'two' is invalid for '--jobs <jobs>'")
        }
    }

    /// `--no-verify` is for commands that read workspace tables; the others reject it.
    func testNoVerifyIsAUsageErrorOfCommandsReadingNoWorkspace() throws {
        for command in commands where ["import", "constants", "personas"].contains(command[0]) {
            let name = command[0] == "import" ? "import" : command.prefix(2).joined(separator: " ")
            assertUsageError(try resonance(command + ["--no-verify"]), "--no-verify: `\(name)` reads no workspace table.")
        }
        for command in commands where ["hrv", "coherence", "sessions", "effects", "validate"].contains(command[0]) {
            let run = try resonance(command + ["--no-verify", "--quiet"])
            XCTAssertEqual(run.status, ExitStatus.success, "\(command): \(run.stderr)")
        }
    }

    func testUnknownOptionIsAUsageErrorOfEveryCommand() throws {
        for command in commands {
            assertUsageError(try resonance(command + ["--frobnicate"]), "Unknown option '--frobnicate'")
        }
    }

    /// A constants file that is missing, not JSON, out of range or misspelt stops every
    /// command that reads constants with one line naming the file, before it writes anything.
    func testBadConstantsFileFailsNamingTheFile() throws {
        let missing = Self.dir + "/missing.json"
        let notJSON = try writeFixture("{\"engines\": ", to: Self.dir + "/truncated.json")
        let outOfRange = try writeFixture(
            #"{"engines":{"coherence":{"version":"1.0.0","constants":{"window_seconds":-5}}}}"#,
            to: Self.dir + "/range.json")
        let misspelt = try writeFixture(
            #"{"engines":{"coherence":{"version":"1.0.0","constants":{"window_secs":64}}}}"#,
            to: Self.dir + "/misspelt.json")
        let cases: [(file: String, parts: [String])] = [
            (missing, [missing]), (notJSON, [notJSON, "JSON"]),
            (outOfRange, [outOfRange, "window_seconds", "-5"]), (misspelt, [misspelt, "window_secs"]),
        ]
        for command in commands {
            for c in cases {
                let run = try resonance(command + ["--constants", c.file])
                XCTAssertEqual(run.status, ExitStatus.failure, "\(command) \(c.file): \(run.stderr)")
                XCTAssertEqual(run.stdout, "", "\(command)")
                let lines = run.stderr.split(separator: "\n")
                XCTAssertEqual(lines.count, 1, "\(command): \(run.stderr)")
                for part in c.parts {
                    XCTAssertTrue(run.stderr.contains(part), "\(command): '\(part)' missing from \(run.stderr)")
                }
            }
        }
    }

    func testQuietPrintsNothingAndProgressGoesToStderr() throws {
        let quiet = try resonance("import", Sample.path, "--out", Self.dir + "/quiet", "--quiet")
        XCTAssertEqual(quiet.status, ExitStatus.success)
        XCTAssertEqual(quiet.stdout, "")
        XCTAssertEqual(quiet.stderr, "")
        let loud = try resonance("coherence", Self.ws, "--progress")
        XCTAssertEqual(loud.status, ExitStatus.success)
        XCTAssertEqual(loud.stdout, "", "data goes to files, never to stdout")
        XCTAssertTrue(loud.stderr.contains("coherence"), loud.stderr)
    }
}
