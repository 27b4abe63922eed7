import XCTest
@testable import ResonanceLab

/// A large heart-rate CSV read in ranges on several workers (`GenericCSV.readInRanges`)
/// gives the bytes of a one-pass read: `hr.csv`, `rejects.csv` with its line numbers and
/// `manifest.json`; the ranges themselves begin at records (`RecordRanges`). Tiny ranges
/// (down to one byte: a cut after every record) put a boundary at every awkward place.
final class GenericCSVRangesTests: XCTestCase {
    /// The files a range cut can disturb.
    private let compared = ["hr.csv", "rejects.csv", "manifest.json"]

    /// Imports `path` with `jobs` workers and ranges of `rangeBytes`: the compared files'
    /// text, or the error's.
    private func imported(_ path: String, jobs: Int, rangeBytes: Int, options given: Importer.Options = Importer.Options()) throws -> [String] {
        let ws = Workspace(path: try makeTempDir() + "/ws")
        var options = given
        options.jobs = jobs
        options.rangeBytes = rangeBytes
        do {
            try Importer.run(sources: [path], workspace: ws, options: options)
        } catch {
            return ["error: \(error)"]
        }
        return compared.map { String(decoding: FileManager.default.contents(atPath: ws.file($0)) ?? Data(), as: UTF8.self) }
    }

    /// 120 records of three subjects (one of them a Latin-1 id) with a quoted newline, an
    /// out-of-range bpm, an unparsable time, a missing subject, a wider row, a blank line and
    /// a quoted bpm with a doubled quote in every ten, then a row out of order and a duplicate.
    private func awkwardCSV(crlf: Bool = false, bom: Bool = false) -> [UInt8] {
        let end: [UInt8] = crlf ? [13, 10] : [10]
        var out: [UInt8] = bom ? [0xEF, 0xBB, 0xBF] : []
        func line(_ parts: [UInt8]...) { out += parts.joined() + end }
        line(Array("subject,timestamp,bpm,note".utf8))
        func time(_ i: Int) -> [UInt8] { Array(Timestamp.iso(1_709_280_000_000 + Int64(i) * 1000).utf8) }
        for i in 0..<120 {
            let subject = [Array("P01".utf8), [0x50, 0xE9, 0x32], Array(" P03 ".utf8)][i / 40]
            let bpm = Array("\(60 + i % 30).5".utf8)
            switch i % 10 {
            case 1: line(subject, [44], time(i), [44], bpm, Array(",\"a note".utf8), end, Array("over two lines\"".utf8))
            case 3: line(subject, [44], time(i), Array(",300,".utf8))
            case 4: line(subject, Array(",not a time,70,".utf8))
            case 5: line(Array(",".utf8), time(i), Array(",70,".utf8))
            case 6: line(subject, [44], time(i), Array(",70,x,extra".utf8))
            case 7: line([])
            case 8: line([34], subject, [34, 44], time(i), Array(",\"7\"\"1\",q".utf8))
            default: line(subject, [44], time(i), [44], bpm, [44])
            }
        }
        line(Array("P01,".utf8), time(2), Array(",62.5,".utf8))
        line(Array("P01,".utf8), time(0), Array(",60.5,".utf8))
        return out
    }

    private func write(_ bytes: [UInt8], name: String = "hr.csv") throws -> String {
        let path = try makeTempDir() + "/P00/" + name
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    func testRangesBeginAtRecordsAndNeverInsideQuotes() throws {
        // Bytes 2–6 are a quoted field holding the newline at 4: the first cut past byte 3
        // is the newline at 9, the next the last newline (13), which ends the file.
        let path = try write(Array("h\n\"a\nb\",1\nc,2\n".utf8))
        XCTAssertEqual(try RecordRanges.split(path: path, bytes: 3), [0..<10, 10..<14])
        XCTAssertEqual(try RecordRanges.split(path: path, bytes: 100), [0..<14])
        // UTF-16 text is converted as a whole: no ranges.
        let utf16 = try write([0xFF, 0xFE] + Array("h\nc,2\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, name: "u.csv")
        XCTAssertNil(try RecordRanges.split(path: utf16, bytes: 1))
    }

    func testRangesReadAsTheWholeFile() throws {
        for (crlf, bom) in [(false, false), (true, true)] {
            let path = try write(awkwardCSV(crlf: crlf, bom: bom))
            var whole: [[String]] = []
            try CSVReader(path: path).forEachRecord { whole.append($0.strings + ["@\($0.line)"]) }
            for bytes in [1, 9, 64] {
                let ranges = try XCTUnwrap(try RecordRanges.split(path: path, bytes: bytes))
                XCTAssertGreaterThan(ranges.count, 20)
                var pieces: [[String]] = [], before = 0
                for range in ranges {
                    let reader = CSVReader(path: path, byteRange: range, rangeFirstLine: before + 1)
                    try reader.forEachRecord { pieces.append($0.strings + ["@\($0.line)"]) }
                    before += reader.lineEnds
                }
                XCTAssertEqual(pieces, whole, "ranges of \(bytes) bytes")
            }
        }
    }

    func testParallelImportWritesTheBytesOfOnePass() throws {
        for (crlf, bom) in [(false, false), (true, false), (false, true), (true, true)] {
            let path = try write(awkwardCSV(crlf: crlf, bom: bom))
            let serial = try imported(path, jobs: 1, rangeBytes: 1)
            XCTAssertEqual(serial.count, 3, serial.first ?? "")
            // Line 6 holds record 3 (the quoted newline of record 1 takes lines 3 and 4).
            XCTAssertTrue(serial[1].contains(",6,3,bpm outside 20–250,"), serial[1])
            for bytes in [1, 16, 97] {
                XCTAssertEqual(try imported(path, jobs: 2, rangeBytes: bytes), serial, "crlf \(crlf), bom \(bom), \(bytes) bytes")
            }
        }
    }

    func testZonesTimeFormatsAndTheExportDateReadAsInOnePass() throws {
        // Naive times: read in --tz (the zone note comes from every range), then a layout
        // --time-format names; rows after --exported-at rejected as one pass rejects them.
        var naive = "subject,time,hr\n", formatted = "subject,time,hr\n"
        for i in 0..<90 {
            let ms = 1_709_280_000_000 + Int64(i) * 60_000
            let iso = Timestamp.iso(ms)
            naive += "P0\(i % 2),\(iso.dropLast(5)),\(i % 7 == 0 ? "19" : "7\(i % 10)")\n"
            let (y, mo, d) = (iso.prefix(4), iso.dropFirst(5).prefix(2), iso.dropFirst(8).prefix(2))
            formatted += "P01,\(d)/\(mo)/\(y) \(iso.dropFirst(11).prefix(8)),7\(i % 10)\n"
        }
        var zoned = Importer.Options(timeZone: TimeZone(identifier: "Europe/Berlin"))
        zoned.exportedAtMs = 1_709_280_000_000 + 45 * 60_000
        var layout = Importer.Options()
        layout.columns = ColumnMapping(timeFormat: "dd/MM/yyyy HH:mm:ss")
        for (text, options) in [(naive, zoned), (formatted, layout)] {
            let path = try write(Array(text.utf8))
            let serial = try imported(path, jobs: 1, rangeBytes: 1, options: options)
            XCTAssertEqual(serial.count, 3, serial.first ?? "")
            XCTAssertTrue(serial[2].contains("naive local times read"), serial[2])
            for bytes in [1, 50] {
                XCTAssertEqual(try imported(path, jobs: 2, rangeBytes: bytes, options: options), serial, "\(bytes) bytes")
            }
        }
    }

    func testAMalformedQuoteFailsAtTheSameLineAfterTheSameRows() throws {
        var bytes = awkwardCSV()
        bytes += Array("P01,2024-03-01T09:00:00Z,\"7\"0,\n".utf8) + awkwardCSV().split(separator: 10, maxSplits: 1)[1]
        let path = try write(bytes)
        let serial = try imported(path, jobs: 1, rangeBytes: 1)
        XCTAssertTrue(serial[0].hasPrefix("error: ") && serial[0].contains(":136:"), serial[0])
        for size in [1, 33] { XCTAssertEqual(try imported(path, jobs: 2, rangeBytes: size), serial) }
    }

    func testUTF16IsReadInOnePass() throws {
        let text = String(decoding: awkwardCSV().filter { $0 < 0x80 }, as: UTF8.self)
        let path = try write([0xFF, 0xFE] + Array(text.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        let serial = try imported(path, jobs: 1, rangeBytes: 1)
        XCTAssertTrue(serial[0].hasPrefix("subject,timestamp,bpm,source\n"), serial[0])
        XCTAssertEqual(try imported(path, jobs: 2, rangeBytes: 1), serial)
    }
}
