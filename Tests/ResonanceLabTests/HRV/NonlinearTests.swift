import XCTest
@testable import ResonanceLab

final class NonlinearTests: XCTestCase {
    func testPoincareWorkedByHand() {
        // Pairs (800,810), (810,795), (795,820), (820,805): (a − b)/√2 = −10, 15, −25, 15 over √2,
        // i.e. the successive differences negated over √2: SD1 = SDSD/√2 = √(1168.75/3)/√2.
        let n = HRVNonlinear(NNWindow([800, 810, 795, 820, 805]))
        XCTAssertEqual(n.sd1, (1168.75 / 3).squareRoot() / 2.0.squareRoot(), accuracy: 1e-12)
        // (a + b)/√2 = 1610, 1605, 1615, 1625 over √2: mean 1613.75, squared deviations
        // 14.0625 + 76.5625 + 1.5625 + 126.5625 = 218.75 → SD2 = √(218.75/3/2).
        XCTAssertEqual(n.sd2, (218.75 / 3 / 2).squareRoot(), accuracy: 1e-12)
    }

    func testBaevskyStressIndexWorkedByHand() {
        // 50 ms bins: 800, 810, 820 in [800, 850), 900 in [900, 950): AMo = 75 %, Mo = 0.825 s,
        // MxDMn = 0.1 s → SI = 75 / (2 · 0.825 · 0.1) = 454.545.
        XCTAssertEqual(HRVNonlinear.baevsky([800, 810, 820, 900]), 75 / (2 * 0.825 * 0.1), accuracy: 1e-9)
    }

    func testSampleEntropyOfAPeriodicSeriesIsZero() {
        // 1,2,1,2,…: every template matches exactly those of the same parity, at m and at
        // m + 1 alike, so A = B and SampEn = −ln 1 = 0.
        let x = (0..<40).map { Double($0 % 2 + 1) }
        XCTAssertEqual(HRVNonlinear.sampleEntropy(x, m: 2, rFactor: 0.2), 0, accuracy: 1e-12)
    }

    func testSampleEntropyMatchesBruteForce() {
        var rng = SeededRandom(seed: 7)
        let x = (0..<300).map { _ in 800 + 40 * rng.normal() }
        let r = 0.2 * Stats.sd(x)
        var a = 0, b = 0
        for i in 0..<(x.count - 2) {
            for j in (i + 1)..<(x.count - 2) where abs(x[i] - x[j]) <= r && abs(x[i + 1] - x[j + 1]) <= r {
                b += 1
                if abs(x[i + 2] - x[j + 2]) <= r { a += 1 }
            }
        }
        XCTAssertEqual(HRVNonlinear.sampleEntropy(x, m: 2, rFactor: 0.2), -log(Double(a) / Double(b)), accuracy: 1e-12)
        // Gaussian white noise: SampEn(2, 0.2) ≈ 2.2 (Richman & Moorman 2000, Fig. 2).
        XCTAssertEqual(-log(Double(a) / Double(b)), 2.2, accuracy: 0.35)
    }

    func testDFAExponentsOfWhiteNoiseAndRandomWalk() {
        var rng = SeededRandom(seed: 11)
        let noise = (0..<4000).map { _ in rng.normal() }
        var walk = noise
        for i in 1..<walk.count { walk[i] += walk[i - 1] }
        // Uncorrelated noise: α = 0.5; its integral (Brownian motion): α = 1.5 (Peng et al. 1995).
        XCTAssertEqual(HRVNonlinear.dfa(noise, scales: 16...64), 0.5, accuracy: 0.08)
        XCTAssertEqual(HRVNonlinear.dfa(walk, scales: 16...64), 1.5, accuracy: 0.08)
        XCTAssertTrue(HRVNonlinear.dfa(Array(noise.prefix(30)), scales: 4...16).isNaN)
    }
}
