import Foundation
import XCTest
@testable import ResonanceLab

/// R-R logger exports, fixtures written from each app's documented layout: the
/// format detected, rows read / accepted / rejected, the beat times worked by hand
/// and the manifest's clock entry.
final class RRLoggerFormatsTests: XCTestCase {
    /// Polar Sensor Logger: `;`-separated, phone local time, stamped at the closing beat.
    func testPolarSensorLogger() throws {
        let path = try writeFixture("""
            Phone timestamp;RR-interval [ms]
            2024-03-01T08:00:00.812;812
            2024-03-01T08:00:01.602;790
            2024-03-01T08:00:02.447;845
            2024-03-01T08:00:03.277;830
            2024-03-01T08:00:04.077;800
            2024-03-01T08:00:04.277;200
            2024-03-01T08:00:05.097;820

            """, to: try makeTempDir() + "/P1/Polar_H10_1A2B3C4D_20240301_080000_RR.txt")
        let (ws, m) = try importSources([path])
        let s = m.sources[0]
        XCTAssertEqual(s.format, "polar-sensor-logger")
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [7, 6, 1])
        XCTAssertEqual(s.rrStamp, "end")
        XCTAssertTrue(s.notes.contains("naive local times read as UTC (no --tz given)"), "\(s.notes)")
        let rows = try ws.read(RRInterval.self)
        XCTAssertEqual(rows.map(\.rrMs), [812, 790, 845, 830, 800, 820])
        XCTAssertEqual(rows.map { $0.timestampMs - 1_709_280_000_000 }, [812, 1602, 2447, 3277, 4077, 5097])
        XCTAssertEqual(rows.first?.source, "polar-sensor-logger")
        XCTAssertEqual(try ws.read(Reject.self).map(\.reason), ["rr outside 250–2500 ms"])
        // The device id in the name is not a person: the subject is the folder.
        XCTAssertEqual(m.subjects.map(\.subject), ["P1"])
    }

    /// HRV Logger: `date, rr, since start`, each interval stamped at its opening beat.
    func testHRVLoggerStampedAtTheOpeningBeat() throws {
        let path = try writeFixture("""
            date, rr, since start
            2024-03-01 08:00:00.000, 812, 0
            2024-03-01 08:00:00.812, 790, 812
            2024-03-01 08:00:01.602, 845, 1602
            2024-03-01 08:00:02.447, 830, 2447
            2024-03-01 08:00:03.277, 800, 3277
            2024-03-01 08:00:04.077, n/a, 4077
            2024-03-01 08:00:04.077, 820, 4077

            """, to: try makeTempDir() + "/P2/rr.csv")
        let (ws, m) = try importSources([path])
        let s = m.sources[0]
        XCTAssertEqual(s.format, "hrv-logger")
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [7, 6, 1])
        XCTAssertEqual(s.rrStamp, "start")
        XCTAssertTrue(s.notes.contains { $0.hasPrefix("rr timestamps mark the opening beat") && $0.contains("0 of 5 steps fit the closing beat, 5 the opening beat") }, "\(s.notes)")
        let rows = try ws.read(RRInterval.self)
        // Closing beat = opening stamp + interval.
        XCTAssertEqual(rows.map { $0.timestampMs - 1_709_280_000_000 }, [812, 1602, 2447, 3277, 4077, 4897])
        let rejects = try ws.read(Reject.self)
        XCTAssertEqual(rejects.map(\.line), [7])
        XCTAssertEqual(rejects.map(\.column), [2])
        XCTAssertEqual(rejects.map(\.reason), ["unparsable rr"])
    }

    /// HRV Logger's unix variant: a `timestamp` column in unix milliseconds, still
    /// stamped at each interval's opening beat.
    func testHRVLoggerUnixTimestamps() throws {
        let path = try writeFixture("""
            timestamp, rr, since start
            1709280000000, 812, 0
            1709280000812, 790, 812
            1709280001602, 845, 1602
            1709280002447, 830, 2447
            1709280003277, 800, 3277
            1709280004077, 2600, 4077
            1709280004077, 820, 4077

            """, to: try makeTempDir() + "/P4/rr.csv")
        let (ws, m) = try importSources([path])
        let s = m.sources[0]
        XCTAssertEqual(s.format, "hrv-logger")
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [7, 6, 1])
        XCTAssertEqual(s.rrStamp, "start")
        XCTAssertTrue(s.notes.contains("time column 'timestamp': ISO 8601, or unix ms when ≥ 1e11 else unix s"), "\(s.notes)")
        XCTAssertFalse(s.notes.contains { $0.hasPrefix("naive local times") }, "unix times carry no zone question")
        let rows = try ws.read(RRInterval.self)
        XCTAssertEqual(rows.map(\.rrMs), [812, 790, 845, 830, 800, 820])
        XCTAssertEqual(rows.map { $0.timestampMs - 1_709_280_000_000 }, [812, 1602, 2447, 3277, 4077, 4897])
        XCTAssertEqual(try ws.read(Reject.self).map(\.reason), [RRConstants.defaults.rejectReason])
        XCTAssertEqual(m.subjects.map(\.subject), ["P4"])
    }

    /// Kubios two-column text: seconds since the recording's start, anchored at --start.
    func testKubiosTwoColumnAnchoredAtStart() throws {
        let path = try writeFixture("Time(s)\tRR(s)\n0.812\t0.812\n1.602\t0.790\n2.447\t0.845\n3.277\t0.830\n4.077\t0.800\n4.897\t0.820\n",
                                    to: try makeTempDir() + "/P3/kubios.txt")
        var options = Importer.Options()
        options.startMs = 1_709_280_000_000
        let ws = Workspace(path: try makeTempDir() + "/ws")
        let m = try Importer.run(sources: [path], workspace: ws, options: options)
        let s = m.sources[0]
        XCTAssertEqual(s.format, "kubios-rr")
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [6, 6, 0])
        XCTAssertEqual(s.rrStamp, "end")
        XCTAssertTrue(s.notes.contains { $0.contains("anchored at 2024-03-01T08:00:00.000Z (--start)") }, "\(s.notes)")
        let rows = try ws.read(RRInterval.self)
        XCTAssertEqual(rows.map(\.rrMs), [812, 790, 845, 830, 800, 820])
        XCTAssertEqual(rows.map { $0.timestampMs - 1_709_280_000_000 }, [812, 1602, 2447, 3277, 4077, 4897])
    }

    /// A layout no rule knows, read with the column options.
    func testColumnMappingOptions() throws {
        let path = try writeFixture("""
            who|when|pulse rate|beat gap
            A|01/03/2024 08:00:00|61|
            A|01/03/2024 08:00:01|x|

            """, to: try makeTempDir() + "/custom.csv")
        var options = Importer.Options()
        options.columns = ColumnMapping(delimiter: "|", time: "when", bpm: "pulse rate", subject: "who",
                                        timeFormat: "dd/MM/yyyy HH:mm:ss")
        options.format = .genericCSV
        let ws = Workspace(path: try makeTempDir() + "/ws")
        let m = try Importer.run(sources: [path], workspace: ws, options: options)
        XCTAssertEqual([m.sources[0].rowsRead, m.sources[0].accepted, m.sources[0].rejected], [2, 1, 1])
        XCTAssertEqual(try ws.read(HRSample.self), [HRSample(subject: "A", timestampMs: 1_709_280_000_000, bpm: 61, source: "csv")])
        options.columns.bpm = "heart"
        XCTAssertThrowsError(try Importer.run(sources: [path], workspace: Workspace(path: try makeTempDir() + "/ws"), options: options)) {
            XCTAssertTrue("\($0)".contains("--bpm-column 'heart' is not a column"), "\($0)")
        }
    }
}
