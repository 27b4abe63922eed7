import XCTest
@testable import ResonanceLab

/// A subject's NN series cleaned as its rows are read equals the series cleaned from its
/// whole column, sorted and made ready first, bit for bit.
final class SubjectNNTests: XCTestCase {
    private func assertSame(_ a: NNSeries?, _ b: NNSeries?, _ message: String, line: UInt = #line) {
        XCTAssertEqual(a?.timeMs.map(\.bitPattern), b?.timeMs.map(\.bitPattern), message, line: line)
        XCTAssertEqual(a?.nnMs.map(\.bitPattern), b?.nnMs.map(\.bitPattern), message, line: line)
        XCTAssertEqual(a?.artifact, b?.artifact, message, line: line)
        XCTAssertEqual(a?.runStart, b?.runStart, message, line: line)
    }

    /// The interleaved fixture (subjects in runs that reappear, each in time order) with, for
    /// s0, a repeated timestamp, an implausible interval and a gap; s4's rows reversed
    /// part-way (read whole and sorted); and t, whose only interval is implausible.
    func testStreamedCleaningMatchesTheWholeColumn() throws {
        var lines = interleavedRRTable(seed: 23, count: 4000).text.split(separator: "\n").map(String.init)
        let s0 = lines.indices.filter { lines[$0].hasPrefix("s0,") }
        lines[s0[10]] = lines[s0[9]]  // the same time again: kept once
        lines[s0[20]] = lines[s0[20]].replacingOccurrences(of: ".25,", with: "0000.25,")  // > 2500 ms: skipped
        let s4 = lines.indices.filter { lines[$0].hasPrefix("s4,") }
        let reversed = s4[40..<60].map { lines[$0] }.reversed()
        for (i, text) in zip(s4[40..<60], reversed) { lines[i] = text }
        lines.append("t,2026-01-05T08:00:00Z,3000.0,e4")
        let ws = Workspace(path: try makeTempDir())
        try writeFixture(lines.joined(separator: "\n") + "\n", to: ws.file("rr.csv"))
        let index = try ws.subjectIndex(RRInterval.self)
        let whole = Dictionary(uniqueKeysWithValues: try ws.readSeries(RRInterval.self).map { ($0.subject, $0) })
        for method in [ArtifactMethod.lipponen, .none] {
            for subject in index.subjects {
                let ready = SubjectSeries.rr(try XCTUnwrap(whole[subject]), plausible: .defaults)
                let expected = ready.values.isEmpty ? nil
                    : NNSeries.clean(timestampsMs: ready.timestampsMs, rrMs: ready.values, method: method)
                let got = try index.nnSeries(of: subject, method: method, plausible: .defaults)
                assertSame(got, expected, "\(subject) \(method)")
            }
        }
        XCTAssertNil(try index.nnSeries(of: "t", method: .none, plausible: .defaults))
        let sorted = try XCTUnwrap(try index.nnSeries(of: "s4", method: .none, plausible: .defaults))
        XCTAssertEqual(sorted.count, s4.count)
        XCTAssertTrue(zip(sorted.timeMs, sorted.timeMs.dropFirst()).allSatisfy { $0 < $1 })
        // s0: one row fewer for the repeated time, one for the implausible interval, and a
        // new run after the interval the skipped one leaves out.
        let s0Series = try XCTUnwrap(try index.nnSeries(of: "s0", method: .none, plausible: .defaults))
        XCTAssertEqual(s0Series.count, s0.count - 2)
        XCTAssertEqual(s0Series.runStart.filter { $0 }.count, 3)
    }
}
