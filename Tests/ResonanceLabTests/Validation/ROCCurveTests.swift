import XCTest
@testable import ResonanceLab

final class ROCCurveTests: XCTestCase {
    func testPointsWorkedByHand() {
        // Scores 4,6,7,8,9 positive and 1,2,3,4,5,5 negative, thresholds from the top:
        // 9,8,7,6 → TPR 1/5…4/5 with no false positive; 5 (two negatives) → (2/6, 4/5);
        // 4 (one of each) → (3/6, 1); then 3, 2, 1 → (4/6, 1), (5/6, 1), (1, 1).
        let roc = GroupComparison.rocCurve(positive: [4, 6, 7, 8, 9], negative: [1, 2, 3, 4, 5, 5])
        let expected: [(Double, Double)] = [(0, 0), (0, 0.2), (0, 0.4), (0, 0.6), (0, 0.8), (2.0 / 6, 0.8),
                                            (3.0 / 6, 1), (4.0 / 6, 1), (5.0 / 6, 1), (1, 1)]
        XCTAssertEqual(roc.count, expected.count)
        for (p, e) in zip(roc, expected) {
            XCTAssertEqual(p.fpr, e.0, accuracy: 1e-12); XCTAssertEqual(p.tpr, e.1, accuracy: 1e-12)
        }
    }

    func testTrapezoidAreaEqualsMannWhitneyAUC() {
        var rng = SeededRandom(seed: 11)
        let pos = (0..<37).map { _ in Double(rng.next() % 20) }, neg = (0..<23).map { _ in Double(rng.next() % 15) }
        let roc = GroupComparison.rocCurve(positive: pos, negative: neg)
        var area = 0.0
        for k in 1..<roc.count { area += (roc[k].fpr - roc[k - 1].fpr) * (roc[k].tpr + roc[k - 1].tpr) / 2 }
        XCTAssertEqual(area, GroupComparison.auc(positive: pos, negative: neg), accuracy: 1e-12)
        XCTAssertTrue(GroupComparison.rocCurve(positive: [], negative: [1]).isEmpty)
    }
}
