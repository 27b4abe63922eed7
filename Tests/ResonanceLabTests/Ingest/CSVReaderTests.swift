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
