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
        assertUsageError(try tune("--engine", "readiness"), "--engine must be stress, song_effect or state (got 'readiness').")
        assertUsageError(try tune("--engine", "stress", "--cv", "kfold:1"), "--cv must be loso or kfold:K with K ≥ 2 (got 'kfold:1').")
        assertUsageError(try tune("--engine", "stress", "--objective", "f1"), "--objective for --engine stress must be one of auc, balanced-accuracy, brier.")
        assertUsageError(try tune("--engine", "song_effect", "--objective", "auc"), "--objective for --engine song_effect must be correlation.")
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
}
