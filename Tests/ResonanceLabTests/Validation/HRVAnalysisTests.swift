import XCTest
@testable import ResonanceLab

final class HRVAnalysisTests: XCTestCase {
    func testGroupComparisonFromWholeRecordingRows() throws {
        let dir = try makeTempDir()
        let ws = Workspace(path: dir)
        // Whole-recording rows (empty bounds): NSR SDNN 130, 140, 150; CHF 60, 70, 80; one
        // reliable window per subject with SDNN 50.
        var rows: [HRVRow] = []
        for (s, v) in [("n1", 130.0), ("n2", 140), ("n3", 150), ("c1", 60), ("c2", 70), ("c3", 80)] {
            var window = HRVRow(subject: s, windowStartMs: 0, windowEndMs: 300_000, nBeats: 300, artifactPct: 0, reliable: true)
            window.time.sdnn = 50
            var whole = HRVRow(subject: s, windowStartMs: nil, windowEndMs: nil, nBeats: 90_000, artifactPct: 1, reliable: true)
            whole.time.sdnn = v
            whole.longTerm.sdann = v - 10
            rows += [window, whole]
        }
        try ws.write(rows)
        let manifest = Manifest(subjects: ["n1", "n2", "n3"].map { SubjectInfo(subject: $0, group: "nsr2db") }
            + ["c1", "c2", "c3"].map { SubjectInfo(subject: $0, group: "chf2db") })
        try writeFixture(String(decoding: try JSONEncoder().encode(manifest), as: UTF8.self), to: ws.file("manifest.json"))

        let section = try XCTUnwrap(HRVAnalysis.analysis(ws))
        guard case let .object(root) = section.json, case let .object(groups)? = root["nsr_vs_chf"],
              case let .object(sdnn)? = groups["SDNN"] else { return XCTFail("no SDNN comparison") }
        XCTAssertEqual(sdnn["nsr_mean"], .number(140))
        XCTAssertEqual(sdnn["chf_mean"], .number(70))
        // Complete separation: AUC 1. Kruskal–Wallis on ranks 4,5,6 vs 1,2,3: H = 12/(6·7)·(15²/3
        // + 6²/3) − 3·7 = 3.857 → p = 0.0495, ×7 indices (Bonferroni) = 0.3467.
        XCTAssertEqual(sdnn["auc"], .number(1))
        guard case let .number(p)? = sdnn["p_bonferroni"] else { return XCTFail("no p") }
        XCTAssertEqual(p, 7 * 0.04953461343562649, accuracy: 1e-9)
        XCTAssertTrue(section.markdown.contains("| SDNN | 140 ["))
        XCTAssertTrue(section.markdown.contains("131.7–148.0"))
    }

    func testNoHRVTableNoSection() throws {
        XCTAssertNil(try HRVAnalysis.analysis(Workspace(path: try makeTempDir())))
    }
}
