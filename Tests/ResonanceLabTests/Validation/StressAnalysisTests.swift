import XCTest
@testable import ResonanceLab
import ResonanceTestSupport

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
        XCTAssertTrue(report.markdown.contains("## Stress scoring"))
        // Byte-identical on a second run (seeded bootstrap).
        let again = try ValidationReport.build(workspace: Workspace(path: dir), name: "synthetic", analyses: analyses)
        XCTAssertEqual(report.json, again.json)
        XCTAssertEqual(report.markdown, again.markdown)
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
}
