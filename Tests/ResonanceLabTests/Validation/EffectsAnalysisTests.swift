import XCTest
@testable import ResonanceLab

final class EffectsAnalysisTests: XCTestCase {
    func song(_ id: String, _ est: Double, _ lo: Double?, _ hi: Double?, model: String = "mixed", plays: Int = 12) -> SongEffectRow {
        SongEffectRow(model: model, songId: id, context: "any", metric: "delta_hr_bpm",
                      effect: EffectEstimate(value: est, ciLow: lo, ciHigh: hi), plays: plays, scores: nil, confidence: nil, shrinkage: nil, listeners: 1, familiarity: nil)
    }

    func testRecoveryWorkedByHand() {
        // Estimates 1, 2, 3 vs truth 1, 2, 4: deviations (−1, 0, 1) and (−4/3, −1/3, 5/3);
        // Sxy = 3, Sxx = 2, Syy = 42/9 → r = 3/√(84/9) = 9/√84 = 0.98198…
        // bias = (0 + 0 − 1)/3; intervals ±0.5 cover 1 and 2, not 4 → 2/3.
        // A fourth song with 9 plays (< 10) is left out.
        let songs = [song("a", 1, 0.5, 1.5), song("b", 2, 1.5, 2.5), song("c", 3, 2.5, 3.5), song("d", 9, 0, 0, plays: 9)]
        let truth = ["a": 1.0, "b": 2, "c": 4, "d": 0].map {
            PlantedEffect(kind: .songEffect, subject: "", entity: $0.key, metric: "delta_hr_bpm", value: $0.value)
        } + [("u1", 0.5), ("u2", 1.0), ("u3", 1.5)].map {
            PlantedEffect(kind: .personaSensitivity, subject: $0.0, entity: "", metric: "delta_hr_bpm", value: $0.1)
        }
        // Estimated sensitivities in order u1 < u3 < u2: ranks (1, 3, 2) vs (1, 2, 3) → ρ = 0.5.
        let personas = [("u1", 0.6), ("u2", 1.3), ("u3", 1.1)].map {
            PersonaEffectRow(model: "mixed", subject: $0.0, metric: "delta_hr_bpm", effect: EffectEstimate(value: $0.1),
                             plays: 10, kind: "sensitivity")
        }
        let r = EffectRecovery.compute(model: "mixed", metric: "delta_hr_bpm", songs: songs, personas: personas, truth: truth)
        XCTAssertEqual(r?.songs, 3)
        XCTAssertEqual(r?.pearson ?? .nan, 9 / 84.0.squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(r?.bias ?? .nan, -1.0 / 3, accuracy: 1e-12)
        // slope of estimate on truth = Sxy/Syy = 3/(42/9) = 9/14.
        XCTAssertEqual(r?.slope ?? .nan, 9.0 / 14, accuracy: 1e-12)
        XCTAssertEqual(r?.coverage ?? .nan, 2.0 / 3, accuracy: 1e-12)
        XCTAssertEqual(r?.sensitivitySpearman ?? .nan, 0.5, accuracy: 1e-12)
        // The ema model has no intervals: coverage is absent, not zero.
        let ema = songs.map { s -> SongEffectRow in var e = s; e.model = "ema"; e.effect = EffectEstimate(value: s.effect.value); return e }
        XCTAssertNil(EffectRecovery.compute(model: "ema", metric: "delta_hr_bpm", songs: ema, personas: [], truth: truth)?.coverage)
    }

    func testNoSectionWithoutPlays() throws {
        XCTAssertNil(try EffectsAnalysis.analysis(Workspace(path: try makeTempDir())))
    }
}
