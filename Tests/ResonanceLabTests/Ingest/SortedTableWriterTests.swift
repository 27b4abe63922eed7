import XCTest
@testable import ResonanceLab

final class SortedTableWriterTests: XCTestCase {
    private func write(_ rows: [(String, Int32)], budget: Int) throws -> (lines: [String], dups: [Int32: Int]) {
        let path = try makeTempDir() + "/t.csv"
        let dir = (path as NSString).deletingLastPathComponent
        let writer = try SortedTableWriter(path: path, header: ["subject", "timestamp", "v"], memoryBudget: budget)
        var mostRuns = 0
        for (line, file) in rows {
            try writer.add(Array(line.utf8), file: file)
            mostRuns = max(mostRuns, try FileManager.default.contentsOfDirectory(atPath: dir).count)
        }
        XCTAssertLessThanOrEqual(mostRuns, SortedTableWriter.maxRuns, "run files stay bounded")
        try writer.finish()
        try writer.commit()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["t.csv"], "no run files left")
        return (text.split(separator: "\n").map(String.init), writer.duplicates)
    }

    func testInOrderRowsStreamAndDuplicatesAreCountedPerFile() throws {
        let rows: [(String, Int32)] = [("A,1,x", 0), ("A,1,x", 0), ("A,2,x", 1), ("B,1,x", 1), ("B,1,x", 1)]
        let r = try write(rows, budget: 1 << 20)
        XCTAssertEqual(r.lines, ["subject,timestamp,v", "A,1,x", "A,2,x", "B,1,x"])
        XCTAssertEqual(r.dups, [0: 1, 1: 1])
    }

    func testOutOfOrderRowsAreSortedThroughSpilledRunsWithBoundedMemory() throws {
        // 2 000 rows over 3 subjects in shuffled order with every 10th row repeated;
        // a 200-byte budget forces ~150 runs plus the in-order prefix (run 0), so
        // runs are also compacted several times.
        var rng = SeededRandom(seed: 7)
        var rows: [(String, Int32)] = []
        for i in 0..<2000 {
            let line = "S\(i % 3),\(String(format: "%06d", i)),\(i % 7)"
            rows.append((line, Int32(i % 2)))
            if i % 10 == 0 { rows.append((line, 5)) }
        }
        let prefix = Array(rows.prefix(30)).sorted { $0.0 < $1.0 }
        var rest = Array(rows.dropFirst(30))
        for i in stride(from: rest.count - 1, to: 0, by: -1) { rest.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
        let r = try write(prefix + rest, budget: 200)
        let expected = Set(rows.map(\.0)).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        XCTAssertEqual(Array(r.lines.dropFirst()), expected)
        XCTAssertEqual(r.dups.values.reduce(0, +), 200, "200 repeated rows dropped")
    }
}
