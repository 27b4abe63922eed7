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

    func testWindowsStepAndWholeRow() {
        // 20 min of beats from t = 1 s: starts 1 s, 61 s, …; the last start s satisfies
        // s + 300 s ≤ 1200 s → s ≤ 900 s → starts 1, 61, …, 841 (15 windows), then one whole row.
        var w = HRVWindows(subject: "s", series: series(seconds: 1200), options: HRVOptions())
        let rows = w.rows()
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

    func testGapsCountAsMissingBeatsAndMakeWindowsUnreliable() {
        // 30 beats missing from the first window (closing at 101…130 s): 270 beats cover
        // 270 s of 300 s → 30 missing at 1000 ms → artifact_pct = 30/300 = 10 % > 5 %.
        var w = HRVWindows(subject: "s", series: series(seconds: 600, gap: 101..<131), options: HRVOptions())
        let first = w.rows()[0]
        XCTAssertEqual(first.nBeats, 270)
        XCTAssertEqual(first.artifactPct, 10, accuracy: 1e-9)
        XCTAssertFalse(first.reliable)
    }
}
