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
}

final class ImportProvenanceTests: XCTestCase {
    func testManifestRecordsTheConstantsInForce() throws {
        let dir = try makeTempDir()
        let csv = try writeFixture("time,bpm\n1709280000,60\n", to: dir + "/hr.csv")
        let constants = try writeFixture(#"{"engines":{"sessions":{"version":"1.1.0","constants":{"gap_minutes":20}}}}"#,
                                         to: dir + "/c.json")
        let registry = try ConstantsRegistry(contentsOf: constants)
        let ws = Workspace(path: dir + "/ws")
        try Importer.run(sources: [csv], workspace: ws, options: Importer.Options(registry: registry))
        let manifest = try Manifest.read(from: ws)
        XCTAssertEqual(manifest.constantsDigest, registry.digest)
        XCTAssertNotEqual(manifest.constantsDigest, ConstantsRegistry.defaults.digest)
        XCTAssertTrue(manifest.constantsVersion?.contains("sessions@1.1.0") ?? false)
    }
}
