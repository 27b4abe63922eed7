import Foundation
import XCTest

/// `resonance run` and `resonance daily`, as a user runs them.
final class RunCommandTests: XCTestCase {
    func testHelp() throws {
        try assertHelp(["run"], usage: "resonance run", options: ["<source>", "--out <dir>", "--workspace <dir>", "--report-dir <dir>"])
        try assertHelp(["daily"], usage: "resonance daily", options: ["<workspace>", "--age <years>", "--norms <file>"])
    }

    /// `run` writes the same bytes as import followed by each stage's own command.
    func testRunEqualsTheStagesOneByOne() throws {
        let dir = try makeTempDir()
        let together = dir + "/a/sample", apart = dir + "/b/sample"
        let run = try resonance("run", Sample.path, "--out", together, "--report-dir", together + "-report", "--quiet")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertEqual(run.stdout + run.stderr, "")
        XCTAssertEqual(try resonance("import", Sample.path, "--out", apart, "--quiet").status, ExitStatus.success)
        for stage in ["beats", "hrv", "coherence", "sessions", "effects", "daily"] {
            let step = try resonance(stage, apart, "--quiet", "--jobs", "1")
            XCTAssertEqual(step.status, ExitStatus.success, "\(stage): \(step.stderr)")
        }
        XCTAssertEqual(try resonance("validate", apart, "--report-dir", apart + "-report", "--quiet").status, ExitStatus.success)
        for (a, b) in [(together, apart), (together + "-report", apart + "-report")] {
            let names = try FileManager.default.contentsOfDirectory(atPath: a).sorted()
            XCTAssertEqual(names, try FileManager.default.contentsOfDirectory(atPath: b).sorted())
            for name in names {
                XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: a + "/" + name)),
                               try Data(contentsOf: URL(fileURLWithPath: b + "/" + name)), name)
            }
        }
    }

    func testBadArgumentsAreUsageErrors() throws {
        let ws = try makeTempDir()
        assertUsageError(try resonance("run", Sample.path), "give sources with --out, or --workspace.")
        assertUsageError(try resonance("run", Sample.path, "--out", ws + "/x", "--workspace", ws),
                         "give either sources with --out, or --workspace, not both.")
        assertUsageError(try resonance("run", "--workspace", ws + "/absent"), "\(ws)/absent: no such workspace folder")
        assertUsageError(try resonance("daily", ws, "--age", "5"), "--age must be between 10 and 110 years.")
    }

    /// `daily` on the imported sample: one row per subject-day, the personas' columns.
    func testDailyWritesOneRowPerSubjectDay() throws {
        let ws = try importSample(into: try makeTempDir())
        let run = try resonance("daily", ws, "--progress")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertTrue(run.stderr.contains("daily: 2 person-days"), run.stderr)
        let lines = try String(contentsOfFile: ws + "/daily.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.first, "subject,date,resting_hr,hrv_sdnn,recovery_1m,recovery_2m,vo2max,zone_minutes,steps,"
            + "walk_minutes,workout_minutes,sleep_hours,body_mass,stress,stress_level,readiness,readiness_level,anomaly,flags,bio_age,bio_age_category,"
            + "stress_trend,wear_hours,hrv_rmssd,hrv_basis,local_time")
        XCTAssertEqual(lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).prefix(2).joined(separator: ",") },
                       ["S01,2023-11-14", "S02,2023-11-15"])
        // The sample's plays carry no offset and it has no subjects.csv zone: --tz decides, else UTC.
        // Each subject wore its device one hour: low_wear, no stress.
        func tail(_ path: String) throws -> [String] {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst()
                .map { $0.split(separator: ",", omittingEmptySubsequences: false).suffix(8).joined(separator: ",") }
        }
        XCTAssertEqual(try tail(ws + "/daily.csv"), ["low_wear,,,,1.0,,,utc", "low_wear,,,,1.0,,sdnn,utc"])
        XCTAssertEqual(try resonance("daily", ws, "--tz", "Europe/London").status, ExitStatus.success)
        XCTAssertEqual(try tail(ws + "/daily.csv"), ["low_wear,,,,1.0,,,tz:Europe/London", "low_wear,,,,1.0,,sdnn,tz:Europe/London"])
        assertUsageError(try resonance("daily", ws, "--tz", "Mars/Base"), "--tz: unknown IANA time zone 'Mars/Base'.")
    }

    /// `daily --norms FILE`: BioAge against the replacement norms, the file recorded in
    /// the tables' lineage; a bad row is one error line naming file, line and column.
    func testDailyWithReplacementNorms() throws {
        let ws = try importSample(into: try makeTempDir())
        let dir = try makeTempDir()
        let norms = dir + "/norms.csv"
        try "metric,sex,age_years,value,source\nresting_hr,female,20,60,test\nresting_hr,male,20,60,test\n"
            .write(toFile: norms, atomically: true, encoding: .utf8)
        let run = try resonance("daily", ws, "--age", "40", "--norms", norms)
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        let rows = try String(contentsOfFile: ws + "/daily.csv", encoding: .utf8).split(separator: "\n").dropFirst()
        XCTAssertEqual(rows.count, 2)
        // Only resting HR (and zone minutes) can be scored: every row has a BioAge.
        XCTAssertTrue(rows.allSatisfy { !$0.hasSuffix(",,") }, "\(rows)")
        let manifest = try String(contentsOfFile: ws + "/manifest.json", encoding: .utf8)
        XCTAssertTrue(manifest.contains("\(norms) (SHA-256 "), manifest)
        XCTAssertTrue(FileManager.default.fileExists(atPath: ws + "/zones.csv"))

        let bad = dir + "/bad.csv"
        try "metric,sex,age_years,value,source\nresting_hr,male,20,60,test\nresting_hr,male,20,61,test\n"
            .write(toFile: bad, atomically: true, encoding: .utf8)
        assertFailure(try resonance("daily", ws, "--norms", bad), "\(bad):3:3: a second resting_hr norm for male aged 20")
    }
}
