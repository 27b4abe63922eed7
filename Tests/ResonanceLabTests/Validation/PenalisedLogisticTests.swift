import XCTest
@testable import ResonanceLab

final class PenalisedLogisticTests: XCTestCase {
    func testUnpenalisedFitRecoversTheGroupLogOdds() {
        // x = 0: 1 of 4 positive; x = 1: 3 of 4. The maximum-likelihood fit reproduces the
        // group rates: P(y | x = 1) = 0.75, P(y | x = 0) = 0.25 (logits ± ln 3).
        let x = [[0.0], [0], [0], [0], [1], [1], [1], [1]]
        let y = [true, false, false, false, true, true, true, false]
        let m = PenalisedLogistic(x: x, y: y, lambda: 0)
        XCTAssertEqual(m.probability([1]), 0.75, accuracy: 1e-9)
        XCTAssertEqual(m.probability([0]), 0.25, accuracy: 1e-9)
        // Standardised x is ±1, so the weight is ln 3 and the intercept 0.
        XCTAssertEqual(m.weights[1], log(3), accuracy: 1e-9)
        XCTAssertEqual(m.weights[0], 0, accuracy: 1e-9)
    }

    func testHeavyPenaltyShrinksToThePrevalence() {
        let x = [[0.0], [0], [0], [1], [1], [1]]
        let y = [false, false, true, true, true, true]
        let m = PenalisedLogistic(x: x, y: y, lambda: 1e6)
        XCTAssertEqual(m.weights[1], 0, accuracy: 1e-5)
        XCTAssertEqual(m.probability([0]), 4.0 / 6, accuracy: 1e-5)
    }
}
