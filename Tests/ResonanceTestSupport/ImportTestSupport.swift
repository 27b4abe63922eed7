import Foundation
import XCTest
import ResonanceLab

extension XCTestCase {
    /// Imports `sources` into a fresh workspace and returns it with its manifest.
    public func importSources(_ sources: [String], format: SourceFormat? = nil, tz: String? = nil,
                              subject: String? = nil) throws -> (Workspace, Manifest) {
        let ws = Workspace(path: try makeTempDir() + "/ws")
        let options = Importer.Options(format: format, timeZone: tz.flatMap(TimeZone.init(identifier:)), subject: subject)
        let manifest = try Importer.run(sources: sources, workspace: ws, options: options)
        return (ws, manifest)
    }
}

/// Non-empty lines of a file: the data lines of one-value-per-line formats.
public func nonEmptyLines(_ path: String) throws -> Int {
    try String(contentsOfFile: path, encoding: .utf8)
        .split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).count
}

/// Asserts rows read = accepted + rejected for every source of the manifest.
public func assertAccounting(_ manifest: Manifest, file: StaticString = #filePath, line: UInt = #line) {
    for s in manifest.sources {
        XCTAssertEqual(s.rowsRead, s.accepted + s.rejected, s.path, file: file, line: line)
    }
}
