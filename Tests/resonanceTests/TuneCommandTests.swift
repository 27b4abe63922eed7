import Foundation
import XCTest

final class TuneCommandTests: XCTestCase {
    func testHelp() throws {
        try assertHelp(["tune"], usage: "resonance tune",
                       options: ["<workspace>", "--engine <name>", "--out <file>", "--cv <scheme>", "--objective <name>",
                                 "--budget <n>", "--seed <n>", "--report-dir <dir>", "--force"])
        // Units and the cross-validation scheme of both engines.
        let help = try resonance("tune", "--help").stdout.replacingOccurrences(of: "\n", with: " ")
            .split(separator: " ").joined(separator: " ")
        for phrase in ["Subjects are the cross-validation unit", "Listeners are the cross-validation unit",
                       "ΔHR (bpm) and ΔRMSSD (ms)", "early_plays (plays, searched 0–30)", "correlation (Pearson r, unitless)",
                       "auc (ROC AUC, unitless; default)", "--cv loso (default) holds out one subject or listener per fold"] {
            XCTAssertTrue(help.contains(phrase), phrase)
        }
    }

    func testBadArgumentsAreUsageErrors() throws {
        let dir = try makeTempDir()
        let out = dir + "/tuned.json"
        func tune(_ extra: String...) throws -> CommandRun {
            try resonance(["tune", Sample.path, "--out", out] + extra)
        }
        assertUsageError(try resonance("tune", "--engine", "stress", "--out", out), "Missing expected argument '<workspace> ...'")
        assertUsageError(try resonance("tune", dir + "/absent", "--engine", "stress", "--out", out),
                         "\(dir)/absent: no such workspace folder")
        assertUsageError(try tune("--engine", "readiness"), "--engine must be stress, song_effect, state, ranking, trend or pacer (got 'readiness').")
        assertUsageError(try tune("--engine", "stress", "--cv", "kfold:1"), "--cv must be loso or kfold:K with K ≥ 2 (got 'kfold:1').")
        assertUsageError(try tune("--engine", "stress", "--objective", "f1"), "--objective for --engine stress must be one of auc, balanced-accuracy, brier.")
        assertUsageError(try tune("--engine", "song_effect", "--objective", "auc"), "--objective for --engine song_effect must be correlation.")
        assertUsageError(try tune("--engine", "trend", "--objective", "auc"), "--objective for --engine trend must be sensitivity-at-1-false-alarm.")
        assertUsageError(try tune("--engine", "state", "--objective", "brier"), "--objective for --engine state must be auc.")
        assertUsageError(try tune("--engine", "stress", "--budget", "19"), "--budget must be between 20 and 1000000 evaluations.")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "a usage error writes nothing")
    }

    /// A workspace without planted effects (the imported sample) is a one-line error
    /// naming the missing table, exit code 1, and no file.
    func testSongEffectNeedsPlantedEffects() throws {
        let dir = try makeTempDir()
        let ws = try importSample(into: dir), out = dir + "/tuned.json"
        let run = try resonance("tune", ws, "--engine", "song_effect", "--out", out)
        XCTAssertEqual(run.status, ExitStatus.failure)
        XCTAssertEqual(run.stderr, "error: \(ws)/truth.csv: missing; tuning the song_effect engine needs planted effects "
            + "(a persona workspace from `resonance personas generate`)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    /// The trend engine is tuned on planted health events: a workspace without them is a
    /// one-line error naming truth.csv, exit code 1, and no file.
    func testTrendNeedsPlantedHealthEvents() throws {
        let dir = try makeTempDir()
        let ws = try importSample(into: dir), out = dir + "/tuned.json"
        let run = try resonance("tune", ws, "--engine", "trend", "--out", out)
        XCTAssertEqual(run.status, ExitStatus.failure)
        XCTAssertEqual(run.stderr, "error: \(ws)/truth.csv: no health_event rows; tuning the trend engine needs persona "
            + "workspaces with planted events (`resonance personas generate --events planned`)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    /// The state engine is tuned on labelled recordings: a persona workspace (no labels)
    /// is a one-line error, exit code 1, and no file.
    func testStateNeedsLabelledRecordings() throws {
        let dir = try makeTempDir()
        let ws = dir + "/personas", out = dir + "/tuned.json"
        let generate = try resonance("personas", "generate", "--out", ws, "--days", "1", "--personas", "NewMom", "--quiet")
        XCTAssertEqual(generate.status, ExitStatus.success, generate.stderr)
        let run = try resonance("tune", ws, "--engine", "state", "--out", out)
        XCTAssertEqual(run.status, ExitStatus.failure)
        XCTAssertEqual(run.stderr, "error: \(ws): no subject has both 'stress' and 'baseline' intervals in labels.csv; "
            + "tuning the state engine needs labelled recordings\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    /// The ranking engine is tuned on `dj simulate` workspaces: the options come from
    /// the manifest, personas are the units, and the receipt says so.
    func testRankingTunesOnASimulatedWorkspace() throws {
        let dir = try makeTempDir()
        let ws = dir + "/dj", out = dir + "/tuned.json"
        let simulate = try resonance("dj", "simulate", "--out", ws, "--seeds", "1", "--replicas", "1", "--days", "1", "--songs", "40",
                                     "--library-cap", "20", "--songs-per-session", "2", "--quiet")
        XCTAssertEqual(simulate.status, ExitStatus.success, simulate.stderr)
        let run = try resonance("tune", ws, "--engine", "ranking", "--out", out, "--cv", "kfold:2", "--budget", "20",
                                "--report-dir", dir + "/report", "--force", "--quiet")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        let receipt = try String(contentsOfFile: dir + "/report/tuning.md", encoding: .utf8)
        XCTAssertTrue(receipt.contains("Objective: regret (lower is better), cross-validation kfold:2 over 10 personas"), receipt)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out))
        // A workspace without a simulation is a one-line error.
        let personas = dir + "/personas"
        XCTAssertEqual(try resonance("personas", "generate", "--out", personas, "--days", "1", "--personas", "NewMom", "--quiet").status,
                       ExitStatus.success)
        let bad = try resonance("tune", personas, "--engine", "ranking", "--out", out + "2")
        XCTAssertEqual(bad.status, ExitStatus.failure)
        XCTAssertEqual(bad.stderr, "error: \(personas)/dj_simulation.csv: missing; tuning the ranking engine needs a workspace from "
            + "`resonance dj simulate`\n")
    }
}
