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
        XCTAssertEqual(HRVNonlinear.baevsky([800, 810, 820, 900], count: 4), 75 / (2 * 0.825 * 0.1), accuracy: 1e-9)
    }

    func testSampleEntropyOfAPeriodicSeriesIsZero() {
        // 1,2,1,2,…: every template matches exactly those of the same parity, at m and at
        // m + 1 alike, so A = B and SampEn = −ln 1 = 0.
        let x = (0..<40).map { Double($0 % 2 + 1) }
        XCTAssertEqual(HRVNonlinear.sampleEntropy(x, m: 2, rFactor: 0.2), 0, accuracy: 1e-12)
        // A value that cannot be compared makes the entropy undefined, not a wrong count.
        var broken = x
        broken[7] = .nan
        XCTAssertTrue(HRVNonlinear.sampleEntropy(broken, m: 2, rFactor: 0.2).isNaN)
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

    /// The order carried between sliding windows is each window's own ascending order,
    /// and sample entropy computed with it is the one computed from scratch, also on a
    /// quantised series full of ties (RR at 1/128 s) and over ranges that jump.
    func testCarriedOrderGivesEachWindowsOrderAndSampleEntropy() {
        var rng = SeededRandom(seed: 23)
        let values = (0..<2000).map { _ in (800 + 40 * rng.normal()) / 7.8125 }.map { $0.rounded() * 7.8125 }
        var carried = AscendingOrder()
        var finite = 0
        let ranges = stride(from: 0, to: 1500, by: 70).map { $0..<($0 + 350) } + [100..<200, 1600..<1990, 1700..<1800]
        for range in ranges {
            let order = carried.update(to: range, values: values)
            XCTAssertEqual(order.sorted(), Array(0..<range.count), "\(range): each index once")
            XCTAssertEqual(order.map { values[$0 + range.lowerBound] }, values[range].sorted(), "\(range)")
            let x = Array(values[range.lowerBound..<(range.upperBound + 2)])
            let carriedEntropy = HRVNonlinear.sampleEntropy(x, m: 2, rFactor: 0.2, ascending: order)
            let fresh = HRVNonlinear.sampleEntropy(x, m: 2, rFactor: 0.2)
            XCTAssertEqual(carriedEntropy.bitPattern, fresh.bitPattern, "\(range): \(carriedEntropy) vs \(fresh)")
            if fresh.isFinite { finite += 1 }
        }
        XCTAssertGreaterThan(finite, 20, "most windows have matches at m + 1")
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

    /// DFA by the definition, segment by segment: the profile's least-squares line fitted
    /// with centred sums, residual variance averaged per scale, α the log–log slope.
    static func bruteForceDFA(_ x: [Double], scales: ClosedRange<Int>) -> Double {
        let mean = x.reduce(0, +) / Double(x.count)
        var y: [Double] = [], acc = 0.0
        for v in x { acc += v - mean; y.append(acc) }
        var logS: [Double] = [], logF: [Double] = []
        for s in scales {
            var total = 0.0, count = 0
            for a in stride(from: 0, to: y.count - s, by: max(1, s / 2)) {
                let seg = Array(y[a..<(a + s)])
                let tm = Double(s - 1) / 2, ym = seg.reduce(0, +) / Double(s)
                var sty = 0.0, stt = 0.0
                for (j, v) in seg.enumerated() { sty += (Double(j) - tm) * (v - ym); stt += (Double(j) - tm) * (Double(j) - tm) }
                let slope = sty / stt
                let variance = seg.enumerated().reduce(0.0) { r, e in
                    let res = e.element - ym - slope * (Double(e.offset) - tm)
                    return r + res * res
                } / Double(s)
                if variance > 1e-8 { total += variance; count += 1 }
            }
            logS.append(log(Double(s))); logF.append(0.5 * log(total / Double(count)))
        }
        let ms = Stats.mean(logS), mf = Stats.mean(logF)
        let num = zip(logS, logF).reduce(0.0) { $0 + ($1.0 - ms) * ($1.1 - mf) }
        return num / logS.reduce(0.0) { $0 + ($1 - ms) * ($1 - ms) }
    }

    /// DFA equals the definition on a window and on a long recording whose mean interval
    /// drifts from 600 to 1100 ms (a profile reaching ~10⁶ ms, where careless sums cancel).
    func testDFAMatchesTheDefinitionOnLongDriftingSeries() {
        var rng = SeededRandom(seed: 5)
        let window = (0..<400).map { _ in 800 + 40 * rng.normal() }
        let day = (0..<8000).map { i in 600 + 500 * Double(i) / 8000 + 30 * sin(Double(i) / 40) + 25 * rng.normal() }
        for (x, scales) in [(window, 4...16), (window, 16...64), (day, 4...16), (day, 16...64), (day, 130...140)] {
            let expected = Self.bruteForceDFA(x, scales: scales)
            XCTAssertEqual(HRVNonlinear.dfa(x, scales: scales), expected, accuracy: 1e-9 * abs(expected), "\(x.count) \(scales)")
        }
    }

    /// Paced stretches (tens of identical intervals, as in a paced heart) make straight
    /// profile segments: left out as flat, exactly as the definition leaves them out,
    /// though their moments reach 10¹⁰ and the variance from the moments is rounding.
    func testDFALeavesOutStraightSegmentsOfPacedStretches() {
        var rng = SeededRandom(seed: 17)
        // Intervals on a 1/128 s grid (7.8125 ms, as the PhysioNet annotations), around
        // 900 ms between paced stretches at 687.5 ms; then the same with the free stretches
        // around 5 s, so that the profile climbs steeply and the moments are huge.
        for free in [900.0, 5000.0] {
            var x: [Double] = []
            while x.count < 400 {
                let paced = Int.random(in: 0...2, using: &rng) == 0
                for _ in 0..<(paced ? 70 : 30) { x.append(paced ? 687.5 : ((free + 60 * rng.normal()) / 7.8125).rounded() * 7.8125) }
            }
            for scales in [4...16, 16...64] {
                let expected = Self.bruteForceDFA(x, scales: scales)
                XCTAssertEqual(HRVNonlinear.dfa(x, scales: scales), expected, accuracy: 1e-9 * abs(expected), "\(free) \(scales)")
            }
        }
        // A straight profile has no residual; z = 0, 1, 0, 1 has the line 0.2 + 0.2·j
        // (slope 1/5) and residuals −0.2, 0.6, −0.6, 0.2: mean square 0.8/4.
        XCTAssertEqual([0, 3, 6, 9, 12, 15].withUnsafeBufferPointer { HRVNonlinear.residualVariance($0, from: 1, count: 4) }, 0)
        XCTAssertEqual([5, 5, 6, 5, 6].withUnsafeBufferPointer { HRVNonlinear.residualVariance($0, from: 1, count: 4) }, 0.2,
                       accuracy: 1e-15)
    }

    /// Both exponents from one profile (block moments shared between the ranges) are
    /// exactly those computed range by range; a series long enough for α1 only gives NaN
    /// for α2.
    func testDFARangesTogetherEqualEachRangeAlone() {
        var rng = SeededRandom(seed: 9)
        let x = (0..<500).map { i in 850 + 60 * sin(Double(i) / 9) + 35 * rng.normal() }
        let both = HRVNonlinear.dfa(x, ranges: [4...16, 16...64])
        XCTAssertEqual(both[0], HRVNonlinear.dfa(x, scales: 4...16))
        XCTAssertEqual(both[1], HRVNonlinear.dfa(x, scales: 16...64))
        XCTAssertFalse(both[0].isNaN || both[1].isNaN)
        let short = HRVNonlinear.dfa(Array(x.prefix(100)), ranges: [4...16, 16...64])
        XCTAssertEqual(short[0], HRVNonlinear.dfa(Array(x.prefix(100)), scales: 4...16))
        XCTAssertFalse(short[0].isNaN)
        XCTAssertTrue(short[1].isNaN)
    }

    /// A long series forms its DFA blocks as each segment needs them instead of storing
    /// them, from its profile a stretch at a time: the same α to the bit, for scales that
    /// derive blocks from halves (4, 8, 16, 32) and those that do not.
    func testDFABlocksFormedAsNeededGiveTheStoredBlocksResult() {
        var rng = SeededRandom(seed: 9)
        var level = 800.0
        let x = (0..<5000).map { _ in level += rng.normal() * 5; return level + rng.normal() * 30 }
        let ranges = [4...16, 16...64, 5...33]
        let stored = HRVNonlinear.dfa(x, ranges: ranges, storedBlocksUpTo: .max)
        let formed = HRVNonlinear.dfa(x, ranges: ranges, storedBlocksUpTo: 0)
        XCTAssertEqual(stored.map(\.bitPattern), formed.map(\.bitPattern))
        // The profile formed a stretch at a time, the segments of each scale waiting for it.
        for stretch in [1, 63, 64, 65, 1000] {
            let stretched = HRVNonlinear.dfa(x, ranges: ranges, storedBlocksUpTo: 0, stretch: stretch)
            XCTAssertEqual(stored.map(\.bitPattern), stretched.map(\.bitPattern), "stretches of \(stretch)")
        }
        XCTAssertTrue(stored.allSatisfy { $0 > 0.3 && $0 < 2 }, "\(stored)")
    }
}
