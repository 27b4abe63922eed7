import XCTest
@testable import ResonanceLab

/// The generated physiology lands on each persona's profile.
final class PersonaPhysiologyTests: XCTestCase {
    func testRestingHRSDNNAndRMSSDWithinTenPercentOfProfile() throws {
        XCTAssertEqual(PersonaFixture.records.count, 10)
        for r in PersonaFixture.records {
            let p = r.profile
            let windows = PersonaFixture.nightlyWindows(r)
            XCTAssertEqual(windows.count, 30, p.name)
            let rhr = Stats.mean(windows.map { 60_000 / Stats.mean($0) })
            let sdnn = Stats.mean(windows.map(Stats.sd))
            let rmssd = Stats.mean(windows.map(HRVTime.rmssd))
            print(String(format: "%@ RHR %.1f/%.0f SDNN %.1f/%.0f RMSSD %.1f/%.0f", p.name, rhr, p.restingHRBpm,
                         sdnn, p.sdnnMs, rmssd, p.rmssdMs))
            XCTAssertEqual(rhr, p.restingHRBpm, accuracy: 0.1 * p.restingHRBpm, p.name)
            XCTAssertEqual(sdnn, p.sdnnMs, accuracy: 0.1 * p.sdnnMs, p.name)
            XCTAssertEqual(rmssd, p.rmssdMs, accuracy: 0.1 * p.rmssdMs, p.name)
        }
    }
}
