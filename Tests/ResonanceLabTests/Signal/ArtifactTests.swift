import XCTest
@testable import ResonanceLab

final class ArtifactTests: XCTestCase {
    enum Planted { case ectopic, missed, extra }

    /// A realistic RR series (respiratory and Mayer waves plus beat noise) with an
    /// artifact planted every 40–60 beats; returns the series and, per artifact, the
    /// indices of the intervals it corrupts.
    private func plantedSeries(seed: UInt64) -> (rr: [Double], events: [(Planted, [Int])]) {
        var rng = SeededRandom(seed: seed)
        var rr: [Double] = [], events: [(Planted, [Int])] = []
        var t = 0.0, next = 50
        while rr.count < 5000 {
            let v = 850 + 40 * sin(2 * Double.pi * 0.25 * t) + 30 * sin(2 * Double.pi * 0.1 * t) + 8 * rng.normal()
            t += v / 1000
            if rr.count == next {
                let kind: Planted = [.ectopic, .missed, .extra][Int(rng.next() % 3)]
                switch kind {
                case .ectopic:  // premature beat 30 % early, then the compensatory pause
                    rr += [0.7 * v, 1.3 * v]
                    events.append((kind, [rr.count - 2, rr.count - 1]))
                case .missed:  // an undetected beat merges two intervals
                    rr.append(2 * v)
                    events.append((kind, [rr.count - 1]))
                case .extra:  // a spurious detection splits one interval
                    rr += [0.45 * v, 0.55 * v]
                    events.append((kind, [rr.count - 2, rr.count - 1]))
                }
                next = rr.count + 40 + Int(rng.next() % 21)
            } else {
                rr.append(v)
            }
        }
        return (rr, events)
    }

    func testLipponenTarvainenFindsPlantedArtifacts() {
        let (rr, events) = plantedSeries(seed: 2019)
        let flags = ArtifactDetector.lipponenTarvainen(rr)
        let corrupted = Set(events.flatMap(\.1))
        let detected = events.filter { $0.1.contains { flags[$0] != .none } }.count
        let flagged = flags.indices.filter { flags[$0] != .none }
        let truePositives = flagged.filter { corrupted.contains($0) }.count
        let recall = Double(detected) / Double(events.count)
        let precision = Double(truePositives) / Double(max(1, flagged.count))
        XCTAssertGreaterThan(events.count, 80)
        XCTAssertGreaterThanOrEqual(recall, 0.95, "recall \(recall)")
        XCTAssertGreaterThanOrEqual(precision, 0.95, "precision \(precision)")
        // Missed beats are recognised as such (a long interval ≈ twice the median).
        let missed = events.filter { $0.0 == .missed }
        let missedRight = missed.filter { flags[$0.1[0]] == .missed }.count
        XCTAssertGreaterThanOrEqual(Double(missedRight) / Double(missed.count), 0.9)
    }

    func testMalikRuleFlagsLargeChanges() {
        // 800 → 1000 is a 25 % change (> 20 %): flagged, and the reference stays at 800,
        // so 810 is accepted; 600 is 26 % below 810: flagged.
        let flags = ArtifactDetector.malik([800, 1000, 810, 600, 820])
        XCTAssertEqual(flags, [.none, .malik, .none, .malik, .none])
        // A run opening on a short interval: the median of the first five (800) is the
        // reference, so 300 is flagged and the 800s are kept (a first-interval reference
        // of 300 would have flagged every one of them).
        XCTAssertEqual(ArtifactDetector.malik([300, 800, 810, 790, 805, 800]), [.malik, .none, .none, .none, .none, .none])
    }

    func testCorrectionKeepsTimingAndFlagsEveryCorrectedBeat() {
        let (rr, _) = plantedSeries(seed: 77)
        var t: Int64 = 0
        let times = rr.map { v -> Int64 in t += Int64(v.rounded()); return t }
        let series = NNSeries.clean(timestampsMs: times, rrMs: rr, method: .lipponen)
        let corrected = series.artifact.filter { $0 != .none }.count
        XCTAssertGreaterThan(corrected, 0)
        // Missed beats are split and extra ones merged, so the NN series spans the same time
        // (within the spline replacement of ectopic beats) and has no implausible interval.
        XCTAssertEqual(series.nnMs.reduce(0, +), rr.reduce(0, +), accuracy: 0.002 * rr.reduce(0, +))
        let median = Stats.median(series.nnMs)
        XCTAssertLessThan(series.nnMs.filter { abs($0 - median) > 0.4 * median }.count, 3)
        // Corrections never split the recording: one run, no gap.
        XCTAssertEqual(series.runStart.filter { $0 }.count, 1)
    }
}

final class CorrectionBoundsTests: XCTestCase {
    func testReplacementsStayWithinTheirAcceptedNeighbours() {
        // Accepted beats alternate 700/720 ms, then 30 artifacts (Malik: 400 ms is 44 % below
        // 720), then 700/720 again. The spline through the alternation swings far past both
        // across the 30-beat hole; replacements must stay within the bracketing 700–720 ms.
        let rr = (0..<40).map { $0 % 2 == 0 ? 700.0 : 720 } + [Double](repeating: 400, count: 30)
            + (0..<40).map { $0 % 2 == 0 ? 700.0 : 720 }
        var t: Int64 = 0
        let times = rr.map { v -> Int64 in t += Int64(v); return t }
        let series = NNSeries.clean(timestampsMs: times, rrMs: rr, method: .malik)
        XCTAssertEqual(series.artifact.filter { $0 == .malik }.count, 30)
        for k in series.nnMs.indices where series.artifact[k] == .malik {
            XCTAssertGreaterThanOrEqual(series.nnMs[k], 700)
            XCTAssertLessThanOrEqual(series.nnMs[k], 720)
        }
    }
}

final class RollingWindowTests: XCTestCase {
    func testCentredQuantilesMatchSortingEachWindow() {
        var rng = SeededRandom(seed: 13)
        let x = (0..<500).map { _ in (rng.normal() * 10).rounded() }  // rounded: many ties
        let q = RollingWindow.centredQuantiles(x, width: 11, [0.25, 0.5, 0.75])
        for i in x.indices {
            let w = Array(x[max(0, i - 5)...min(x.count - 1, i + 5)])
            XCTAssertEqual(q[0][i], Stats.quantile(w, 0.25))
            XCTAssertEqual(q[1][i], Stats.quantile(w, 0.5))
            XCTAssertEqual(q[2][i], Stats.quantile(w, 0.75))
        }
    }

    /// Whole milliseconds go to the counted windows, and a fraction, a value past the
    /// counts and −0 to the sorted buffer around them: each window's quantiles are
    /// those of sorting it, to the bit, at every width and at lengths shorter than it.
    func testCountedAndSortedWindowsGiveTheQuantilesOfSortingEachWindow() {
        var rng = SeededRandom(seed: 29)
        var x = (0..<3_000).map { _ in abs(rng.normal() * 30).rounded() }  // |ΔRR|-like, many ties
        x[0] = 12.345            // the mean difference Lipponen's method puts first
        x[1_200] = 5_000         // past the counted values
        x[1_900] = -0.0
        x[2_400] = 7.5
        x[2_420] = 0.25          // leaves 9 windows between, too few to count
        let ps = [0.25, 0.5, 0.75]
        for width in [1, 2, 11, 91] {
            let half = width / 2
            for n in [1, 7, 60, x.count] {
                let series = Array(x.prefix(n))
                let q = RollingWindow.centredQuantiles(series, width: width, ps)
                for i in series.indices {
                    let w = Array(series[max(0, i - half)...min(n - 1, i + half)])
                    for (k, p) in ps.enumerated() {
                        XCTAssertEqual(q[k][i].bitPattern, Stats.quantile(w, p).bitPattern,
                                       "width \(width), n \(n), beat \(i), p \(p)")
                    }
                }
            }
        }
        let stretches = x.withUnsafeBufferPointer { RollingWindow.stretches($0, half: 5, grid: CountedGrid(step: 1)) }
        XCTAssertEqual(stretches.map(\.0), [0..<6, 6..<1_195, 1_195..<1_206, 1_206..<1_895, 1_895..<1_906,
                                            1_906..<2_395, 2_395..<2_426, 2_426..<3_000])
        XCTAssertEqual(stretches.map(\.counted), [false, true, false, true, false, true, false, true])
    }

    /// Intervals timed by a 128 Hz clock (PhysioNet's Holter annotations) are multiples of
    /// 7.8125 ms: the counts hold them on that grid, with their differences, and give the
    /// quantiles of sorting each window to the bit; a value off the grid (a whole
    /// millisecond that is not a tick) goes to the sorted buffer around it.
    func testIntervalsOfA128HzClockAreCountedOnItsTicks() {
        var rng = SeededRandom(seed: 31)
        var ticks = (0..<2_000).map { _ in 7.8125 * (100 + (rng.normal() * 8).rounded()) }
        ticks[1_000] = 801          // off the grid
        let differences = [0.0] + (1..<ticks.count).map { abs(ticks[$0] - ticks[$0 - 1]) }
        for x in [ticks, differences] {
            let grid = x.withUnsafeBufferPointer { CountedGrid.holdingMost(of: $0) }
            XCTAssertEqual(grid.step, 7.8125)
            XCTAssertEqual(grid.bin(ticks[0]), Int(ticks[0] / 7.8125))
            XCTAssertNil(grid.bin(801))
            XCTAssertNil(grid.bin(7.8125 * 4_096))
            let q = RollingWindow.centredQuantiles(x, width: 91, [0.25, 0.5, 0.75])
            for i in x.indices {
                let w = Array(x[max(0, i - 45)...min(x.count - 1, i + 45)])
                for (k, p) in [0.25, 0.5, 0.75].enumerated() {
                    XCTAssertEqual(q[k][i].bitPattern, Stats.quantile(w, p).bitPattern, "beat \(i), p \(p)")
                }
            }
        }
        let stretches = ticks.withUnsafeBufferPointer { RollingWindow.stretches($0, half: 45, grid: CountedGrid(step: 7.8125)) }
        XCTAssertEqual(stretches.map(\.0), [0..<955, 955..<1_046, 1_046..<2_000])
        XCTAssertEqual(stretches.map(\.counted), [true, false, true])
        // Whole milliseconds keep the whole-millisecond grid.
        let whole = [800.0, 812, 796, 805]
        XCTAssertEqual(whole.withUnsafeBufferPointer { CountedGrid.holdingMost(of: $0) }.step, 1)
    }
}
