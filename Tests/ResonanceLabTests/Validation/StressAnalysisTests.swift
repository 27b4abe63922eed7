import XCTest
@testable import ResonanceLab

final class StressAnalysisTests: XCTestCase {
    /// 60-s windows on the minute grid: each window's mean HR is one planted draw.
    var minuteWindows: StressScoringOptions {
        var o = StressScoringOptions()
        o.stepSeconds = 60
        return o
    }

    func testPlantedHeartRateRiseGivesTheAnalyticAUC() throws {
        let dir = try makeTempDir()
        // Δ = 2 bpm, σ = 2 bpm: AUC = Φ(2 / (2√2)) = Φ(0.7071) = 0.7602.
        try StressFixture.write(to: dir, subjects: 30, deltaBpm: 2, sdBpm: 2)
        let analytic = StressFixture.phi(2 / (2 * 2.squareRoot()))
        XCTAssertEqual(analytic, 0.7602, accuracy: 1e-4)
        let subjects = try StressWindows.load(Workspace(path: dir), options: minuteWindows)
        XCTAssertEqual(subjects.count, 30)
        // The reference (the first baseline interval, 10 windows) is never scored: 60 windows remain.
        XCTAssertEqual(subjects[0].reference.count, 10)
        XCTAssertEqual(subjects[0].windows.count, 60)
        XCTAssertTrue(subjects[0].windows.allSatisfy { $0.startMs >= subjects[0].referenceEndMs })
        XCTAssertEqual(subjects[0].referenceRule, "first baseline interval")
        // The transition design at a 60-s step: 3 windows a side of task 1's start and end
        // (210-s spans), 1 of task 2's (90 s); the product formula's reference for it ends by
        // its first window, 30 + 210 s before task 1 at 10 min: 6 tiles.
        XCTAssertEqual(subjects[0].design.count, 16)
        XCTAssertEqual(subjects[0].design.filter(\.stress).count, 8)
        XCTAssertEqual(subjects[0].designReference.count, 6)

        let scored = StressAnalysis.score(subjects, engine: StressEngine())
        // Within a subject the engine's score (RHR only, no R-R) is increasing in HR, so
        // each subject's AUC equals its HR AUC; the median over 30 subjects of 30 vs 30
        // windows lies within ±0.04 of the analytic value.
        for s in scored { XCTAssertEqual(s.engine.auc, s.hr.auc, accuracy: 1e-12) }
        XCTAssertEqual(Stats.median(scored.map(\.engine.auc)), analytic, accuracy: 0.04)
        let pooledHR = BinaryScores.pooled(scored.map(\.hr), Array(scored.indices)).auc
        XCTAssertEqual(pooledHR, analytic, accuracy: 0.03)
        // Pooled, each subject's reference mean adds noise (SD 2/√10 bpm): AUC ≈ Φ(2/(√(4.4)·√2)) = 0.75.
        let pooledEngine = BinaryScores.pooled(scored.map(\.engine), Array(scored.indices)).auc
        XCTAssertEqual(pooledEngine, 0.75, accuracy: 0.03)
        // The pairwise counts give the pooled AUC exactly, for any multiset of subjects.
        let pairs = PooledAUC(scored.map(\.engine))
        XCTAssertEqual(pairs.auc(Array(scored.indices)), pooledEngine, accuracy: 1e-12)
        let picks = [0, 0, 3, 7, 7, 7]
        XCTAssertEqual(pairs.auc(picks), BinaryScores.pooled(scored.map(\.engine), picks).auc, accuracy: 1e-12)
    }

    func testReportCarriesTheStressObjectAndEffectSizes() throws {
        let dir = try makeTempDir()
        // Δ = σ = 4 bpm: within-subject d = 1 in expectation.
        try StressFixture.write(to: dir, subjects: 12, deltaBpm: 4, sdBpm: 4)
        let analyses = [StressAnalysis.analysis(registry: .defaults, options: minuteWindows)]
        let report = try ValidationReport.build(workspace: Workspace(path: dir), name: "synthetic", analyses: analyses)
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        let stress = try XCTUnwrap(root["stress"] as? [String: Any])
        XCTAssertEqual(stress["subjects"] as? Int, 12)
        XCTAssertEqual(stress["windows"] as? Int, 720)
        XCTAssertEqual(try XCTUnwrap(stress["stress_share"] as? Double), 0.5, accuracy: 1e-12)
        let d = try XCTUnwrap((stress["cohens_d"] as? [String: Any])?["HR"] as? [String: Any])
        XCTAssertEqual(try XCTUnwrap(d["median_d"] as? Double), 1, accuracy: 0.3)
        let tasks = try XCTUnwrap(stress["tasks"] as? [[String: Any]])
        // No protocol in the manifest: the three stress intervals are numbered.
        XCTAssertEqual(tasks.map { $0["task"] as? String }, ["task 1", "task 2", "task 3"])
        // Every scored window is in the distribution once, and each ROC ends at (1, 1).
        let distribution = try XCTUnwrap(stress["score_distribution"] as? [String: Any])
        let counts = try XCTUnwrap(distribution["counts"] as? [String: [Int]])
        XCTAssertEqual(counts.values.map { $0.reduce(0, +) }.reduce(0, +), stress["scored_windows"] as? Int)
        for (_, value) in try XCTUnwrap(stress["auc"] as? [String: [String: Any]]) {
            XCTAssertEqual((value["roc"] as? [[Double]])?.last, [1, 1])
        }
        XCTAssertTrue(report.markdown.contains("## Stress scoring"))
        // The protocol's primary set is the transition design, its label-blind elapsed-time
        // control at ½ (as many windows either side of each start and end); the every-window
        // set is below ½ (the baselines' windows are later on average than the first tasks').
        let parts = try XCTUnwrap(stress["protocol"] as? [String: Any])
        let primary = try XCTUnwrap((parts["primary"] as? [String: Any])?["scores"] as? [String: [String: Any]])
        XCTAssertEqual(try XCTUnwrap(primary["control_elapsed"]?["subject_median"] as? Double), 0.5, accuracy: 1e-12)
        XCTAssertNotNil(primary["control_clock"]?["detrended_subject_median"] as? Double)
        let every = try XCTUnwrap((parts["every_window"] as? [String: Any])?["scores"] as? [String: [String: Any]])
        XCTAssertLessThan(try XCTUnwrap(every["control_elapsed"]?["subject_median"] as? Double), 0.5)
        // Byte-identical on a second run (seeded bootstrap).
        let again = try ValidationReport.build(workspace: Workspace(path: dir), name: "synthetic", analyses: analyses)
        XCTAssertEqual(report.json, again.json)
        XCTAssertEqual(report.markdown, again.markdown)
    }

    func testWindowMethodChoosesTheEnginesScore() throws {
        let dir = try makeTempDir()
        try StressFixture.write(to: dir, subjects: 4, deltaBpm: 4, sdBpm: 2)
        let subjects = try StressWindows.load(Workspace(path: dir), options: minuteWindows)
        let onset = StressEngine(constants: StressConstants(registry: try ConstantsRegistry.defaults.replacing("stress", with: ["window_method": 2])))
        let scored = StressAnalysis.score(subjects, engine: onset)
        // Every window with an onset score is scored by it, and its level follows that score.
        let expected = subjects[0].windows.compactMap { w in onset.windowScore(onset.components(w.measures, reference: w.rolling), method: .onset) }
        XCTAssertFalse(expected.isEmpty)
        XCTAssertEqual(scored[0].engine.scores, expected)
        XCTAssertEqual(scored[0].elevated.scores, expected.map { $0 >= 65 ? 1.0 : 0.0 })
        // The default is the product formula in window mode.
        let product = StressAnalysis.score(subjects, engine: StressEngine())
        XCTAssertNotEqual(product[0].engine.scores, expected)
    }

    func testWorkspaceWithoutStressLabelsHasNoSection() throws {
        let dir = try makeTempDir()
        try writeFixture("subject,start,end,label\nA,2022-02-07T09:00:00.000Z,2022-02-07T09:00:00.000Z,e4_tag\n", to: dir + "/labels.csv")
        XCTAssertNil(try StressAnalysis.analysis(registry: .defaults)(Workspace(path: dir)))
    }

    func testNonOverlappingKeepsEveryOtherHalfStepWindow() {
        let w = (0..<5).map { k in
            StressWindow(subject: "A", startMs: Int64(k) * 30_000, endMs: Int64(k) * 30_000 + 60_000, stress: true, task: "t",
                         signals: WindowSignals(hrBpm: 70, sdnnMs: nil), rmssdMs: nil)
        }
        XCTAssertEqual(StressAnalysis.nonOverlapping(w).map(\.startMs), [0, 60_000, 120_000])
    }

    /// Four windows worked by hand: stress scores 80 and 40, baseline 40 and 10. Thresholds
    /// "score ≥ t" from the top: 80 → (0, ½); 40 (one of each) → (½, 1); 10 → (1, 1).
    func testRocAndScoreDistributionOfFourWindows() throws {
        var w = BinaryScores()
        w.append(80, stress: true); w.append(40, stress: true)
        w.append(40, stress: false); w.append(10, stress: false)
        let json = StressAnalysis.aucJSON((w.auc, (.nan, .nan)), (.nan, (.nan, .nan), 0), roc: w).render()
        let auc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let roc = try XCTUnwrap(auc["roc"] as? [[Double]])
        XCTAssertEqual(roc, [[0, 0], [0, 0.5], [0.5, 1], [1, 1]])
        // Trapezoids: ½·½·(½ + 1) + ½·1 = 0.875 = AUC (pairs: 80>40, 80>10, 40=40 counts ½, 40>10: 3.5 of 4).
        XCTAssertEqual(w.auc, 0.875, accuracy: 1e-12)

        let text = StressAnalysis.scoreDistribution(w, relaxedBelow: 35, elevatedFrom: 65).render()
        let d = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(d["bin_low"] as? [Double], (0..<20).map { Double($0) * 5 })
        let counts = try XCTUnwrap(d["counts"] as? [String: [Int]])
        var stress = [Int](repeating: 0, count: 20), baseline = stress
        stress[16] = 1; stress[8] = 1      // 80 in [80, 85), 40 in [40, 45)
        baseline[8] = 1; baseline[2] = 1   // 40, 10 in [10, 15)
        XCTAssertEqual(counts["stress"], stress)
        XCTAssertEqual(counts["baseline"], baseline)
        let q = try XCTUnwrap(d["quantiles"] as? [String: [String: Double]])
        // Type 7 on two values: p-quantile = lo + p·(hi − lo).
        XCTAssertEqual(q["stress"]?["p50"], 60)
        XCTAssertEqual(q["stress"]?["p25"], 50)
        XCTAssertEqual(try XCTUnwrap(q["baseline"]?["p95"]), 38.5, accuracy: 1e-9)
        XCTAssertEqual(q["baseline"]?["n"], 2)
        XCTAssertEqual(d["relaxed_below"] as? Double, 35)
        // A score of exactly 100 falls in the last bin.
        var top = BinaryScores()
        top.append(100, stress: true)
        let last = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(
            StressAnalysis.scoreDistribution(top, relaxedBelow: 35, elevatedFrom: 65).render().utf8)) as? [String: Any])
        XCTAssertEqual((last["counts"] as? [String: [Int]])?["stress"]?[19], 1)
    }
}
