import XCTest
@testable import ResonanceLab

final class SongEffectTunerTests: XCTestCase {
    typealias Workspace = (name: String, plays: [SessionPlayRow], truth: [PlantedEffect])

    /// Each listener plays `songs` songs of their own `plays` times. A song's true ΔHR
    /// (and, independently, ΔRMSSD) is a local level: a random walk with step variance
    /// `q`, observed by each play with noise variance `r`; the planted effect is the level
    /// at the last play. For this model the steady-state Kalman gain is the optimal EMA
    /// rate: K = P/(P + r), P = (q + √(q² + 4qr))/2 (Harvey 1989, Forecasting, structural
    /// time series models and the Kalman filter, local level model).
    func localLevel(listeners: Int, songs: Int, plays: Int, q: Double, r: Double, seed: UInt64) -> Workspace {
        var rng = SeededRandom(seed: seed)
        var rows: [SessionPlayRow] = [], truth: [PlantedEffect] = []
        for l in 0..<listeners {
            let subject = "L\(l)"
            var level = (0..<songs).map { _ in [rng.normal(mean: 0, sd: 3), rng.normal(mean: 0, sd: 3)] }
            for k in 0..<plays {
                for i in 0..<songs {
                    for m in 0..<2 { level[i][m] += rng.normal(mean: 0, sd: q.squareRoot()) }
                    let hr = level[i][0] + rng.normal(mean: 0, sd: r.squareRoot())
                    let rmssd = level[i][1] + rng.normal(mean: 0, sd: r.squareRoot())
                    rows.append(play(subject, song: "\(subject)-S\(i)", minute: k * songs + i, hr: hr, rmssd: rmssd))
                }
            }
            for i in 0..<songs {
                truth.append(PlantedEffect(kind: .songEffect, subject: "", entity: "\(subject)-S\(i)", metric: "delta_hr_bpm", value: level[i][0]))
                truth.append(PlantedEffect(kind: .songEffect, subject: "", entity: "\(subject)-S\(i)", metric: "delta_rmssd_ms", value: level[i][1]))
            }
        }
        return ("synthetic", rows, truth)
    }

    func play(_ subject: String, song: String, minute: Int, hr: Double, rmssd: Double) -> SessionPlayRow {
        let start = ms("2026-01-05T18:00:00.000Z") + Int64(minute) * 60_000
        let bio = WindowBiometrics(hrStart: 70, hrEnd: 70 + hr, hrvStart: 30, hrvEnd: 30 + rmssd, hrvSource: "rr", notes: [])
        return SessionPlayRow(subject: subject, sessionId: "\(subject):1", playId: "\(subject)-\(minute)", songId: song, biometrics: bio,
                              quality: "ok", playlist: "evening", startedAtMs: start, endedAtMs: start + 60_000, playedS: 60,
                              listenFraction: 1, skipped: false, context: "relaxation", timeSlot: "evening")
    }

    /// One α throughout: no early plays.
    let singleRate = try? ConstantsRegistry.defaults.replacing("song_effect", with: ["early_plays": 0])

    func testRecoversThePlantedOptimalEMARate() throws {
        let (q, r) = (0.25, 1.0)
        let p = (q + (q * q + 4 * q * r).squareRoot()) / 2, optimal = p / (p + r)
        XCTAssertEqual(optimal, 0.3904, accuracy: 1e-4)
        let registry = try XCTUnwrap(singleRate)
        let data = try SongEffectTuningData([localLevel(listeners: 8, songs: 50, plays: 30, q: q, r: r, seed: 21)], registry: registry)
        XCTAssertEqual(data.units.count, 8)
        XCTAssertEqual(data.pairs, [400, 400])
        let tuner = try Tuner(SongEffectTuningData.self, registry: registry, names: ["alpha_late"], cv: .kfold(2), budget: 40, seed: 3)
        let result = try tuner.run(data)
        XCTAssertEqual(result.tuned["alpha_late"] ?? .nan, optimal, accuracy: 0.04)
        for fold in result.folds {
            XCTAssertEqual(fold.tuned["alpha_late"] ?? .nan, optimal, accuracy: 0.05)
            // The default α = 0.2 is too slow for this drift: worse on every held-out fold.
            XCTAssertGreaterThan(fold.tunedHeldOut, fold.defaultHeldOut)
        }
    }

    func testCorrelationObjectiveOnAHandWorkedCase() throws {
        // One listener, three songs, five plays each of a constant ΔHR c ∈ {−2, 0, 3}
        // and ΔRMSSD −c: with α = 1 the learned effect is c exactly, r = 1 for both metrics.
        var rows: [SessionPlayRow] = [], truth: [PlantedEffect] = []
        for (i, c) in [-2.0, 0, 3].enumerated() {
            for k in 0..<5 { rows.append(play("A", song: "S\(i)", minute: 3 * k + i, hr: c, rmssd: -c)) }
            truth.append(PlantedEffect(kind: .songEffect, subject: "", entity: "S\(i)", metric: "delta_hr_bpm", value: c))
            truth.append(PlantedEffect(kind: .songEffect, subject: "", entity: "S\(i)", metric: "delta_rmssd_ms", value: -c))
        }
        let data = try SongEffectTuningData([("w", rows, truth)], registry: .defaults)
        let exact = try ConstantsRegistry.defaults.replacing("song_effect", with: ["alpha_early": 1, "alpha_late": 1])
        XCTAssertEqual(data.value(.correlation, exact, on: data.select([0])), 1, accuracy: 1e-12)
        // Defaults: after 5 plays at α = 0.4 the EMA is c·(1 − 0.6⁵), a positive multiple of c: still r = 1.
        XCTAssertEqual(data.value(.correlation, .defaults, on: data.select([0])), 1, accuracy: 1e-12)
        // Four plays each is below the 5-play minimum: no pair counts, so no listener is a unit.
        let short = rows.filter { $0.startedAtMs < ms("2026-01-05T18:12:00.000Z") }
        XCTAssertEqual(try SongEffectTuningData([("w", short, truth)], registry: .defaults).units, [])
    }

    func testHeldOutListenerNeverReachesTheSearch() throws {
        let registry = try XCTUnwrap(singleRate)
        let clean = localLevel(listeners: 4, songs: 20, plays: 12, q: 0.25, r: 1, seed: 5)
        // The same data with listener L0's measured changes replaced by noise.
        var rng = SeededRandom(seed: 99)
        var corrupted = clean
        corrupted.plays = clean.plays.map { row in
            guard row.subject == "L0" else { return row }
            var row = row
            row.biometrics.hrEnd = 70 + rng.normal(mean: 0, sd: 5)
            return row
        }
        let tuner = try Tuner(SongEffectTuningData.self, registry: registry, cv: .loso, budget: 30, seed: 9)
        let a = try tuner.run(SongEffectTuningData([clean], registry: registry), jobs: 2)
        let b = try tuner.run(SongEffectTuningData([corrupted], registry: registry), jobs: 2)
        XCTAssertEqual(a.folds.count, 4)
        for (i, fold) in a.folds.enumerated() {
            XCTAssertEqual(fold.heldOut, ["synthetic/L\(i)"])
            XCTAssertEqual(Set(fold.searched), Set((0..<4).filter { $0 != i }.map { "synthetic/L\($0)" }))
        }
        // Fold 1 holds L0 out: its search, on L1–L3 only, chooses the same constants;
        // the corruption shows in its held-out score and in every other fold's search.
        XCTAssertEqual(a.folds[0].tuned, b.folds[0].tuned)
        XCTAssertEqual(a.folds[0].tunedTrain, b.folds[0].tunedTrain)
        XCTAssertNotEqual(a.folds[0].defaultHeldOut, b.folds[0].defaultHeldOut)
        XCTAssertNotEqual(a.folds[1].defaultTrain, b.folds[1].defaultTrain)
    }

    func testTunedFileIsReproducibleAndLoadsAsConstants() throws {
        let data = try SongEffectTuningData([localLevel(listeners: 4, songs: 15, plays: 10, q: 0.25, r: 1, seed: 2)], registry: .defaults)
        func file(seed: UInt64) throws -> (String, TuningResult) {
            let tuner = try Tuner(SongEffectTuningData.self, cv: .loso, budget: 40, seed: seed)
            let result = try tuner.run(data, jobs: 2)
            return (try TuningReport(tuner: tuner, problem: data, result: result).constantsJSON(), result)
        }
        let (a, result) = try file(seed: 1), (b, _) = try file(seed: 1)
        XCTAssertEqual(a, b)
        let loaded = try loadTunedFile(a, engine: "song_effect")
        for (name, value) in result.tuned { XCTAssertEqual(loaded.values(of: "song_effect")[name] ?? .nan, value, accuracy: 1e-12, name) }
        XCTAssertEqual(loaded.values(of: "song_effect")["ema_start"], 0.5)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(a.utf8)) as? [String: Any])
        let tuning = try XCTUnwrap(json["tuning"] as? [String: Any])
        XCTAssertEqual(tuning["engine"] as? String, "song_effect")
        XCTAssertEqual(tuning["objective"] as? String, "correlation")
        XCTAssertEqual(tuning["listeners"] as? Int, 4)
        XCTAssertEqual((tuning["folds"] as? [[String: Any]])?.first?["train_listeners"] as? [String],
                       ["synthetic/L1", "synthetic/L2", "synthetic/L3"])
    }

    func testSearchBoundsNarrowTheRegistryRange() throws {
        let space = try SearchSpace(engine: "song_effect", names: SongEffectTuningData.defaultNames, bounds: SongEffectTuningData.searchBounds)
        let top = space.values([1, 1, 1, 1, 1]), bottom = space.values([0, 0, 0, 0, 0])
        XCTAssertEqual(top["early_plays"], 30)
        XCTAssertEqual(bottom["early_plays"], 0)
        XCTAssertEqual(top["confidence_full_plays"] ?? .nan, 100, accuracy: 1e-9)
        XCTAssertEqual(bottom["confidence_full_plays"] ?? .nan, 1, accuracy: 1e-12)
        // 1–100 spans two decades exactly: linear, so the default 20 sits at (20 − 1)/99.
        XCTAssertEqual(space.point(ConstantsRegistry.defaults.values(of: "song_effect"))[3], 19.0 / 99, accuracy: 1e-12)
        XCTAssertThrowsError(try Tuner(SongEffectTuningData.self, objective: .auc))
    }
}
