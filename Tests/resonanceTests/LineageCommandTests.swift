import Foundation
import XCTest
import ResonanceLab

/// Per-table lineage as a user meets it: `--constants` on one stage updates exactly its
/// tables' lineage, `validate` reports tables made with other constants, a re-run input
/// makes the tables made from it stale, and `sessions` follows `hrv.csv`'s artifact method.
final class LineageCommandTests: XCTestCase {
    @discardableResult
    func run(_ arguments: String..., status: Int32 = ExitStatus.success, file: StaticString = #filePath,
             line: UInt = #line) throws -> CommandRun {
        let r = try resonance(arguments)
        XCTAssertEqual(r.status, status, "\(arguments): \(r.stderr)", file: file, line: line)
        return r
    }

    func manifest(_ ws: String) throws -> Manifest {
        try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: ws + "/manifest.json")))
    }

    /// A constants file with the stress engine at 1.5.0 and one constant moved.
    func tunedStress(in dir: String) throws -> String {
        let path = dir + "/tuned.json"
        let text = #"{"engines": {"stress": {"version": "1.5.0", "constants": {"sigmoid_slope": 0.1}}}}"#
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testHelp() throws {
        try assertHelp(["lineage"], usage: "resonance lineage", options: ["<workspace>", "<table>", "--json", "--check"])
    }

    func testDailyWithOtherConstantsUpdatesOnlyItsTablesAndValidateReportsTheMix() throws {
        let dir = try makeTempDir(), ws = dir + "/ws"
        try run("run", Sample.path, "--out", ws)
        let before = try manifest(ws)
        let daily = try XCTUnwrap(before.table("daily.csv")?.lineage)
        XCTAssertEqual(daily.command, "daily")
        XCTAssertEqual(daily.engines.map(\.name), ["bio_age", "coaching", "daily_inputs", "morning_recovery", "readiness", "stress", "trend", "zones"])
        XCTAssertEqual(daily.engines.first { $0.name == "stress" }?.digest, ConstantsRegistry.defaults.digest(of: "stress"))
        XCTAssertEqual(daily.inputs.compactMap(\.table), ["hr.csv", "hrv_samples.csv", "hrv.csv", "sleep.csv", "workouts.csv",
                                                               "daily_inputs.csv", "subjects.csv", "plays.csv"])
        for input in daily.inputs { XCTAssertEqual(input.sha256, before.table(input.table ?? "")?.sha256) }

        let tuned = try tunedStress(in: dir)
        try run("daily", ws, "--constants", tuned)
        let after = try manifest(ws)
        let registry = try ConstantsRegistry(contentsOf: tuned)
        for name in ["daily.csv", "receipts.csv", "hr_recovery.csv", "morning_recovery.csv", "morning_receipts.csv", "nudges.csv", "coaching.csv", "phases.csv", "zones.csv", "stress_hourly.csv"] {
            let stress = try XCTUnwrap(after.table(name)?.lineage?.engines.first { $0.name == "stress" }, name)
            XCTAssertEqual(stress.version, "1.5.0")
            XCTAssertEqual(stress.digest, registry.digest(of: "stress"))
            XCTAssertNotEqual(stress.digest, ConstantsRegistry.defaults.digest(of: "stress"))
        }
        for t in before.tables where !["daily.csv", "receipts.csv", "hr_recovery.csv", "morning_recovery.csv", "morning_receipts.csv", "nudges.csv", "coaching.csv", "phases.csv", "zones.csv", "stress_hourly.csv"].contains(t.name) {
            XCTAssertEqual(after.table(t.name), t, "\(t.name) must be untouched")
        }

        let report = dir + "/report"
        try run("validate", ws, "--report-dir", report)
        let md = try String(contentsOfFile: report + "/validation.md", encoding: .utf8)
        XCTAssertTrue(md.contains("## Lineage"), md)
        XCTAssertTrue(md.contains("daily.csv was made with stress@1.5.0 (\(registry.digest(of: "stress").prefix(12))…), this report runs stress@1.4.0"), md)
        XCTAssertTrue(md.contains("| daily.csv | 2 | daily 1.1.0 | bio_age@1.0.0 coaching@1.0.0 daily_inputs@1.2.0 morning_recovery@1.1.0 readiness@2.0.0 stress@1.5.0 trend@2.0.0 zones@2.0.0 |"), md)
        // With the same constants for the report, nothing differs.
        try run("validate", ws, "--report-dir", report, "--constants", tuned)
        let same = try String(contentsOfFile: report + "/validation.md", encoding: .utf8)
        XCTAssertTrue(same.contains("Every table is current with its inputs, and each engine's constants are the same in every table and in this report."), same)
    }

    func testMixedConstantsBetweenTablesAreFound() throws {
        let dir = try makeTempDir(), ws = dir + "/ws"
        try run("run", Sample.path, "--out", ws)
        let rr = dir + "/rr.json"
        try #"{"engines": {"rr": {"version": "1.0.1", "constants": {"rr_max_ms": 2400}}}}"#.write(toFile: rr, atomically: true, encoding: .utf8)
        try run("coherence", ws, "--constants", rr)
        let out = try run("lineage", ws, "--check", status: 4)
        XCTAssertTrue(out.stdout.contains("lineage: engine rr differs between tables: 1.0.0 ("), out.stdout)
        XCTAssertTrue(out.stdout.contains("1.0.1 ("), out.stdout)
        XCTAssertTrue(out.stdout.contains(") in coherence.csv"), out.stdout)
    }

    func testRerunInputMakesDownstreamTablesStale() throws {
        let dir = try makeTempDir(), ws = dir + "/ws"
        try run("run", Sample.path, "--out", ws)
        XCTAssertEqual(try run("lineage", ws, "--check").stdout.split(separator: "\n").last,
                       "lineage: every table current, one set of constants per engine")
        // hrv with other settings: sessions read the old hrv.csv, effects the old sessions.
        try run("hrv", ws, "--artifacts", "none")
        let out = try run("lineage", ws, "--check", status: 4)
        let sessions = ConstantsRegistry.defaults.engines["sessions"]?.version ?? ""
        XCTAssertTrue(out.stdout.contains("session_plays.csv: 12 rows, sessions 1.1.0, constants rr@1.0.0 sessions@\(sessions), STALE"), out.stdout)
        XCTAssertTrue(out.stdout.contains("lineage: sessions.csv is stale: hrv.csv changed since (read "), out.stdout)
        XCTAssertTrue(out.stdout.contains("lineage: song_effects.csv is stale: made from session_plays.csv, which is stale"), out.stdout)
        XCTAssertTrue(out.stdout.contains("lineage: daily.csv is stale: hrv.csv changed since"), out.stdout)
        let chain = try run("lineage", ws, "song_effects.csv").stdout
        XCTAssertTrue(chain.contains("from hrv.csv, SHA-256 "), chain)
        XCTAssertTrue(chain.contains("(CHANGED since)"), chain)
        XCTAssertTrue(chain.contains("from source file sample/S01/IBI.csv, SHA-256 "), chain)
        XCTAssertEqual(chain.components(separatedBy: "from source file sample/S01/IBI.csv").count, 2, "sources listed once: \(chain)")
        XCTAssertTrue(chain.contains("from the \(Sample.files) source files listed under "), chain)

        // sessions now follows hrv.csv's artifact method, and says so.
        try run("sessions", ws)
        let lineage = try XCTUnwrap(try manifest(ws).table("sessions.csv")?.lineage)
        XCTAssertEqual(lineage.settings["artifacts"], "none (as hrv.csv)")
        let report = dir + "/report"
        try run("validate", ws, "--report-dir", report)
        let md = try String(contentsOfFile: report + "/validation.md", encoding: .utf8)
        // sessions again: its tables are current (on the sample, with the same bytes, so
        // the effects made from them are current too); daily still read the old hrv.csv.
        XCTAssertTrue(md.contains("- **daily.csv is stale: hrv.csv changed since (read "), md)
        XCTAssertFalse(md.contains("session_plays.csv is stale"), md)
        XCTAssertTrue(md.contains("| daily.csv | 2 | daily 1.1.0 | bio_age@1.0.0 coaching@1.0.0 daily_inputs@1.2.0 morning_recovery@1.1.0 readiness@2.0.0 stress@1.4.0 trend@2.0.0 zones@2.0.0 | age_years=none; tz=none | stale |"), md)
    }

    func testSessionsWithoutHRVUseTheDefaultAndSaySo() throws {
        let dir = try makeTempDir(), ws = dir + "/ws"
        try run("import", Sample.path, "--out", ws)
        try run("sessions", ws)
        XCTAssertEqual(try manifest(ws).table("sessions.csv")?.lineage?.settings["artifacts"],
                       "lipponen (the default; no hrv.csv with lineage)")
    }

    func testUnknownTableIsAnErrorNamingTheTables() throws {
        let dir = try makeTempDir(), ws = dir + "/ws"
        try run("import", Sample.path, "--out", ws)
        assertFailure(try resonance("lineage", ws, "dayly.csv"), "no table 'dayly.csv' in this workspace (it has: daily_inputs.csv, hr.csv")
    }

    func testPersonaTablesRecordTheGeneratorSettings() throws {
        let dir = try makeTempDir(), ws = dir + "/ws"
        try run("personas", "generate", "--out", ws, "--days", "2", "--seed", "7")
        let m = try manifest(ws)
        for t in m.tables {
            let l = try XCTUnwrap(t.lineage, t.name)
            XCTAssertEqual(l.command, "personas generate", t.name)
            XCTAssertEqual(l.settings["seed"], "7", t.name)
            XCTAssertEqual(l.settings["days"], "2", t.name)
            XCTAssertEqual(l.settings["personas"]?.split(separator: ",").count, 10, t.name)
        }
        XCTAssertEqual(m.table("truth.csv")?.lineage?.engines.map(\.name), ["zones"])
        XCTAssertEqual(m.table("daily.csv")?.lineage?.engines.map(\.name), ["bio_age", "daily_inputs", "readiness", "stress", "trend", "zones"])
        XCTAssertEqual(m.table("zones.csv")?.lineage?.engines.map(\.name), ["zones"])
        XCTAssertEqual(m.table("subjects.csv")?.lineage?.engines.map(\.name), ["bio_age"], "the personas' height is the product's average")
    }
}
