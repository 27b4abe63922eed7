import Foundation
import XCTest

final class TuneCommandTests: XCTestCase {
    func testHelp() throws {
        try assertHelp(["tune"], usage: "resonance tune",
                       options: ["<workspace>", "--engine <name>", "--out <file>", "--cv <scheme>", "--objective <name>",
                                 "--budget <n>", "--seed <n>", "--report-dir <dir>", "--force"])
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
        assertUsageError(try tune("--engine", "readiness"), "--engine must be stress (got 'readiness').")
        assertUsageError(try tune("--engine", "stress", "--cv", "kfold:1"), "--cv must be loso or kfold:K with K ≥ 2 (got 'kfold:1').")
        assertUsageError(try tune("--engine", "stress", "--objective", "f1"), "--objective must be one of auc, balanced-accuracy, brier.")
        assertUsageError(try tune("--engine", "stress", "--budget", "19"), "--budget must be between 20 and 1000000 evaluations.")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "a usage error writes nothing")
    }
}
