import Foundation
import XCTest
@testable import ResonanceLab

/// Each stage's declaration is the one place it is described: the lists derived from it
/// (per-subject set, pipeline order) and the files that must agree with it (Snakemake
/// configuration, the tables page) are checked here.
final class StageDeclarationTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    func text(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    func testPerSubjectStagesComeFromTheDeclarations() {
        XCTAssertEqual(Pipeline.perSubject, ["beats", "hrv", "coherence", "sessions", "daily"])
        XCTAssertEqual(Pipeline.order, ["import", "beats", "hrv", "coherence", "sessions", "effects", "daily", "validate"])
    }

    /// The workflow's shard stages are the per-subject stages in pipeline order, and its
    /// merged stages the others that write tables (validate runs as its own rule).
    func testSnakemakeStagesMatchTheDeclarations() throws {
        let config = try text("workflow/config.yaml")
        func setting(_ key: String) -> String? {
            config.split(separator: "\n").first { $0.hasPrefix(key + ":") }
                .map { String($0.dropFirst(key.count + 1)).trimmingCharacters(in: .whitespaces) }
        }
        let stages = Pipeline.stages(reportDir: nil)
        XCTAssertEqual(setting("shard_stages"), stages.filter(\.perSubject).map(\.name).joined(separator: ","))
        XCTAssertEqual(setting("merged_stages"), stages.filter { !$0.perSubject }.map(\.name).joined(separator: ","))
    }

    /// Every table a stage writes has its section in docs/tables.md.
    func testTablesPageDocumentsEveryTableAStageWrites() throws {
        let page = try text("docs/tables.md")
        let stages: [any Stage] = [ImportStage(sources: [])] + Pipeline.stages(reportDir: nil)
        for stage in stages {
            for table in stage.writes where table.hasSuffix(".csv") {
                XCTAssertTrue(page.contains("## `\(table)`") || page.contains("## \(table)"),
                              "docs/tables.md has no section for \(table), written by \(stage.name)")
            }
        }
    }

    /// Every engine a stage declares is in the registry, and every stage's version is semantic.
    func testDeclaredEnginesExist() {
        let known = Set(ConstantsRegistry.specs.map(\.name))
        for stage in [ImportStage(sources: [])] + Pipeline.stages(reportDir: "r") as [any Stage] {
            for engine in stage.engines { XCTAssertTrue(known.contains(engine), "\(stage.name): unknown engine \(engine)") }
            XCTAssertEqual(stage.version.split(separator: ".").compactMap { Int($0) }.count, 3, stage.name)
        }
    }

    /// A stage reads no engine it does not declare: every undeclared engine's constants
    /// moved within their ranges leave its tables byte for byte the same.
    func testStagesUseOnlyTheirDeclaredEngines() throws {
        let reference = try makeTempDir()
        let context = StageContext(registry: .defaults, jobs: 2)
        try Pipeline.run([ImportStage(sources: [PipelineTests.sample])] + Pipeline.stages(reportDir: nil),
                         on: Workspace(path: reference), context: context)
        for stage in Pipeline.stages(reportDir: nil) {
            var moved = ConstantsRegistry.defaults
            for spec in ConstantsRegistry.specs where !stage.engines.contains(spec.name) {
                moved = try moved.replacing(spec.name, with: Self.nudged(spec))
            }
            let ws = try makeTempDir()
            for name in try FileManager.default.contentsOfDirectory(atPath: reference) where !name.hasPrefix(".") {
                try FileManager.default.copyItem(atPath: reference + "/" + name, toPath: ws + "/" + name)
            }
            try stage.runCommitted(Workspace(path: ws), StageContext(registry: moved, jobs: 2))
            for table in stage.writes {
                XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: ws + "/" + table)),
                               try Data(contentsOf: URL(fileURLWithPath: reference + "/" + table)),
                               "\(stage.name): \(table) changed with engines it does not declare")
            }
        }
    }

    /// `spec`'s constants other than weights scaled by 1.01 (0.99 where that leaves the
    /// range), which keeps every ordering between them; weights keep their sums.
    static func nudged(_ spec: EngineSpec) -> [String: Double] {
        let weights = Set(spec.weightGroups.joined())
        var out: [String: Double] = [:]
        for c in spec.constants where !weights.contains(c.name) && c.value != 0 {
            out[c.name] = c.range.contains(c.value * 1.01) ? c.value * 1.01 : c.value * 0.99
        }
        return out
    }
}
