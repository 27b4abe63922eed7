import XCTest
@testable import ResonanceLab

final class TimeDomainTests: XCTestCase {
    func testRMSSDWorkedByHand() {
        // Differences 10, −15, 25, −15 → squares 100, 225, 625, 225 → mean 293.75 → √ = 17.139.
        XCTAssertEqual(HRVTime.rmssd([800, 810, 795, 820, 805]), 17.139, accuracy: 0.001)
        XCTAssertTrue(HRVTime.rmssd([800]).isNaN)
    }

    func testTimeIndicesWorkedByHand() {
        let t = HRVTime(NNWindow([800, 810, 795, 820, 805]))
        // Mean 4030/5 = 806; deviations −6, 4, −11, 14, −1 → Σ² = 370 → SDNN = √(370/4) = 9.6177.
        XCTAssertEqual(t.meanNN, 806, accuracy: 1e-12)
        XCTAssertEqual(t.sdnn, (370.0 / 4).squareRoot(), accuracy: 1e-12)
        // Differences 10, −15, 25, −15: mean 1.25, squared deviations sum 1168.75 → SDSD = √(1168.75/3).
        XCTAssertEqual(t.sdsd, (1168.75 / 3).squareRoot(), accuracy: 1e-12)
        // One |difference| > 20 (25) over 4 + 1 intervals → pNN20 = 20 %; none > 50.
        XCTAssertEqual(t.pnn20, 20, accuracy: 1e-12)
        XCTAssertEqual(t.pnn50, 0)
        XCTAssertEqual(t.cvnn, t.sdnn / 806, accuracy: 1e-15)
        // Instantaneous HR 60000/NN: mean of 75, 74.074, 75.472, 73.171, 74.534.
        let hr = [800.0, 810, 795, 820, 805].map { 60000 / $0 }
        XCTAssertEqual(t.meanHR, Stats.mean(hr), accuracy: 1e-12)
        // 1/128 s bins: 800 → bin 102, 810 → 103, 795 → 101, 820 → 104, 805 → 103 → peak 2 → HTI = 5/2.
        XCTAssertEqual(t.hti, 2.5)
    }

    func testSuccessiveDifferencesSkipGaps() {
        // A gap before the third beat: only 800→810 and 795→820→805 are successive
        // (differences 10, 25, −15 → RMSSD = √((100 + 625 + 225)/3)).
        let w = NNWindow(nnMs: [800, 810, 795, 820, 805], runStart: [true, false, true, false, false])
        XCTAssertEqual(HRVTime(w).rmssd, (950.0 / 3).squareRoot(), accuracy: 1e-12)
    }
}
