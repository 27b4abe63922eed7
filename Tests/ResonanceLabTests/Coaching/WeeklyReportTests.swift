import XCTest
@testable import ResonanceLab

final class WeeklyReportTests: XCTestCase {
    typealias F = CoachingFixtures

    func testProgressScore() {
        func t(_ d: MetricTrend.Direction) -> MetricTrend {
            MetricTrend(metric: "m", unit: "", change: 0, relativeChange: 0, days: 7, direction: d, rule: "")
        }
        XCTAssertNil(WeeklyReport.progressScore([]))
        XCTAssertEqual(WeeklyReport.progressScore([t(.improving), t(.improving)]), 100)
        XCTAssertEqual(WeeklyReport.progressScore([t(.stable), t(.stable), t(.stable)]), 50)
        XCTAssertEqual(WeeklyReport.progressScore([t(.declining)]), 0)
        // (2 + 0.5 × 2) / 5 = 0.6.
        XCTAssertEqual(WeeklyReport.progressScore([t(.improving), t(.improving), t(.stable), t(.stable), t(.declining)]), 60)
    }

    func testReportDaysAreSundaysAndTheLastDay() {
        let h = CoachingHistory(rows: (0..<10).map { F.row(F.monday + $0) })
        XCTAssertEqual((0..<10).filter { WeeklyReport.isReportDay(h, day: F.monday + $0) }, [6, 9])
    }

    /// x = 1…7 and y = 2, 1, 4, 3, 6, 5, 7: deviations from the means (4, 4) give
    /// Σdx·dy = 6 + 6 + 0 + 0 + 2 + 2 + 9 = 25, Σdx² = 28, Σdy² = 28, r = 25/28.
    /// Sleep against y = 3, 1, 2, 5, 4, 4, 2 (mean 3): Σdx·dy = 0 + 4 + 1 + 0 + 1 + 2 − 3 = 5,
    /// Σdy² = 12, r = 5/√336 = 0.272772.
    func testCorrelationsOnSevenHandMadePairs() {
        let y1: [Double] = [2, 1, 4, 3, 6, 5, 7], y2: [Double] = [3, 1, 2, 5, 4, 4, 2]
        let rows = (0..<7).map { i in
            F.row(F.monday + i, rhr: 60 + y1[i], hrv: 40 + y2[i], steps: 1000 * Double(i + 1), sleep: Double(i + 1))
        }
        let h = CoachingHistory(rows: rows)
        let r = WeeklyReport.correlations(h, day: F.monday + 6, constants: F.c)
        XCTAssertEqual(r.map(\.pair), ["steps_resting_hr", "sleep_hours_hrv_sdnn"])
        XCTAssertEqual(r[0].r, 25.0 / 28, accuracy: 1e-12)
        XCTAssertEqual(r[0].pairs, 7)
        XCTAssertEqual(r[0].strength, "very_consistent")
        XCTAssertFalse(r[0].expectedSign, "more steps with a higher resting HR")
        XCTAssertEqual(r[1].r, 0.272772, accuracy: 1e-6)
        XCTAssertEqual(r[1].strength, "noticeable")
        XCTAssertTrue(r[1].expectedSign)
        // Six pairs: none.
        XCTAssertTrue(WeeklyReport.correlations(CoachingHistory(rows: Array(rows.prefix(6))), day: F.monday + 5, constants: F.c).isEmpty)
        // A day without sleep leaves six sleep pairs, seven step pairs.
        var gap = rows
        gap[3] = F.row(F.monday + 3, rhr: 63, hrv: 45, steps: 4000)
        XCTAssertEqual(WeeklyReport.correlations(CoachingHistory(rows: gap), day: F.monday + 6, constants: F.c).map(\.pair), ["steps_resting_hr"])
    }

    func testStrengthBandEdges() {
        let expected: [(Double, String)] = [(0.19, "negligible"), (0.2, "noticeable"), (-0.39, "noticeable"), (0.4, "clear"),
                                            (-0.6, "strong"), (0.79, "strong"), (0.8, "very_consistent"), (-1, "very_consistent")]
        for (r, band) in expected { XCTAssertEqual(WeeklyReport.strength(r, constants: F.c), band, "\(r)") }
    }
}
