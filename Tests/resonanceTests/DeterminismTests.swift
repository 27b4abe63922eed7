import Foundation
import XCTest

/// Every output is byte-identical between separate runs of the tool, whatever `--jobs`.
/// Each run is a fresh process per stage, in its own folder with the same relative
/// layout (`ws`, `report`), so that nothing a process keeps in memory can be shared.
final class DeterminismTests: XCTestCase {
    static let stages = ["hrv", "coherence", "sessions", "effects"]

    /// Runs `first` (the command that makes the workspace), then every stage and the
    /// validation report, in `dir` with `--jobs jobs`; returns the bytes of every file.
    private func pipeline(in dir: String, jobs: Int, first: [String],
                          file: StaticString = #filePath, line: UInt = #line) throws -> [String: Data] {
        let j = ["--jobs", String(jobs), "--quiet"]
        for command in [first] + Self.stages.map({ [$0, "ws"] }) + [["validate", "ws", "--report-dir", "report"]] {
            let run = try resonance(command + j, in: dir)
            XCTAssertEqual(run.status, ExitStatus.success, "\(command): \(run.stderr)", file: file, line: line)
        }
        var files: [String: Data] = [:]
        for folder in ["ws", "report"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: dir + "/" + folder) {
                files[folder + "/" + name] = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + folder + "/" + name))
            }
        }
        return files
    }

    /// Two runs with one job and one each with 2 and 8 jobs: every file equal to the first run's.
    private func assertIdenticalRuns(first: [String], expecting tables: [String],
                                     file: StaticString = #filePath, line: UInt = #line) throws {
        let root = try makeTempDir()
        var reference: [String: Data]?
        for (run, jobs) in [1, 1, 2, 8].enumerated() {
            let dir = root + "/run\(run)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let files = try pipeline(in: dir, jobs: jobs, first: first, file: file, line: line)
            guard let reference else {
                for table in tables {
                    XCTAssertGreaterThan(files[table]?.count ?? 0, 0, "\(table) missing or empty", file: file, line: line)
                }
                reference = files
                continue
            }
            XCTAssertEqual(files.keys.sorted(), reference.keys.sorted(), "files of run \(run) (--jobs \(jobs))", file: file, line: line)
            for (name, bytes) in reference.sorted(by: { $0.key < $1.key }) where files[name] != bytes {
                XCTFail("\(name) differs between run 0 (--jobs 1) and run \(run) (--jobs \(jobs))", file: file, line: line)
            }
        }
    }

    func testSampleOutputsAreIdenticalAcrossProcessesAndJobs() throws {
        try assertIdenticalRuns(first: ["import", Sample.path, "--out", "ws"],
                                expecting: ["ws/hr.csv", "ws/rr.csv", "ws/manifest.json", "ws/hrv.csv", "ws/coherence.csv",
                                            "ws/sessions.csv", "ws/song_effects.csv", "report/validation.md"])
    }

    /// Two personas over one day: generation itself runs per persona in parallel.
    func testPersonaOutputsAreIdenticalAcrossProcessesAndJobs() throws {
        try assertIdenticalRuns(first: ["personas", "generate", "--out", "ws", "--days", "1", "--personas", "NewMom,YoungAthlete"],
                                expecting: ["ws/rr.csv", "ws/daily.csv", "ws/truth.csv", "ws/hrv.csv", "ws/coherence.csv",
                                            "ws/session_plays.csv", "ws/song_effects.csv", "report/validation.json"])
    }
}
