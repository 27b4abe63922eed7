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

    /// Quantiles of counted values are those of the values listed, to the bit.
    func testQuantileOfCountsIsThatOfTheListedValues() {
        var rng = SeededRandom(seed: 7)
        let values = (0..<1001).map { _ in (rng.uniform() * 40).rounded() / 256 }
        let counts = values.reduce(into: [Double: Int]()) { $0[$1, default: 0] += 1 }
        XCTAssertLessThan(counts.count, 200, "values repeat")
        for p in [0, 0.1, 0.25, 0.5, 0.77, 1] {
            XCTAssertEqual(Stats.quantile(counts: counts, p).bitPattern, Stats.quantile(values, p).bitPattern, "p = \(p)")
        }
        XCTAssertEqual(Stats.quantile(counts: [0.5: 1, 0.25: 1], 0.5), 0.375)
        XCTAssertTrue(Stats.quantile(counts: [:], 0.5).isNaN)
    }

    /// Quantiles of values partly moved to a temporary file are those of the values held,
    /// to the bit, wherever the order statistics fall.
    func testQuantileOfSpilledValuesIsThatOfTheValuesHeld() throws {
        var rng = SeededRandom(seed: 3)
        let values = (0..<2001).map { i in i % 9 == 0 ? 0.25 : rng.normal(mean: 0.1, sd: 2) * (i % 5 == 0 ? 1e-300 : 1) }
        for held in [1, 7, 64, 5000] {
            var list = SpilledValues(held: held)
            for v in values { try list.append(v) }
            XCTAssertEqual(list.count, values.count)
            for p in [0, 0.01, 0.3, 0.5, 0.5004, 0.9, 1] {
                XCTAssertEqual(try list.quantile(p).bitPattern, Stats.quantile(values, p).bitPattern, "held \(held), p = \(p)")
            }
        }
        XCTAssertTrue(try SpilledValues().quantile(0.5).isNaN)
    }
}
