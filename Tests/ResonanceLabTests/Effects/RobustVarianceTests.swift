import Foundation
import XCTest
@testable import ResonanceLab

/// The pooled sandwich variances of the song effects (`RobustVariance`): they find a
/// listener × song covariance where one is planted, none where there is none, and keep
/// the 95 % intervals near nominal when the plays of a listener and song are correlated.
final class RobustVarianceTests: XCTestCase {
    /// 120 songs, 8 listeners, each listener hears each song 6 times:
    /// y = λ_j·s_i + u_ij + ε, ε ~ N(0, 1), u_ij ~ N(0, interaction²).
    func simulate(interaction: Double, seed: UInt64) -> (ResponseData, [Double]) {
        var random = SeededRandom(seed: seed)
        let songs = 120, listeners = 8
        let s = (0..<songs).map { _ in random.normal(mean: -1, sd: 2) }
        let lambda = (0..<listeners).map { 0.6 + 0.8 * Double($0) / Double(listeners - 1) }
        var d = ResponseData(songs: songs, listeners: listeners, contexts: 1, slots: 1)
        for i in 0..<songs {
            for j in 0..<listeners {
                let u = interaction * random.normal()
                for _ in 0..<6 {
                    d.append(song: i, listener: j, context: 0, slot: 0, y: lambda[j] * s[i] + u + random.normal(),
                             exposure: 1, start: nil)
                }
            }
        }
        return (d, s)
    }

    func coverage(_ fit: MixedFit, _ truth: [Double]) -> Double {
        let hits = truth.indices.filter { abs(fit.song[$0] - truth[$0]) <= 1.96 * fit.songVariance[$0].squareRoot() }
        return Double(hits.count) / Double(truth.count)
    }

    func testFindsAPlantedListenerSongCovarianceAndCoversWithIt() {
        let (d, s) = simulate(interaction: 1, seed: 4)
        let fit = MixedModel.fit(d, term: .sensitivity, constants: .defaults)
        // κ² estimates the interaction variance 1 (960 clusters: sampling sd ≈ 0.1).
        XCTAssertEqual(fit.clusterCovariance, 1, accuracy: 0.3)
        // Per song 48 plays in 8 clusters of 6: Var(b)/A = 1 + κ²·(36 − 6)·8/(48·σ²) ≈ 1 + 5·κ²/σ²,
        // σ² ≈ 2 (noise + interaction): intervals ≈ √3.5 ≈ 1.9 times the model's, covering ≈ 95 %.
        let cover = coverage(fit, s)
        XCTAssertGreaterThanOrEqual(cover, 0.9)
        XCTAssertLessThanOrEqual(cover, 0.99)
    }

    func testNoCovarianceWhereNoneIsPlanted() {
        let (d, s) = simulate(interaction: 0, seed: 5)
        let fit = MixedModel.fit(d, term: .sensitivity, constants: .defaults)
        XCTAssertEqual(fit.clusterCovariance, 0, accuracy: 0.1)
        XCTAssertEqual(fit.robustScale, 1, accuracy: 0.1)
        let cover = coverage(fit, s)
        XCTAssertGreaterThanOrEqual(cover, 0.9)
        XCTAssertLessThanOrEqual(cover, 0.99)
    }
}
