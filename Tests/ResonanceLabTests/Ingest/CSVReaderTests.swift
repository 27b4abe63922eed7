import XCTest
@testable import ResonanceLab

final class CSVReaderTests: XCTestCase {
    private func records(_ text: String, chunkSize: Int = 1 << 20) throws -> [(Int, [String])] {
        let path = try writeFixture(text, to: try makeTempDir() + "/t.csv")
        var out: [(Int, [String])] = []
        try CSVReader(path: path, chunkSize: chunkSize).forEachRecord { out.append(($0.line, $0.strings)) }
        return out
    }

    func testLinesAndFieldsIncludingQuotedNewlinesAndBlankLines() throws {
        let text = "a,b\n1,\"x,y\"\n\n2,\"multi\nline\"\n3,\"say \"\"hi\"\"\"\n"
        for chunk in [1, 3, 7, 1 << 20] {
            let r = try records(text, chunkSize: chunk)
            XCTAssertEqual(r.map(\.0), [1, 2, 4, 6], "chunk \(chunk)")
            XCTAssertEqual(r[1].1, ["1", "x,y"])
            XCTAssertEqual(r[2].1, ["2", "multi\nline"])
            XCTAssertEqual(r[3].1, ["3", "say \"hi\""])
        }
    }

    func testLineAlignedRangesCoverTheFileFromLineStarts() throws {
        let text = (1...500).map { "\($0),\(String(repeating: "x", count: $0 % 37))" }.joined(separator: "\n") + "\n"
        let path = try writeFixture(text, to: try makeTempDir() + "/t.csv")
        let bytes = Array(text.utf8)
        for parts in [1, 2, 3, 7, 64] {
            let ranges = try CSVReader.lineAlignedRanges(path: path, parts: parts)
            XCTAssertEqual(ranges.first?.lowerBound, 0)
            XCTAssertEqual(ranges.last?.upperBound, bytes.count)
            XCTAssertLessThanOrEqual(ranges.count, parts)
            for (a, b) in zip(ranges, ranges.dropFirst()) {
                XCTAssertEqual(a.upperBound, b.lowerBound, "contiguous")
                XCTAssertEqual(bytes[b.lowerBound - 1], 10, "each part begins a line")
            }
            // Read part by part, with line numbers counted from the part's start.
            var fields: [String] = []
            for r in ranges {
                let before = try CSVReader.lineCount(path: path, bytes: r.lowerBound)
                try CSVReader(path: path, chunkSize: 64, byteRange: r).forEachRecord {
                    XCTAssertEqual($0.string(0), "\($0.line + before)")
                    fields.append($0.string(0))
                }
            }
            XCTAssertEqual(fields, (1...500).map(String.init), "\(parts) parts")
        }
    }

    func testARangeWithAQuoteAsksForTheWholeFile() throws {
        let path = try writeFixture("a,b\n1,\"x\"\n", to: try makeTempDir() + "/t.csv")
        XCTAssertThrowsError(try CSVReader(path: path, byteRange: 4..<10).forEachRecord { _ in }) {
            XCTAssertTrue($0 is CSVReader.NeedsWholeFile, "\($0)")
        }
    }

    func testWideUnquotedLinesAndTrimmedFields() throws {
        let wide = (0..<150).map(String.init).joined(separator: ",")
        let r = try records(wide + "\n a , b\t,c\n", chunkSize: 16)
        XCTAssertEqual(r[0].1, (0..<150).map(String.init))
        XCTAssertEqual(r[1].1, ["a", "b", "c"], "blanks around unquoted fields are trimmed, as libcsv does")
        XCTAssertEqual(r.map(\.0), [1, 2])
        // The same line with a quoted field goes through libcsv: same fields.
        XCTAssertEqual(try records("\"q\", a , b\t,c\n")[0].1, ["q", "a", "b", "c"])
    }

    func testCRLFAndMissingFinalNewline() throws {
        let r = try records("t,bpm\r\n1,60\r\n2,61")
        XCTAssertEqual(r.map(\.1), [["t", "bpm"], ["1", "60"], ["2", "61"]])
        XCTAssertEqual(r.map(\.0), [1, 2, 3])
    }

    func testMalformedQuoteNamesLineAndColumn() throws {
        XCTAssertThrowsError(try records("a,b,c\n1,2,3\n4,\"bad\"x,6\n")) { error in
            guard case let .malformedQuote(_, line, column)? = error as? CSVError else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertEqual(line, 3)
            XCTAssertEqual(column, 2)
        }
    }

    func testUnterminatedQuoteAtEndOfFile() throws {
        XCTAssertThrowsError(try records("a,b\n1,\"open\n")) { error in
            guard case let .malformedQuote(_, line, column)? = error as? CSVError else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertEqual(line, 2)
            XCTAssertEqual(column, 2)
        }
    }

    func testDoubleParsingIsStrict() throws {
        let path = try writeFixture("1.5, 2 ,x,,1e3,nan\n", to: try makeTempDir() + "/n.csv")
        var values: [Double?] = []
        try CSVReader(path: path).forEachRecord { r in values = (0..<r.count).map { r.double($0) } }
        XCTAssertEqual(values, [1.5, 2, nil, nil, 1000, nil])
    }

    func testMissingFileIsAClearError() {
        XCTAssertThrowsError(try CSVReader(path: "/nonexistent/x.csv").forEachRecord { _ in }) { error in
            XCTAssertTrue("\(error)".hasPrefix("/nonexistent/x.csv: cannot read file"), "\(error)")
        }
    }
}
