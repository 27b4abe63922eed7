import ArgumentParser
import Foundation
import ResonanceLab

/// Flags every subcommand accepts (docs/methods.md, Pipeline).
struct GlobalOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Constants JSON to use instead of the defaults.", valueName: "file"))
    var constants: String?

    @Option(help: "Worker threads for per-subject work (default: number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(help: "Print no progress on stderr.")
    var quiet = false

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1.") }
    }

    /// A progress line on stderr unless `--quiet`.
    func progress(_ message: String) {
        guard !quiet else { return }
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}

extension GlobalOptions {
    /// The constants in force: `--constants FILE` validated, else the defaults.
    func registry() throws -> ConstantsRegistry {
        try constants.map(ConstantsRegistry.init(contentsOf:)) ?? .defaults
    }
}
