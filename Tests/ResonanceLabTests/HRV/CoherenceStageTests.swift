import ResonanceLab
import XCTest

final class CoherenceStageTests: XCTestCase {
    /// Subjects in byte order whichever series each is scored from: `A` (heart rate
    /// only) before `B` (R-R), as in every table, so that a sharded run's merge restores
    /// one run's order.
    func testSubjectsAreInByteOrderWhateverTheirSource() throws {
        let ws = Workspace(path: try makeTempDir())
        let start: Int64 = 1_700_000_000_000
        try ws.write((0..<600).map { HRSample(subject: "A", timestampMs: start + Int64($0) * 1000, bpm: 60, source: "csv") })
        try ws.write((1...750).map { RRInterval(subject: "B", timestampMs: start + Int64($0) * 800, rrMs: 800, source: "csv") })
        try CoherenceStage().run(ws, StageContext())
        let rows = try ws.read(CoherenceRow.self)
        XCTAssertEqual(rows.map(\.subject).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }, ["A", "B"])
        XCTAssertEqual(rows.first?.source, "hr")
        XCTAssertEqual(rows.last?.source, "rr")
    }
}
