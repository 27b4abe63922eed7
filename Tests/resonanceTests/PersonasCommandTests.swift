import Foundation
import ResonanceLab
import XCTest

final class PersonasCommandTests: XCTestCase {
    func testHelp() throws {
        try assertHelp(["personas", "generate"], usage: "resonance personas generate",
                       options: ["--out <dir>", "--days <days>", "--personas <names>", "--seed <seed>",
                                 "--start-date <YYYY-MM-DD>", "--events <none|planned>", "--response-law <name>",
                                 "--law-strength <moderate|severe>", "--replicas <N>"])
        try assertHelp(["personas", "report"], usage: "resonance personas report", options: ["<workspace>", "--report-dir <dir>"])
    }

    func testGeneratesOneDayOfOnePersonaAndReportsOnIt() throws {
        let dir = try makeTempDir()
        let generate = try resonance("personas", "generate", "--out", dir + "/ws", "--days", "1", "--personas", "SeniorFit", "--quiet")
        XCTAssertEqual(generate.status, ExitStatus.success, generate.stderr)
        XCTAssertEqual(generate.stdout + generate.stderr, "")
        let daily = try String(contentsOfFile: dir + "/ws/daily.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(daily.count, 1 + 1)
        XCTAssertTrue(daily[1].contains("SeniorFit"), String(daily[1]))
        let report = try resonance("personas", "report", dir + "/ws", "--report-dir", dir + "/reports", "--quiet")
        XCTAssertEqual(report.status, ExitStatus.success, report.stderr)
        XCTAssertGreaterThan(try FileManager.default.contentsOfDirectory(atPath: dir + "/reports").count, 0)
    }

    /// Seed 2 plants an illness in SeniorFit on 2026-01-23–25: truth.csv lists it as
    /// `health_event` rows, the lineage records the setting, and every HR sample before
    /// the event is the same as without events (events draw from their own stream).
    func testPlannedEventsAreInTruthAndLeaveTheDaysBeforeThemUnchanged() throws {
        let dir = try makeTempDir()
        for events in ["none", "planned"] {
            let run = try resonance("personas", "generate", "--out", dir + "/" + events, "--days", "35", "--personas", "SeniorFit",
                                    "--seed", "2", "--events", events, "--quiet")
            XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        }
        let truth = try String(contentsOfFile: dir + "/planned/truth.csv", encoding: .utf8).split(separator: "\n")
        let events = truth.filter { $0.hasPrefix("health_event,") }
        XCTAssertEqual(events.first.map(String.init)?.hasPrefix("health_event,SeniorFit,illness-1,resting_hr_bpm,"), true)
        XCTAssertTrue(events.allSatisfy { $0.hasSuffix(",2026-01-23,2026-01-25") }, events.joined(separator: "\n"))
        XCTAssertFalse(try String(contentsOfFile: dir + "/none/truth.csv", encoding: .utf8).contains("health_event"))
        let manifest = try String(contentsOfFile: dir + "/planned/manifest.json", encoding: .utf8)
        XCTAssertTrue(manifest.contains("\"events\" : \"planned\""), "lineage settings record the events option")
        func hrBefore(_ folder: String) throws -> [Substring] {
            try String(contentsOfFile: dir + "/" + folder + "/hr.csv", encoding: .utf8).split(separator: "\n")
                .filter { $0 < "SeniorFit,2026-01-22T12" }
        }
        let before = try hrBefore("planned")
        XCTAssertGreaterThan(before.count, 20_000)
        XCTAssertEqual(before, try hrBefore("none"))
    }

    func testBadArgumentsAreUsageErrors() throws {
        let out = try makeTempDir() + "/ws"
        assertUsageError(try resonance("personas", "generate"), "Missing expected argument '--out <dir>'")
        assertUsageError(try resonance("personas", "generate", "--out", out, "--days", "0"), "--days must be between 1 and 366.")
        assertUsageError(try resonance("personas", "generate", "--out", out, "--events", "some"),
                         "--events must be none or planned (got 'some').")
        assertUsageError(try resonance("personas", "generate", "--out", out, "--days", "367"), "--days must be between 1 and 366.")
        assertUsageError(try resonance("personas", "generate", "--out", out, "--personas", "Nobody"),
                         "--personas: unknown persona 'Nobody' (known: NewMom, ")
        assertUsageError(try resonance("personas", "generate", "--out", out, "--start-date", "2026-13-01"),
                         "--start-date must be a date YYYY-MM-DD, got '2026-13-01'.")
        assertUsageError(try resonance("personas", "generate", "--out", out, "--start-date", "9999-12-30", "--days", "5"),
                         "--start-date 9999-12-30 with --days 5 leaves the years 0000–9999; use a date from 0000-01-02 to 9999-12-26.")
        assertUsageError(try resonance("personas", "generate", "--out", out, "--seed=-1"),
                         "The value '-1' is invalid for '--seed <seed>'")
        assertUsageError(try resonance("personas", "generate", "--out", out, "--response-law", "wobbly"),
                         "--response-law must be one of standard, fast-onset, slow-onset, long-release, threshold, overshoot, drift, interaction, noisy (got 'wobbly').")
        assertUsageError(try resonance("personas", "generate", "--out", out, "--law-strength", "mild"),
                         "--law-strength must be moderate or severe (got 'mild').")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "a usage error writes nothing")
    }

    /// Another response law: the same plays as the standard law, its parameters in
    /// truth.csv and its name in the lineage.
    func testResponseLawIsRecordedAndKeepsThePlays() throws {
        let dir = try makeTempDir()
        for law in ["standard", "drift"] {
            let run = try resonance("personas", "generate", "--out", dir + "/" + law, "--days", "2", "--personas", "SeniorFit",
                                    "--response-law", law, "--law-strength", "severe", "--quiet")
            XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        }
        let plays = { (law: String) in try String(contentsOfFile: dir + "/" + law + "/plays.csv", encoding: .utf8) }
        XCTAssertEqual(try plays("drift"), try plays("standard"))
        let truth = try String(contentsOfFile: dir + "/drift/truth.csv", encoding: .utf8)
        XCTAssertTrue(truth.contains("\nresponse_law,,drift/severe,drift_fraction,0.5,,\n"))
        XCTAssertEqual(truth.split(separator: "\n").filter { $0.hasPrefix("song_effect_drift,") }.count, 200 * 2)
        XCTAssertFalse(try String(contentsOfFile: dir + "/standard/truth.csv", encoding: .utf8).contains("response_law"))
        let manifest = try String(contentsOfFile: dir + "/drift/manifest.json", encoding: .utf8)
        XCTAssertTrue(manifest.contains("\"response_law\" : \"drift/severe\""), "lineage settings record the law")
        XCTAssertFalse(try String(contentsOfFile: dir + "/standard/manifest.json", encoding: .utf8).contains("response_law"))
    }

    static let generated = ["hr.csv", "rr.csv", "plays.csv", "sleep.csv", "workouts.csv", "labels.csv", "rejects.csv",
                            "subjects.csv", "daily.csv", "receipts.csv", "zones.csv", "truth.csv", "manifest.json"]

    /// `--replicas 1` is the default, byte for byte; `--jobs` changes no byte of a cohort.
    func testOneReplicaIsTheDefaultAndJobsChangeNothing() throws {
        let dir = try makeTempDir()
        let runs = [("default", [String]()), ("one", ["--replicas", "1"]),
                    ("jobs1", ["--replicas", "3", "--jobs", "1"]), ("jobs2", ["--replicas", "3", "--jobs", "2"])]
        for (name, options) in runs {
            let run = try resonance(["personas", "generate", "--out", dir + "/" + name, "--days", "1",
                                     "--personas", "NewMom,SeniorFit", "--quiet"] + options)
            XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        }
        for file in Self.generated {
            let read = { (name: String) in try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name + "/" + file)) }
            XCTAssertEqual(try read("one"), try read("default"), file)
            XCTAssertEqual(try read("jobs1"), try read("jobs2"), file)
        }
    }

    /// Three replicas of two personas over a day: six subjects `Persona-k` in byte order
    /// in every table, each table sorted by subject then time; replica k has the sleep
    /// and workouts of a run with seed k renamed (its schedules do not depend on the
    /// shared catalogue), replica 0 every table of the seed-0 run; the manifest counts
    /// the rows of all.
    func testReplicasAreRenamedSortedAndSeededSeedPlusK() throws {
        let dir = try makeTempDir()
        func generate(_ name: String, _ options: [String]) throws {
            let run = try resonance(["personas", "generate", "--out", dir + "/" + name, "--days", "1",
                                     "--personas", "SeniorFit,NewMom", "--quiet"] + options)
            XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        }
        try generate("cohort", ["--replicas", "3"])
        for k in 0..<3 { try generate("seed\(k)", ["--seed", String(k)]) }
        func lines(_ folder: String, _ file: String) throws -> [String] {
            try String(contentsOfFile: dir + "/" + folder + "/" + file, encoding: .utf8).split(separator: "\n").map(String.init)
        }
        let names = ["NewMom-0", "NewMom-1", "NewMom-2", "SeniorFit-0", "SeniorFit-1", "SeniorFit-2"]
        XCTAssertEqual(try lines("cohort", "subjects.csv").dropFirst().map { String($0.prefix { $0 != "," }) }, names)
        var total = 0
        for file in ["hr.csv", "rr.csv", "plays.csv", "sleep.csv", "workouts.csv", "daily.csv"] {
            let rows = try lines("cohort", file).dropFirst()
            let keys = rows.map { row -> (String, String) in
                // The second field orders each subject's rows: a time, a date, or a play id numbered in time order.
                let fields = row.split(separator: ",", omittingEmptySubsequences: false)
                return (String(fields[0]), String(fields[1]))
            }
            XCTAssertEqual(Array(Set(keys.map(\.0))).sorted(), names, file)
            XCTAssertTrue(zip(keys, keys.dropFirst()).allSatisfy { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 <= $1.1) }, file)
            total += rows.count
        }
        XCTAssertGreaterThan(total, 6 * 1440)
        func renamed(_ k: Int, _ file: String) throws -> [String] {
            try lines("seed\(k)", file).dropFirst().map { $0.replacingOccurrences(of: "NewMom", with: "NewMom-\(k)")
                .replacingOccurrences(of: "SeniorFit", with: "SeniorFit-\(k)") }
        }
        for file in ["sleep.csv", "workouts.csv"] {
            let rows = try lines("cohort", file).dropFirst()
            for k in 0..<3 {
                XCTAssertEqual(rows.filter { $0.hasPrefix("NewMom-\(k),") || $0.hasPrefix("SeniorFit-\(k),") }, try renamed(k, file), file)
            }
        }
        for file in ["hr.csv", "rr.csv", "plays.csv", "daily.csv"] {
            let rows = try lines("cohort", file).dropFirst()
            XCTAssertEqual(rows.filter { $0.hasPrefix("NewMom-0,") || $0.hasPrefix("SeniorFit-0,") }, try renamed(0, file), file)
        }
        let manifest = try Manifest.read(from: Workspace(path: dir + "/cohort"))
        XCTAssertEqual(manifest.subjects.map(\.subject), names)
        for source in manifest.sources {
            XCTAssertEqual(source.rowsRead, try lines("cohort", source.path).count - 1, source.path)
        }
        XCTAssertTrue(try String(contentsOfFile: dir + "/cohort/manifest.json", encoding: .utf8).contains("\"replicas\" : \"3\""))
    }

    func testReportOnAWorkspaceWithoutDailyFails() throws {
        let ws = try importSample(into: try makeTempDir())
        assertFailure(try resonance("personas", "report", ws, "--report-dir", ws + "/reports"), "daily.csv", "not a persona workspace")
    }
}
