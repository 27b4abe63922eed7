import XCTest
@testable import ResonanceLab

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

    /// Read forward in time a piece of each table at a time, a subject's rows are those of
    /// its whole series, byte for byte: R-R with artifacts, implausible intervals and gaps
    /// both shorter and longer than a window; heart rate with repeated times and gaps.
    func testReadForwardInTimeTheRowsAreThoseOfTheWholeSeries() throws {
        let ws = Workspace(path: try makeTempDir())
        let start: Int64 = 1_700_000_000_000
        var rr: [RRInterval] = [], t = start
        for i in 0..<9000 {
            // A 40 s gap every 1,000 beats (within a window), a 20 min one every 3,000 (beyond it).
            t += i % 3000 == 2999 ? 1_200_000 : i % 1000 == 999 ? 40_000 : 0
            var ms = (850 + 60 * sin(Double(i) / 9) + 25 * sin(Double(i) / 2.3)).rounded()
            if i % 211 == 0 { ms = 420 }  // ectopic
            if i % 997 == 0 { ms = 3400 }  // implausible: left out
            t += Int64(ms)
            rr.append(RRInterval(subject: "B", timestampMs: t, rrMs: ms, source: "e4"))
        }
        var hr: [HRSample] = []
        for i in 0..<20000 {
            let ms = start + Int64(i) * 1000 + (i > 9000 ? 600_000 : 0) + (i > 15000 ? 50_000 : 0)
            hr.append(HRSample(subject: "A", timestampMs: ms, bpm: (64 + 6 * sin(Double(i) / 9.5)).rounded(), source: "w"))
            if i % 500 == 0 { hr.append(HRSample(subject: "A", timestampMs: ms, bpm: 99, source: "w")) }
        }
        try ws.write(rr)
        try ws.write(hr)
        let options = CoherenceOptions(), plausible = RRConstants.defaults
        guard let series = try SubjectIndex(RRInterval.self, path: ws.file(RRInterval.fileName))
            .nnSeries(of: "B", method: options.artifactMethod, plausible: plausible) else { return XCTFail("no R-R") }
        var fromRR = CoherenceWindows(subject: "B", series: series, options: options)
        let wholeRR = try fromRR.rows()
        let s = SubjectSeries.hr(MeasurementSeries(subject: "A", timestampsMs: hr.map(\.timestampMs), values: hr.map(\.bpm)))
        var fromHR = CoherenceWindows(subject: "A", source: "hr", timeMs: s.timestampsMs.map(Double.init), bpm: s.values, options: options)
        let wholeHR = try fromHR.rows()
        // Windows on both sides of every gap, and a resonance row from all runs.
        XCTAssertGreaterThan(wholeRR.count, 2000)
        XCTAssertEqual(wholeRR.last?.method, "resonance")
        XCTAssertEqual(wholeHR.last?.method, "resonance")
        for pieces in [1, 37, 8192] {
            let rrIndex = try SubjectIndex(RRInterval.self, path: ws.file(RRInterval.fileName), pieceRecords: pieces)
            let hrIndex = try SubjectIndex(HRSample.self, path: ws.file(HRSample.fileName), pieceRecords: pieces)
            let b = try CoherenceStage.windowed("B", rr: rrIndex, hr: hrIndex, options: options, plausible: plausible)
            XCTAssertEqual(b?.rr, true)
            XCTAssertEqual(try b?.rows.text(), try Workspace.encode(wholeRR).text(), "R-R, pieces of \(pieces)")
            let a = try CoherenceStage.windowed("A", rr: rrIndex, hr: hrIndex, options: options, plausible: plausible)
            XCTAssertEqual(a?.rr, false)
            XCTAssertEqual(try a?.rows.text(), try Workspace.encode(wholeHR).text(), "heart rate, pieces of \(pieces)")
            XCTAssertNil(try CoherenceStage.windowed("C", rr: rrIndex, hr: hrIndex, options: options, plausible: plausible))
        }
        // Rows that go back in time are read whole by the stage, with the same rows.
        var back = hr
        back.swapAt(100, 101)
        try ws.write(back)
        XCTAssertThrowsError(try CoherenceStage.windowed("A", rr: try SubjectIndex(RRInterval.self, path: ws.file(RRInterval.fileName)),
                                                         hr: try SubjectIndex(HRSample.self, path: ws.file(HRSample.fileName)),
                                                         options: options, plausible: plausible)) { XCTAssertTrue($0 is OutOfOrder) }
        try CoherenceStage().run(ws, StageContext())
        XCTAssertEqual(try Workspace.encode(try ws.read(CoherenceRow.self).filter { $0.subject == "A" }).text(),
                       try Workspace.encode(wholeHR).text())
    }
}

extension EncodedRows {
    /// Every byte of the rows: those moved to the temporary file, then those held.
    func text() throws -> [UInt8] {
        var out: [UInt8] = []
        try spilled?.forEachChunk { out += $0 }
        return out + bytes
    }
}
