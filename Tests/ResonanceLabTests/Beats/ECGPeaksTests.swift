import Foundation
import XCTest
@testable import ResonanceLab

/// The R-peak detector on synthetic ECGs with known beats, and the EC57 matching rule.
final class ECGPeaksTests: XCTestCase {
    private func ecg(beats: [Double], seconds: Double, rateHz: Double) -> [Double] {
        SyntheticBeats.ecg(beats: beats, seconds: seconds, rateHz: rateHz)
    }

    private func beatTimes(seconds: Double) -> [Double] {
        SyntheticBeats.times(seconds: seconds, from: 0.5, seed: 3)
    }

    private func assertFinds(_ x: [Double], _ beats: [Double], rateHz: Double, within tolerance: Double = 0.010,
                             polarity: Int = 1, file: StaticString = #filePath, line: UInt = #line) {
        let result = ECGPeaks.detect(x, rateHz: rateHz)
        let match = BeatMatch.match(detected: result.peaks.map { $0 / rateHz }, reference: beats, window: 0.150)
        XCTAssertEqual(match.falseNegatives, 0, "missed", file: file, line: line)
        XCTAssertEqual(match.falsePositives, 0, "extra", file: file, line: line)
        XCTAssertLessThanOrEqual(match.offsets.map(abs).max() ?? 1, tolerance, file: file, line: line)
        XCTAssertEqual(result.polarity, polarity, file: file, line: line)
    }

    func testBandPassMatchesButterworthDesign() {
        // scipy.signal.butter(2, 8, 'high', fs=360) and butter(2, 20, 'low', fs=360).
        let hp = Biquad.highPass(cornerHz: 8, rateHz: 360), lp = Biquad.lowPass(cornerHz: 20, rateHz: 360)
        let expected: [(Double, Double)] = [
            (hp.b0, 0.9059766515353316), (hp.b1, -1.8119533030706632), (hp.a1, -1.8030932880476023), (hp.a2, 0.8208133180937237),
            (lp.b0, 0.024281367940667035), (lp.b1, 0.04856273588133407), (lp.a1, -1.5133817833755803), (lp.a2, 0.6105072551382483),
        ]
        for (got, want) in expected { XCTAssertEqual(got, want, accuracy: 1e-13) }
        // A constant through the high-pass started in steady state stays at 0.
        XCTAssertEqual(hp.run([5, 5, 5, 5], steadyAt: 5).map { abs($0) }.max() ?? 1, 0, accuracy: 1e-12)
    }

    func testCleanECGAtSeveralRatesGivesEveryBeatWithinTenMilliseconds() {
        let beats = beatTimes(seconds: 60)
        for rate in [125.0, 360, 512] {
            assertFinds(ecg(beats: beats, seconds: 60, rateHz: rate), beats, rateHz: rate, within: rate < 200 ? 0.012 : 0.006)
        }
    }

    func testInvertedLeadIsFoundWithItsPolarity() {
        let beats = beatTimes(seconds: 60)
        assertFinds(ecg(beats: beats, seconds: 60, rateHz: 360).map { -$0 }, beats, rateHz: 360, within: 0.006, polarity: -1)
    }

    func testBaselineWanderClippingAndOffsetLeaveTheBeats() {
        let beats = beatTimes(seconds: 60)
        let clean = ecg(beats: beats, seconds: 60, rateHz: 360)
        let wander = clean.indices.map { clean[$0] + 2 * sin(2 * .pi * 0.3 * Double($0) / 360) + 1.5 }
        assertFinds(wander, beats, rateHz: 360, within: 0.012)
        // Clipped at 70 % of the R wave: the R peak is somewhere on the plateau.
        assertFinds(clean.map { min($0, 0.7) }, beats, rateHz: 360, within: 0.012)
    }

    /// An early ectopic beat (taller, 60 % of the R-R), and a 4-s pause (sinus arrest):
    /// the ectopic beat is found, the pause holds no beat, the beats after it are found.
    func testEctopicBeatAndPause() {
        var beats = beatTimes(seconds: 40)
        beats.insert(beats[10] + 0.6 * (beats[11] - beats[10]), at: 11)
        let pauseStart = beats[20]
        beats = beats.filter { $0 <= pauseStart || $0 >= pauseStart + 4 }
        var x = ecg(beats: beats, seconds: 40, rateHz: 360)
        let ectopic = Int(beats[11] * 360)
        x[ectopic] += 0.5
        assertFinds(x, beats, rateHz: 360, within: 0.012)
    }

    func testMatchingCountsEachBeatOnceNearestFirst() {
        let m = BeatMatch.match(detected: [0.1, 1.05, 2.3, 3.0], reference: [0.0, 1.0, 2.0, 3.1], window: 0.15)
        XCTAssertEqual([m.truePositives, m.falseNegatives, m.falsePositives], [3, 1, 1])
        XCTAssertEqual(m.offsets.map { ($0 * 1000).rounded() / 1000 }, [0.1, 0.05, -0.1])
        XCTAssertEqual(m.sensitivity, 0.75)
        XCTAssertEqual(m.positivePredictivity, 0.75)
        // A detection between two references goes to the nearer, whichever comes first.
        let near = BeatMatch.match(detected: [1.0], reference: [0.9, 1.05], window: 0.15)
        XCTAssertEqual(near.offsets.map { ($0 * 1000).rounded() / 1000 }, [-0.05])
        XCTAssertEqual(near.falseNegatives, 1)
        XCTAssertNil(BeatMatch.match(detected: [], reference: [], window: 0.15).sensitivity)
    }
}
