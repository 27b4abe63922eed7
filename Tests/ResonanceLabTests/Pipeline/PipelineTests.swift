import Foundation
import XCTest
@testable import ResonanceLab

final class PipelineTests: XCTestCase {
    /// The synthetic sample in the repository (`datasets/sample`).
    static var sample: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("datasets/sample").path
    }

    func files(_ dir: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir).sorted() {
            out[name] = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name))
        }
        return out
    }

    /// `Pipeline.run` (one process) writes the same bytes as the stages run one at a time,
    /// and with other job counts.
    func testPipelineEqualsStageByStageOnTheSample() throws {
        let together = try makeTempDir(), apart = try makeTempDir()
        let reports1 = try makeTempDir(), reports2 = try makeTempDir()
        let context = StageContext(registry: .defaults, jobs: 2)
        try Pipeline.run([ImportStage(sources: [Self.sample])] + Pipeline.stages(reportDir: reports1, datasetName: "sample"),
                         on: Workspace(path: together), context: context)
        let single = StageContext(registry: .defaults, jobs: 1)
        for stage in [ImportStage(sources: [Self.sample])] + Pipeline.stages(reportDir: reports2, datasetName: "sample") {
            try stage.runCommitted(Workspace(path: apart), single)
        }
        let a = try files(together), b = try files(apart)
        XCTAssertEqual(a.keys.sorted(), b.keys.sorted())
        for name in ["hrv.csv", "coherence.csv", "sessions.csv", "session_plays.csv", "song_effects.csv", "daily.csv"] {
            XCTAssertNotNil(a[name], name)
        }
        for (name, data) in a { XCTAssertEqual(data, b[name], name) }
        XCTAssertEqual(try files(reports1), try files(reports2))
        // Every stage's written tables are where it says.
        for stage in Pipeline.stages(reportDir: nil) {
            for table in stage.writes { XCTAssertNotNil(a[table], "\(stage.name) writes \(table)") }
        }
    }

    func testPipelineOrderIsImportThenEachStage() {
        XCTAssertEqual(Pipeline.stages(reportDir: "r").map(\.name), ["beats", "hrv", "coherence", "sessions", "effects", "daily", "validate"])
    }
}
