import XCTest
@testable import ResonanceLab

/// The top-level array of a JSON export is read strictly: text around it, a missing
/// or extra comma and elements that are not objects are errors naming the line, never
/// skipped silently.
final class JSONArrayReaderTests: XCTestCase {
    private func objects(_ text: String) throws -> [(String, Int)] {
        let path = try writeFixture(text, to: try makeTempDir() + "/history.json")
        var out: [(String, Int)] = []
        try JSONArrayReader(path: path, chunkSize: 5).forEachObject { object, line in
            out.append((object["k"] as? String ?? "", line))
        }
        return out
    }

    private func assertError(_ text: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try objects(text), file: file, line: line) { error in
            XCTAssertTrue("\(error)".hasSuffix(message), "\(error)", file: file, line: line)
        }
    }

    func testObjectsWithTheirLinesAcrossChunks() throws {
        let read = try objects("\u{feff}[\n {\"k\": \"a]}\\\"\"},\n\n {\"k\": \"b\", \"n\": [1, {\"x\": 2}]}\n]\n")
        XCTAssertEqual(read.map(\.0), ["a]}\"", "b"])
        XCTAssertEqual(read.map(\.1), [2, 4])
        XCTAssertEqual(try objects("[]").count, 0)
    }

    func testTextAroundTheArrayIsAnError() {
        // A Polar Sensor Logger header read as JSON once gave an empty array: "[ms]".
        assertError("Phone timestamp;RR-interval [ms]\n", ":1:0: the top level is not an array")
        assertError("[{\"k\": \"a\"}] x", ":1:0: text after the top-level array")
        assertError("[{\"k\": \"a\"}][]", ":1:0: text after the top-level array")
        assertError("{\"k\": \"a\"}", ":1:0: the top level is not an array")
        assertError("", ":1:0: no JSON array")
        assertError("[{\"k\": \"a\"}", ":1:0: truncated JSON")
    }

    func testElementsMustBeObjectsSeparatedBySingleCommas() {
        assertError("[\n{\"k\": \"a\"},\n1]", ":3:0: element is not a JSON object")
        assertError("[\"a\"]", ":1:0: element is not a JSON object")
        assertError("[[1]]", ":1:0: element is not a JSON object")
        assertError("[{\"k\": \"a\"} {\"k\": \"b\"}]", ":1:0: elements not separated by a comma")
        assertError("[{\"k\": \"a\"},,{\"k\": \"b\"}]", ":1:0: comma without an element before it")
        assertError("[,{\"k\": \"a\"}]", ":1:0: comma without an element before it")
        assertError("[{\"k\": \"a\"},\n]", ":2:0: comma after the last element")
        assertError("[{\"k\": ]", ":1:0: element is not a JSON object")
    }

    /// The `data` array of an API page is read object by object, wherever it stands
    /// among the page's members; a member of that name inside another value is not it.
    func testJSONArrayReaderReadsTheDataMember() throws {
        let dir = try makeTempDir()
        let path = try writeFixture("""
            {"next_token": "a\\"b", "meta": {"data": [{"x": 0}]},
             "data": [{"a": 1},
               {"a": 2}], "tail": 1}
            """, to: dir + "/page.json")
        var seen: [String] = []
        try JSONArrayReader(path: path, chunkSize: 5, member: "data").forEachObject { object, line in
            seen.append("\(line):\(object["a"] as? Int ?? -1)")
        }
        XCTAssertEqual(seen, ["2:1", "3:2"])
        let notArray = try writeFixture("{\"data\": 5}", to: dir + "/b.json")
        XCTAssertThrowsError(try JSONArrayReader(path: notArray, member: "data").forEachObject { _, _ in }) {
            XCTAssertTrue("\($0)".contains("'data' is not an array"), "\($0)")
        }
        let none = try writeFixture("{\"x\": [1]}", to: dir + "/c.json")
        XCTAssertThrowsError(try JSONArrayReader(path: none, member: "data").forEachObject { _, _ in }) {
            XCTAssertTrue("\($0)".contains("no 'data' array"), "\($0)")
        }
    }
}
