import XCTest
@testable import ResonanceLab

final class RRModelTests: XCTestCase {
    func testDifferenceFactorByHand() {
        // 0.25 Hz sampled every 1 s is a quarter turn: 1 − cos(π/2) = 1.
        XCTAssertEqual(RRComponents.differenceFactor(0.25, meanRRMs: 1000), 1, accuracy: 1e-12)
        // 0.1 Hz every 1 s: 1 − cos(0.2π) = 1 − 0.809017 = 0.190983.
        XCTAssertEqual(RRComponents.differenceFactor(0.1, meanRRMs: 1000), 0.190983, accuracy: 1e-6)
    }

    /// 5-minute windows of generated beats have the SDNN and RMSSD the components
    /// were solved for (mean over 40 windows within 5 %), and a music-style RMSSD
    /// target moves RMSSD by the requested amount.
    func testWindowsHitTheirSDNNAndRMSSD() {
        for (sdnn, rmssd, hr, breath) in [(85.0, 75.0, 48.0, 0.2), (30.0, 22.0, 76.0, 0.28), (22.0, 16.0, 70.0, 0.25)] {
            let c = RRComponents(sdnnMs: sdnn, rmssdMs: rmssd, meanRRMs: 60_000 / hr, breathingHz: breath)
            var generator = BeatGenerator(random: SeededRandom(seed: 42))
            var sd: [Double] = [], rm: [Double] = [], shifted: [Double] = []
            for w in 0..<40 {
                var rr: [Double] = []
                generator.run(from: Double(w) * 1000, to: Double(w) * 1000 + 300, components: c,
                              state: { _ in (hr, rmssd) }, emit: { rr.append($1) })
                sd.append(Stats.sd(rr)); rm.append(HRVTime.rmssd(rr))
                var moved: [Double] = []
                generator.run(from: Double(w) * 1000 + 500, to: Double(w) * 1000 + 800, components: c,
                              state: { _ in (hr - 5, rmssd + 5) }, emit: { moved.append($1) })
                shifted.append(HRVTime.rmssd(moved))
            }
            XCTAssertEqual(Stats.mean(sd), sdnn, accuracy: 0.05 * sdnn, "SDNN \(sdnn)")
            XCTAssertEqual(Stats.mean(rm), rmssd, accuracy: 0.05 * rmssd, "RMSSD \(rmssd)")
            // A slower heart with a 5 ms higher RMSSD target: RMSSD rises by 5 ms, not more.
            XCTAssertEqual(Stats.mean(shifted) - Stats.mean(rm), 5, accuracy: 1.5, "shift at \(rmssd)")
        }
    }
}
