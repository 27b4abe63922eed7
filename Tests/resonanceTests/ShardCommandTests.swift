import Foundation
import XCTest

/// `resonance shard` and `resonance merge`, as a user runs them: a run split by subject
/// into shards, the per-subject stages on each shard, merged, then the stages that need
/// all subjects, writes the same bytes as one `resonance run`.
final class ShardCommandTests: XCTestCase {
    static let perSubjectStages = "beats,hrv,coherence,sessions,daily"

    func testHelp() throws {
        try assertHelp(["shard"], usage: "resonance shard", options: ["<workspace>", "--shards <n>", "--out <dir>", "FNV-1a"])
        try assertHelp(["merge"], usage: "resonance merge", options: ["<shard>", "--out <dir>"])
        try assertHelp(["run"], usage: "resonance run", options: ["--stages <list>"])
    }

    // MARK: - Sharded runs equal one run

    /// The synthetic sample: S02 lands in shard 0 of 2 and S01 in shard 1, both in shard 0 of 3.
    func testShardedSampleEqualsOneRun() throws {
        let dir = try makeTempDir()
        try run("run", Sample.path, "--out", dir + "/reference/ws", "--report-dir", dir + "/reference/report")
        try run("import", Sample.path, "--out", dir + "/input")
        for shards in [1, 2, 3, 7] {
            try shardedRun(dir + "/input", shards: shards, in: dir + "/\(shards)")
            try assertSameFiles(dir + "/\(shards)", dir + "/reference", "\(shards) shards")
        }
        XCTAssertEqual(try subjects(inShardsOf: dir + "/2/shards"), [["S02"], ["S01"]])
        XCTAssertEqual(try subjects(inShardsOf: dir + "/3/shards"), [["S01", "S02"], [], []])
    }

    /// A generated persona workspace (ten personas, one day).
    func testShardedPersonasEqualOneRun() throws {
        let dir = try makeTempDir()
        try run("personas", "generate", "--out", dir + "/input", "--days", "1")
        try run("personas", "generate", "--out", dir + "/reference/ws", "--days", "1")
        try run("run", "-w", dir + "/reference/ws", "--report-dir", dir + "/reference/report")
        for shards in [1, 3, 7] {
            try shardedRun(dir + "/input", shards: shards, in: dir + "/\(shards)")
            try assertSameFiles(dir + "/\(shards)", dir + "/reference", "\(shards) shards")
        }
        // The ten personas are spread over the shards, each in exactly one.
        let seven = try subjects(inShardsOf: dir + "/7/shards")
        XCTAssertEqual(seven.joined().sorted(), try subjects(inShardsOf: dir + "/1/shards")[0])
        XCTAssertEqual(seven.joined().count, 10)
        XCTAssertGreaterThan(seven.filter { !$0.isEmpty }.count, 3)
    }

    /// The shared Stress-Predict dataset (26 subjects), imported, against `resonance run` on it.
    func testShardedStressPredictEqualsOneRun() throws {
        let source = try datasetsRoot() + "/stress-predict"
        let dir = try makeTempDir()
        try run("run", source, "--out", dir + "/reference/ws", "--report-dir", dir + "/reference/report")
        try run("import", source, "--out", dir + "/input")
        for shards in [1, 3, 7] {
            try shardedRun(dir + "/input", shards: shards, in: dir + "/\(shards)")
            try assertSameFiles(dir + "/\(shards)", dir + "/reference", "\(shards) shards")
        }
        // FNV-1a 64 of "S01" is 0x978fee19fa010ba5: shard 6 of 7; of "S26" 0x97896719f9fbba92: shard 0.
        let seven = try subjects(inShardsOf: dir + "/7/shards")
        XCTAssertTrue(seven[6].contains("S01"), "\(seven)")
        XCTAssertTrue(seven[0].contains("S26"), "\(seven)")
        XCTAssertEqual(seven.map(\.count).reduce(0, +), 26)
    }

    // MARK: - Refused merges

    func testMergeRefusesMissingDuplicateAndForeignShards() throws {
        let dir = try makeTempDir()
        try run("import", Sample.path, "--out", dir + "/ws")
        try run("shard", dir + "/ws", "--shards", "2", "--out", dir + "/a")
        try run("shard", dir + "/ws", "--shards", "3", "--out", dir + "/b")
        try run("import", Sample.path + "/S02", "--out", dir + "/other")
        try run("shard", dir + "/other", "--shards", "2", "--out", dir + "/c")
        let out = dir + "/merged"

        assertFailure(try resonance("merge", dir + "/a/shard-000", "--out", out), "shard 1 of 2 missing")
        assertFailure(try resonance("merge", dir + "/a/shard-000", dir + "/a/shard-001", dir + "/a/shard-000", "--out", out),
                      "are both shard 0 of 2")
        assertFailure(try resonance("merge", dir + "/a/shard-000", dir + "/b/shard-001", "--out", out),
                      "\(dir)/b/shard-001: shard of another split", "of 3 shards")
        assertFailure(try resonance("merge", dir + "/a/shard-000", dir + "/c/shard-001", "--out", out),
                      "\(dir)/c/shard-001: shard of another split")
        assertFailure(try resonance("merge", dir + "/ws", "--out", out), "\(dir)/ws: not a shard workspace")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "a refused merge writes nothing")

        // The parts of one split, in any order, merge.
        try run("merge", dir + "/a/shard-001", dir + "/a/shard-000", "--out", out)
        for name in try FileManager.default.contentsOfDirectory(atPath: dir + "/ws") where !name.hasPrefix(".") {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/" + name)),
                           try Data(contentsOf: URL(fileURLWithPath: dir + "/ws/" + name)), name)
        }
        assertFailure(try resonance("merge", dir + "/a/shard-000", dir + "/a/shard-001", "--out", out),
                      "\(out): already exists and is not empty")
    }

    func testMergeRefusesTamperedShards() throws {
        let dir = try makeTempDir()
        try run("import", Sample.path, "--out", dir + "/ws")
        try run("shard", dir + "/ws", "--shards", "2", "--out", dir + "/s")
        let s0 = dir + "/s/shard-000", s1 = dir + "/s/shard-001"
        func merge() throws -> CommandRun { try resonance("merge", s0, s1, "--out", dir + "/merged") }

        // A value changed in a shard's table: it no longer matches the shard's manifest.
        let hr1 = try String(contentsOfFile: s1 + "/hr.csv", encoding: .utf8)
        var lines = hr1.split(separator: "\n", omittingEmptySubsequences: false).map { $0.split(separator: ",").map(String.init) }
        lines[1][2] = "99.0"  // subject,timestamp,bpm,source
        try lines.map { $0.joined(separator: ",") }.joined(separator: "\n").write(toFile: s1 + "/hr.csv", atomically: true, encoding: .utf8)
        assertFailure(try merge(), "\(s1)/hr.csv: does not match manifest.json")
        try hr1.write(toFile: s1 + "/hr.csv", atomically: true, encoding: .utf8)

        // A row moved to the wrong shard (S01's first heart rate into S02's shard), digests not checked.
        let hr0 = try String(contentsOfFile: s0 + "/hr.csv", encoding: .utf8)
        try (hr0 + hr1.split(separator: "\n")[1] + "\n").write(toFile: s0 + "/hr.csv", atomically: true, encoding: .utf8)
        let line = hr0.split(separator: "\n").count + 1
        assertFailure(try resonance("merge", s0, s1, "--out", dir + "/merged", "--no-verify"),
                      "\(s0)/hr.csv:\(line):1: subject 'S01' belongs to shard 1 of 2, not 0")
        try hr0.write(toFile: s0 + "/hr.csv", atomically: true, encoding: .utf8)

        // A subject dropped from a shard's manifest: the manifests no longer add up.
        let manifestPath = s1 + "/manifest.json"
        let manifest = try Data(contentsOf: URL(fileURLWithPath: manifestPath))
        var json = try XCTUnwrap(JSONSerialization.jsonObject(with: manifest) as? [String: Any])
        json["subjects"] = []
        try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys])
            .write(to: URL(fileURLWithPath: manifestPath))
        assertFailure(try merge(), "the shards' manifests do not add up to the split workspace's")
        try manifest.write(to: URL(fileURLWithPath: manifestPath))

        // A stage run on one shard only, and effects run on the shards.
        try run("run", "-w", s0, "--stages", "hrv")
        assertFailure(try merge(), "\(s1): has no hrv.csv, which \(s0) has; run the same stages on every shard")
        try run("run", "-w", s1, "--stages", "hrv")
        try run("run", "-w", s0, "--stages", "sessions,effects")
        try run("run", "-w", s1, "--stages", "sessions,effects")
        assertFailure(try merge(), "\(s0)/song_effects.csv: `effects` needs all subjects; run it on the merged workspace")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/merged"), "a refused merge writes nothing")
    }

    func testShardRefusals() throws {
        let dir = try makeTempDir()
        try run("import", Sample.path, "--out", dir + "/ws")
        try run("shard", dir + "/ws", "--shards", "2", "--out", dir + "/s")
        assertFailure(try resonance("shard", dir + "/s/shard-000", "--shards", "2", "--out", dir + "/t"),
                      "\(dir)/s/shard-000: is already shard 0 of 2; merge the split first")
        assertFailure(try resonance("shard", dir + "/ws", "--shards", "2", "--out", dir + "/s"),
                      "\(dir)/s: already exists and is not empty")
        assertFailure(try resonance("shard", dir, "--shards", "2", "--out", dir + "/u"), "\(dir): not a workspace: no manifest.json")
        assertUsageError(try resonance("shard", dir + "/ws", "--shards", "0", "--out", dir + "/t"),
                         "--shards must be between 1 and 10000.")
        assertUsageError(try resonance("shard", dir + "/ws", "--shards", "2", "--out", dir + "/t", "--jobs", "2"),
                         "--jobs: `shard` does no per-subject work.")
        assertUsageError(try resonance("merge", "--out", dir + "/t"), "Missing expected argument '<shard> ...'")
        assertUsageError(try resonance("run", "-w", dir + "/ws", "--stages", "hrv,bogus"),
                         "--stages: unknown stage 'bogus' (stages: beats, hrv, coherence, sessions, effects, daily, validate).")
        assertUsageError(try resonance("run", "-w", dir + "/ws", "--stages", "validate"), "--stages: validate needs --report-dir.")
        assertUsageError(try resonance("run", "-w", dir + "/ws", "--stages", "hrv", "--report-dir", dir + "/r"),
                         "--report-dir: only validate writes a report, and --stages leaves it out.")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/t"))
    }

    /// `--stages` runs the named stages only, in pipeline order whatever the order given.
    func testRunStagesRunsOnlyTheNamedStages() throws {
        let dir = try makeTempDir()
        try run("import", Sample.path, "--out", dir + "/ws")
        let before = try FileManager.default.contentsOfDirectory(atPath: dir + "/ws")
        try run("run", "-w", dir + "/ws", "--stages", "sessions,hrv")
        let added = Set(try FileManager.default.contentsOfDirectory(atPath: dir + "/ws")).subtracting(before)
        XCTAssertEqual(added, ["hrv.csv", "sessions.csv", "session_plays.csv"])
    }

    // MARK: - Helpers

    /// Runs the tool and asserts success (quietly, one job: modest on shared machines).
    private func run(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try resonance(arguments + ["--quiet"] + (["shard", "merge"].contains(arguments[0]) ? [] : ["--jobs", "1"]))
        XCTAssertEqual(result.status, ExitStatus.success, "\(arguments.joined(separator: " ")): \(result.stderr)",
                       file: file, line: line)
    }

    /// shard → the per-subject stages on every shard → merge into `dir/ws` → effects and
    /// validate (report in `dir/report`), each a separate process.
    private func shardedRun(_ input: String, shards: Int, in dir: String,
                            file: StaticString = #filePath, line: UInt = #line) throws {
        try run("shard", input, "--shards", String(shards), "--out", dir + "/shards", file: file, line: line)
        let parts = try FileManager.default.contentsOfDirectory(atPath: dir + "/shards").sorted()
        XCTAssertEqual(parts, (0..<shards).map { String(format: "shard-%03d", $0) }, file: file, line: line)
        for part in parts {
            try run("run", "-w", dir + "/shards/" + part, "--stages", Self.perSubjectStages, file: file, line: line)
        }
        // Folders given in reverse: merge orders them by their manifests.
        let merge = try resonance(["merge"] + parts.reversed().map { dir + "/shards/" + $0 } + ["--out", dir + "/ws", "--quiet"])
        XCTAssertEqual(merge.status, ExitStatus.success, merge.stderr, file: file, line: line)
        try run("run", "-w", dir + "/ws", "--stages", "effects,validate", "--report-dir", dir + "/report", file: file, line: line)
    }

    /// Every file of `a/ws` and `a/report` is byte-identical to the file of the same name
    /// in `b`, and neither has more.
    private func assertSameFiles(_ a: String, _ b: String, _ label: String,
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        for folder in ["ws", "report"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: a + "/" + folder).sorted()
            XCTAssertEqual(names, try FileManager.default.contentsOfDirectory(atPath: b + "/" + folder).sorted(), label,
                           file: file, line: line)
            let expected = folder == "ws" ? ["manifest.json", "rejects.csv", "hr.csv", "song_effects.csv"] : ["validation.md"]
            XCTAssertTrue(Set(expected).isSubset(of: names), "\(label): \(names)", file: file, line: line)
            for name in names where !name.hasPrefix(".") {
                let x = try Data(contentsOf: URL(fileURLWithPath: a + "/" + folder + "/" + name))
                let y = try Data(contentsOf: URL(fileURLWithPath: b + "/" + folder + "/" + name))
                XCTAssertTrue(x == y, "\(label): \(folder)/\(name) differs (\(x.count) vs \(y.count) bytes)", file: file, line: line)
            }
        }
    }

    /// The subjects of each shard's manifest, in shard order.
    private func subjects(inShardsOf dir: String) throws -> [[String]] {
        try FileManager.default.contentsOfDirectory(atPath: dir).sorted().map { part in
            let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + part + "/manifest.json"))
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
            let subjects = try XCTUnwrap(json["subjects"] as? [[String: Any]])
            return subjects.compactMap { $0["subject"] as? String }
        }
    }
}
