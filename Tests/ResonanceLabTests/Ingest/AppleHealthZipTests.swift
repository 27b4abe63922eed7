import XCTest
import ZIPFoundation
@testable import ResonanceLab

/// Apple Health `export.zip`: the archive the Health app shares, built here with
/// ZIPFoundation around the export of `AppleHealthXMLTests` as its
/// `apple_health_export/export.xml`, deflated or stored, and damaged field by field.
final class AppleHealthZipTests: XCTestCase {
    static let entry = "apple_health_export/export.xml"

    /// Writes a zip holding `entries` (path → text), deflated unless `method` says
    /// otherwise, in order.
    func makeZip(_ path: String, _ entries: [(String, String)], method: CompressionMethod = .deflate) throws -> String {
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        for (name, text) in entries {
            let data = Data(text.utf8)
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count),
                                 compressionMethod: method) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return path
    }

    /// A one-entry archive of the export (its local header at byte 0) and the offsets
    /// of its central directory record and of its compressed data.
    func exportZip(method: CompressionMethod = .deflate) throws -> (path: String, bytes: [UInt8], record: Int, data: Int) {
        let dir = try makeTempDir() + "/p"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = try makeZip(dir + "/export.zip", [(Self.entry, AppleHealthXMLTests.export)], method: method)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let record = Int(Self.u32(bytes, bytes.count - 22 + 16))
        XCTAssertEqual(Self.u32(bytes, record), 0x0201_4B50, "central directory record")
        return (path, bytes, record, 30 + Int(Self.u16(bytes, 26)) + Int(Self.u16(bytes, 28)))
    }

    static func u16(_ b: [UInt8], _ at: Int) -> UInt32 { UInt32(b[at]) | UInt32(b[at + 1]) << 8 }
    static func u32(_ b: [UInt8], _ at: Int) -> UInt32 { u16(b, at) | u16(b, at + 2) << 16 }

    /// Sets a 32-bit field of the entry in its central directory record (at
    /// `record + field`) and local header (at `field - 2`: CRC-32 16 → 14, compressed
    /// size 20 → 18, uncompressed size 24 → 22), and writes the archive back.
    func patch(_ zip: (path: String, bytes: [UInt8], record: Int, data: Int), field: Int, _ value: UInt32) throws {
        var b = zip.bytes
        for at in [zip.record + field, field - 2] {
            for k in 0..<4 { b[at + k] = UInt8((value >> (8 * UInt32(k))) & 0xFF) }
        }
        try Data(b).write(to: URL(fileURLWithPath: zip.path))
    }

    /// Asserts that reading `path` fails, in an import and in memory, with the one line
    /// `PATH:0:0: cannot decompress apple_health_export/export.xml: MESSAGE`.
    func assertDecompressionFails(_ path: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        let expected = "\(path):0:0: cannot decompress \(Self.entry): \(message)"
        XCTAssertThrowsError(try importSources([path], format: .appleHealthZip), file: file, line: line) {
            XCTAssertEqual("\($0)", expected, file: file, line: line)
        }
        XCTAssertThrowsError(try Importer.readInMemory(path), file: file, line: line) {
            XCTAssertEqual("\($0)", expected, file: file, line: line)
        }
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
        // The same rows as export.xml read directly: 9 read, 7 accepted, 2 rejected.
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [9, 7, 2])
        XCTAssertNil(s.unusedRecords)
        XCTAssertTrue(s.notes.contains { $0.hasPrefix("read apple_health_export/export.xml from the archive (\(AppleHealthXMLTests.export.utf8.count) bytes)") }, "\(s.notes)")
        let rejects = try ws.read(Reject.self)
        XCTAssertEqual(rejects.map(\.reason), [HRConstants.defaults.rejectReason, "unknown sleep value"])
        XCTAssertEqual(rejects.map(\.sourceFile), ["carla/export.zip", "carla/export.zip"])
        XCTAssertEqual(rejects.map(\.line), [12, 25], "lines of export.xml inside the archive")
        let t = Timestamp.parseISO("2024-03-01T14:00:00Z")!.ms
        XCTAssertEqual(try ws.read(HRSample.self).map(\.timestampMs), [t])
        XCTAssertEqual(try ws.read(HRSample.self).map(\.subject), ["carla"])
        XCTAssertEqual(try ws.read(DailyInputRow.self).map(\.metric), ["resting_hr", "steps"])
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

    /// A stored (method 0) entry is copied: the same rows as the deflated one.
    func testStoredEntryGivesTheSameRows() throws {
        let zip = try exportZip(method: .none)
        XCTAssertEqual(Self.u16(zip.bytes, 8), 0, "stored")
        XCTAssertEqual(Array(zip.bytes[zip.data..<zip.data + 5]), Array("<?xml".utf8), "the text itself")
        let (ws, m) = try importSources([zip.path])
        XCTAssertEqual(m.sources.map(\.format), ["apple-health-zip"])
        XCTAssertEqual([m.sources[0].rowsRead, m.sources[0].accepted, m.sources[0].rejected], [9, 7, 2])
        XCTAssertEqual(try ws.read(RRInterval.self).map(\.rrMs), [970, 1030])
    }

    /// The compressed size cut in half: zlib needs more input than the entry holds.
    func testTruncatedDeflateStreamFailsNamingTheEntry() throws {
        let zip = try exportZip()
        let compressed = Self.u32(zip.bytes, zip.record + 20)
        XCTAssertGreaterThan(compressed, 100)
        try patch(zip, field: 20, compressed / 2)
        assertDecompressionFails(zip.path, "the compressed data (\(compressed / 2) bytes) ends before the deflate stream does")
    }

    /// A first byte 0x07 opens a final block of type 3, which RFC 1951 §3.2.3 reserves:
    /// zlib stops after that one byte.
    func testCorruptDeflateStreamFailsNamingTheByte() throws {
        var zip = try exportZip()
        zip.bytes[zip.data] = 0x07
        try Data(zip.bytes).write(to: URL(fileURLWithPath: zip.path))
        assertDecompressionFails(zip.path, "corrupt deflate stream at byte \(zip.data + 1) of the archive (invalid block type)")
    }

    /// The checksum with its last bit flipped: the message gives both, the one computed
    /// agreeing with ZIPFoundation's CRC-32 of the text.
    func testFlippedChecksumFailsGivingBoth() throws {
        let zip = try exportZip()
        let crc = Data(AppleHealthXMLTests.export.utf8).crc32(checksum: 0)
        XCTAssertEqual(Self.u32(zip.bytes, zip.record + 16), crc)
        try patch(zip, field: 16, crc ^ 1)
        func hex(_ v: UInt32) -> String { "0x" + String(format: "%08x", v) }
        assertDecompressionFails(zip.path, "CRC-32 \(hex(crc)) differs from the archive's \(hex(crc ^ 1))")
    }

    /// A declared size one byte short stops the inflation at that size; one byte long
    /// is found at the end of the stream.
    func testDeclaredSizeOtherThanTheDataFails() throws {
        let size = UInt32(AppleHealthXMLTests.export.utf8.count)
        let zip = try exportZip()
        XCTAssertEqual(Self.u32(zip.bytes, zip.record + 24), size)
        try patch(zip, field: 24, size - 1)
        assertDecompressionFails(zip.path, "it holds more than the \(size - 1) bytes the archive declares")
        try patch(zip, field: 24, size + 1)
        assertDecompressionFails(zip.path, "it holds \(size) bytes, the archive declares \(size + 1)")
    }

    /// The temporary file is created exclusively: a symlink planted at its first name
    /// is neither followed nor removed, and the export is read through the next name.
    func testTemporaryFileIsNeverOpenedThroughAPlantedName() throws {
        let zip = try exportZip()
        let victim = try writeFixture("keep\n", to: try makeTempDir() + "/victim.txt")
        let planted = NSTemporaryDirectory() + "/.export.xml.\(getpid()).tmp"
        try FileManager.default.createSymbolicLink(atPath: planted, withDestinationPath: victim)
        defer { unlink(planted) }
        let file = try Importer.readInMemory(zip.path)
        XCTAssertEqual([file.rowsRead, file.accepted, file.rejected], [9, 7, 2])
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "keep\n")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: planted), victim)
        XCTAssertFalse(FileManager.default.fileExists(atPath: NSTemporaryDirectory() + "/.export.xml.\(getpid())-1.tmp"))
    }
}
