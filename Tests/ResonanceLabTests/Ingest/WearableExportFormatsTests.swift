import XCTest
@testable import ResonanceLab

/// Fitbit Takeout and Empatica EmbracePlus exports, fixtures written from each
/// vendor's documented file names and columns: detection, rows read / accepted /
/// rejected, values and instants worked by hand, and the manifest entry.
final class WearableExportFormatsTests: XCTestCase {
    /// 2024-03-01T00:00:00Z.
    let day = Timestamp.parseISO("2024-03-01T00:00:00Z")!.ms
    let hour: Int64 = 3_600_000

    func testFitbitHeartRateJSONInTheAccountsZone() throws {
        let path = try writeFixture("""
            [{
              "dateTime" : "03/01/24 06:00:05",
              "value" : {
                "bpm" : 62,
                "confidence" : 2
              }
            },{
              "dateTime" : "03/01/24 06:00:10",
              "value" : {
                "bpm" : 64,
                "confidence" : 3
              }
            },{
              "dateTime" : "03/01/24 06:00:15",
              "value" : {
                "bpm" : 300,
                "confidence" : 0
              }
            },{
              "dateTime" : "13/01/24 06:00:20",
              "value" : {
                "bpm" : 65,
                "confidence" : 1
              }
            }]
            """, to: try makeTempDir() + "/dana/heart_rate-2024-03-01.json")
        let (ws, m) = try importSources([path], tz: "America/Los_Angeles")
        let s = m.sources[0]
        XCTAssertEqual(s.format, "fitbit-hr")
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [4, 2, 2])
        XCTAssertTrue(s.notes.contains("naive local times read in America/Los_Angeles (--tz)"), "\(s.notes)")
        XCTAssertTrue(s.notes.contains { $0.contains("per level: 2: 1, 3: 1") }, "\(s.notes)")
        // 06:00:05 PST (UTC−8) is 14:00:05Z.
        XCTAssertEqual(try ws.read(HRSample.self), [
            HRSample(subject: "dana", timestampMs: day + 14 * hour + 5000, bpm: 62, source: "fitbit"),
            HRSample(subject: "dana", timestampMs: day + 14 * hour + 10_000, bpm: 64, source: "fitbit"),
        ])
        let rejects = try ws.read(Reject.self)
        XCTAssertEqual(rejects.map(\.reason), [HRConstants.defaults.rejectReason, "unparsable dateTime"])
        XCTAssertEqual(rejects.map(\.line), [13, 19], "the line each element starts on (its `},{` line)")
        // Without --tz the same wall-clock times are read as UTC, and the manifest says so.
        let (utc, m2) = try importSources([path])
        XCTAssertEqual(try utc.read(HRSample.self).first?.timestampMs, day + 6 * hour + 5000)
        XCTAssertTrue(m2.sources[0].notes.contains("naive local times read as UTC (no --tz given)"))
    }

    func testFitbitWallClockParsing() {
        XCTAssertEqual(Fitbit.wallClock("03/01/24 06:00:05"), day + 6 * hour + 5000)
        XCTAssertEqual(Fitbit.wallClock("02/29/24 23:59:59"), day - 1000)
        for bad in ["02/30/24 00:00:00", "03/01/2024 06:00:05", "03/01/24 24:00:00", "3/1/24 6:00:05", ""] {
            XCTAssertNil(Fitbit.wallClock(bad), bad)
        }
    }

    func testFitbitHRVDetailsGoToRMSSD() throws {
        let path = try writeFixture("""
            timestamp,rmssd,coverage,low_frequency,high_frequency
            2024-03-01T02:00:00,38.2,0.93,512.1,301.2
            2024-03-01T02:05:00,41.0,0.6,500.0,280.0
            2024-03-01T02:10:00,,0.0,,

            """, to: try makeTempDir() + "/dana/Heart Rate Variability Details - 2024-03-01.csv")
        let (ws, m) = try importSources([path], tz: "America/Los_Angeles")
        let s = m.sources[0]
        XCTAssertEqual(s.format, "fitbit-hrv")
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [3, 2, 1])
        XCTAssertTrue(s.notes.contains { $0.hasPrefix("rmssd (ms, 5-minute window starting at timestamp) → hrv_samples.rmssd_ms") })
        XCTAssertEqual(try ws.read(HRVSample.self), [
            HRVSample(subject: "dana", timestampMs: day + 10 * hour, rmssdMs: 38.2, source: "fitbit"),
            HRVSample(subject: "dana", timestampMs: day + 10 * hour + 300_000, rmssdMs: 41.0, source: "fitbit"),
        ])
        let rejects = try ws.read(Reject.self)
        XCTAssertEqual(rejects.map(\.reason), ["rmssd not a positive number"])
        XCTAssertEqual(rejects.map(\.line), [4])
        XCTAssertEqual(rejects.map(\.column), [2])
    }

    func testEmbracePlusPulseRateAndPRV() throws {
        let dir = try makeTempDir() + "/embrace"
        try writeFixture("""
            timestamp_unix,timestamp_iso,participant_full_id,pulse_rate_bpm,missing_value_reason
            1709280000000,2024-03-01T08:00:00Z,1-1-001,61.2,
            1709280060000,2024-03-01T08:01:00Z,1-1-001,,device_not_worn_correctly
            1709280120000,2024-03-01T08:02:00Z,1-1-001,,device_not_worn_correctly
            1709280180000,2024-03-01T08:03:00Z,1-1-001,260,
            1709280240000,2024-03-01T08:04:00Z,1-1-001,63.8,

            """, to: dir + "/1-1-001_2024-03-01_pulse-rate.csv")
        try writeFixture("""
            timestamp_unix,timestamp_iso,participant_full_id,prv_rmssd_ms,missing_value_reason
            1709280000000,2024-03-01T08:00:00Z,1-1-001,45.5,
            1709280060000,2024-03-01T08:01:00Z,1-1-001,,device_not_recording
            1709280120000,2024-03-01T08:02:00Z,1-1-001,-3,

            """, to: dir + "/1-1-001_2024-03-01_prv.csv")
        let (ws, m) = try importSources([dir])
        XCTAssertEqual(m.sources.map(\.format), ["embrace-plus", "embrace-plus"])
        let (prv, pulse) = (m.sources[0], m.sources[1])  // byte order of the names
        // Minutes without a value are counted per reason, not read as rows.
        XCTAssertEqual([pulse.rowsRead, pulse.accepted, pulse.rejected], [3, 2, 1])
        XCTAssertEqual(pulse.unusedRecords, ["missing_value_reason=device_not_worn_correctly": 2])
        XCTAssertEqual([prv.rowsRead, prv.accepted, prv.rejected], [2, 1, 1])
        XCTAssertEqual(prv.unusedRecords, ["missing_value_reason=device_not_recording": 1])
        XCTAssertEqual(m.subjects.map(\.subject), ["1-1-001"], "the subject is participant_full_id, not the folder")
        let t = day + 8 * hour
        XCTAssertEqual(try ws.read(HRSample.self), [
            HRSample(subject: "1-1-001", timestampMs: t, bpm: 61.2, source: "embrace_plus"),
            HRSample(subject: "1-1-001", timestampMs: t + 240_000, bpm: 63.8, source: "embrace_plus"),
        ])
        XCTAssertEqual(try ws.read(HRVSample.self), [HRVSample(subject: "1-1-001", timestampMs: t, rmssdMs: 45.5, source: "embrace_plus")])
        XCTAssertEqual(try ws.read(Reject.self).map(\.reason), ["prv_rmssd_ms not a positive number", HRConstants.defaults.rejectReason])
        XCTAssertEqual(try ws.read(Reject.self).map(\.line), [4, 5])
    }

    func testHRVSamplesRoundTripWithBothColumns() throws {
        let ws = Workspace(path: try makeTempDir() + "/a")
        let rows = [HRVSample(subject: "u", timestampMs: day, sdnnMs: 48.2, source: "apple_health"),
                    HRVSample(subject: "u", timestampMs: day + 300_000, rmssdMs: 38.2, source: "fitbit")]
        try ws.write(rows)
        let (copy, m) = try importSources([ws.file(HRVSample.fileName)])
        XCTAssertEqual(m.sources[0].format, "canonical")
        XCTAssertEqual(try copy.read(HRVSample.self), rows)
        XCTAssertEqual(try String(contentsOfFile: copy.file(HRVSample.fileName), encoding: .utf8),
                       "subject,timestamp,sdnn_ms,rmssd_ms,source\nu,2024-03-01T00:00:00.000Z,48.2,,apple_health\nu,2024-03-01T00:05:00.000Z,,38.2,fitbit\n")
    }
}
