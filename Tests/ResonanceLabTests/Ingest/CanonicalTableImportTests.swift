import XCTest
@testable import ResonanceLab

final class CanonicalTableImportTests: XCTestCase {
    /// A generated persona workspace is itself canonical: re-importing it rejects
    /// nothing and rewrites every table byte for byte.
    func testPersonaWorkspaceReimportsByteIdenticallyWithoutRejects() throws {
        let source = Workspace(path: try makeTempDir() + "/personas")
        let generator = PersonaGenerator(personas: Array(PersonaProfile.all.prefix(3)), days: 2, seed: 5)
        try generator.generate(into: source, jobs: 2)
        let (ws, manifest) = try importSources([source.path])
        assertAccounting(manifest)
        XCTAssertEqual(manifest.sources.map(\.rejected).reduce(0, +), 0)
        XCTAssertEqual(Set(manifest.sources.map(\.format)), ["canonical"])
        XCTAssertEqual(manifest.subjects.count, 3)
        for table in ["hr.csv", "rr.csv", "plays.csv", "sleep.csv", "workouts.csv", "labels.csv"] {
            let original = try Data(contentsOf: URL(fileURLWithPath: source.file(table)))
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: ws.file(table))), original, table)
        }
        XCTAssertGreaterThan(try ws.read(RRInterval.self).count, 1000)
    }

    /// Columns are found by name: a repeated name is its last column, an absent one none.
    func testColumnIndexFindsEachNameAndTheLastOfARepeatedOne() {
        let columns = ColumnIndex(["subject", "timestamp", "bpm", "source", "bpm"])
        XCTAssertEqual(columns["subject"], 0)
        XCTAssertEqual(columns["timestamp"], 1)
        XCTAssertEqual(columns["source"], 3)
        XCTAssertEqual(columns["bpm"], 4)
        XCTAssertNil(columns["rr_ms"])
        XCTAssertNil(columns["Subject"])
        // Forty names, several of one length and the same end bytes, share slots.
        let header = (0..<40).map { "c\($0 % 10)x\($0 / 10)" }
        let wide = ColumnIndex(header)
        for (i, name) in header.enumerated() { XCTAssertEqual(wide[name], i, name) }
        XCTAssertNil(wide["c0x4"])
    }

    func testImplausibleAndUnparsableCanonicalRowsAreRejectedWithTheirColumn() throws {
        let dir = try makeTempDir()
        let path = try writeFixture("""
            subject,timestamp,rr_ms,source
            A,2026-01-05T00:00:00.000Z,800.0,x
            A,2026-01-05T00:00:01.000Z,12.0,x
            A,yesterday,800.0,x
            A,2026-01-05T00:00:02.000Z,810.5,x

            """, to: dir + "/rr.csv")
        let (ws, manifest) = try importSources([path])
        assertAccounting(manifest)
        XCTAssertEqual(manifest.sources.first?.rowsRead, 4)
        XCTAssertEqual(try ws.read(RRInterval.self).map(\.rrMs), [800, 810.5])
        let rejects = try ws.read(Reject.self)
        XCTAssertEqual(rejects.map(\.line), [3, 4])
        XCTAssertEqual(rejects.map(\.column), [3, 2])
        XCTAssertEqual(rejects.first?.reason, "rr outside 250–2500 ms")
        XCTAssertTrue(rejects.last?.reason.contains("ISO 8601") ?? false, rejects.last?.reason ?? "")
    }

    /// `subjects.csv` and `daily_inputs.csv` of any origin import row by row: a person
    /// without data keeps their row; an unknown metric or a unit other than the metric's
    /// is rejected with its column.
    func testSubjectsAndDailyInputsImportRowByRow() throws {
        let dir = try makeTempDir()
        let people = try writeFixture("""
            subject,birth_year,sex,height_cm,weight_kg,time_zone,source
            P2,1975,male,180,82.5,Europe/Oslo,study
            P1,1990,female,,,,study
            P3,1980,unknown,,,,study

            """, to: dir + "/subjects.csv")
        let days = try writeFixture("""
            subject,date,metric,value,unit,source
            P1,2026-01-05,steps,9000,count,Watch
            P1,2026-01-05,resting_hr,54,bpm,Watch
            P1,2026-01-06,naps,2,count,Watch
            P1,2026-01-06,steps,9,kcal,Watch

            """, to: dir + "/daily_inputs.csv")
        let (ws, manifest) = try importSources([people, days])
        assertAccounting(manifest)
        XCTAssertEqual(try ws.read(SubjectRow.self), [
            SubjectRow(subject: "P1", birthYear: 1990, sex: "female", source: "study"),
            SubjectRow(subject: "P2", birthYear: 1975, sex: "male", heightCm: 180, weightKg: 82.5, timeZone: "Europe/Oslo", source: "study"),
        ])
        XCTAssertEqual(try ws.read(DailyInputRow.self).map(\.metric), ["resting_hr", "steps"])
        let rejects = try ws.read(Reject.self)
        XCTAssertEqual(rejects.map(\.column), [3, 3, 5])
        XCTAssertEqual(rejects.map(\.line), [4, 4, 5])
        XCTAssertTrue(rejects[0].reason.contains("'sex' is 'unknown'"), rejects[0].reason)
        XCTAssertTrue(rejects[1].reason.hasPrefix("unknown metric (one of resting_hr, "), rejects[1].reason)
        XCTAssertEqual(rejects[2].reason, "unit is not count")
    }

    /// A `subjects.csv` time zone Foundation does not know is rejected with its column
    /// (local days would otherwise fall back to UTC unnoticed); aliases are read sorted.
    func testSubjectsZoneIsCheckedAndAliasesRead() throws {
        let dir = try makeTempDir()
        let people = try writeFixture("""
            subject,birth_year,sex,height_cm,weight_kg,time_zone,source,aliases
            P1,1990,female,,,Europe/Londn,study,
            P2,1975,male,,,Europe/London,study,p2_spotify; p2_apple;

            """, to: dir + "/subjects.csv")
        let (ws, manifest) = try importSources([people])
        assertAccounting(manifest)
        XCTAssertEqual(try ws.read(SubjectRow.self),
                       [SubjectRow(subject: "P2", birthYear: 1975, sex: "male", timeZone: "Europe/London", source: "study",
                                   aliases: ["p2_apple", "p2_spotify"])])
        let rejects = try ws.read(Reject.self)
        XCTAssertEqual(rejects.map(\.line), [2])
        XCTAssertEqual(rejects.map(\.column), [6])
        XCTAssertEqual(rejects.first?.reason, "'time_zone' is not an IANA time zone: 'Europe/Londn'")
    }
}

final class ImportProvenanceTests: XCTestCase {
    /// Every imported table's lineage: the import stage, the `hr` and `rr` constants in
    /// force (the engines an import uses; `sessions`, changed too, is not recorded), the zone
    /// setting, and each source file with its digest.
    func testTablesRecordTheImportsConstantsAndSources() throws {
        let dir = try makeTempDir()
        let csv = try writeFixture("time,bpm\n1709280000,60\n", to: dir + "/hr.csv")
        let constants = try writeFixture(#"{"engines":{"sessions":{"version":"2.1.0","constants":{"gap_minutes":20}},"rr":{"version":"1.0.1","constants":{"rr_max_ms":2400}}}}"#,
                                         to: dir + "/c.json")
        let registry = try ConstantsRegistry(contentsOf: constants)
        let ws = Workspace(path: dir + "/ws")
        try ImportStage(sources: [csv]).runCommitted(ws, StageContext(registry: registry))
        let manifest = try Manifest.read(from: ws)
        XCTAssertEqual(manifest.tables.count, 10)
        for table in manifest.tables {
            let lineage = try XCTUnwrap(table.lineage, table.name)
            XCTAssertEqual(lineage.command, "import")
            XCTAssertEqual(lineage.engines, [EngineIdentity(name: "hr", version: "1.0.0", digest: registry.digest(of: "hr")),
                                             EngineIdentity(name: "rr", version: "1.0.1", digest: registry.digest(of: "rr"))])
            XCTAssertNotEqual(registry.digest(of: "rr"), ConstantsRegistry.defaults.digest(of: "rr"))
            XCTAssertEqual(lineage.settings, ["timezone": "UTC"])
            XCTAssertEqual(lineage.inputs, [.source(manifest.sources[0].path, sha256: try SHA256.hex(ofFile: csv))])
            XCTAssertTrue(manifest.sources[0].path.hasSuffix("/hr.csv"), manifest.sources[0].path)
        }
    }
}
