import XCTest
@testable import ResonanceLab

/// Accounting identity, sorting and de-duplication, time zones and determinism.
final class ImportBehaviourTests: XCTestCase {
    func testAccountingSortingAndDuplicates() throws {
        // Rows out of order, one exact duplicate (line 5 = line 2), one bad row.
        let path = try writeFixture("""
            subject,time,bpm
            P2,1709280002,70
            P1,1709280001,65
            P1,1709280000,64
            P2,1709280002,70
            P1,1709280003,abc

            """, to: try makeTempDir() + "/hr.csv")
        let (ws, m) = try importSources([path])
        XCTAssertEqual(try ws.read(HRSample.self).map { "\($0.subject)@\($0.timestampMs / 1000 % 10)" }, ["P1@0", "P1@1", "P2@2"])
        let s = m.sources[0]
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected, s.duplicates], [5, 4, 1, 1])
        assertAccounting(m)
    }

    func testNaiveTimesUseTheGivenZoneOrUTC() throws {
        let path = try writeFixture("timestamp,bpm\n2024-07-01 12:00:00,60\n2024-01-15T12:00:00.250,61\n2024-07-01T12:00:00+02:00,62\n",
                                    to: try makeTempDir() + "/hr.csv")
        let (utcWS, utc) = try importSources([path], subject: "P")
        XCTAssertEqual(utc.timezone, "UTC")
        XCTAssertTrue(utc.sources[0].notes.contains("naive local times read as UTC (no --tz given)"))
        XCTAssertEqual(try utcWS.read(HRSample.self).map(\.timestampMs),
                       [1_705_320_000_250, 1_719_828_000_000, 1_719_835_200_000])
        let (ws, local) = try importSources([path], tz: "Europe/Paris", subject: "P")
        XCTAssertEqual(local.timezone, "Europe/Paris")
        // Paris is UTC+1 in January (CET): 12:00:00.250 local = 11:00:00.250Z, 3 600 000 ms
        // before the UTC reading; UTC+2 in July (CEST): 12:00 local = 10:00Z, the same
        // instant as the zoned 12:00+02:00 row, which is unchanged.
        XCTAssertEqual(try ws.read(HRSample.self).map(\.timestampMs),
                       [1_705_320_000_250 - 3_600_000, 1_719_828_000_000, 1_719_828_000_000])
    }

    func testTheSameImportTwiceIsByteIdentical() throws {
        let dir = try makeTempDir()
        let path = try writeFixture("subject,time,rr\nA,1709280001,810\nA,1709280000,800\nB,1709280000,5\n", to: dir + "/rr.csv")
        let (a, _) = try importSources([path])
        let (b, _) = try importSources([path])
        for name in ["hr.csv", "rr.csv", "hrv_samples.csv", "plays.csv", "labels.csv", "sleep.csv", "workouts.csv",
                     "rejects.csv", "manifest.json"] {
            XCTAssertEqual(FileManager.default.contents(atPath: a.file(name)), FileManager.default.contents(atPath: b.file(name)), name)
            XCTAssertNotNil(FileManager.default.contents(atPath: a.file(name)), "\(name) is written even when empty")
        }
    }

    func testFolderOfDatabasesGroupsSubjects() throws {
        let root = try makeTempDir() + "/physionet"
        try writeFixture("0.8\n0.81\n", to: root + "/nsr2db/nsr001_rr_secs.txt")
        try writeFixture("0.6\n", to: root + "/chf2db/chf201_rr_secs.txt")
        try writeFixture("800\n", to: root + "/healthy/000.txt")
        let (_, m) = try importSources([root])
        XCTAssertEqual(m.subjects.map { "\($0.subject):\($0.group ?? "-")" }, ["000:healthy", "chf201:chf2db", "nsr001:nsr2db"])
        XCTAssertEqual(m.sources.map(\.path), ["physionet/chf2db/chf201_rr_secs.txt", "physionet/healthy/000.txt",
                                               "physionet/nsr2db/nsr001_rr_secs.txt"])
    }

    func testForcedFormat() throws {
        // A one-column file named like nothing known, read as PhysioNet RR by force.
        let path = try writeFixture("800\n900\n", to: try makeTempDir() + "/beats.dat")
        XCTAssertThrowsError(try importSources([path]))
        let (ws, _) = try importSources([path], format: .physionetRR, subject: "P")
        XCTAssertEqual(try ws.read(RRInterval.self).map(\.timestampMs), [800, 1700])
    }
}
