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
}
