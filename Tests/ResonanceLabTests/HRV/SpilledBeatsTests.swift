import XCTest
@testable import ResonanceLab

final class SpilledBeatsTests: XCTestCase {
    /// 1,000 beats, every 37th starting a run, 7 held in memory: the rest read back from disk.
    func testBeatsReadBackFromDiskGiveTheIndicesOfTheBeatsHeld() throws {
        var rng = SeededRandom(seed: 3)
        let nn = (0..<1_000).map { _ in 800 + 120 * rng.uniform() }
        let runStart = nn.indices.map { $0 % 37 == 0 }
        let spilled = SpilledBeats(held: 7)
        for k in nn.indices { try spilled.append(nnMs: nn[k], runStart: runStart[k]) }
        let window = NNWindow(nnMs: nn[...], runStart: runStart[...])

        XCTAssertEqual(spilled.count, 1_000)
        XCTAssertEqual(Array(spilled.intervals), nn)
        var pairs: [[Double]] = [], expectedPairs: [[Double]] = []
        spilled.forEachSuccessivePair { pairs.append([$0, $1]) }
        window.forEachSuccessivePair { expectedPairs.append([$0, $1]) }
        XCTAssertEqual(pairs, expectedPairs)
        XCTAssertEqual(pairs.count, 999 - 27)  // runs start at 37, 74, …, 999: 27 pairs broken

        let time = HRVTime(spilled), expectedTime = HRVTime(window)
        XCTAssertEqual([time.meanNN, time.sdnn, time.rmssd, time.sdsd, time.pnn50, time.pnn20, time.sdhr, time.hti],
                       [expectedTime.meanNN, expectedTime.sdnn, expectedTime.rmssd, expectedTime.sdsd,
                        expectedTime.pnn50, expectedTime.pnn20, expectedTime.sdhr, expectedTime.hti])
        let nonlinear = HRVNonlinear(spilled), expectedNonlinear = HRVNonlinear(window)
        XCTAssertEqual([nonlinear.sd1, nonlinear.sd2, nonlinear.dfaAlpha1, nonlinear.dfaAlpha2, nonlinear.sampEn,
                        nonlinear.stressIndex],
                       [expectedNonlinear.sd1, expectedNonlinear.sd2, expectedNonlinear.dfaAlpha1,
                        expectedNonlinear.dfaAlpha2, expectedNonlinear.sampEn, expectedNonlinear.stressIndex])
        XCTAssertTrue(nonlinear.dfaAlpha2.isFinite)
        XCTAssertNoThrow(try spilled.checkRead())
    }

    func testFewerBeatsThanHeldStayInMemory() throws {
        let spilled = SpilledBeats(held: 10)
        for v in [800.0, 810, 790] { try spilled.append(nnMs: v, runStart: v == 810) }
        XCTAssertEqual(Array(spilled.intervals), [800, 810, 790])
        var pairs: [[Double]] = []
        spilled.forEachSuccessivePair { pairs.append([$0, $1]) }
        XCTAssertEqual(pairs, [[810, 790]])
    }
}
