import Foundation
import XCTest

/// `resonance run` on a person's exports that cannot answer the physiological questions
/// (`NoHeartRateExports`: an iPhone's Apple Health export without heart rate, a Spotify
/// history years later): the run succeeds and says so — on stderr at its end, at the top
/// of the report and in validation.json — and writes no row of empty estimates.
final class WorkspaceAnswersCommandTests: XCTestCase {
    /// The user's command, in a folder holding `export.xml` and `spotify-extended/`.
    func runOnExports() throws -> (dir: String, run: CommandRun) {
        let dir = try makeTempDir()
        try NoHeartRateExports.write(into: dir)
        let run = try resonance(["run", "export.xml", "spotify-extended", "--subject", "P1", "--out", "ws/me",
                                 "--report-dir", "reports/me", "--progress"], in: dir)
        return (dir, run)
    }

    func testRunSaysWhatTheExportsCannotAnswerAndWhy() throws {
        let (dir, run) = try runOnExports()
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertEqual(run.stdout, "")
        let x = NoHeartRateExports.self
        let noHeart = "no heart rate or R-R intervals in these exports"
        let apart = "the health records (\(x.healthDates)) and the listening (\(x.listeningDates)) never overlap"
        // The last lines on stderr: every analysis, why not, and what the exports hold instead.
        XCTAssertTrue(run.stderr.hasSuffix("""
            What this workspace can answer:
              HRV: no — \(noHeart)
              coherence: no — \(noHeart)
              stress scoring: no — \(noHeart); no labels: no subject has both stress and baseline intervals in labels.csv
              sessions with physiology: no — \(noHeart); \(apart)
              song and listener effects: no — \(noHeart); \(apart)
              daily heart-coach engines: no — no heart rate, R-R intervals, HRV or resting heart rate in these exports
            These exports hold no heart rate or R-R intervals; they hold \(x.plays) plays; \(x.sleeps) sleep records; \
            steps on \(x.stepDays) days; records the toolkit does not read: distance walking running \(x.distances), \
            flights climbed \(x.flights), podcast episode 1.

            """), run.stderr)
        // No progress line claims an onset it did not choose, nor counts "1 subjects".
        XCTAssertFalse(run.stderr.contains("onset"), run.stderr)
        XCTAssertTrue(run.stderr.contains("1 subject,"), run.stderr)
        XCTAssertFalse(run.stderr.contains("1 subjects"), run.stderr)
        XCTAssertTrue(run.stderr.contains("effects: \(x.plays) plays (0 with heart data) →"), run.stderr)

        // hr.csv is empty; song_effects.csv keeps its columns and holds no row without an estimate.
        let ws = dir + "/ws/me"
        XCTAssertEqual(try String(contentsOfFile: ws + "/hr.csv", encoding: .utf8), "subject,timestamp,bpm,source\n")
        let effects = try csvRows(ws + "/song_effects.csv")
        XCTAssertEqual(effects.header.prefix(7), ["model", "song_id", "title", "artist", "context", "metric", "estimate"])
        XCTAssertFalse(effects.rows.isEmpty)
        for row in effects.rows {
            XCTAssertFalse(row[6].isEmpty, "a row without an estimate: \(row)")
            XCTAssertEqual(row[5], "skip", "a heart metric without heart data: \(row)")
        }
        for table in ["persona_effects.csv", "playlist_effects.csv"] {
            let t = try csvRows(ws + "/" + table)
            let estimate = try XCTUnwrap(t.header.firstIndex(of: "estimate"))
            XCTAssertTrue(t.rows.allSatisfy { !$0[estimate].isEmpty }, "\(table): \(t.rows)")
        }
        // Spotify gives no song length: the listened fraction is empty, not 1.
        let sessions = try csvRows(ws + "/sessions.csv")
        let avgListen = try XCTUnwrap(sessions.header.firstIndex(of: "avg_listen"))
        XCTAssertFalse(sessions.rows.isEmpty)
        XCTAssertTrue(sessions.rows.allSatisfy { $0[avgListen].isEmpty }, "\(sessions.rows)")
        let plays = try csvRows(ws + "/session_plays.csv")
        let fraction = try XCTUnwrap(plays.header.firstIndex(of: "listen_fraction"))
        XCTAssertTrue(plays.rows.allSatisfy { $0[fraction].isEmpty }, "\(plays.rows)")

        // The manifest's note on export.xml says what it held, with counts.
        let manifest = try String(contentsOfFile: ws + "/manifest.json", encoding: .utf8)
        XCTAssertTrue(manifest.contains("\"Records found: steps \(x.steps), sleep analysis \(x.sleeps); counted and not read "
            + "(unusedRecords): distance walking running \(x.distances), flights climbed \(x.flights); no heart rate or HRV records\""),
            manifest)
        XCTAssertFalse(manifest.contains("Record types read"))
    }

    func testReportOpensWithWhatTheWorkspaceCanAnswer() throws {
        let (dir, run) = try runOnExports()
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        let md = try String(contentsOfFile: dir + "/reports/me/validation.md", encoding: .utf8)
        let sections = md.split(separator: "\n").filter { $0.hasPrefix("## ") }.map(String.init)
        // The answers first, results before lineage, lineage last.
        XCTAssertEqual(sections.first, "## What this workspace can answer")
        XCTAssertEqual(sections.dropFirst().first, "## Data inventory")
        XCTAssertEqual(sections.last, "## Lineage")
        let x = NoHeartRateExports.self
        XCTAssertTrue(md.contains("""
            | analysis | answered | from / why not |
            | --- | --- | --- |
            | HRV | no | no heart rate or R-R intervals in these exports |
            """), md)
        XCTAssertTrue(md.contains("| song and listener effects | no | no heart rate or R-R intervals in these exports; the health "
            + "records (\(x.healthDates)) and the listening (\(x.listeningDates)) never overlap |"), md)
        XCTAssertTrue(md.contains("\nThese exports hold no heart rate or R-R intervals; they hold \(x.plays) plays;"), md)
        XCTAssertTrue(md.contains("1 subject, 3 source files,"), md)
        XCTAssertFalse(md.contains("1 subjects"), md)

        // validation.json carries the same answers for code.
        let json = try XCTUnwrap(JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: dir + "/reports/me/validation.json"))) as? [String: Any])
        let answers = try XCTUnwrap(json["answers"] as? [String: Any])
        let analyses = try XCTUnwrap(answers["analyses"] as? [[String: Any]])
        XCTAssertEqual(analyses.map { $0["analysis"] as? String }, ["hrv", "coherence", "stress", "sessions", "effects", "daily"])
        XCTAssertTrue(analyses.allSatisfy { $0["answered"] as? Bool == false })
        let reasons = (analyses[4]["reasons"] as? [[String: Any]] ?? []).map { $0["reason"] as? String }
        XCTAssertEqual(reasons, ["no_heart_data", "no_overlap"])
        let spans = try XCTUnwrap(answers["spans"] as? [String: Any])
        XCTAssertEqual((spans["listening"] as? [String: Any])?["first"] as? String, "2022-05-20T18:00:00.000Z")
    }

    /// The sample answers everything its data hold, and says why not for the rest.
    func testSampleAnswers() throws {
        let dir = try makeTempDir()
        let run = try resonance("run", Sample.path, "--out", dir + "/ws")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertTrue(run.stderr.contains("\n  HRV: yes (from "), run.stderr)
        XCTAssertTrue(run.stderr.contains("\n  stress scoring: yes (1 labelled subject)\n"), run.stderr)
        XCTAssertFalse(run.stderr.contains("These exports hold"), run.stderr)
        // --quiet prints none of it.
        let quiet = try resonance("run", "--workspace", dir + "/ws", "--quiet")
        XCTAssertEqual(quiet.status, ExitStatus.success, quiet.stderr)
        XCTAssertEqual(quiet.stderr, "")
    }

    /// A CSV file's header and rows, split on commas (the tables here quote nothing).
    func csvRows(_ path: String) throws -> (header: [String], rows: [[String]]) {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        return (lines.first ?? [], Array(lines.dropFirst()))
    }
}
