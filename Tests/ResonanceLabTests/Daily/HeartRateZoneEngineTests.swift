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

final class StateEngineTests: XCTestCase {
    func testArousalAndMomentaryStress() {
        let engine = StateEngine()
        // Age 40: max 220 − 40 = 180; (120 − 60)/(180 − 60) = 0.5.
        XCTAssertEqual(engine.arousal(hrBpm: 120, restingHRBpm: 60, age: 40) ?? .nan, 0.5, accuracy: 1e-12)
        XCTAssertEqual(engine.arousal(hrBpm: 50, restingHRBpm: 60, age: 40), 0)
        // 1 − 0.6·50/50 = 0.4; 1 − 0.6·25/50 = 0.7; 1 − 0.6·2 = −0.2 → 0.
        XCTAssertEqual(engine.stress(hrvMs: 50, baselineHRVMs: 50) ?? .nan, 0.4, accuracy: 1e-12)
        XCTAssertEqual(engine.stress(hrvMs: 25, baselineHRVMs: 50) ?? .nan, 0.7, accuracy: 1e-12)
        XCTAssertEqual(engine.stress(hrvMs: 100, baselineHRVMs: 50), 0)
        XCTAssertNil(engine.stress(hrvMs: 50, baselineHRVMs: 0))
    }
}
