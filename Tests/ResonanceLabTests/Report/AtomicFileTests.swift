import Foundation
import XCTest
@testable import ResonanceLab

/// Temporary outputs are created exclusively: a file or symlink already at the
/// temporary path is never written through.
final class AtomicFileTests: XCTestCase {
    private func plantSymlink(at path: String) throws -> String {
        let victim = try makeTempDir() + "/victim"
        try writeFixture("precious\n", to: victim)
        XCTAssertEqual(symlink(victim, path), 0)
        return victim
    }

    private func assertUntouched(_ victim: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious\n", file: file, line: line)
    }

    func testAPlantedSymlinkAtTheTemporaryPathIsNeverFollowed() throws {
        let dir = try makeTempDir()
        let out = dir + "/hrv.csv"
        let victim = try plantSymlink(at: out + ".\(getpid()).tmp")
        try AtomicFile.write("subject\nA\n", to: out)
        try assertUntouched(victim)
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "subject\nA\n")
        var info = stat()
        XCTAssertEqual(lstat(out, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFREG)
        XCTAssertEqual(info.st_mode & 0o077, 0o044 & ~umaskNow(), "finished output gets the usual mode")
        // The planted link is left alone (it is not ours), and no temporary file of ours remains.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).sorted(), ["hrv.csv", "hrv.csv.\(getpid()).tmp"])
    }

    func testTheTemporaryFileIsPrivateWhileItIsWritten() throws {
        let out = try makeTempDir() + "/t.csv"
        let file = try AtomicFile(path: out)
        var info = stat()
        XCTAssertEqual(stat(out + ".\(getpid()).tmp", &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        try file.commit()
    }

    func testCSVWriterDoesNotFollowAPlantedSymlink() throws {
        let out = try makeTempDir() + "/rejects.csv"
        let victim = try plantSymlink(at: out + ".\(getpid()).tmp")
        let writer = try CSVWriter(path: out, header: ["a", "b"])
        writer.field("1"); writer.field("2")
        try writer.endRow()
        try writer.commit()
        try assertUntouched(victim)
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "a,b\n1,2\n")
    }

    /// The import's sorted runs are hidden temporary siblings too.
    func testSortedRunSpillFilesDoNotFollowAPlantedSymlink() throws {
        let dir = try makeTempDir()
        let path = dir + "/t.csv"
        let victims = try (0..<3).map { try plantSymlink(at: dir + "/.t.csv.run\($0).\(getpid()).tmp") }
        let writer = try SortedTableWriter(path: path, header: ["k"], memoryBudget: 64)
        for i in (0..<200).reversed() { try writer.add(Array(String(format: "%04d", i).utf8), file: 0) }
        try writer.finish()
        try writer.commit()
        for victim in victims { try assertUntouched(victim) }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 201)
        XCTAssertEqual(lines[1], "0000")
        XCTAssertEqual(lines[200], "0199")
    }

    private func umaskNow() -> mode_t {
        let old = umask(0o022)
        umask(old)
        return old
    }
}
