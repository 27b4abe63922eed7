import Foundation
import XCTest
@testable import ResonanceLab

/// The band-pass, derivative and moving integral of two ECGs side by side give, to the
/// bit, what each gives alone through the steps one after the other.
final class QRSEnergyTests: XCTestCase {
    private let rateHz = 360.0
    private var band: [Biquad] { [Biquad.highPass(cornerHz: 8, rateHz: rateHz), Biquad.lowPass(cornerHz: 20, rateHz: rateHz)] }

    /// One signal, step by step: the high-pass from steady state, the low-pass from rest,
    /// the derivative (0 at the first sample) and the mean of its square over `w` samples.
    private func alone(_ x: [Double], window w: Int) -> (bandPassed: [Double], integrated: [Double]) {
        guard let start = x.first else { return ([], []) }
        let y = band[1].run(band[0].run(x, steadyAt: start))
        var sum = 0.0, integrated: [Double] = []
        var d: [Double] = []
        for i in y.indices {
            d.append(i > 0 ? (y[i] - y[i - 1]) * rateHz : 0)
            sum += d[i] * d[i]
            if i >= w { sum -= d[i - w] * d[i - w] }
            sum = max(sum, 0)
            integrated.append(sum / Double(w))
        }
        return (y, integrated)
    }

    func testPairIsEachSignalAloneToTheBit() {
        let beats = SyntheticBeats.times(seconds: 20, from: 0.5, seed: 5)
        let long = SyntheticBeats.ecg(beats: beats, seconds: 20, rateHz: rateHz).enumerated().map { i, v in
            v + 0.8 * sin(2 * .pi * 0.3 * Double(i) / rateHz) + 1.5
        }
        let short = Array(SyntheticBeats.ecg(beats: beats, seconds: 20, rateHz: rateHz).map { -$0 }.prefix(2_000))
        // One `QRSEnergy` for every pair, as `ECGPeaks.detect` keeps it: a shorter pair
        // after a longer one is written over the first samples of the same arrays.
        var energy = QRSEnergy()
        for (a, b) in [(long, short), (short, long), (long, []), ([], short), ([7.0], [])] {
            energy.compute(a, b, band: band, rateHz: rateHz, window: 54)
            let lanes = [(energy.bandPassed0, energy.integrated0, a), (energy.bandPassed1, energy.integrated1, b)]
            for (bandPassed, integrated, x) in lanes {
                let reference = alone(x, window: 54)
                XCTAssertGreaterThanOrEqual(bandPassed.count, x.count)
                XCTAssertEqual(Array(bandPassed.prefix(x.count)), reference.bandPassed)
                XCTAssertEqual(Array(integrated.prefix(x.count)), reference.integrated)
            }
        }
        // The integral of a signal that does not change is 0 throughout.
        var constant = QRSEnergy()
        constant.compute([3, 3, 3], [], band: band, rateHz: rateHz, window: 2)
        XCTAssertEqual(constant.integrated0, [0, 0, 0])
    }

    func testDetectingSeveralSignalsIsDetectingEachAlone() {
        let beats = SyntheticBeats.times(seconds: 30, from: 0.5, seed: 9)
        let x = SyntheticBeats.ecg(beats: beats, seconds: 30, rateHz: rateHz)
        let signals = [x, x.map { -$0 }, Array(x.prefix(5_000))]
        let together = ECGPeaks.detect(signals, rateHz: rateHz)
        XCTAssertEqual(together, signals.map { ECGPeaks.detect([$0], rateHz: rateHz)[0] })
        XCTAssertEqual(together.map(\.polarity), [1, -1, 1])
        XCTAssertEqual(together[0].peaks.count, beats.count)
    }
}
