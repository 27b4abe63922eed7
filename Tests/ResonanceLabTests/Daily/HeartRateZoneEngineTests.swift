import XCTest
@testable import ResonanceLab

final class HeartRateZoneEngineTests: XCTestCase {
    func testKarvonenZonesWithTanakaMaximum() {
        // Age 40: max 208 − 0.7·40 = 180; rest 60 → reserve 120; bounds 60 + 120·(0.5…1.0)
        // = 120, 132, 144, 156, 168, 180.
        let zones = HeartRateZoneEngine().zones(age: 40, restingHRBpm: 60)
        XCTAssertEqual(zones.map(\.lowBpm), [120, 132, 144, 156, 168], accuracy: 1e-9)
        XCTAssertEqual(zones.map(\.highBpm), [132, 144, 156, 168, 180], accuracy: 1e-9)
        XCTAssertEqual(zones.map(\.number), [1, 2, 3, 4, 5])
        XCTAssertEqual(HeartRateZoneEngine().zones(age: 40, restingHRBpm: 190), [])
    }
}
