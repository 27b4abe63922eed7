import Foundation
import XCTest
@testable import ResonanceLab

/// Known answers of the model's building blocks.
final class MixedModelPartsTests: XCTestCase {
    func testExposureWorkedByHand() {
        // 200 s played, 30 s windows, τ 50 s: midpoints 15 s and 185 s →
        // (1 − e^(−185/50)) − (1 − e^(−15/50)) = e^(−0.3) − e^(−3.7) = 0.740818… − 0.024723… = 0.716095…
        XCTAssertEqual(Exposure.fraction(playedS: 200, windowS: 30, onsetS: 50), exp(-0.3) - exp(-3.7), accuracy: 1e-12)
        // 20 s played: windows shrink to the play, midpoints 10 s and 10 s → 0.
        XCTAssertEqual(Exposure.fraction(playedS: 20, windowS: 30, onsetS: 50), 0)
        // A full play expresses the whole effect; a 60 s cut of a 200 s song
        // (e^(−0.3) − e^(−0.9)) / (e^(−0.3) − e^(−3.7)).
        XCTAssertEqual(Exposure.relative(playedS: 200, durationS: 200, windowS: 30, onsetS: 50), 1, accuracy: 1e-12)
        XCTAssertEqual(Exposure.relative(playedS: 60, durationS: 200, windowS: 30, onsetS: 50),
                       (exp(-0.3) - exp(-0.9)) / (exp(-0.3) - exp(-3.7)), accuracy: 1e-12)
        // Carry-over of a full 100 s play ending 5 s before a 200 s play, release τ 6 s:
        // (1 − e^(−2))·(e^(−20/6) − e^(−190/6)) / f(100), f(100) = e^(−0.3) − e^(−1.7).
        XCTAssertEqual(Exposure.carryOver(previousPlayedS: 100, previousDurationS: 100, gapS: 5, playedS: 200,
                                          windowS: 30, onsetS: 50, releaseS: 6),
                       (1 - exp(-2.0)) * (exp(-20.0 / 6) - exp(-190.0 / 6)) / (exp(-0.3) - exp(-1.7)), accuracy: 1e-12)
    }

    func testVarianceComponentKnownAnswer() {
        // Equal sampling variances V = 1: the ML solution is μ = mean(y) and
        // τ² = mean((y − μ)²) − V. y = 0, 2, 4, 6: μ = 3, mean sq. dev. = (9+1+1+9)/4 = 5 → τ² = 4.
        let fit = VarianceComponent.fit(estimates: [0, 2, 4, 6], variances: [1, 1, 1, 1], fixedMean: nil, tau2: 1)
        XCTAssertEqual(fit.mean, 3, accuracy: 1e-12)
        XCTAssertEqual(fit.tau2, 4, accuracy: 1e-9)
        // Spread smaller than the sampling noise → τ² at its floor (effectively 0).
        XCTAssertLessThan(VarianceComponent.fit(estimates: [0, 0.5, 1], variances: [1, 1, 1], fixedMean: nil, tau2: 1).tau2, 1e-6)
    }

    func testSongHeardOnlyBeforeMeasuredPlaysStaysFinite() {
        // Song 2 is never measured itself (e.g. no HR during it) but precedes every
        // play of song 0 and 1: its carry-over must not poison the fit.
        var d = ResponseData(songs: 3, listeners: 2, contexts: 1, slots: 1)
        for k in 0..<40 {
            d.append(song: k % 2, listener: k % 3 == 0 ? 0 : 1, context: 0, slot: 0, y: k % 2 == 0 ? -2 : 1.5 + 0.1 * Double(k % 5),
                     exposure: 1, previousSong: 2, carry: 0.1, start: 70 + Double(k % 7))
        }
        let fit = MixedModel.fit(d, term: .sensitivity, constants: .defaults)
        XCTAssertTrue(fit.song.allSatisfy(\.isFinite))
        XCTAssertTrue(fit.sigma2.allSatisfy(\.isFinite))
        XCTAssertEqual(fit.songPlays, [20, 20, 0])
        XCTAssertLessThan(fit.song[0], fit.song[1])
    }
}
