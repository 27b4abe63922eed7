import XCTest
@testable import ResonanceLab

/// `Importer.readInMemory` (what the fuzz targets run) reads a file exactly as an
/// import does: the same format, rows read, accepted, rejected, notes and R-R stamp
/// as the manifest records, with nothing written.
final class ImportInMemoryTests: XCTestCase {
    /// The manifest entry without what only a written import has (digest, duplicates
    /// found when tables are merged) and with the path as given.
    private func comparable(_ file: SourceFile, path: String) -> SourceFile {
        var file = file
        file.path = path
        file.sha256 = ""
        file.duplicates = 0
        return file
    }

    func testEverySampleFileReadsInMemoryAsItImports() throws {
        let files = ["S01/HR.csv", "S01/IBI.csv", "S01/tags_S01.csv", "S02/Apple Music Play Activity.csv",
                     "S02/health.csv", "S02/heart.csv", "labels.csv"]
        for name in files {
            // A copy alone in its folder, to see that reading it in memory writes nothing there.
            let dir = try makeTempDir() + "/" + (name as NSString).deletingLastPathComponent
            let path = dir + "/" + (name as NSString).lastPathComponent
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: PipelineTests.sample + "/" + name, toPath: path)
            let memory = try Importer.readInMemory(path)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), [(name as NSString).lastPathComponent])
            let (_, manifest) = try importSources([path])
            XCTAssertEqual(comparable(memory, path: path), comparable(manifest.sources[0], path: path), name)
            XCTAssertGreaterThan(memory.rowsRead, 0, name)
        }
    }

    func testAForcedFormatAndItsAccountingInMemory() throws {
        let path = try writeFixture("""
            Phone timestamp;RR-interval [ms]
            2024-03-01T08:00:00.812;812
            2024-03-01T08:00:01.602;790
            2024-03-01T08:00:02.447;200

            """, to: try makeTempDir() + "/P1/rr.txt")
        let file = try Importer.readInMemory(path, options: Importer.Options(format: .polarSensorLogger))
        XCTAssertEqual(file.format, "polar-sensor-logger")
        XCTAssertEqual([file.rowsRead, file.accepted, file.rejected], [3, 2, 1])
        XCTAssertEqual(file.rrStamp, "end")
        XCTAssertThrowsError(try Importer.readInMemory(path, options: Importer.Options(format: .spotifyExtended)))
    }
}
