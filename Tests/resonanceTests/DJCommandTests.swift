import Foundation
import XCTest

final class DJCommandTests: XCTestCase {
    func testHelp() throws {
        try assertHelp(["dj", "simulate"], usage: "resonance dj simulate",
                       options: ["--out <dir>", "--seed <seed>", "--seeds <seeds>", "--replicas <replicas>", "--days <days>",
                                 "--feature-relation <feature-relation>", "--world <world>", "--state-variant <state-variant>",
                                 "--log-propensities"])
        try assertHelp(["dj", "ope"], usage: "resonance dj ope", options: ["<workspace>"])
    }

    func testSimulationIsByteIdenticalForAnyJobs() throws {
        let dir = try makeTempDir()
        let args = ["--seeds", "2", "--replicas", "1", "--days", "2", "--songs", "60", "--library-cap", "30", "--songs-per-session", "3",
                    "--quiet"]
        let one = try resonance(["dj", "simulate", "--out", dir + "/a", "--jobs", "1"] + args)
        XCTAssertEqual(one.status, ExitStatus.success, one.stderr)
        let two = try resonance(["dj", "simulate", "--out", dir + "/b", "--jobs", "2"] + args)
        XCTAssertEqual(two.status, ExitStatus.success, two.stderr)
        for table in ["dj_simulation.csv", "dj_learning_curve.csv", "dj_simulation_summary.csv", "truth.csv", "song_features.csv"] {
            let a = try Data(contentsOf: URL(fileURLWithPath: dir + "/a/" + table))
            XCTAssertEqual(a, try Data(contentsOf: URL(fileURLWithPath: dir + "/b/" + table)), table)
            XCTAssertGreaterThan(a.count, 100, table)
        }
        let rows = try String(contentsOfFile: dir + "/a/dj_simulation.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(rows.first,
                       "seed,scoring,policy,need,decisions,mean_delta_hr_bpm,mean_planted_delta_hr_bpm,mean_regret_bpm,skip_rate,mean_bpm_step")
        XCTAssertEqual(rows.count, 1 + 2 * 2 * 8 * 6, "seeds × scorings × policies × (needs + all)")
        let manifest = try String(contentsOfFile: dir + "/a/manifest.json", encoding: .utf8)
        XCTAssertTrue(manifest.contains("\"feature_relation\""), "options recorded in the lineage")
        XCTAssertTrue(manifest.contains("\"world\" : \"planted\"") || manifest.contains("\"world\": \"planted\""), "the world too")
    }

    func testPropensityLogLeavesTheOtherTablesAsTheyAreAndIsEstimatedFrom() throws {
        let dir = try makeTempDir()
        let args = ["--seeds", "1", "--replicas", "1", "--days", "2", "--songs", "60", "--library-cap", "30", "--songs-per-session", "3",
                    "--quiet"]
        XCTAssertEqual(try resonance(["dj", "simulate", "--out", dir + "/a"] + args).status, ExitStatus.success)
        let logged = try resonance(["dj", "simulate", "--out", dir + "/b", "--log-propensities"] + args)
        XCTAssertEqual(logged.status, ExitStatus.success, logged.stderr)
        for table in ["dj_simulation.csv", "dj_learning_curve.csv", "dj_simulation_summary.csv", "truth.csv", "song_features.csv"] {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/a/" + table)),
                           try Data(contentsOf: URL(fileURLWithPath: dir + "/b/" + table)), table)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/a/dj_propensity_log.csv"), "no log unless asked")
        let ope = try resonance("dj", "ope", dir + "/b", "--quiet")
        XCTAssertEqual(ope.status, ExitStatus.success, ope.stderr)
        let rows = try String(contentsOfFile: dir + "/b/dj_ope.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(rows.first, "policy,estimator,decisions,listeners,matched,clipped,effective_sample_size,value_bpm,ci_low,ci_high")
        XCTAssertEqual(rows.count, 1 + 5 * 3, "policies × estimators")
        let none = try resonance("dj", "ope", dir + "/a", "--quiet")
        XCTAssertNotEqual(none.status, ExitStatus.success)
        XCTAssertTrue(none.stderr.contains("no logged decisions"), none.stderr)
    }

    func testBadArgumentsAreUsageErrors() throws {
        let out = try makeTempDir() + "/ws"
        assertUsageError(try resonance("dj", "simulate", "--out", out, "--feature-relation", "1.5"),
                         "--feature-relation must be between 0 and 1.")
        assertUsageError(try resonance("dj", "simulate", "--out", out, "--seeds", "0"), "--seeds must be between 1 and 1000.")
        assertUsageError(try resonance("dj", "simulate", "--out", out, "--state-variant", "appendix"),
                         "--state-variant must be one of: specification, reference.")
        assertUsageError(try resonance("dj", "simulate", "--out", out, "--world", "flat"),
                         "--world must be one of: planted, genre, nonlinear, taste, none.")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "a usage error writes nothing")
    }
}

final class DJReplayCommandTests: XCTestCase {
    func testReplaysAPersonaDay() throws {
        let ws = try makeTempDir() + "/ws"
        let generate = try resonance("personas", "generate", "--out", ws, "--days", "2", "--personas", "RemoteDeveloper", "--quiet")
        XCTAssertEqual(generate.status, ExitStatus.success, generate.stderr)
        let sessions = try resonance("sessions", ws, "--quiet")
        XCTAssertEqual(sessions.status, ExitStatus.success, sessions.stderr)
        let replay = try resonance("dj", "replay", ws, "--quiet")
        XCTAssertEqual(replay.status, ExitStatus.success, replay.stderr)
        let decisions = try String(contentsOfFile: ws + "/dj_decisions.csv", encoding: .utf8).split(separator: "\n")
        let plays = try String(contentsOfFile: ws + "/session_plays.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(decisions.count, plays.count, "one decision per session play")
        XCTAssertGreaterThan(decisions.count, 2)
        XCTAssertTrue(replay.stderr.contains("carry no propensities") && replay.stderr.contains("no new policy's value can be estimated"),
                      "a log without propensities cannot value a new policy: \(replay.stderr)")
        let summary = try String(contentsOfFile: ws + "/dj_replay_summary.csv", encoding: .utf8)
        XCTAssertTrue(summary.hasPrefix("need,metric,value\nall,decisions,\(decisions.count - 1).0\n"), summary)
        // Persona workspaces carry beats, not SDNN samples: the stress comes from the R-R window.
        let stress = decisions.dropFirst().map { $0.split(separator: ",")[7] }
        XCTAssertTrue(stress.contains { $0 != "0.5" }, "stress from the beats of the window")
        // Each decision's receipt: the pick with its three strongest score terms.
        let receipts = try String(contentsOfFile: ws + "/dj_receipts.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(receipts.first, "engine,table,subject,key,decision,value,confidence,rank,factor,share,points,direction,raw_value,unit,compared_with,detail")
        XCTAssertEqual(receipts.count - 1, 3 * (decisions.count - 1), "three drivers per decision")
        let firstPlay = decisions[1].split(separator: ",", omittingEmptySubsequences: false)
        let firstReceipt = receipts[1].split(separator: ",", omittingEmptySubsequences: false)
        XCTAssertEqual(firstReceipt[0], "ranking")
        XCTAssertEqual(firstReceipt[3], firstPlay[1], "keyed by the play")
        XCTAssertEqual(firstReceipt[4], firstPlay[14], "the decision is the DJ's top pick")
        // The report's DJ section gives the replay's hit rates.
        let report = try makeTempDir()
        let validate = try resonance("validate", ws, "--report-dir", report, "--quiet")
        XCTAssertEqual(validate.status, ExitStatus.success, validate.stderr)
        let md = try String(contentsOfFile: report + "/validation.md", encoding: .utf8)
        XCTAssertTrue(md.contains("## AI DJ"), md)
        XCTAssertTrue(md.contains("| all | \(decisions.count - 1) | "), md)
    }

    /// `--song-features` adds song_features.csv (from its own stream) and changes no other table.
    func testPersonaSongFeaturesChangeNoOtherTable() throws {
        let dir = try makeTempDir()
        let args = ["--days", "1", "--personas", "RemoteDeveloper", "--quiet"]
        let plain = try resonance(["personas", "generate", "--out", dir + "/a"] + args)
        XCTAssertEqual(plain.status, ExitStatus.success, plain.stderr)
        let featured = try resonance(["personas", "generate", "--out", dir + "/b", "--song-features", "genre"] + args)
        XCTAssertEqual(featured.status, ExitStatus.success, featured.stderr)
        for table in ["hr.csv", "rr.csv", "plays.csv", "truth.csv", "subjects.csv", "daily.csv"] {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/a/" + table)),
                           try Data(contentsOf: URL(fileURLWithPath: dir + "/b/" + table)), table)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/a/song_features.csv"))
        let features = try String(contentsOfFile: dir + "/b/song_features.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(features.count, 1 + 200, "one row per catalogue song")
        XCTAssertTrue(features[1].hasPrefix("S001,"), String(features[1]))
        // A DJ world a persona workspace cannot carry, and a value that is no world: refused, naming it.
        assertUsageError(try resonance("personas", "generate", "--out", dir + "/c", "--song-features", "taste"),
                         "--song-features must be one of: planted, genre, none (got 'taste').")
        let bogus = try resonance("personas", "generate", "--out", dir + "/d", "--song-features", "bogus")
        XCTAssertEqual(bogus.status, ExitStatus.usage)
        XCTAssertEqual(bogus.stderr, "error: --song-features must be one of: planted, genre, none (got 'bogus').\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/d"))
        // `none`: features unrelated to the planted effects, accepted.
        let unrelated = try resonance(["personas", "generate", "--out", dir + "/e", "--song-features", "none"] + args)
        XCTAssertEqual(unrelated.status, ExitStatus.success, unrelated.stderr)
        XCTAssertEqual(try String(contentsOfFile: dir + "/e/song_features.csv", encoding: .utf8).split(separator: "\n").count, 1 + 200)
    }

    /// Plays without a UTC offset read the listener's zone from `--tz`, as `sessions` does:
    /// with the same zone, every decision away from a workout has the context `sessions`
    /// gave its play; without it (UTC, nine hours off Tokyo), some differ.
    func testReplayReadsLocalTimeFromTheZoneSessionsUse() throws {
        let ws = try makeTempDir() + "/ws"
        let generate = try resonance("personas", "generate", "--out", ws, "--days", "2", "--personas", "RemoteDeveloper", "--quiet")
        XCTAssertEqual(generate.status, ExitStatus.success, generate.stderr)
        func rows(_ table: String) throws -> [[String: String]] {
            let lines = try String(contentsOfFile: ws + "/" + table, encoding: .utf8).split(separator: "\n").map {
                $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            }
            return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(lines[0], $0)) }
        }
        // The export's offsets removed: every play takes the zone.
        let plays = try String(contentsOfFile: ws + "/plays.csv", encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let offset = try XCTUnwrap(plays.first?.firstIndex(of: "utc_offset_min"))
        let blanked = plays.enumerated().map { i, f in (i == 0 ? f : f.enumerated().map { $0 == offset ? "" : $1 }).joined(separator: ",") }
        try (blanked.joined(separator: "\n") + "\n").write(toFile: ws + "/plays.csv", atomically: true, encoding: .utf8)
        XCTAssertEqual(try resonance("sessions", ws, "--tz", "Asia/Tokyo", "--quiet").status, ExitStatus.success)
        var sessionContext: [String: String] = [:]
        for r in try rows("session_plays.csv") { sessionContext[r["play_id"] ?? ""] = r["context"] }
        func mismatches(_ args: [String]) throws -> Int {
            let replay = try resonance(["dj", "replay", ws, "--quiet"] + args)
            XCTAssertEqual(replay.status, ExitStatus.success, replay.stderr)
            let decisions = try rows("dj_decisions.csv").filter { r in
                ![r["context"], sessionContext[r["play_id"] ?? ""]].contains { ["workout", "postWorkout"].contains($0 ?? "") }
            }
            XCTAssertGreaterThan(decisions.count, 2)
            return decisions.filter { sessionContext[$0["play_id"] ?? ""] != $0["context"] }.count
        }
        XCTAssertEqual(try mismatches(["--tz", "Asia/Tokyo"]), 0)
        XCTAssertGreaterThan(try mismatches([]), 0)
        assertUsageError(try resonance("dj", "replay", ws, "--tz", "Mars/Olympus"), "--tz: unknown IANA time zone 'Mars/Olympus'.")
    }

    func testMissingWorkspaceIsAnError() throws {
        let run = try resonance("dj", "replay", try makeTempDir() + "/nothing")
        XCTAssertNotEqual(run.status, 0)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
    }
}

final class DJStateCommandTests: XCTestCase {
    func testScoresTheSampleDatasetsLabels() throws {
        let ws = try importSample(into: try makeTempDir())
        let run = try resonance("dj", "state", ws, "--quiet")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        let rows = try String(contentsOfFile: ws + "/dj_state_auc.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(rows.first, "score,scope,auc,ci_low,ci_high,subjects,ticks")
        XCTAssertEqual(rows.count, 1 + 5 * 2)
        XCTAssertEqual(rows.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false)[1] },
                       ["pooled", "subject_median", "pooled", "subject_median", "pooled", "subject_median", "pooled", "subject_median",
                        "pooled", "subject_median"])
    }
}
