import XCTest
@testable import ResonanceLab

final class HRVWindowsTests: XCTestCase {
    /// Beats every `rrMs` from t = rrMs for `seconds`, without those closing in `gap` (s).
    private func series(seconds: Int, rrMs: Int64 = 1000, gap: Range<Int64>? = nil) -> NNSeries {
        let times = stride(from: rrMs, through: Int64(seconds) * 1000, by: Int(rrMs)).filter { t in
            gap.map { !$0.contains(t / 1000) } ?? true
        }
        return NNSeries.clean(timestampsMs: times, rrMs: times.map { _ in Double(rrMs) }, method: .none)
    }

    func testWindowsStepAndWholeRow() throws {
        // 20 min of beats from t = 1 s: starts 1 s, 61 s, …; the last start s satisfies
        // s + 300 s ≤ 1200 s → s ≤ 900 s → starts 1, 61, …, 841 (15 windows), then one whole row.
        var w = HRVWindows(subject: "s", series: series(seconds: 1200), options: HRVOptions())
        let rows = try w.rows()
        XCTAssertEqual(rows.count, 16)
        XCTAssertEqual(rows[0].windowStartMs, 1000)
        XCTAssertEqual(rows[1].windowStartMs, 61_000)
        XCTAssertEqual(rows[14].windowEndMs, 1_141_000)
        XCTAssertNil(rows[15].windowStartMs)
        XCTAssertEqual(rows[15].nBeats, 1200)
        // Constant 1000 ms beats: 300 per window, no artifact, SDNN 0.
        XCTAssertEqual(rows[0].nBeats, 300)
        XCTAssertEqual(rows[0].artifactPct, 0)
        XCTAssertTrue(rows[0].reliable)
        XCTAssertEqual(rows[0].time.sdnn, 0)
    }

    func testGapsCountAsMissingBeatsAndMakeWindowsUnreliable() throws {
        // 30 beats missing from the first window (closing at 101…130 s): 270 beats cover
        // 270 s of 300 s → 30 missing at 1000 ms → artifact_pct = 30/300 = 10 % > 5 %.
        var w = HRVWindows(subject: "s", series: series(seconds: 600, gap: 101..<131), options: HRVOptions())
        let first = try w.rows()[0]
        XCTAssertEqual(first.nBeats, 270)
        XCTAssertEqual(first.artifactPct, 10, accuracy: 1e-9)
        XCTAssertFalse(first.reliable)
    }

    /// 20 h of beats around 900 ms with a 10-minute gap (longer than a Welch segment), a
    /// 40 s gap and an ectopic beat every 997, cleaned by Lipponen's method: 79 k beats, so
    /// the whole-recording row reads its beats back from disk (past 64 K).
    private func longSeries() -> NNSeries {
        var rng = SeededRandom(seed: 11)
        var times: [Int64] = [], rr: [Double] = []
        var t = 0.0, k = 0
        while t < 20 * 3_600_000 {
            var v = 900 + 60 * sin(2 * Double.pi * 0.1 * t / 1000) + 15 * rng.normal()
            if k % 997 == 500 { v *= 0.6 }
            t += v
            k += 1
            let skipped = (36_000_000...36_600_000).contains(t) || (50_000_000...50_040_000).contains(t)
            if !skipped { times.append(Int64(t.rounded())); rr.append(v) }
        }
        return NNSeries.clean(timestampsMs: times, rrMs: rr, method: .lipponen)
    }

    /// Beats `r` of `s`, as a piece handed over by a stream.
    private func piece(_ s: NNSeries, _ r: Range<Int>) -> NNSeries {
        NNSeries(timeMs: Array(s.timeMs[r]), nnMs: Array(s.nnMs[r]), artifact: Array(s.artifact[r]),
                 runStart: Array(s.runStart[r]))
    }

    func testRowsOfBeatsReadPieceByPieceAreTheRowsOfTheWholeSeriesToTheBit() throws {
        let series = longSeries()
        XCTAssertGreaterThan(series.count, 1 << 16)
        XCTAssertGreaterThan(series.artifact.filter { $0 != .none }.count, 50)
        var whole = HRVWindows(subject: "s", series: series, options: HRVOptions())
        let expected = try Workspace.encode(try whole.rows()).text()
        // Pieces of 1, 13, 4,000 and 250 beats in turn: windows and runs cut anywhere.
        let sizes = [1, 13, 4_000, 250]
        var pieces: [NNSeries] = [], start = 0
        while start < series.count {
            let size = sizes[pieces.count % sizes.count]
            pieces.append(piece(series, start..<min(series.count, start + size)))
            start += size
        }
        var next = pieces.makeIterator()
        var rows: [HRVRow] = []
        let done = try HRVWindows.forEachRow(subject: "s", options: HRVOptions(), beats: { next.next() }) { rows.append($0) }
        XCTAssertEqual(try Workspace.encode(rows).text(), expected)
        XCTAssertGreaterThan(rows.count, 1_000)
        XCTAssertNil(rows.last?.windowStartMs)
        XCTAssertEqual(rows.last?.nBeats, series.count)
        XCTAssertEqual(done.timings.windows, rows.count - 1)
        XCTAssertEqual(done.wholeSpectrum?.psd, whole.wholeSpectrum?.psd)

        // The windows are those placed over the whole series at once, each computed from the
        // whole series; the whole row's indices are those of the series as one window.
        var placed = HRVWindows(subject: "s", series: series, options: HRVOptions())
        let window = Int64(HRVOptions().windowSeconds * 1000)
        let starts = WindowPlacement.starts(timesMs: series.timeMs, windowMs: window,
                                            stepMs: Int64(HRVOptions().stepSeconds * 1000))
        let windowed = starts.map { placed.row(fromMs: $0, toMs: $0 + window) }
        XCTAssertEqual(try Workspace.encode(windowed).text(), try Workspace.encode(rows.dropLast()).text())
        let all = NNWindow(series, 0..<series.count)
        let time = HRVTime(all), nonlinear = HRVNonlinear(all)
        let last = try XCTUnwrap(rows.last)
        XCTAssertEqual([last.time.sdnn, last.time.rmssd, last.time.sdsd, last.time.hti, last.nonlinear.sd1,
                        last.nonlinear.sd2, last.nonlinear.dfaAlpha1, last.nonlinear.dfaAlpha2, last.nonlinear.stressIndex],
                       [time.sdnn, time.rmssd, time.sdsd, time.hti, nonlinear.sd1, nonlinear.sd2, nonlinear.dfaAlpha1,
                        nonlinear.dfaAlpha2, nonlinear.stressIndex])
    }
}
