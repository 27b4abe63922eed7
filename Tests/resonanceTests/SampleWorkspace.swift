import Foundation
import ResonanceLab
import XCTest

/// Folders shared by the tests of one class: made in `setUp()` of the class, removed
/// in its `tearDown()`.
enum ClassFolder {
    static func make(_ name: String) throws -> String {
        let dir = NSTemporaryDirectory() + "resonance-cli-tests/\(name)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }
}

/// The synthetic sample (`datasets/sample`): S01 with E4 files (a pulse wave and an
/// accelerometer among them) and Stress-Predict labels, S02 with Apple Health, Apple
/// Music and a generic heart-rate CSV.
enum Sample {
    static let path = repositoryRoot + "/datasets/sample"
    static let files = 9
    static let subjects = 2
    /// The files' data lines: labels 1800, HR 1800 (after 2 header lines), IBI 1608
    /// (after 1), tags 4, BVP 19200 and ACC 9600 (300 s at 64 and 32 Hz, after 2),
    /// Apple Music 13, Apple Health 8 of 9 (its step-count row is an unused record type,
    /// counted in the manifest, not a row read), heart.csv 242.
    static let rows = 1800 + 1800 + 1608 + 4 + 19200 + 9600 + 13 + 8 + 242
    /// 360 of S01's HR values lie outside 20–250 bpm; Apple Music and heart.csv have
    /// one bad row each.
    static let rejected = 360 + 2
}

extension XCTestCase {
    /// Imports the sample into `dir/ws` with the CLI and returns the workspace path.
    func importSample(into dir: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let ws = dir + "/ws"
        let run = try resonance("import", Sample.path, "--out", ws, "--quiet")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr, file: file, line: line)
        return ws
    }
}

/// Reading a workspace's integrity state (docs/workspace.md).
extension XCTestCase {
    func readManifest(_ ws: String) throws -> Manifest {
        try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: ws + "/manifest.json")))
    }

    /// Hidden entries other than the lock file: staging folders, journals, temporary runs.
    func leftovers(_ ws: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: ws)
            .filter { ($0.hasPrefix(".") && $0 != ".lock") || $0.hasSuffix(".tmp") }.sorted()
    }

    /// Asserts that every table the manifest lists has the digest and row count it records
    /// and that no other table lies in the folder.
    func assertManifestMatchesTables(_ ws: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let tables = try readManifest(ws).tables
        for t in tables {
            XCTAssertEqual(try SHA256.hex(ofFile: ws + "/" + t.name), t.sha256, t.name, file: file, line: line)
        }
        let visible = try FileManager.default.contentsOfDirectory(atPath: ws).filter { !$0.hasPrefix(".") }
        XCTAssertEqual(Set(visible), Set(tables.map(\.name) + ["manifest.json"]), file: file, line: line)
    }
}
