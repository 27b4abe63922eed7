import Foundation
import XCTest
@testable import ResonanceLab

/// Sessions → effects → recovery on a seeded workspace built from canonical tables
/// (`PlaySimulation`): 80 songs, 8 listeners of sensitivities 0.4–1.6 (mean 1), a 45-s
/// onset and a 6-s release, a quarter of the plays skipped after 5–60 s.
final class EffectsPipelineTests: XCTestCase {
    func testRecoversPlantedEffectsThroughTheWholePipeline() throws {
        let listeners = 8
        var lambda = (0..<listeners).map { 0.4 + 1.2 * Double($0) / Double(listeners - 1) }
        let mean = lambda.reduce(0, +) / Double(listeners)
        lambda = lambda.map { $0 / mean }
        let world = PlaySimulation(seed: 2026, songs: 80, listeners: listeners, playsPerListener: 400, onsetS: 45,
                                   sensitivities: lambda, skipShare: 0.25, skippedPlayedS: 5...60, skewedSongs: true).run()
        let (effect, plays, hr) = (world.effect, world.plays, world.hr)
        let sessions = try SessionsStage.run(plays: plays, hr: hr, nn: [:], sdnn: [], sleep: [], workouts: [], constants: .defaults)
        // The model's own law, its onset fixed at the planted 45 s.
        let tables = try EffectsStage.run(PlayIndex(sessions.plays), models: EffectModel.allCases, registry: .defaults, onset: .fixed).reduce(EffectTables(), +)
        let truth = effect.enumerated().map { PlantedEffect(kind: .songEffect, subject: "", entity: "s\($0.offset)", metric: "delta_hr_bpm", value: $0.element) }
            + lambda.enumerated().map { PlantedEffect(kind: .personaSensitivity, subject: "u\($0.offset)", entity: "", metric: "delta_hr_bpm", value: $0.element) }
        let mixed = try XCTUnwrap(EffectRecovery.compute(model: "mixed", metric: "delta_hr_bpm", songs: tables.songs,
                                                         personas: tables.personas, truth: truth))
        let ema = try XCTUnwrap(EffectRecovery.compute(model: "ema", metric: "delta_hr_bpm", songs: tables.songs,
                                                       personas: tables.personas, truth: truth))
        print("pipeline recovery: mixed bias = \(mixed.bias) r = \(mixed.pearson), coverage = \(mixed.coverage ?? .nan), Spearman = \(mixed.sensitivitySpearman ?? .nan), songs = \(mixed.songs); ema r = \(ema.pearson), Spearman = \(ema.sensitivitySpearman ?? .nan)")
        XCTAssertGreaterThanOrEqual(mixed.pearson, 0.9)
        XCTAssertGreaterThanOrEqual(mixed.coverage ?? 0, 0.88)  // 80 songs: binomial sd ≈ 2.4 %
        XCTAssertGreaterThanOrEqual(mixed.sensitivitySpearman ?? 0, 0.8)
        XCTAssertLessThan(abs(mixed.bias), 0.3)
        // The product's EMA starts every song at 0 and forgets: it ranks songs but is biased towards 0.
        XCTAssertGreaterThan(ema.pearson, 0.8)
        XCTAssertGreaterThan(abs(ema.bias), abs(mixed.bias))
        // The default profiles the onset. Here it prefers 54 s, one grid step above the
        // planted 45 s (2Δℓ ≈ 90): the start window's median of a rising response plus a
        // decaying carry-over is not the value at the window's middle the model assumes.
        // The estimates keep their order; the shift costs coverage (docs/methods.md).
        let profiled = try EffectsStage.run(PlayIndex(sessions.plays), models: [.mixed], registry: .defaults).reduce(EffectTables(), +)
        let hrOnset = try XCTUnwrap(profiled.onsets.first { $0.metric == .deltaHR })
        XCTAssertEqual(hrOnset.choice, .profiled)
        XCTAssertEqual(hrOnset.onsetS, 54)
        let moved = try XCTUnwrap(EffectRecovery.compute(model: "mixed", metric: "delta_hr_bpm", songs: profiled.songs,
                                                         personas: profiled.personas, truth: truth))
        print("pipeline recovery, profiled onset: r = \(moved.pearson), coverage = \(moved.coverage ?? .nan)")
        XCTAssertGreaterThanOrEqual(moved.pearson, 0.99)
        // Its coverage is the documented limit of this world (docs/methods.md, Profiled
        // onset): intervals this narrow (≈ 1,600 plays per listener) do not cover a
        // one-step error in τ even with half of each song's shift added. Without that
        // allowance (`onset_shift_weight` 0) the same fit covers far less: the widening
        // is what keeps the default's intervals near their level here.
        let movedCoverage = try XCTUnwrap(moved.coverage)
        XCTAssertGreaterThanOrEqual(movedCoverage, 0.78)  // measured 0.823 (65 of 79 songs); 0.747 without the allowance
        XCTAssertLessThanOrEqual(movedCoverage, 0.87)
        let unwidened = try EffectsStage.run(PlayIndex(sessions.plays), models: [.mixed],
                                             registry: try ConstantsRegistry.defaults.replacing("mixed_model", with: ["onset_shift_weight": 0])).reduce(EffectTables(), +)
        let bare = try XCTUnwrap(EffectRecovery.compute(model: "mixed", metric: "delta_hr_bpm", songs: unwidened.songs,
                                                        personas: unwidened.personas, truth: truth))
        print("pipeline recovery, profiled onset without the shift allowance: coverage = \(bare.coverage ?? .nan)")
        XCTAssertLessThan(try XCTUnwrap(bare.coverage), movedCoverage - 0.05)
    }
}
