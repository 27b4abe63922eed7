import XCTest
@testable import ResonanceLab

final class TimeDomainTests: XCTestCase {
    func testRMSSDWorkedByHand() {
        // Differences 10, −15, 25, −15 → squares 100, 225, 625, 225 → mean 293.75 → √ = 17.139.
        XCTAssertEqual(HRVTime.rmssd([800, 810, 795, 820, 805]), 17.139, accuracy: 0.001)
        XCTAssertTrue(HRVTime.rmssd([800]).isNaN)
    }
}
