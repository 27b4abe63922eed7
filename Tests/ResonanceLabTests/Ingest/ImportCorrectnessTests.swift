import Foundation
import XCTest
@testable import ResonanceLab

/// Exports that used to import without a word and give wrong numbers: R-R stamped at
/// the opening beat, participants sharing a folder, ids that are not UTF-8, clockless
/// series, and folders with one bad file.
final class ImportCorrectnessTests: XCTestCase {
    /// 60 intervals with large beat-to-beat swings (RMSSD ≈ 100 ms), all plausible.
    static let intervals: [Double] = (0..<60).map { (i: Int) -> Double in
        let swing: Double = 90 * sin(Double(i) * 2.1)
        return 820 + swing + Double(i % 4) * 15
    }

    /// `timestamp,rr` text: each interval stamped at its opening beat (`start`) or its
    /// closing beat, ISO times with milliseconds from 2024-03-01T08:00:00Z.
    static func rrText(_ rr: [Double], startStamped: Bool, t0: Int64 = 1_709_280_000_000, header: String = "timestamp,rr") -> String {
        var t = t0
        var lines = [header]
        for v in rr {
            let ms = Int64(v.rounded())
            if startStamped { lines.append("\(Timestamp.iso(t)),\(ms)"); t += ms } else { t += ms; lines.append("\(Timestamp.iso(t)),\(ms)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func importedRMSSD(_ ws: Workspace) throws -> Double {
        let series = try ws.readSeries(RRInterval.self)
        XCTAssertEqual(series.count, 1)
        let nn = NNSeries.clean(timestampsMs: series[0].timestampsMs, rrMs: series[0].values, method: .none)
        return HRVTime.rmssd(NNWindow(nn, 0..<nn.count))
    }

    func testStartStampedRRGivesTheRMSSDOfTheIntervals() throws {
        let rr = Self.intervals.map { $0.rounded() }
        let truth = HRVTime.rmssd(rr)
        XCTAssertGreaterThan(truth, 80)
        let path = try writeFixture(Self.rrText(rr, startStamped: true), to: try makeTempDir() + "/P1/rr.csv")
        let (ws, m) = try importSources([path])
        XCTAssertEqual(m.sources[0].rrStamp, "start")
        XCTAssertEqual(abs(try Self.importedRMSSD(ws) - truth) / truth, 0, accuracy: 0.01)
        // Interval k now closes at its opening stamp + its length.
        let rows = try ws.read(RRInterval.self)
        XCTAssertEqual(rows[0].timestampMs, 1_709_280_000_000 + Int64(rr[0]))
    }

    func testEndStampedRRIsKeptAndForcedStartIsApplied() throws {
        let rr = Self.intervals.map { $0.rounded() }
        let path = try writeFixture(Self.rrText(rr, startStamped: false), to: try makeTempDir() + "/P1/rr.csv")
        let (ws, m) = try importSources([path])
        XCTAssertEqual(m.sources[0].rrStamp, "end")
        XCTAssertEqual(try Self.importedRMSSD(ws), HRVTime.rmssd(rr), accuracy: 1e-9)
        var options = Importer.Options()
        options.rrStamp = .start
        let forced = Workspace(path: try makeTempDir() + "/ws")
        let manifest = try Importer.run(sources: [path], workspace: forced, options: options)
        XCTAssertEqual(manifest.sources[0].rrStamp, "start")
        XCTAssertTrue(manifest.sources[0].notes.contains { $0.contains("(--rr-stamp start)") })
    }

    /// Whole-second stamps fit neither convention: the intervals are imported on
    /// their own clock, from the first stamp.
    func testCoarseClockIsIgnoredAndSaysSo() throws {
        let rr = Self.intervals.map { $0.rounded() }
        var lines = ["time,rr"]
        var t = 1_709_280_000_000.0
        for v in rr { t += v; lines.append("\(Int64(t / 1000)),\(Int(v))") }
        let path = try writeFixture(lines.joined(separator: "\n") + "\n", to: try makeTempDir() + "/P1/rr.csv")
        let (ws, m) = try importSources([path])
        XCTAssertEqual(m.sources[0].rrStamp, "clock ignored")
        XCTAssertEqual(try Self.importedRMSSD(ws), HRVTime.rmssd(rr), accuracy: 1e-9)
        let rows = try ws.read(RRInterval.self)
        XCTAssertEqual(rows[1].timestampMs - rows[0].timestampMs, Int64(rr[1]))
    }

    func testTwoParticipantFilesInOneFolderAreTwoSubjects() throws {
        let dir = try makeTempDir() + "/study"
        let rr = Self.intervals.map { $0.rounded() }
        try writeFixture(Self.rrText(rr, startStamped: false), to: dir + "/2024_RR_0001CTRL.csv")
        try writeFixture(Self.rrText(rr.reversed(), startStamped: false), to: dir + "/2024_RR_0002MUSI.csv")
        let (ws, m) = try importSources([dir])
        XCTAssertEqual(m.subjects.map(\.subject), ["0001CTRL", "0002MUSI"])
        XCTAssertEqual(try ws.readSeries(RRInterval.self).map(\.values.count), [60, 60])
    }

    func testOverlappingSeriesOfOneSubjectAreAnErrorNamingBothFiles() throws {
        let dir = try makeTempDir() + "/study"
        let rr = Self.intervals.map { $0.rounded() }
        try writeFixture(Self.rrText(rr, startStamped: false), to: dir + "/P7/morning.csv")
        try writeFixture(Self.rrText(rr.reversed(), startStamped: false, t0: 1_709_280_010_000), to: dir + "/P7/strap.csv")
        XCTAssertThrowsError(try importSources([dir])) { error in
            XCTAssertEqual(error as? ImportError, .overlap(subject: "P7", table: "R-R intervals",
                                                         first: "study/P7/morning.csv", second: "study/P7/strap.csv"))
            XCTAssertTrue("\(error)".contains("study/P7/strap.csv") && "\(error)".contains("study/P7/morning.csv"))
        }
        // Series that follow one another are one subject's recordings, not a clash.
        try writeFixture(Self.rrText(rr.reversed(), startStamped: false, t0: 1_709_290_000_000), to: dir + "/P7/strap.csv")
        let (_, m) = try importSources([dir])
        XCTAssertEqual(m.subjects.map(\.subject), ["P7"])
    }

    func testNonUTF8IdsDoNotMerge() throws {
        let dir = try makeTempDir()
        var bytes = Array("subject,timestamp,bpm\n".utf8)
        bytes += Array("caf".utf8) + [0xE9] + Array(",2024-03-01T08:00:00Z,60\n".utf8)
        bytes += Array("caf".utf8) + [0xE8] + Array(",2024-03-01T08:00:00Z,70\n".utf8)
        let path = dir + "/hr.csv"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let (ws, m) = try importSources([path])
        XCTAssertEqual(m.subjects.map(\.subject), ["cafè", "café"])
        XCTAssertEqual(try ws.read(HRSample.self).map(\.bpm), [70, 60])
        XCTAssertTrue(m.sources[0].notes.contains(IdText.latin1Note))
    }

    func testClocklessRRIsAnchoredAtStart() throws {
        let path = try writeFixture("812\n790\n", to: try makeTempDir() + "/elite.txt")
        let (ws0, m0) = try importSources([path])
        XCTAssertEqual(try ws0.read(RRInterval.self).map(\.timestampMs), [812, 1602])
        XCTAssertTrue(m0.sources[0].notes.contains { $0.contains("anchored at the epoch") }, "\(m0.sources[0].notes)")
        var options = Importer.Options()
        options.startMs = 1_709_280_000_000
        let ws = Workspace(path: try makeTempDir() + "/ws")
        let m = try Importer.run(sources: [path], workspace: ws, options: options)
        XCTAssertEqual(try ws.read(RRInterval.self).map(\.timestampMs), [1_709_280_000_812, 1_709_280_001_602])
        XCTAssertTrue(m.sources[0].notes.contains { $0.contains("anchored at 2024-03-01T08:00:00.000Z (--start)") })
    }

    /// The R-R range is the registry's: 250 and 2500 ms pass by default; a constants
    /// file narrowing it to 300–2000 rejects both, with the reason naming its numbers.
    func testRRRangeComesFromTheConstantsInForce() throws {
        let path = try writeFixture("250\n812\n2500\n2500.5\n", to: try makeTempDir() + "/elite.txt")
        let (ws0, _) = try importSources([path])
        XCTAssertEqual(try ws0.read(RRInterval.self).map(\.rrMs), [250, 812, 2500])
        XCTAssertEqual(try ws0.read(Reject.self).map(\.reason), ["rr outside 250–2500 ms"])
        var options = Importer.Options()
        options.registry = try ConstantsRegistry.defaults.replacing("rr", with: ["rr_min_ms": 300, "rr_max_ms": 2000])
        let ws = Workspace(path: try makeTempDir() + "/ws")
        let m = try Importer.run(sources: [path], workspace: ws, options: options)
        XCTAssertEqual(try ws.read(RRInterval.self).map(\.rrMs), [812])
        XCTAssertEqual(try ws.read(Reject.self).map(\.reason), Array(repeating: "rr outside 300–2000 ms", count: 3))
        XCTAssertEqual(m.sources[0].rowsRead, 4)
    }

    func testOneBadFileInAFolderIsRecordedAndTheRestImports() throws {
        let dir = try makeTempDir() + "/P3"
        try writeFixture("timestamp,bpm\n2024-03-01T08:00:00Z,60\n\"2024-03-01T08:00:01Z,61\n", to: dir + "/a.csv")
        try writeFixture("timestamp,bpm\n2024-03-01T09:00:00Z,65\n", to: dir + "/b.csv")
        var warnings: [String] = []
        var options = Importer.Options()
        options.warning = { warnings.append($0) }
        let ws = Workspace(path: try makeTempDir() + "/ws")
        let m = try Importer.run(sources: [dir], workspace: ws, options: options)
        XCTAssertEqual(m.sources.map(\.path), ["P3/a.csv", "P3/b.csv"])
        XCTAssertEqual(m.sources[0].failure, "\(dir)/a.csv:3:1: malformed quoted field")
        XCTAssertEqual(m.sources[1].failure, nil)
        // The bad quote is met while the header and first rows are examined: no row of a.csv is kept.
        XCTAssertEqual([m.sources[0].rowsRead, m.sources[0].accepted, m.sources[0].rejected], [0, 0, 0])
        XCTAssertEqual(try ws.read(HRSample.self).map(\.bpm), [65])
        XCTAssertEqual(warnings, ["P3/a.csv: failed: \(dir)/a.csv:3:1: malformed quoted field"])
        options.strict = true
        XCTAssertThrowsError(try Importer.run(sources: [dir], workspace: Workspace(path: try makeTempDir() + "/ws"), options: options))
    }
}
