import XCTest
@testable import ResonanceLab

/// Encoded rows past a writer's memory wait in an unnamed temporary file and come back, in
/// order, when the part is written: the table is the same bytes as one written row by row.
final class SpillFileTests: XCTestCase {
    private func rows() -> [HRSample] {
        (0..<1000).map { HRSample(subject: $0 < 600 ? "A" : "B, \"quoted\"", timestampMs: Int64($0) * 1000,
                                  bpm: 60 + Double($0 % 37) / 7, source: "e4") }
    }

    func testASpilledPartWritesTheSameTableAsRowByRow() throws {
        let dir = try makeTempDir()
        let direct = Workspace(path: dir + "/direct"), spilled = Workspace(path: dir + "/spilled")
        try direct.write(rows())
        let writer = CSVWriter(spillingAfter: 100)
        for row in rows() { row.write(to: writer); try writer.endRow() }
        let part = writer.part
        XCTAssertNotNil(part.spilled)
        XCTAssertLessThan(part.bytes.count, 200)
        XCTAssertEqual(part.rows, 1000)
        let table = try spilled.writer(HRSample.self)
        try table.append(part)
        try table.commit()
        XCTAssertEqual(table.rows, 1000)
        let a = try Data(contentsOf: URL(fileURLWithPath: direct.file(HRSample.fileName)))
        let b = try Data(contentsOf: URL(fileURLWithPath: spilled.file(HRSample.fileName)))
        XCTAssertEqual(a, b)
        XCTAssertGreaterThan(a.count, 30_000)
    }

    /// The buffer never grows past the limit: the rows move on before it would double
    /// (unless a row longer than every earlier one comes when it is nearly full, as the
    /// first row of subject B does here; rows of subject A only).
    func testTheBufferNeverGrowsPastTheLimit() throws {
        let writer = CSVWriter(spillingAfter: 4096)
        var largest = 0
        let a = rows().prefix(600)
        for row in a + a + a + a {
            row.write(to: writer)
            try writer.endRow()
            largest = max(largest, writer.part.bytes.capacity)
        }
        // The allocator may round a block up by a few bytes; moved on only at the limit, the
        // buffer would have doubled to 8 KiB.
        XCTAssertLessThan(largest, 4096 + 256)
        XCTAssertGreaterThan(largest, 1024)
        XCTAssertEqual(writer.part.rows, 2400)
    }

    func testAPartUnderTheLimitStaysInMemory() throws {
        let part = try Workspace.encode(rows().prefix(10))
        XCTAssertNil(part.spilled)
        XCTAssertEqual(part.rows, 10)
        XCTAssertEqual(String(decoding: part.bytes, as: UTF8.self).split(separator: "\n").first, "A,1970-01-01T00:00:00.000Z,60.0,e4")
    }
}
