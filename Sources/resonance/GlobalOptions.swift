import ArgumentParser
import Foundation
import ResonanceLab

/// Flags every subcommand accepts (docs/methods.md, Pipeline).
struct GlobalOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Constants JSON to use instead of the defaults (see `resonance constants show`).",
                               valueName: "file"))
    var constants: String?

    @Option(help: "Worker threads for per-subject work; outputs are identical for any value. Default: the number of cores.")
    var jobs: Int?

    @Flag(help: "Print no progress on stderr.")
    var quiet = false

    @Flag(help: "Print progress on stderr even when it is not a terminal.")
    var progress = false

    @Flag(help: "Skip checking workspace tables against the SHA-256 recorded in manifest.json (headers are still checked).")
    var noVerify = false

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
        if quiet && progress { throw ValidationError("--quiet and --progress exclude each other.") }
    }

    var workers: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }

    /// ProgressLog on stderr: off under `--quiet`, and when stderr is not a terminal unless `--progress`.
    var reporter: ProgressLog {
        guard !quiet, progress || isatty(STDERR_FILENO) != 0 else { return .silent }
        return ProgressLog { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    }

    /// The constants in force: `--constants FILE` validated, else the defaults.
    func registry() throws -> ConstantsRegistry {
        try constants.map(ConstantsRegistry.init(contentsOf:)) ?? .defaults
    }

    func context() throws -> StageContext {
        StageContext(registry: try registry(), jobs: workers, progress: reporter, verify: !noVerify, warnings: warnings)
    }

    /// Notes on stderr that `--quiet` does not silence: a lock waited for, leftovers of a
    /// killed run removed or completed.
    var warnings: ProgressLog {
        ProgressLog { FileHandle.standardError.write(Data(("note: " + $0 + "\n").utf8)) }
    }

    /// Opens workspace `path` for a command that only reads (tables `reads`), verified
    /// unless `--no-verify`.
    func open(_ path: String, reads: [String]) throws -> Workspace {
        let warnings = self.warnings
        let session = try WorkspaceSession(path: path, reads: reads, writes: [], verify: !noVerify,
                                           note: { warnings.note($0) })
        return Workspace(path: path, session: session)
    }

    /// Rejects the flags a command has no use for, naming them.
    func reject(constants noConstants: Bool = false, jobs noJobs: Bool = false, verify noVerifyUse: Bool = false,
                command: String) throws {
        if noVerifyUse, noVerify { throw ValidationError("--no-verify: `\(command)` reads no workspace table.") }
        if noConstants, constants != nil {
            throw ValidationError("--constants: `\(command)` uses no engine constants.")
        }
        if noJobs, jobs != nil { throw ValidationError("--jobs: `\(command)` does no per-subject work.") }
    }
}

/// Argument check shared by commands that read an existing workspace folder.
enum WorkspaceFolder {
    static func requireExisting(_ path: String) throws {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else {
            throw ValidationError("\(path): no such workspace folder")
        }
    }
}
