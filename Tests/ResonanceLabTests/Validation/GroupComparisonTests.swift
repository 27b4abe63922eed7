import XCTest
@testable import ResonanceLab

final class GroupComparisonTests: XCTestCase {
    func testKruskalWallisMatchesSciPy() {
        // scipy.stats.kruskal([1,2,3,4,5,5], [4,6,7,8,9]) → H = 5.256116207951073, p = 0.021869769467893006.
        let (h, p) = GroupComparison.kruskalWallis([[1, 2, 3, 4, 5, 5], [4, 6, 7, 8, 9]])
        XCTAssertEqual(h, 5.256116207951073, accuracy: 1e-12)
        XCTAssertEqual(p, 0.021869769467893006, accuracy: 1e-12)
        // scipy.stats.chi2.sf(3.7, 3) = 0.29573403237527585 (series branch).
        XCTAssertEqual(GroupComparison.chiSquareSurvival(3.7, degrees: 3), 0.29573403237527585, accuracy: 1e-12)
    }

    func testAUCWorkedByHand() {
        // scipy.stats.mannwhitneyu([4,6,7,8,9], [1,2,3,4,5,5]).statistic = 27.5 → AUC = 27.5/30.
        XCTAssertEqual(GroupComparison.auc(positive: [4, 6, 7, 8, 9], negative: [1, 2, 3, 4, 5, 5]), 27.5 / 30)
        XCTAssertEqual(GroupComparison.auc(positive: [1, 2], negative: [3, 4]), 0)
    }

    func testBootstrapIsSeededAndBracketsTheMean() {
        let x = (1...40).map(Double.init)
        let a = GroupComparison.bootstrapMeanCI(x), b = GroupComparison.bootstrapMeanCI(x)
        XCTAssertEqual(a.0, b.0); XCTAssertEqual(a.1, b.1)
        // Mean 20.5, SE = 11.69/√40 = 1.85: the CI is about ±1.96·1.85 = ±3.6.
        XCTAssertEqual(a.0, 20.5 - 3.6, accuracy: 0.6)
        XCTAssertEqual(a.1, 20.5 + 3.6, accuracy: 0.6)
    }
}
