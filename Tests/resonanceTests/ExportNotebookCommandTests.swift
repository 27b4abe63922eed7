import Foundation
import XCTest

/// `resonance export-notebook` as a user runs it: by name through PATH, from a folder with
/// no notebooks-export/ above it.
final class ExportNotebookCommandTests: XCTestCase {
    /// A shell whose PATH holds only a symlink to the binary runs `resonance
    /// export-notebook` in a temporary folder: the sources are found above the binary's
    /// real path, so it exits 0 and writes the notebook bound to the workspace.
    func testFindsItsSourcesWhenRunThroughPathFromAnotherFolder() throws {
        let dir = try makeTempDir()
        let bin = dir + "/bin", elsewhere = dir + "/elsewhere"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: elsewhere + "/ws", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/resonance", withDestinationPath: resonanceExecutable)
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "resonance export-notebook ws --out nb"]
        shell.currentDirectoryURL = URL(fileURLWithPath: elsewhere)
        shell.environment = ["PATH": bin + ":/usr/bin:/bin"]
        let stderr = Pipe()
        shell.standardError = stderr
        shell.standardOutput = FileHandle.nullDevice
        try shell.run()
        let printed = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        XCTAssertEqual(shell.terminationStatus, ExitStatus.success, printed)
        XCTAssertEqual(printed, "")
        let notebook = try String(contentsOfFile: elsewhere + "/nb/validation.ipynb", encoding: .utf8)
        XCTAssertTrue(notebook.contains(#"WORKSPACE = \"\#(elsewhere)/ws\""#), String(notebook.prefix(2000)))
    }
}
