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

    /// The daily snapshot, measured from the simulated minutes, follows the profile:
    /// sleep within 0.3 h, steps within 15 % (at least 400 steps: the walking fill places
    /// whole bouts of 5–20 minutes, 450–2 300 steps, so a day ends up to one bout above
    /// its target — more than 15 % of NewMom's 2 000), workout minutes within 25 %, VO2
    /// max within 3 %, 1-minute recovery within 10 %.
    func testDailySnapshotsFollowTheProfile() {
        for r in PersonaFixture.records {
            let p = r.profile
            func mean(_ key: KeyPath<DailySnapshot, Double?>) -> Double { Stats.mean(r.days.compactMap { $0[keyPath: key] }) }
            XCTAssertEqual(mean(\.sleepHours), p.sleepHours, accuracy: 0.3, p.name)
            XCTAssertEqual(mean(\.steps), p.steps, accuracy: max(0.15 * p.steps, 400), p.name)
            XCTAssertEqual(mean(\.workoutMinutes), p.activityMinutes, accuracy: 0.25 * p.activityMinutes, p.name)
            XCTAssertEqual(mean(\.vo2Max), p.vo2Max, accuracy: 0.03 * p.vo2Max, p.name)
            XCTAssertEqual(mean(\.recovery1mBpm), p.recovery1mBpm, accuracy: 0.1 * p.recovery1mBpm, p.name)
        }
    }
}
