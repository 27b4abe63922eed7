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

    func testAUCWithTiesMatchesScikitLearn() {
        // sklearn.metrics.roc_auc_score([0,0,1,1,0,1,1,0], [0.1,0.4,0.35,0.8,0.4,0.4,0.9,0.2]) = 0.8125.
        // By hand: of the 16 (stress, rest) pairs, 0.35 beats 2, 0.8 and 0.9 beat 4 each, 0.4 beats 2
        // and ties 2 (½ each): 13 / 16.
        let scores = [0.1, 0.4, 0.35, 0.8, 0.4, 0.4, 0.9, 0.2]
        let labels = [0, 0, 1, 1, 0, 1, 1, 0].map { $0 == 1 }
        XCTAssertEqual(GroupComparison.auc(scores: scores, isPositive: labels), 0.8125)
        XCTAssertTrue(GroupComparison.auc(positive: [], negative: [1]).isNaN)
    }

    func testCohensDWorkedByHand() {
        // Means 75.2 and 67.25, sample variances 14.7 and 4.9167; pooled variance
        // (4·14.7 + 3·4.9167) / 7 = 10.5071, SD 3.2415: d = 7.95 / 3.2415 = 2.4526
        // (NumPy: 2.4525891922112013).
        XCTAssertEqual(GroupComparison.cohensD([72, 75, 71, 80, 78], [65, 70, 68, 66]), 2.4525891922112013, accuracy: 1e-12)
        XCTAssertTrue(GroupComparison.cohensD([1], [2, 3]).isNaN)
        XCTAssertTrue(GroupComparison.cohensD([2, 2], [2, 2]).isNaN)
    }

    func testMannWhitneyMatchesSciPy() {
        // scipy.stats.mannwhitneyu(a, b, method="asymptotic", use_continuity=True): U = 20, p = 0.019964453305216043.
        XCTAssertEqual(GroupComparison.mannWhitneyU([72, 75, 71, 80, 78], [65, 70, 68, 66]), 20)
        XCTAssertEqual(GroupComparison.mannWhitneyP([72, 75, 71, 80, 78], [65, 70, 68, 66]), 0.019964453305216043, accuracy: 1e-12)
        // With ties in both groups: U = 72, p = 0.028752895851995676.
        let a: [Double] = [3, 4, 4, 5, 8, 9, 9, 10, 11], b: [Double] = [1, 2, 2, 3, 4, 4, 4, 5, 6, 7]
        XCTAssertEqual(GroupComparison.mannWhitneyU(a, b), 72)
        XCTAssertEqual(GroupComparison.mannWhitneyP(a, b), 0.028752895851995676, accuracy: 1e-12)
    }

    func testClusterBootstrapResamplesWholeUnits() {
        // Three subjects of which one is extreme: every resample's statistic is a mean of
        // three drawn subject values, so the CI lies within [min, max] of the values.
        let values: [Double] = [0, 0, 9]
        let ci = GroupComparison.bootstrapCI(clusters: 3) { picks in picks.reduce(0) { $0 + values[$1] } / 3 }
        XCTAssertEqual(ci.0, 0)
        XCTAssertEqual(ci.1, 9)
        XCTAssertTrue(GroupComparison.bootstrapCI(clusters: 1) { _ in 1 }.0.isNaN)
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
