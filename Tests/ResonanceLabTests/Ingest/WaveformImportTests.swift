import Foundation
import XCTest
@testable import ResonanceLab

/// Raw signals: the sample encoding, and the E4, WFDB and BIDMC readers with their accounting.
final class WaveformImportTests: XCTestCase {
    private func parse(_ text: String) -> (WaveformCodec.Fixed, Bool)? {
        text.withCString { p in WaveformCodec.parse(p, length: text.utf8.count).map { ($0.fixed, $0.rounded) } }
    }

    func testPrintedNumbersParseToTheirWholeNumberAndPlaces() throws {
        let cases: [(String, Int64, Int, String)] = [
            ("-0.43", -43, 2, "-0.43"), ("12.31", 1231, 2, "12.31"), ("64", 64, 0, "64"), ("0.000", 0, 3, "0.000"),
            (" 1.5e3 ", 1500, 0, "1500"), ("2.5E-1", 25, 2, "0.25"), (".5", 5, 1, "0.5"), ("+7", 7, 0, "7"),
            ("-0.005", -5, 3, "-0.005"), ("1644227574.000000", 1_644_227_574_000_000, 6, "1644227574.000000"),
        ]
        for (text, whole, places, back) in cases {
            let (fixed, rounded) = try XCTUnwrap(parse(text), text)
            XCTAssertEqual(fixed, WaveformCodec.Fixed(whole: whole, decimals: places), text)
            XCTAssertFalse(rounded, text)
            XCTAssertEqual(fixed.text, back, text)
            XCTAssertEqual(fixed.value, Double(text.trimmingCharacters(in: .whitespaces)), text)
        }
        // More than 9 places, or 16 significant digits: rounded half away from zero, and said.
        let (tiny, r1) = try XCTUnwrap(parse("0.12345678951"))
        XCTAssertEqual(tiny, WaveformCodec.Fixed(whole: 123_456_790, decimals: 9))
        XCTAssertTrue(r1)
        let (long, r2) = try XCTUnwrap(parse("-1.234567890123456"))
        XCTAssertEqual(long, WaveformCodec.Fixed(whole: -1_234_567_890, decimals: 9))
        XCTAssertTrue(r2)
        // 17 digits: the last dropped so that the whole number stays below 2^53.
        let (wide, r3) = try XCTUnwrap(parse("1234567.8901234567"))
        XCTAssertEqual(wide, WaveformCodec.Fixed(whole: 1_234_567_890_123_457, decimals: 9))
        XCTAssertTrue(r3)
        for bad in ["", "nan", "inf", "-", "1.2.3", "0x10", "1e", "12a", "1234567890123456789"] {
            XCTAssertNil(parse(bad), bad)
        }
    }

    func testBlocksDecodeToTheSamplesEncodedWhateverTheirPlaces() throws {
        var random = SeededRandom(seed: 7)
        var samples: [WaveformCodec.Fixed] = []
        for i in 0..<10_000 {
            // Places change within blocks; a huge value forces a new block.
            let places = i % 997 == 0 ? 6 : 2
            let whole = Int64(random.int(in: -50_000...50_000)) * (places == 6 ? 10_000 : 1)
            samples.append(WaveformCodec.Fixed(whole: whole, decimals: places))
        }
        samples.insert(WaveformCodec.Fixed(whole: (1 << 52) + 1, decimals: 0), at: 5000)
        var encoder = WaveformCodec.Encoder()
        for s in samples { encoder.append(s) }
        encoder.flush()
        let bytes = encoder.take()
        var decoded: [Double] = []
        try bytes.withUnsafeBytes { try WaveformCodec.decode($0) { decoded.append($0.value) } }
        XCTAssertEqual(decoded, samples.map(\.value))
        // Random steps of up to ±1000.00 take 3 bytes; a block holding a 6-place sample
        // keeps every sample at 6 places (5 bytes); their text takes about 8.
        XCTAssertLessThan(bytes.count, samples.count * 5)
        XCTAssertGreaterThan(bytes.count, samples.count * 3)
        XCTAssertThrowsError(try Array(bytes.dropLast()).withUnsafeBytes { try WaveformCodec.decode($0) { _ in } })
    }

    /// An E4 BVP file as Stress-Predict's S01 has it (CRLF, integer header values), with
    /// a run of two bad lines and one more: each run is one reject counting its lines, and
    /// a gap between segments whose sample times stay exact.
    func testE4PulseWaveImportsAtItsPrecisionWithRunsRejectedAndGaps() throws {
        let dir = try makeTempDir() + "/S01"
        let lines = ["1644226061", "64", "-0.43", "12.31", "abc", "nan", "3.00", "-1.5", "", "inf", "7.25", "7.25", "7.25"]
        try writeFixture(lines.joined(separator: "\r\n") + "\r\n", to: dir + "/BVP.csv")
        let (ws, m) = try importSources([dir + "/BVP.csv"])
        assertAccounting(m)
        XCTAssertEqual(m.sources.map(\.format), ["e4-signal"])
        XCTAssertEqual(m.sources[0].rowsRead, 10)
        XCTAssertEqual(m.sources[0].rejected, 3)
        let rejects = try ws.read(Reject.self)
        XCTAssertEqual(rejects.map(\.line), [5, 10])
        XCTAssertEqual(rejects.map(\.raw), ["abc", "inf"])
        XCTAssertEqual(rejects[0].reason, "unparsable or non-finite samples: 2 rows, lines 5–6")
        let store = try WaveformStore(ws)
        XCTAssertEqual(store.segments.map(\.firstSample), [0, 4, 7])
        XCTAssertEqual(store.segments.map(\.samples), [2, 2, 3])
        XCTAssertEqual(store.segments.map(\.startMs), [1_644_226_061_000, 1_644_226_061_000, 1_644_226_061_000])
        XCTAssertEqual(store.segments[2].secondsFromStart(2), 9.0 / 64)
        XCTAssertEqual(try store.segments.flatMap { try store.physical($0) }, [-0.43, 12.31, 3, -1.5, 7.25, 7.25, 7.25])
        var texts: [String] = []
        for s in store.segments { try store.forEachSample(of: s) { texts.append($0.text) } }
        // A block keeps the most places of its samples: -1.5 comes back as -1.50, the same value.
        XCTAssertEqual(texts, ["-0.43", "12.31", "3.00", "-1.50", "7.25", "7.25", "7.25"])
        // Three equal values at the segment's only level: its rail.
        XCTAssertEqual(store.segments.map(\.clippedSamples), [0, 0, 3])
        XCTAssertEqual(m.subjects.map(\.subject), ["S01"])
        XCTAssertEqual(m.subjects.first?.start, "2022-02-07T09:27:41.000Z")
    }

    /// A row wider than the header (E4 and BIDMC) is rejected as a gap: the samples after
    /// it keep their frame, so their times, instead of moving one sample earlier.
    func testAWiderRowIsAGapThatKeepsTheLaterSamplesTimes() throws {
        let dir = try makeTempDir()
        try writeFixture("1644226061\n64\n1\n2\n3,4\n5\n6\n", to: dir + "/S01/BVP.csv")
        try writeFixture("Time [s], RESP, PLETH, V, AVR, II\n0,1,2,3,4,5\n0.008,1,2,3,4,5\n0.016,1,2,3,4,5,6\n0.024,1,2,3,4,5\n",
                         to: dir + "/bidmc_01_Signals.csv")
        for (source, line) in [(dir + "/S01/BVP.csv", 5), (dir + "/bidmc_01_Signals.csv", 4)] {
            let (ws, m) = try importSources([source])
            assertAccounting(m)
            XCTAssertEqual(m.sources[0].rejected, 1, source)
            XCTAssertEqual(try ws.read(Reject.self).map(\.line), [line], source)
            let firsts = try WaveformStore(ws).segments.map(\.firstSample)
            XCTAssertEqual(Set(firsts), [0, 3], source)
        }
    }

    /// Byte offsets past 2^31 read back (a cohort's waveforms.bin can pass 2 GB); one that
    /// points past the file's end is an error naming the row, not a trap.
    func testSegmentOffsetsPast2GiBReadAndOutOfRangeOnesAreErrors() throws {
        let dir = try makeTempDir() + "/S01"
        try writeFixture("1644226061\n64\n1.5\n2.5\n", to: dir + "/BVP.csv")
        let (ws, _) = try importSources([dir + "/BVP.csv"])
        let table = ws.file(WaveformSegment.fileName)
        let text = try String(contentsOfFile: table, encoding: .utf8)
        let row = try XCTUnwrap(text.split(separator: "\n").dropFirst().first)
        var fields = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[10] = "3000000000"
        try (text.split(separator: "\n")[0] + "\n" + fields.joined(separator: ",") + "\n").write(toFile: table, atomically: true, encoding: .utf8)
        XCTAssertEqual(try Workspace.readTable(WaveformSegment.self, path: table).map(\.offset), [3_000_000_000])
        XCTAssertThrowsError(try WaveformStore(Workspace(path: ws.path))) { error in
            // 8 bytes of magic, then one block of 4: its count, places, 15 and +10.
            XCTAssertTrue("\(error)".hasSuffix("waveforms.csv:2:11: segment bytes 3000000000..<3000000004 lie outside waveforms.bin (12 bytes)"), "\(error)")
        }
    }

    func testE4AccelerometerGivesThreeChannelsAndTheSessionFolderReadsEveryFile() throws {
        let dir = try makeTempDir() + "/P1"
        try writeE4ConnectSession(dir)
        let (ws, m) = try importSources([dir])
        assertAccounting(m)
        XCTAssertNil(m.skipped?.first { $0.path.hasSuffix(".csv") })
        let store = try WaveformStore(ws)
        XCTAssertEqual(Set(store.segments.map(\.channel)), ["acc_x", "acc_y", "acc_z", "bvp", "eda", "temp"])
        let acc = store.segments.filter { $0.channel.hasPrefix("acc") }
        XCTAssertEqual(acc.map(\.unit), ["1/64 g", "1/64 g", "1/64 g"])
        XCTAssertEqual(try acc.map { try store.physical($0) }, [[-13, -12], [59, 60], [17, 17]])
        XCTAssertEqual(acc.map(\.rateHz), [32, 32, 32])
    }

    /// A WFDB record written here in format 212 (and the same samples in format 16):
    /// the header as MIT-BIH's starts (a comment line, a blank line between signals).
    func testWFDBRecordsReadTheirSamplesGainsAndAnnotations() throws {
        let dir = try makeTempDir() + "/db"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let a: [Int] = [0, 1, -1, 2047, -2047, 500, -2048, 7]
        let b: [Int] = [-3, 4, 100, -100, 2000, -2000, 1, 2]
        var bytes: [UInt8] = []
        for (x, y) in zip(a, b) {
            let ux = UInt16(bitPattern: Int16(x)) & 0x0FFF, uy = UInt16(bitPattern: Int16(y)) & 0x0FFF
            bytes += [UInt8(ux & 0xFF), UInt8((ux >> 8) | ((uy >> 8) << 4)), UInt8(uy & 0xFF)]
        }
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/r1.dat"))
        try writeFixture("# a comment\nr1 2 360 8\nr1.dat 212 200 11 1024 0 0 0 MLII\n\nr1.dat 212 100(10)/uV 11 0 0 0 0 V5\n",
                         to: dir + "/r1.hea")
        var sixteen: [UInt8] = []
        for x in a { let u = UInt16(bitPattern: Int16(x == -2048 ? -32768 : x)); sixteen += [UInt8(u & 0xFF), UInt8(u >> 8)] }
        try Data(sixteen).write(to: URL(fileURLWithPath: dir + "/r2.dat"))
        try writeFixture("r2 1 500 8 12:00:00 01/03/2024\nr2.dat 16 1000 16 0 0 0 0 ECG\n", to: dir + "/r2.hea")
        // Annotations: N at 10, SKIP +1000, V at 1012 (with AUX "(N"), A at 1012 + 5.
        func word(_ code: Int, _ value: Int) -> [UInt8] { let w = code << 10 | value; return [UInt8(w & 0xFF), UInt8(w >> 8)] }
        var atr = word(1, 10) + word(59, 0) + [0, 0, 0xE8, 0x03] + word(5, 2) + word(63, 2) + Array("(N".utf8) + word(8, 5)
        atr += word(0, 0)
        try Data(atr).write(to: URL(fileURLWithPath: dir + "/r1.atr"))

        let (ws, m) = try importSources([dir])
        assertAccounting(m)
        XCTAssertEqual(m.sources.map(\.path), ["db/r1.atr", "db/r1.dat", "db/r2.dat"])
        XCTAssertEqual(m.sources.map(\.format), ["wfdb-annotations", "wfdb", "wfdb"])
        XCTAssertEqual(m.skipped?.map(\.path), ["db/r1.hea", "db/r2.hea"])
        XCTAssertEqual(m.subjects.map(\.subject), ["r1", "r2"])
        XCTAssertEqual(m.subjects.map(\.group), ["db", "db"])
        // Frame 7 holds the invalid-sample code: rejected, a gap.
        XCTAssertEqual(m.sources.map(\.rowsRead), [3, 8, 8])
        XCTAssertEqual(m.sources.map(\.rejected), [0, 1, 1])
        let store = try WaveformStore(ws)
        let r1 = store.segments.filter { $0.subject == "r1" }
        XCTAssertEqual(r1.map(\.channel), ["mlii", "mlii", "v5", "v5"])
        XCTAssertEqual(r1.map(\.gain), [200, 200, 100, 100])
        XCTAssertEqual(r1.map(\.baseline), [1024, 1024, 10, 10])
        XCTAssertEqual(r1.map(\.unit), ["mV", "mV", "uV", "uV"])
        var stored: [Int64] = []
        for s in r1 where s.channel == "mlii" { try store.forEachSample(of: s) { stored.append($0.whole) } }
        XCTAssertEqual(stored, [0, 1, -1, 2047, -2047, 500, 7].map(Int64.init))
        XCTAssertEqual(try store.physical(r1[2]), b.prefix(6).map { (Double($0) - 10) / 100 })
        let r2 = store.segments.filter { $0.subject == "r2" }
        XCTAssertEqual(r2.map(\.startMs), [ms("2024-03-01T12:00:00Z"), ms("2024-03-01T12:00:00Z")])
        XCTAssertEqual(r2.map(\.firstSample), [0, 7])
        XCTAssertEqual(try store.physical(r2[0]).last, 500.0 / 1000)
        let notes = m.sources[2].notes
        XCTAssertTrue(notes.contains { $0.contains("read in UTC") }, "\(notes)")

        let annotations = try ws.read(ReferenceAnnotation.self)
        XCTAssertEqual(annotations.map(\.sample), [10, 1012, 1017])
        XCTAssertEqual(annotations.map(\.label), ["N", "V", "A"])
        XCTAssertEqual(annotations.map(\.beat), [true, true, true])
        XCTAssertEqual(annotations.map(\.aux), ["", "(N", ""])
        XCTAssertEqual(annotations.map(\.timestampMs), [27, 2811, 2825])
    }

    /// BIDMC's rounded time column is not used: times come from the first step's rate.
    func testBIDMCSignalsTakeTheirRateFromTheFirstStep() throws {
        let dir = try makeTempDir() + "/bidmc"
        var text = "Time [s], RESP, PLETH, V, AVR, II\n"
        for k in 0..<300 {
            let t = Double(k) / 125
            text += "\(String(format: "%.5g", t)),0.\(k % 10)1,0.5,0.25,0.125,\(k % 7 == 0 ? "0.9" : "0.1")\n"
        }
        try writeFixture(text, to: dir + "/bidmc_01_Signals.csv")
        let (ws, m) = try importSources([dir])
        assertAccounting(m)
        XCTAssertEqual(m.sources.map(\.format), ["bidmc"])
        XCTAssertEqual(m.subjects.map(\.subject), ["bidmc_01"])
        XCTAssertFalse(m.sources[0].notes.contains { $0.contains("samples may be missing") }, "\(m.sources[0].notes)")
        let store = try WaveformStore(ws)
        XCTAssertEqual(store.segments.map(\.channel), ["resp", "pleth", "v", "avr", "ii"])
        XCTAssertEqual(Set(store.segments.map(\.rateHz)), [125])
        XCTAssertEqual(Set(store.segments.map(\.samples)), [300])
        XCTAssertEqual(try store.physical(store.segments[4]).prefix(8), [0.9, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.9])
    }
}
