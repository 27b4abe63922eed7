import XCTest
@testable import ResonanceLab

/// The column read of measurement tables: read in parts side by side, it gives what one
/// pass gives, errors included.
final class MeasurementSeriesTests: XCTestCase {
    /// About 3000 rows of five subjects, interleaved in runs so that subjects reappear in later
    /// parts and a part can begin with a subject not yet seen.
    private func rrTable() -> (text: String, rows: [RRInterval]) {
        interleavedRRTable(seed: 7)
    }

    func testPartsGiveWhatOnePassGives() throws {
        let (text, rows) = rrTable()
        let ws = Workspace(path: try makeTempDir())
        try writeFixture(text, to: ws.file("rr.csv"))
        let onePass = try ws.readSeries(RRInterval.self)
        XCTAssertEqual(onePass.reduce(0) { $0 + $1.values.count }, rows.count)
        // Subjects in order of first appearance, each with its rows in file order.
        var firstSeen: [String] = []
        for r in rows where !firstSeen.contains(r.subject) { firstSeen.append(r.subject) }
        XCTAssertEqual(onePass.map(\.subject), firstSeen)
        for s in onePass {
            XCTAssertEqual(s.values, rows.filter { $0.subject == s.subject }.map(\.rrMs))
        }
        for (jobs, partBytes) in [(2, 4096), (3, 1000), (2, 50_000)] {
            XCTAssertEqual(try ws.readSeries(RRInterval.self, jobs: jobs, partBytes: partBytes), onePass, "\(jobs) jobs, \(partBytes) B")
        }
    }

    func testAnErrorInALaterPartNamesTheLineOfTheWholeFile() throws {
        var lines = rrTable().text.split(separator: "\n").map(String.init)
        lines[2500] = lines[2500].replacingOccurrences(of: ".25,", with: ".25x,")
        let ws = Workspace(path: try makeTempDir())
        try writeFixture(lines.joined(separator: "\n") + "\n", to: ws.file("rr.csv"))
        let message = try XCTUnwrap(Result { try ws.readSeries(RRInterval.self) }.failure)
        XCTAssertTrue("\(message)".hasPrefix("\(ws.file("rr.csv")):2501:3: 'rr_ms' is not a number"), "\(message)")
        let parts = try XCTUnwrap(Result { try ws.readSeries(RRInterval.self, jobs: 2, partBytes: 4096) }.failure)
        XCTAssertEqual("\(parts)", "\(message)")
    }

    func testAQuotedFieldIsReadInOnePass() throws {
        var lines = rrTable().text.split(separator: "\n").map(String.init)
        lines[1800] = "\"s1\"" + lines[1800].drop { $0 != "," }
        let ws = Workspace(path: try makeTempDir())
        try writeFixture(lines.joined(separator: "\n") + "\n", to: ws.file("rr.csv"))
        XCTAssertEqual(try ws.readSeries(RRInterval.self, jobs: 2, partBytes: 4096), try ws.readSeries(RRInterval.self))
    }

    func testBlankLinesBeforeTheHeaderAreReadInOnePass() throws {
        let ws = Workspace(path: try makeTempDir())
        try writeFixture(String(repeating: "\n", count: 20_000) + rrTable().text, to: ws.file("rr.csv"))
        let onePass = try ws.readSeries(RRInterval.self)
        XCTAssertEqual(onePass.count, 5)
        XCTAssertEqual(try ws.readSeries(RRInterval.self, jobs: 2, partBytes: 4096), onePass)
    }

    /// Within a session, the digest computed beside the parts is checked before anything
    /// read is used: a tampered table is refused as such, even when a part fails to parse.
    func testTheManifestDigestIsCheckedBeforeTheParts() throws {
        let (_, rows) = rrTable()
        let dir = try makeTempDir()
        do {
            // The creating session's locks go with it, at the end of this block.
            let create = try WorkspaceSession(path: dir, reads: [], writes: ["rr.csv"], creating: true, note: { _ in })
            create.replacement = Manifest()
            try Workspace(path: dir, session: create).write(rows)
            try create.commit()
        }
        func open() throws -> Workspace {
            Workspace(path: dir, session: try WorkspaceSession(path: dir, reads: ["rr.csv"], writes: [], note: { _ in }))
        }
        let expected = try Workspace(path: dir).readSeries(RRInterval.self)
        XCTAssertEqual(try open().readSeries(RRInterval.self, jobs: 2, partBytes: 4096), expected)
        var text = try String(contentsOfFile: dir + "/rr.csv", encoding: .utf8)
        let last = try XCTUnwrap(text.range(of: ".25,e4\n", options: .backwards))
        text.replaceSubrange(last, with: ".25x,e4\n")
        try Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/rr.csv"))
        let error = try XCTUnwrap(Result { try open().readSeries(RRInterval.self, jobs: 2, partBytes: 4096) }.failure)
        XCTAssertTrue("\(error)".hasPrefix("\(dir)/rr.csv: does not match manifest.json"), "\(error)")
    }
}
