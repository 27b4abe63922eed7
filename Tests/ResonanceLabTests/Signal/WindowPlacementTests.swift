import XCTest
@testable import ResonanceLab

final class WindowPlacementTests: XCTestCase {
    func testContinuousDataGetsEveryStepThatFits() {
        // Samples every second for 10 s; 4 s windows every 2 s: starts 0, 2, 4, 6 (6 + 4 ≤ 10; 8 + 4 > 10).
        let t = (0...10).map { Double($0) * 1000 }
        XCTAssertEqual(WindowPlacement.starts(timesMs: t, windowMs: 4000, stepMs: 2000), [0, 2000, 4000, 6000])
        XCTAssertEqual(WindowPlacement.starts(timesMs: [500], windowMs: 4000, stepMs: 2000), [500], "one window at least")
        XCTAssertEqual(WindowPlacement.starts(timesMs: [], windowMs: 4000, stepMs: 2000), [])
    }

    func testWindowsInsideAGapAreSkippedOnTheStepGrid() {
        // Samples at 0–3 s and 100–110 s; 4 s windows every 2 s. Windows holding a sample:
        // 0 and 2 (sample at 3 s); then the first start whose window reaches 100 s is
        // 98 (98 + 4 > 100), and 98 … 106 fit before 110 s.
        let t = [0.0, 1000, 2000, 3000] + (100...110).map { Double($0) * 1000 }
        XCTAssertEqual(WindowPlacement.starts(timesMs: t, windowMs: 4000, stepMs: 2000),
                       [0, 2000, 98000, 100_000, 102_000, 104_000, 106_000])
    }

    func testACenturyGapCostsNothing() {
        let century = 100 * 365.25 * 86_400_000.0
        let t = [0.0, 800, 1600, century, century + 800]
        XCTAssertEqual(WindowPlacement.starts(timesMs: t, windowMs: 64_000, stepMs: 5000).count, 1,
                       "no window fits both before the last beat and around the second run")
    }

    /// Samples handed over a few at a time place the windows all of them place, in order:
    /// a window waits until a sample ends after it, or the samples end.
    func testAWalkOverSamplesInStretchesPlacesTheWindowsOfAllOfThem() {
        var t: [Double] = [], x = 0.0
        for i in 0..<400 {
            x += [700, 950, 30_000, 4100, 800][i % 5] + Double(i % 7) * 13
            t.append(x)
        }
        let all = WindowPlacement.starts(timesMs: t, windowMs: 8000, stepMs: 2000)
        XCTAssertGreaterThan(all.count, 300)
        for stretch in [1, 3, 50, 400] {
            var walk = WindowPlacement.Walk(windowMs: 8000, stepMs: 2000)
            var starts: [Int64] = [], count = 0
            while count < t.count {
                count = min(t.count, count + stretch)
                walk.advance(count: count, ended: count == t.count, time: { t[$0] }) { starts.append($0) }
                // No window ends past the latest sample before the samples end.
                if count < t.count, let last = starts.last { XCTAssertLessThanOrEqual(Double(last + 8000), max(t[count - 1], Double(starts[0]) + 8000)) }
            }
            XCTAssertEqual(starts, all, "stretches of \(stretch)")
        }
        var once = WindowPlacement.Walk(windowMs: 8000, stepMs: 2000), late: [Int64] = []
        once.advance(count: 2, ended: false, time: { t[$0] }) { late.append($0) }
        XCTAssertEqual(late, [Int64(t[0].rounded(.down))], "the first window is placed with the first sample")
    }
}
