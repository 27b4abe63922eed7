import XCTest
@testable import ResonanceLab

/// The per-subject read of a workspace table: each subject's rows read from its byte
/// ranges are the rows a whole-table read groups under it, in file order, errors included.
final class SubjectIndexTests: XCTestCase {
    /// 3000 rows of five subjects interleaved in runs, so that subjects reappear.
    private func interleaved() -> String {
        interleavedRRTable(seed: 11).text
    }

    func testEachSubjectsSeriesIsWhatTheWholeTableReadGivesIt() throws {
        let ws = Workspace(path: try makeTempDir())
        try writeFixture(interleaved(), to: ws.file("rr.csv"))
        let whole = try ws.readSeries(RRInterval.self)
        let index = try ws.subjectIndex(RRInterval.self)
        XCTAssertEqual(index.subjects, whole.map(\.subject))
        for s in whole {
            XCTAssertEqual(try index.series(RRInterval.self, of: s.subject), s)
        }
        XCTAssertEqual(try index.series(RRInterval.self, of: "nobody"), MeasurementSeries(subject: "nobody"))
    }

    /// Quoted first fields (one with a comma and a doubled quote), a quoted title over two
    /// lines, CRLF line ends, blank lines and a byte-order mark.
    func testQuotingLineEndsAndTheByteOrderMark() throws {
        let header = Play.header.joined(separator: ",")
        let row = { (subject: String, id: String, title: String) in
            "\(subject),\(id),song,\(title),artist,album,,2026-01-05T08:00:00Z,,180,180,,false,"
        }
        let text = "\u{FEFF}" + [header, row("A", "1", "plain"), "", row("\"A\"", "2", "\"two\nlines, and a comma\""),
                                 row("\"B, \"\"the\"\" second\"", "3", "x"), row("  C ", "4", "y"), row("A", "5", "z")]
            .joined(separator: "\r\n") + "\r\n"
        let ws = Workspace(path: try makeTempDir())
        try writeFixture(text, to: ws.file("plays.csv"))
        let whole = Dictionary(grouping: try ws.read(Play.self), by: \.subject)
        let index = try ws.subjectIndex(Play.self)
        XCTAssertEqual(index.subjects, ["A", "B, \"the\" second", "C"])
        for subject in index.subjects {
            XCTAssertEqual(try index.rows(Play.self, of: subject), whole[subject], subject)
        }
        XCTAssertEqual(try index.rows(Play.self, of: "A").map(\.playId), ["1", "2", "5"])
        XCTAssertEqual(try index.rows(Play.self, of: "A")[1].title, "two\nlines, and a comma")
        let single = try SubjectIndex(Play.self, path: ws.file("plays.csv"), pieceRecords: 1)
        for subject in index.subjects {
            XCTAssertEqual(try single.rows(Play.self, of: subject), whole[subject], subject)
        }
    }

    func testAnErrorNamesTheLineOfTheWholeFile() throws {
        var lines = interleaved().split(separator: "\n").map(String.init)
        lines[2500] = lines[2500].replacingOccurrences(of: ".25,", with: ".25x,")
        let subject = String(lines[2500].prefix { $0 != "," })
        let ws = Workspace(path: try makeTempDir())
        try writeFixture(lines.joined(separator: "\n") + "\n", to: ws.file("rr.csv"))
        let whole = try XCTUnwrap(Result { try ws.readSeries(RRInterval.self) }.failure)
        let index = try ws.subjectIndex(RRInterval.self)
        let one = try XCTUnwrap(Result { try index.series(RRInterval.self, of: subject) }.failure)
        XCTAssertEqual("\(one)", "\(whole)")
        XCTAssertTrue("\(one)".hasPrefix("\(ws.file("rr.csv")):2501:3: 'rr_ms' is not a number"), "\(one)")
    }

    /// Read a piece at a time (as the sessions stage walks a recording), a subject's rows
    /// are the same, each piece holds at most its records, and an error names the same line.
    func testPiecesReadTheSameRowsAndNameTheSameLines() throws {
        let ws = Workspace(path: try makeTempDir())
        try writeFixture(interleaved(), to: ws.file("rr.csv"))
        let whole = try ws.readSeries(RRInterval.self)
        for size in [1, 7, 8192] {
            let index = try SubjectIndex(RRInterval.self, path: ws.file("rr.csv"), pieceRecords: size)
            for s in whole {
                XCTAssertEqual(try index.series(RRInterval.self, of: s.subject), s)
                var cursor = MeasurementCursor<RRInterval>(index, s.subject)
                var sizes: [Int] = [], times: [Int64] = []
                while true {
                    var n = 0
                    guard try cursor.readPiece({ t, _ in n += 1; times.append(t) }) else { break }
                    sizes.append(n)
                }
                XCTAssertEqual(times, s.timestampsMs)
                XCTAssertTrue(sizes.allSatisfy { $0 > 0 && $0 <= size }, "\(size): \(sizes)")
                if size == 1 { XCTAssertEqual(sizes.count, s.timestampsMs.count) }
            }
        }
        var lines = interleaved().split(separator: "\n").map(String.init)
        lines[2500] = lines[2500].replacingOccurrences(of: ".25,", with: ".25x,")
        let subject = String(lines[2500].prefix { $0 != "," })
        try writeFixture(lines.joined(separator: "\n") + "\n", to: ws.file("rr.csv"))
        let index = try SubjectIndex(RRInterval.self, path: ws.file("rr.csv"), pieceRecords: 7)
        let one = try XCTUnwrap(Result { try index.series(RRInterval.self, of: subject) }.failure)
        XCTAssertTrue("\(one)".hasPrefix("\(ws.file("rr.csv")):2501:3: 'rr_ms' is not a number"), "\(one)")
    }

    func testTheHeaderIsChecked() throws {
        let ws = Workspace(path: try makeTempDir())
        try writeFixture("subject,time,rr_ms,source\ns1,2026-01-05T08:00:00Z,800,e4\n", to: ws.file("rr.csv"))
        let error = try XCTUnwrap(Result { try ws.subjectIndex(RRInterval.self) }.failure)
        XCTAssertEqual("\(error)", "\(try XCTUnwrap(Result { try ws.readSeries(RRInterval.self) }.failure))")
        // UTF-16 cannot be read by byte ranges: refused by name, not misread.
        let utf16 = [UInt8]([0xFF, 0xFE]) + Array("subject,timestamp,rr_ms,source\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        FileManager.default.createFile(atPath: ws.file("rr.csv"), contents: Data(utf16))
        XCTAssertEqual("\(try XCTUnwrap(Result { try ws.subjectIndex(RRInterval.self) }.failure))",
                       "\(ws.file("rr.csv")):1: UTF-16 LE text: workspace tables are read one subject at a time and must be UTF-8 (tables the toolkit writes are)")
        try writeFixture("\n\n", to: ws.file("rr.csv"))
        XCTAssertTrue("\(try XCTUnwrap(Result { try ws.subjectIndex(RRInterval.self) }.failure))".hasSuffix("empty file: no header"))
    }

    /// A record that starts with the current run's subject and a comma skips the byte-by-byte
    /// rules; fed in chunks too small for that, the scan must find the same runs. Subjects
    /// that extend one another, spaces, quotes and a quote inside an unquoted field.
    func testTheRunsDoNotDependOnHowTheBytesArrive() {
        let text = ["subject,x", "A,1", "A,2", "AB,3", "AB,4", "A,5", " A ,6", "\"A\",7", "A,\"8\n9\"", "A,10",
                    "a\"b,11", "a\"b,12", "\"x\ny\",13", "x,14", "A,", "A", ",15", ",16"].joined(separator: "\n") + "\n"
        let bytes = Array(text.utf8)
        func runs(chunk: Int) -> [String] {
            var scanner = RecordScanner(skipping: 0)
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + chunk)
                bytes[start..<end].withUnsafeBytes { scanner.feed($0) }
                start = end
            }
            scanner.finish()
            return scanner.runs.map { "\($0.subject)|\($0.bytes)|\($0.line)|\($0.records)" }
        }
        let whole = runs(chunk: bytes.count)
        XCTAssertEqual(whole.map { $0.split(separator: "|", omittingEmptySubsequences: false)[0] },
                       ["A", "AB", "A", "a\"b,11\na\"b", "x\ny", "x", "A", ""])
        XCTAssertEqual(whole[2].split(separator: "|").last, "5")
        for chunk in [1, 2, 3, 5, 8] { XCTAssertEqual(runs(chunk: chunk), whole, "chunks of \(chunk)") }
    }

    /// The eight-bytes-at-a-time search for a newline or quote finds what a byte loop finds,
    /// from every start, in buffers where they are dense, sparse and absent.
    func testTheNewlineOrQuoteSearchMatchesAByteLoop() {
        var rng = SeededRandom(seed: 5)
        for density in [2, 9, 40, 1000] {
            let bytes: [UInt8] = (0..<300).map { _ in
                Int.random(in: 0..<density, using: &rng) == 0 ? [0x0A, 0x22].randomElement(using: &rng) ?? 0
                    : [UInt8(ascii: "a"), 0x2C, 0x0B, 0x21, 0x23, 0x8A, 0xA2, 0x00, 0xFF].randomElement(using: &rng) ?? 0
            }
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return XCTFail("empty buffer") }
                for from in 0...bytes.count {
                    let expected = bytes[from...].firstIndex { $0 == 0x0A || $0 == 0x22 } ?? bytes.count
                    XCTAssertEqual(RecordScanner.nextNewlineOrQuote(base, from: from, count: bytes.count), expected,
                                   "density 1/\(density), from \(from)")
                }
            }
        }
    }
}
