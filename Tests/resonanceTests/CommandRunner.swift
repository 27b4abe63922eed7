import Foundation
import XCTest

/// The outcome of one run of the `resonance` executable.
struct CommandRun {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Exit codes of the tool: success, a failed run, and a usage error (BSD `EX_USAGE`,
/// what swift-argument-parser exits with on a bad argument).
enum ExitStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 64
}

/// The repository's root, for the sample dataset.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// The executable under test: `$RESONANCE_CLI` when set (`make test` points it at the
/// release build), else the `resonance` product beside the test bundle, built with it.
let resonanceExecutable: String = {
    if let path = ProcessInfo.processInfo.environment["RESONANCE_CLI"], !path.isEmpty { return path }
    return Bundle.main.bundleURL.appendingPathComponent("resonance").path
}()

/// A `resonance` process started and not yet waited for (`LaunchedCommand.finish()`).
final class LaunchedCommand {
    let process = Process()
    private let outPath: String, errPath: String
    private let out: FileHandle, err: FileHandle

    init(_ arguments: [String], in directory: String?, outputs: String) throws {
        process.executableURL = URL(fileURLWithPath: resonanceExecutable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        // Files rather than pipes: a full pipe buffer can never block the child.
        outPath = outputs + "/stdout"; errPath = outputs + "/stderr"
        try Data().write(to: URL(fileURLWithPath: outPath))
        try Data().write(to: URL(fileURLWithPath: errPath))
        out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
    }

    /// What it printed on stderr so far.
    var stderr: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }

    /// Waits for the process and returns its exit status and everything it printed.
    func finish() throws -> CommandRun {
        process.waitUntilExit()
        try? out.close(); try? err.close()
        return CommandRun(status: process.terminationStatus,
                          stdout: try String(contentsOfFile: outPath, encoding: .utf8),
                          stderr: try String(contentsOfFile: errPath, encoding: .utf8))
    }
}

extension XCTestCase {
    /// Runs `resonance ARGUMENTS…` in a separate process, in `directory` when given, and
    /// returns its exit status and everything it printed.
    func resonance(_ arguments: [String], in directory: String? = nil) throws -> CommandRun {
        try launch(arguments, in: directory).finish()
    }

    /// Starts `resonance ARGUMENTS…` in a separate process and returns at once.
    func launch(_ arguments: [String], in directory: String? = nil) throws -> LaunchedCommand {
        try LaunchedCommand(arguments, in: directory, outputs: try makeTempDir())
    }

    func resonance(_ arguments: String..., in directory: String? = nil) throws -> CommandRun {
        try resonance(arguments, in: directory)
    }

    /// Asserts a usage error: exit 64, nothing on stdout, and stderr's first line
    /// `error: ` followed by a message that starts with `message`.
    func assertUsageError(_ run: CommandRun, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.status, ExitStatus.usage, run.stderr, file: file, line: line)
        XCTAssertEqual(run.stdout, "", file: file, line: line)
        let first = run.stderr.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        XCTAssertTrue(errorMessage(first)?.hasPrefix(message) == true, "stderr: \(run.stderr)", file: file, line: line)
    }

    /// Asserts a failed run: exit 1, nothing on stdout, and exactly one line on stderr,
    /// `error: ` and a message that contains every one of `parts`.
    func assertFailure(_ run: CommandRun, _ parts: String..., file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.status, ExitStatus.failure, run.stderr, file: file, line: line)
        XCTAssertEqual(run.stdout, "", file: file, line: line)
        let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 2, "one line expected: \(run.stderr)", file: file, line: line)
        let message = errorMessage(String(lines.first ?? "")) ?? ""
        for part in parts {
            XCTAssertTrue(message.contains(part), "'\(part)' missing from: \(run.stderr)", file: file, line: line)
        }
    }

    /// The message of an error line (`error: MESSAGE`, the one error format), or nil.
    private func errorMessage(_ line: String) -> String? {
        line.hasPrefix("error: ") ? String(line.dropFirst("error: ".count)) : nil
    }

    /// Asserts that `--help` exits 0 and prints the command's usage line and `options` on stdout.
    func assertHelp(_ command: [String], usage: String, options: [String],
                    file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try resonance(command + ["--help"])
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr, file: file, line: line)
        XCTAssertEqual(run.stderr, "", file: file, line: line)
        XCTAssertTrue(run.stdout.hasPrefix("OVERVIEW: "), run.stdout, file: file, line: line)
        XCTAssertTrue(run.stdout.contains("USAGE: " + usage), run.stdout, file: file, line: line)
        for option in options {
            XCTAssertTrue(run.stdout.contains(option), "\(option) missing from the help of \(command)", file: file, line: line)
        }
    }
}
