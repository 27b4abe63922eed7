import Foundation
import XCTest
@testable import ResonanceLab

/// `effects --onset`: on plays whose responses rise with a 20-s onset (`PlaySimulation`,
/// as in `EffectsPipelineTests` with another τ and no sensitivities), the profile
/// likelihood picks the grid's 22 s for ΔHR, where the constant (45 s) would be
/// assumed; `estimated` takes it, `profiled` takes it with intervals widened by half
/// of each song's shift from the constant's estimate, `fixed` keeps the constant.
final class OnsetProfileTests: XCTestCase {
    func testProfileFindsTheOnsetTheResponsesFollow() throws {
        let world = PlaySimulation(seed: 2027, songs: 60, listeners: 6, playsPerListener: 300, onsetS: 20,
                                   skipShare: 0.35, skippedPlayedS: 35...120, skewedSongs: false).run()
        let (plays, hr) = (world.plays, world.hr)
        let sessions = try SessionsStage.run(plays: plays, hr: hr, nn: [:], sdnn: [], sleep: [], workouts: [], constants: .defaults)
        let index = PlayIndex(sessions.plays)
        let k = MixedModelConstants(registry: .defaults)
        XCTAssertEqual(k.onsetTimeConstantS, 45)
        let c = SessionConstants(registry: .defaults)
        let estimated = MixedEffects.profiledOnset(index, .deltaHR, c, k, .estimated).selection
        XCTAssertEqual(estimated.bestOnsetS, 22)  // the grid's nearest steps are 18 and 22 s
        XCTAssertEqual(estimated.onsetS, 22)
        XCTAssertGreaterThan(estimated.likelihoodRatio, k.onsetTestLR)
        let profiled = MixedEffects.profiledOnset(index, .deltaHR, c, k, .profiled)
        XCTAssertEqual(profiled.selection.onsetS, 22)
        XCTAssertTrue(profiled.selection.widened)
        let fixed = MixedEffects.profiledOnset(index, .deltaHR, c, k, .fixed)
        XCTAssertEqual(fixed.selection.onsetS, 45)
        XCTAssertEqual(fixed.selection.likelihoodRatio, 0)
        // Profiled takes the 22-s estimates and adds (0.5·(ŝ(22) − ŝ(45)))² to each variance.
        let best = MixedEffects.profiledOnset(index, .deltaHR, c, k, .estimated).fit
        XCTAssertEqual(k.onsetShiftWeight, 0.5)
        var widened = 0
        for i in 0..<fixed.fit.song.count where fixed.fit.songPlays[i] > 0 {
            XCTAssertEqual(profiled.fit.song[i], best.song[i])
            let shift = 0.5 * (best.song[i] - fixed.fit.song[i])
            XCTAssertEqual(profiled.fit.songVariance[i], best.songVariance[i] + shift * shift, accuracy: 1e-12)
            if shift * shift > 0.01 * best.songVariance[i] { widened += 1 }
        }
        XCTAssertGreaterThan(widened, 30)
    }
}
