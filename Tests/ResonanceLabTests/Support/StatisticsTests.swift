import XCTest
@testable import ResonanceLab

final class StatisticsTests: XCTestCase {
    func testHandWorkedValues() {
        XCTAssertEqual(Stats.mean([1, 2, 3, 4]), 2.5)
        XCTAssertEqual(Stats.variance([2, 4, 4, 4, 5, 5, 7, 9]), 32.0 / 7, accuracy: 1e-12)
        XCTAssertEqual(Stats.quantile([1, 2, 3, 4], 0.25), 1.75, accuracy: 1e-12)
        XCTAssertEqual(Stats.mad([1, 1, 2, 2, 4, 6, 9]), 1)
        XCTAssertEqual(Stats.ranks([10, 20, 20, 5]), [2, 3.5, 3.5, 1])
        XCTAssertEqual(Stats.spearman([1, 2, 3], [10, 30, 20]), 0.5, accuracy: 1e-12)
    }
}
