import XCTest
@testable import ResonanceLab

/// One fixture per input format, with the expected canonical rows worked by hand.
final class FormatsTests: XCTestCase {
    func testGenericCSVWithISOTimesBpmAndSubjects() throws {
        let dir = try makeTempDir()
        let path = try writeFixture("""
            subject,timestamp,bpm
            B,2024-03-01T08:00:01.500Z,61
            A,2024-03-01T08:00:00Z,60.5
            A,2024-03-01T09:00:00+01:00,62
            A,2024-03-01T08:00:02Z,300
            A,yesterday,70

            """, to: dir + "/hr.csv")
        let (ws, m) = try importSources([path])
        // 09:00+01:00 = 08:00Z: same instant as the 60.5 row, sorted after it by value text.
        XCTAssertEqual(try ws.read(HRSample.self), [
            HRSample(subject: "A", timestampMs: 1_709_280_000_000, bpm: 60.5, source: "csv"),
            HRSample(subject: "A", timestampMs: 1_709_280_000_000, bpm: 62, source: "csv"),
            HRSample(subject: "B", timestampMs: 1_709_280_001_500, bpm: 61, source: "csv"),
        ])
        XCTAssertEqual(m.sources[0].format, "csv")
        XCTAssertEqual([m.sources[0].rowsRead, m.sources[0].accepted, m.sources[0].rejected], [5, 3, 2])
        let rejects = try ws.read(Reject.self)
        XCTAssertEqual(rejects.map(\.line), [5, 6])
        XCTAssertEqual(rejects.map(\.column), [3, 2])
        XCTAssertEqual(rejects.map(\.reason), ["bpm outside 20–250", "unparsable time"])
        XCTAssertEqual(rejects[0].raw, "A,2024-03-01T08:00:02Z,300")
        XCTAssertEqual(m.subjects.map(\.subject), ["A", "B"])
    }

    func testGenericCSVRRUnitFromHeaderAndFromMagnitude() throws {
        let dir = try makeTempDir()
        let secs = try writeFixture("time,rr\n1709280000,0.8\n1709280000.8,0.75\n", to: dir + "/a/rr.csv")
        let ms = try writeFixture("timestamp_ms,ibi (ms)\n1709280000000,800\n", to: dir + "/b/rr.csv")
        let (ws, m) = try importSources([secs, ms], subject: "P")
        // 0.8 s → 800 ms at unix 1709280000 s (b/rr.csv has the same row: kept once);
        // 0.75 s → 750 ms at 1709280000.8 s.
        XCTAssertEqual(try ws.read(RRInterval.self).map(\.rrMs), [800, 750])
        XCTAssertEqual(try ws.read(RRInterval.self).map(\.timestampMs), [1_709_280_000_000, 1_709_280_000_800])
        XCTAssertEqual(m.sources[1].duplicates, 1, "same subject, time, value and source as a row of a/rr.csv")
        XCTAssertTrue(m.sources[0].notes.contains("rr column 'rr' in seconds (from the values' magnitude)"), "\(m.sources[0].notes)")
        XCTAssertTrue(m.sources[1].notes.contains("rr column 'ibi (ms)' in milliseconds (from the header)"), "\(m.sources[1].notes)")
    }

    func testE4HeartRateIBIAndTags() throws {
        let dir = try makeTempDir() + "/S07"
        try writeFixture("1644227584.000000\n1.000000\n118.00\n15.0\n93.00\n", to: dir + "/HR.csv")
        try writeFixture("1644227574.000000, IBI\n604.000000,0.687500\n604.937500,0.937500\n610.0,3.1\n", to: dir + "/IBI.csv")
        try writeFixture("1644228196\r\n1644228572.5\r\n", to: dir + "/tags_S07.csv")
        try writeFixture("E4 notes\n", to: dir + "/info.txt")
        let (ws, m) = try importSources([dir])
        XCTAssertEqual(m.sources.map(\.format), ["e4-hr", "e4-ibi", "e4-tags"])
        // HR: sample k at 1644227584 s + k s; the 15 bpm sample (k = 1) is rejected.
        XCTAssertEqual(try ws.read(HRSample.self), [
            HRSample(subject: "S07", timestampMs: 1_644_227_584_000, bpm: 118, source: "e4"),
            HRSample(subject: "S07", timestampMs: 1_644_227_586_000, bpm: 93, source: "e4"),
        ])
        // IBI: 1644227574 s + 604 s = 1644228178 s; 0.6875 s = 687.5 ms; 604.9375 s → 604937.5 ms,
        // rounded half away from zero to 604938. 3.1 s is rejected.
        XCTAssertEqual(try ws.read(RRInterval.self), [
            RRInterval(subject: "S07", timestampMs: 1_644_228_178_000, rrMs: 687.5, source: "e4"),
            RRInterval(subject: "S07", timestampMs: 1_644_228_178_938, rrMs: 937.5, source: "e4"),
        ])
        XCTAssertEqual(try ws.read(LabelInterval.self), [
            LabelInterval(subject: "S07", startMs: 1_644_228_196_000, endMs: 1_644_228_196_000, label: "e4_tag"),
            LabelInterval(subject: "S07", startMs: 1_644_228_572_500, endMs: 1_644_228_572_500, label: "e4_tag"),
        ])
        XCTAssertEqual(m.sources.map(\.rowsRead), [3, 3, 2], "metadata lines are not data rows")
        XCTAssertEqual(try ws.read(Reject.self).map { "\($0.sourceFile):\($0.line):\($0.column)" },
                       ["S07/HR.csv:4:1", "S07/IBI.csv:4:2"])
    }

    func testPhysioNetRRCumulativeTimeFromEpochAndFirstOffsetRejected() throws {
        let dir = try makeTempDir() + "/nsr2db"
        try writeFixture("225.796875\n0.6953125\n0.7109375\n@\n0.8\n", to: dir + "/nsr001_rr_secs.txt")
        try writeFixture("800\r\n810\r\n\r\n", to: dir + "/x_rr_ms.txt")
        let (ws, m) = try importSources([dir])
        // Beat times: 225796.875 + 695.3125 = 226492.1875 ms → 226492 (rounded);
        // + 710.9375 = 227203.125 → 227203; '@' does not advance; + 800 = 228003.125 → 228003.
        XCTAssertEqual(try ws.read(RRInterval.self).filter { $0.subject == "nsr001" }.map(\.timestampMs),
                       [226_492, 227_203, 228_003])
        XCTAssertEqual(try ws.read(RRInterval.self).filter { $0.subject == "x" }.map(\.timestampMs), [800, 1610])
        let rejects = try ws.read(Reject.self)
        XCTAssertEqual(rejects.map(\.line), [1, 4])
        XCTAssertEqual(rejects.map(\.raw), ["225.796875", "@"])
        XCTAssertEqual(rejects.map(\.reason), ["rr outside 250–2500 ms", "unparsable rr"])
        XCTAssertEqual(m.subjects.map(\.subject), ["nsr001", "x"])
        XCTAssertEqual(m.subjects.map(\.group), ["nsr2db", "nsr2db"])
        XCTAssertEqual(m.sources.map(\.rowsRead), [5, 2])
    }

    func testAppleMusicPlaysSkipsAndRejects() throws {
        let dir = try makeTempDir() + "/alice"
        let header = "Album Name,Artist Name,Container Name,Container Type,End Reason Type,Event End Timestamp,Event Start Timestamp,Media Duration In Milliseconds,Play Duration Milliseconds,Song Name"
        let path = try writeFixture("""
            \(header)
            Blue,Joni Mitchell,Calm,PLAYLIST,TRACK_SKIPPED_FORWARDS,2022-02-07T09:29:10.000Z,2022-02-07T09:29:00.000Z,180000,10000,River
            Blue,Joni Mitchell,Blue,ALBUM,NATURAL_END_OF_TRACK,2022-02-07T09:33:00.000Z,2022-02-07T09:30:00.000Z,180000,180000,"Carey, live"
            X,Y,,,NATURAL_END_OF_TRACK,,2022-02-07T10:00:00.000Z,0,0,Zero
            X,Y,,,NATURAL_END_OF_TRACK,,2022-02-07T10:00:00.000Z,1000,0,
            X,Y,,,NATURAL_END_OF_TRACK,2022-02-07T09:00:00.000Z,2022-02-07T10:00:00.000Z,1000,0,Back

            """, to: dir + "/Apple Music Play Activity.csv")
        let (ws, m) = try importSources([path])
        let plays = try ws.read(Play.self)
        XCTAssertEqual(plays.map(\.title), ["River", "Carey, live"], "sorted by start time")
        XCTAssertEqual(plays.map(\.skipped), [true, false])
        XCTAssertEqual(plays.map(\.playlist), ["Calm", ""])
        XCTAssertEqual(plays[0].playedS, 10)
        XCTAssertEqual(plays[0].mediaDurationS, 180)
        XCTAssertEqual(plays[0].subject, "alice")
        // SHA-256("joni mitchell — river") = 9f0e1db03ebf9cd3… (Python hashlib).
        XCTAssertEqual(plays[0].songId, "9f0e1db03ebf9cd3")
        XCTAssertEqual(AppleMusic.songId(title: "  river", artist: "JONI   Mitchell"), "9f0e1db03ebf9cd3")
        XCTAssertNotEqual(plays[0].songId, plays[1].songId)
        XCTAssertTrue(plays[1].playId.hasPrefix("20220207T093000000Z-"), plays[1].playId)
        XCTAssertEqual(try ws.read(Reject.self).map(\.reason), ["zero media duration", "no song name", "end before start"])
        XCTAssertEqual([m.sources[0].rowsRead, m.sources[0].accepted, m.sources[0].rejected], [5, 2, 3])
    }

    func testAppleHealthRecords() throws {
        let dir = try makeTempDir() + "/bob"
        let path = try writeFixture("""
            type,sourceName,unit,startDate,endDate,value
            HKQuantityTypeIdentifierHeartRate,Watch,count/min,2022-02-07 09:29:00 +0100,2022-02-07 09:29:00 +0100,64
            HKQuantityTypeIdentifierHeartRateVariabilitySDNN,Watch,ms,2022-02-07 08:00:00 +0000,2022-02-07 08:01:00 +0000,48.5
            HKCategoryTypeIdentifierSleepAnalysis,Watch,,2022-02-07 01:00:00 +0000,2022-02-07 02:30:00 +0000,HKCategoryValueSleepAnalysisAsleepDeep
            HKWorkoutActivityTypeRunning,Watch,,2022-02-07 18:00:00 +0000,2022-02-07 18:30:00 +0000,
            HKQuantityTypeIdentifierStepCount,Watch,count,2022-02-07 18:00:00 +0000,2022-02-07 18:30:00 +0000,3000
            HKCategoryTypeIdentifierSleepAnalysis,Watch,,2022-02-07 03:00:00 +0000,2022-02-07 02:30:00 +0000,HKCategoryValueSleepAnalysisAwake

            """, to: dir + "/export.csv")
        let (ws, m) = try importSources([path])
        XCTAssertEqual(m.sources[0].format, "apple-health")
        // 09:29 +01:00 = 08:29Z.
        XCTAssertEqual(try ws.read(HRSample.self), [HRSample(subject: "bob", timestampMs: 1_644_222_540_000, bpm: 64, source: "apple_health")])
        XCTAssertEqual(try ws.read(HRVSample.self), [HRVSample(subject: "bob", timestampMs: 1_644_220_800_000, sdnnMs: 48.5, source: "apple_health")])
        XCTAssertEqual(try ws.read(SleepEpisode.self), [SleepEpisode(subject: "bob", startMs: 1_644_195_600_000, endMs: 1_644_201_000_000, stage: .deep,
                                                                      source: "Watch")])
        XCTAssertEqual(try ws.read(Workout.self), [Workout(subject: "bob", startMs: 1_644_256_800_000, endMs: 1_644_258_600_000, activity: "running")])
        // The step count row is an unused type: counted in the manifest, not a row read.
        XCTAssertEqual(try ws.read(Reject.self).map(\.reason), ["end before start"])
        XCTAssertEqual(m.sources[0].unusedRecords, ["HKQuantityTypeIdentifierStepCount": 1])
        XCTAssertEqual([m.sources[0].rowsRead, m.sources[0].accepted, m.sources[0].rejected], [5, 4, 1])
        assertAccounting(m)
    }

    func testStressPredictLabelsMergeIntoIntervals() throws {
        let dir = try makeTempDir()
        let path = try writeFixture("""
            Participant,HR,respr,Time(sec),Label
            2,118,12.1,100,0
            2,113,12.1,101,0
            2,93,12.1,102,1
            2,93,12.1,103,1
            2,93,12.1,110,1
            12,80,14.0,100,0
            12,80,14.0,101,7

            """, to: dir + "/labels.csv")
        let (ws, m) = try importSources([path])
        XCTAssertEqual(try ws.read(LabelInterval.self), [
            LabelInterval(subject: "S02", startMs: 100_000, endMs: 102_000, label: "baseline"),
            LabelInterval(subject: "S02", startMs: 102_000, endMs: 104_000, label: "stress"),
            LabelInterval(subject: "S02", startMs: 110_000, endMs: 111_000, label: "stress"),
            LabelInterval(subject: "S12", startMs: 100_000, endMs: 101_000, label: "baseline"),
        ])
        XCTAssertEqual([m.sources[0].rowsRead, m.sources[0].accepted, m.sources[0].rejected], [7, 6, 1])
    }
}
