import ResonanceLab
import XCTest

/// The root command: help, version, unknown subcommands.
final class ResonanceCommandTests: XCTestCase {
    static let subcommands = ["run", "import", "hrv", "coherence", "sessions", "effects", "daily", "validate", "constants",
                              "personas", "tune", "dj"]

    func testHelpListsEverySubcommand() throws {
        try assertHelp([], usage: "resonance <subcommand>", options: Self.subcommands.map { "  \($0) " } + ["--version"])
    }

    func testNoSubcommandPrintsTheHelp() throws {
        let bare = try resonance([String]()), help = try resonance("--help")
        XCTAssertEqual(bare.status, ExitStatus.success)
        XCTAssertEqual(bare.stdout, help.stdout)
    }

    func testHelpSubcommandPrintsTheSubcommandsHelp() throws {
        for command in Self.subcommands {
            let viaHelp = try resonance("help", command), viaFlag = try resonance(command, "--help")
            XCTAssertEqual(viaHelp.status, ExitStatus.success, command)
            XCTAssertEqual(viaHelp.stdout, viaFlag.stdout, command)
        }
    }

    func testVersionIsTheLibrarysVersion() throws {
        let run = try resonance("--version")
        XCTAssertEqual(run.status, ExitStatus.success)
        XCTAssertEqual(run.stdout, ResonanceLabInfo.version + "\n")
        XCTAssertEqual(run.stderr, "")
    }

    func testUnknownSubcommandIsAUsageError() throws {
        assertUsageError(try resonance("frobnicate"), "Unexpected argument 'frobnicate'")
    }
}
