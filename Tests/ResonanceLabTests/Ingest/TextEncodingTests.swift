import XCTest
@testable import ResonanceLab

/// One rule turns every file's bytes into text (docs/import.md, Text encodings): a UTF-8
/// byte-order mark is skipped, UTF-16 with its mark (Excel's "Unicode text") is converted,
/// and an encoding that is not read is named in the error with the file and what was found.
final class TextEncodingTests: XCTestCase {
    static let csv = "subject,timestamp,bpm\r\nZoë,2024-03-01T08:00:00Z,61\r\n🎵x,2024-03-01T08:00:01Z,62\r\n"

    private func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = try makeTempDir() + "/P1/" + name
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
        (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) + text.utf16.flatMap { u -> [UInt8] in
            bigEndian ? [UInt8(u >> 8), UInt8(u & 0xFF)] : [UInt8(u & 0xFF), UInt8(u >> 8)]
        }
    }

    func testUTF16WithItsMarkAndUTF8WithAMarkReadAsPlainUTF8() throws {
        let plain = try importSources([try write(Array(Self.csv.utf8), "plain.csv")])
        let expected = try plain.0.read(HRSample.self)
        XCTAssertEqual(expected.map(\.subject), ["Zoë", "🎵x"])
        for (name, bytes) in [("marked.csv", [0xEF, 0xBB, 0xBF] + Array(Self.csv.utf8)),
                              ("le.csv", utf16(Self.csv, bigEndian: false)), ("be.csv", utf16(Self.csv, bigEndian: true))] {
            let path = try write(bytes, name)
            XCTAssertEqual(try SourceFormat.detect(path: path), .genericCSV, name)
            let (ws, m) = try importSources([path])
            XCTAssertEqual([m.sources[0].rowsRead, m.sources[0].accepted], [2, 2], name)
            XCTAssertEqual(try ws.read(HRSample.self), expected, name)
        }
        // Excel's "Unicode text": UTF-16 LE, tab-separated; the separator is sniffed from the text.
        let tabbed = try write(utf16("timestamp\tbpm\r\n2024-03-01T08:00:00Z\t61\r\n", bigEndian: false), "unicode.txt")
        let (ws, _) = try importSources([tabbed])
        XCTAssertEqual(try ws.read(HRSample.self).map(\.bpm), [61])
        // A JSON export saved as UTF-16 is detected and read as well.
        let json = try write(utf16("[{\"ts\": \"2024-03-01T10:03:20Z\", \"ms_played\": 200000, \"master_metadata_track_name\": "
            + "\"Rivière\", \"master_metadata_album_artist_name\": \"Joni\"}]\n", bigEndian: true), "Streaming_History_Audio_2024.json")
        XCTAssertEqual(try SourceFormat.detect(path: json), .spotifyExtended)
        let (plays, _) = try importSources([json])
        XCTAssertEqual(try plays.read(Play.self).map(\.title), ["Rivière"])
    }

    func testAnEncodingThatIsNotReadIsNamedWithTheFile() throws {
        let utf32 = try write([0xFF, 0xFE, 0x00, 0x00] + Array("timestamp,bpm\n".utf8), "utf32.csv")
        XCTAssertThrowsError(try importSources([utf32])) { error in
            XCTAssertEqual("\(error)", "\(utf32):1:1: cannot read the text: text in UTF-32 LE (byte-order mark FF FE 00 00), "
                + "an encoding the import does not read: save it as UTF-8 (or UTF-16)")
        }
        // UTF-16 that breaks off inside a surrogate pair: the line and byte where it does.
        let broken = try write(utf16("timestamp,bpm\n2024-03-01T08:00:00Z,61\n", bigEndian: false) + [0x3D, 0xD8, 0x41, 0x00], "broken.csv")
        XCTAssertThrowsError(try importSources([broken])) { error in
            XCTAssertEqual("\(error)", "\(broken):3:1: cannot read the text: invalid UTF-16 LE (byte-order mark at its start): "
                + "a high surrogate D83D not followed by a low one, byte 80 of the file")
        }
        // Inside a folder the file is recorded as failed with the same message, the rest imports.
        let folder = (utf32 as NSString).deletingLastPathComponent
        try writeFixture("timestamp,bpm\n2024-03-01T08:00:00Z,61\n", to: folder + "/hr.csv")
        let (_, m) = try importSources([folder])
        XCTAssertEqual(m.sources.map { "\($0.path) \($0.failure ?? "read")" }, [
            "P1/hr.csv read",
            "P1/utf32.csv \(utf32):1:1: cannot read the text: text in UTF-32 LE (byte-order mark FF FE 00 00), an encoding the "
                + "import does not read: save it as UTF-8 (or UTF-16)",
        ])
    }

    /// UTF-16 is converted in chunks: a code unit or a surrogate pair cut by a chunk's end
    /// reads the same as a whole one.
    func testUTF16AcrossChunkBoundaries() throws {
        let text = String(repeating: "é🎵a\n", count: 40_000)
        let path = try write(utf16(text, bigEndian: false), "long.txt")
        let file = try TextFile(path: path)
        var out: [UInt8] = []
        while true {
            let chunk = try file.read(upToCount: 7)
            if chunk.isEmpty { break }
            out += chunk
        }
        XCTAssertEqual(out, Array(text.utf8))
        XCTAssertEqual(file.encoding, .utf16LE)
    }
}
