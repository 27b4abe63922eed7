import XCTest
@testable import ResonanceLab

final class StressTunerTests: XCTestCase {
    /// Windows whose stress label is drawn with probability score/100 of the engine with
    /// planted weights: the Brier score is minimised by the planted constants.
    func plantedData(subjects: Int, windowsPerSubject: Int, weights: (Double, Double, Double), seed: UInt64) throws -> StressTuningData {
        let engine = try StressEngine(constants: StressConstants(replacing: [
            "weight_rhr": weights.0, "weight_hrv": weights.1, "weight_cv": weights.2,
        ]))
        var rng = SeededRandom(seed: seed)
        var data = StressTuningData()
        for s in 0..<subjects {
            data.subjects.append("synthetic/P\(s)")
            for _ in 0..<windowsPerSubject {
                let signals = StressSignals(rhrPercentAbove: rng.normal(mean: 0, sd: 10), hrvZ: rng.normal(mean: 0, sd: 1.5),
                                            sdnnCV: rng.uniform(0.05, 0.5))
                let p = (engine.score(signals) ?? 50) / 100
                data.subjectOf.append(s); data.signals.append(signals); data.isStress.append(rng.uniform() < p)
            }
        }
        return data
    }

    func testRecoversPlantedWeights() throws {
        let data = try plantedData(subjects: 20, windowsPerSubject: 400, weights: (0.7, 0.1, 0.2), seed: 11)
        let tuner = try Tuner(StressTuningData.self, names: ["weight_rhr", "weight_hrv", "weight_cv"], objective: .brier, cv: .kfold(2),
                                    budget: 200, seed: 3)
        let result = try tuner.run(data)
        XCTAssertEqual(result.tuned["weight_rhr"] ?? .nan, 0.7, accuracy: 0.06)
        XCTAssertEqual(result.tuned["weight_hrv"] ?? .nan, 0.1, accuracy: 0.06)
        XCTAssertEqual(result.tuned["weight_cv"] ?? .nan, 0.2, accuracy: 0.06)
        // The defaults (0.5 / 0.3 / 0.2) are worse on every held-out fold.
        for fold in result.folds { XCTAssertLessThan(fold.tunedHeldOut, fold.defaultHeldOut) }
        XCTAssertLessThanOrEqual(result.evaluations, 3 * 200)
    }

    func testLeaveOneSubjectOutNeverSearchesTheHeldOutSubject() throws {
        let data = try plantedData(subjects: 6, windowsPerSubject: 30, weights: (0.5, 0.3, 0.2), seed: 5)
        let tuner = try Tuner(StressTuningData.self, cv: .loso, budget: 40, seed: 9)
        let result = try tuner.run(data, jobs: 2)
        XCTAssertEqual(result.folds.count, 6)
        for (i, fold) in result.folds.enumerated() {
            XCTAssertEqual(fold.heldOut, [data.subjects[i]])
            XCTAssertTrue(Set(fold.searched).isDisjoint(with: fold.heldOut))
            XCTAssertEqual(Set(fold.searched).union(fold.heldOut), Set(data.subjects))
        }
    }

    func testKFoldPartitionsSubjects() {
        let folds = CrossValidation.kfold(3).folds(subjects: 10, seed: 4)
        XCTAssertEqual(folds.count, 3)
        XCTAssertEqual(folds.flatMap { $0 }.sorted(), Array(0..<10))
        XCTAssertEqual(folds.map(\.count).sorted(), [3, 3, 4])
        XCTAssertEqual(folds, CrossValidation.kfold(3).folds(subjects: 10, seed: 4))
        XCTAssertEqual(CrossValidation(argument: "kfold:5"), .kfold(5))
        XCTAssertNil(CrossValidation(argument: "kfold:1"))
        XCTAssertNil(CrossValidation(argument: "holdout"))
    }

    func testSearchSpaceKeepsWeightGroupsSummingToOne() throws {
        let space = try SearchSpace(engine: "stress", names: StressTuningData.defaultNames)
        var rng = SeededRandom(seed: 1)
        for _ in 0..<100 {
            let v = space.values((0..<space.names.count).map { _ in rng.uniform() })
            XCTAssertEqual(v["weight_rhr", default: 0] + v["weight_hrv", default: 0] + v["weight_cv", default: 0], 1, accuracy: 1e-12)
            XCTAssertEqual(v["weight_rhr_without_cv", default: 0] + v["weight_hrv_without_cv", default: 0], 1, accuracy: 1e-12)
        }
        // The defaults map to a point and back unchanged; the slope uses a log scale.
        let defaults = ConstantsRegistry.defaults.values(of: "stress")
        let back = space.values(space.point(defaults))
        for n in space.names { XCTAssertEqual(back[n] ?? .nan, defaults[n] ?? .nan, accuracy: 1e-9, n) }
        XCTAssertThrowsError(try SearchSpace(engine: "stress", names: ["weight_rhr"]))
    }

    func testNelderMeadFindsTheMaximumOfAQuadratic() {
        let target = [0.3, 0.8, 0.55]
        let r = NelderMead(budget: 400, seed: 1).maximise(start: [0.5, 0.5, 0.5]) { x in
            -zip(x, target).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }
        }
        for (a, b) in zip(r.point, target) { XCTAssertEqual(a, b, accuracy: 1e-3) }
        XCTAssertEqual(r.evaluations, 400)
    }

    func testTunedFileIsReproducibleAndLoadsAsConstants() throws {
        let data = try plantedData(subjects: 6, windowsPerSubject: 60, weights: (0.8, 0.1, 0.1), seed: 2)
        func file(seed: UInt64) throws -> String {
            let tuner = try Tuner(StressTuningData.self, objective: .brier, cv: .loso, budget: 60, seed: seed)
            return try TuningReport(tuner: tuner, problem: data, result: tuner.run(data, jobs: 2)).constantsJSON()
        }
        let a = try file(seed: 1), b = try file(seed: 1)
        XCTAssertEqual(a, b)
        let loaded = try loadTunedFile(a, engine: "stress")
        XCTAssertNotEqual(loaded.digest, ConstantsRegistry.defaults.digest)
        XCTAssertEqual(TuningReport.minorBump("1.4.2"), "1.5.0")
    }
}

extension XCTestCase {
    /// Writes a tuned constants file, loads it as `--constants` does, and checks that only
    /// `engine` changed, its minor version raised (1.0.0 → 1.1.0).
    func loadTunedFile(_ json: String, engine: String, file: StaticString = #filePath, line: UInt = #line) throws -> ConstantsRegistry {
        let dir = try makeTempDir()
        try writeFixture(json, to: dir + "/tuned.json")
        let loaded = try ConstantsRegistry(contentsOf: dir + "/tuned.json")
        let shipped = (ConstantsRegistry.spec(engine)?.version ?? "").split(separator: ".").compactMap { Int($0) }
        let raised = shipped.count == 3 ? "\(shipped[0]).\(shipped[1] + 1).0" : "?"
        XCTAssertEqual(loaded.engines[engine]?.version, raised, file: file, line: line)
        for spec in ConstantsRegistry.specs where spec.name != engine {
            XCTAssertEqual(loaded.values(of: spec.name), ConstantsRegistry.defaults.values(of: spec.name), spec.name,
                           file: file, line: line)
            XCTAssertEqual(loaded.engines[spec.name]?.version, spec.version, spec.name, file: file, line: line)
        }
        return loaded
    }
}
