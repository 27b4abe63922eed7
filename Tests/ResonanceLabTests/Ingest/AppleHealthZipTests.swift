import XCTest
import ZIPFoundation
@testable import ResonanceLab

/// Apple Health `export.zip`: the archive the Health app shares, built here with the
/// export of `AppleHealthXMLTests` as its deflated `apple_health_export/export.xml`.
final class AppleHealthZipTests: XCTestCase {
    /// Writes a zip holding `entries` (path → text), deflated, in order.
    func makeZip(_ path: String, _ entries: [(String, String)]) throws -> String {
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        for (name, text) in entries {
            let data = Data(text.utf8)
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count),
                                 compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return path
    }

    func testExportZipReadsTheExportEntry() throws {
        let dir = try makeTempDir() + "/carla"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let zip = try makeZip(dir + "/export.zip", [
            ("apple_health_export/export_cda.xml", "<?xml version=\"1.0\"?><ClinicalDocument/>\n"),
            ("apple_health_export/electrocardiograms/ecg_2024-03-01.csv", "Name,Carla\n"),
            ("apple_health_export/export.xml", AppleHealthXMLTests.export),
        ])
        let (ws, m) = try importSources([zip])
        XCTAssertEqual(m.sources.count, 1)
        let s = m.sources[0]
        XCTAssertEqual(s.path, "carla/export.zip")
        XCTAssertEqual(s.format, "apple-health-zip")
        // The same rows as export.xml read directly: 7 read, 5 accepted, 2 rejected.
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [7, 5, 2])
        XCTAssertEqual(s.unusedRecords, ["HKQuantityTypeIdentifierStepCount": 2])
        XCTAssertTrue(s.notes.contains { $0.hasPrefix("read apple_health_export/export.xml from the archive (\(AppleHealthXMLTests.export.utf8.count) bytes)") }, "\(s.notes)")
        let rejects = try ws.read(Reject.self)
        XCTAssertEqual(rejects.map(\.reason), [PlausibleRange.bpmReason, "unknown sleep value"])
        XCTAssertEqual(rejects.map(\.sourceFile), ["carla/export.zip", "carla/export.zip"])
        XCTAssertEqual(rejects.map(\.line), [12, 25], "lines of export.xml inside the archive")
        let t = Timestamp.parseISO("2024-03-01T14:00:00Z")!.ms
        XCTAssertEqual(try ws.read(HRSample.self).map(\.timestampMs), [t - 6 * 3_600_000, t])
        XCTAssertEqual(try ws.read(HRSample.self).map(\.subject), ["carla", "carla"])
        XCTAssertEqual(try ws.read(RRInterval.self).map(\.rrMs), [970, 1030])
        // The decompressed entry is a temporary file, gone after the import.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: ws.path).filter { $0.hasSuffix(".tmp") }, [])
    }

    func testZipWithoutExportIsSkippedInAFolderAndAnErrorAlone() throws {
        let dir = try makeTempDir() + "/carla"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let other = try makeZip(dir + "/photos.zip", [("a.txt", "hello\n")])
        try writeFixture("timestamp,bpm\n2024-03-01T08:00:00Z,61\n", to: dir + "/hr_log.csv")
        let (_, m) = try importSources([dir])
        XCTAssertEqual(m.sources.map(\.path), ["carla/hr_log.csv"], "a zip without export.xml holds nothing we read")
        XCTAssertThrowsError(try importSources([other], format: .appleHealthZip)) {
            XCTAssertTrue("\($0)".contains("no apple_health_export/export.xml in the archive"), "\($0)")
        }
    }

    func testCorruptArchiveFailsNamingTheFile() throws {
        let path = try writeFixture("PK\u{3}\u{4}not really a zip", to: try makeTempDir() + "/p/export.zip")
        XCTAssertThrowsError(try importSources([path], format: .appleHealthZip)) {
            XCTAssertTrue("\($0)".hasPrefix(path), "\($0)")
        }
    }
}
