import XCTest
@testable import ResonanceLab

/// Exports imported as people download them (docs/import.md, Folders and subjects): whole
/// archives read at any depth from their root, one subject per export, the other
/// products' files skipped with their reason and never misread. Every count below is
/// worked out by hand from the fixtures (`ExportArchiveFixtures`).
final class ExportArchivesTests: XCTestCase {
    private func paths(_ m: Manifest) -> [String] { m.sources.map { "\($0.path) \($0.format) \($0.rowsRead)/\($0.accepted)/\($0.rejected)" } }

    func testTakeoutFromItsRootIsOneSubjectAndItsOtherProductsGiveNoRows() throws {
        let root = try makeTempDir() + "/Takeout"
        try ExportArchiveFixtures.writeTakeout(root)
        let (ws, m) = try importSources([root])
        assertAccounting(m)
        XCTAssertEqual(paths(m), [
            "Takeout/Fit/Daily activity metrics/2024-03-01.csv google-fit 2/2/0",
            "Takeout/YouTube and YouTube Music/history/watch-history.json youtube-music 2/2/0",
        ])
        XCTAssertEqual(m.exportRoots, [ExportRootInfo(path: "Takeout", export: "Google Takeout", subject: "Takeout")])
        XCTAssertEqual(m.subjects.map(\.subject), ["Takeout"])
        XCTAssertEqual(m.sources[0].unusedRecords, ["bucket without Average heart rate (bpm) or Step count": 1])
        XCTAssertEqual(m.sources[1].unusedRecords, ["header=YouTube: not YouTube Music": 1,
                                                    "details=From Google Ads: an ad, not a play": 1])
        // Chrome, Photos, Maps, My Activity, the search history, the Fit summary and session: seen, not read.
        XCTAssertEqual(m.skipped?.map(\.path), [
            "Takeout/Chrome/BrowserHistory.json",
            "Takeout/Fit/All Sessions/2024-03-01T08_00_00+01_00_WALKING.json",
            "Takeout/Fit/Daily activity metrics/Daily activity metrics.csv",
            "Takeout/Google Photos/Photos from 2024/IMG_0001.jpg",
            "Takeout/Google Photos/Photos from 2024/IMG_0001.jpg.json",
            "Takeout/Maps (your places)/Saved Places.json",
            "Takeout/My Activity/Search/MyActivity.json",
            "Takeout/My Activity/YouTube/MyActivity.json",
            "Takeout/YouTube and YouTube Music/history/search-history.json",
            "Takeout/archive_browser.html",
        ])
        XCTAssertEqual(m.skipped?.first { $0.path.hasSuffix("YouTube/MyActivity.json") }?.reason,
                       "Google My Activity log: not read (YouTube Music plays are read from watch-history.json)")
        XCTAssertEqual(try ws.read(HRSample.self), [
            HRSample(subject: "Takeout", timestampMs: ms("2024-03-01T07:00:00Z"), bpm: 92.5, source: "google_fit"),
        ])
        XCTAssertEqual(try ws.read(DailyInputRow.self), [
            DailyInputRow(subject: "Takeout", date: "2024-03-01", metric: "steps", value: 1500, unit: "count", source: "google_fit"),
        ])
        let plays = try ws.read(Play.self)
        XCTAssertEqual(plays.map(\.title), ["River", "Blue"])
        XCTAssertEqual(plays.map(\.songId), ["youtube:r1", "youtube:b2"])
        XCTAssertEqual(plays.map(\.playedS), [240, 600])
        XCTAssertEqual(try ws.read(Reject.self), [])

        // --subject names the person instead: the same rows, no export root recorded.
        let (ws2, named) = try importSources([root], subject: "P1")
        XCTAssertEqual(paths(named), paths(m))
        XCTAssertNil(named.exportRoots)
        XCTAssertEqual(named.subjects.map(\.subject), ["P1"])
        XCTAssertEqual(try ws2.read(Play.self).count, 2)
        XCTAssertEqual(try ws2.read(HRSample.self).map(\.subject), ["P1"])
    }

    /// Garmin's health status HRV has no time of night: it is stamped at the start of the
    /// same calendarDate's sleep window; a night without one, a night whose sleep data gave
    /// its HRV already, and a day without HRV are counted, not read.
    func testGarminExportAndTheNightlyHRVOfItsHealthStatus() throws {
        let root = try makeTempDir() + "/DI_CONNECT"
        try ExportArchiveFixtures.writeGarminExport(root)
        let (ws, m) = try importSources([root])
        assertAccounting(m)
        XCTAssertEqual(paths(m), [
            "DI_CONNECT/DI-Connect-Aggregator/UDSFile_2024-03-01_2024-03-31.json garmin 1/1/0",
            "DI_CONNECT/DI-Connect-Wellness/ana_healthStatusData.json garmin 1/1/0",
            "DI_CONNECT/DI-Connect-Wellness/ana_sleepData.json garmin 2/2/0",
        ])
        XCTAssertEqual(m.exportRoots?.map(\.export), ["Garmin Connect data export"])
        XCTAssertEqual(m.sources[1].unusedRecords, [
            "HRV of a night whose sleep data gave avgOvernightHrv": 1,
            "HRV of a night without a sleep window (*sleepData.json)": 1,
            "day without an HRV value": 1,
        ])
        XCTAssertEqual(m.skipped?.map(\.path), [
            "DI_CONNECT/DI-Connect-Fitness/ana_0_summarizedActivities.json",
            "DI_CONNECT/DI-Connect-Uploaded-Files/UploadedFiles_0-_Part1.zip",
            "DI_CONNECT/DI-Connect-User/user_profile.json",
        ])
        XCTAssertEqual(try ws.read(HRVSample.self), [
            HRVSample(subject: "DI_CONNECT", timestampMs: ms("2024-03-01T22:30:00Z"), rmssdMs: 45, source: "garmin"),
            HRVSample(subject: "DI_CONNECT", timestampMs: ms("2024-03-02T23:00:00Z"), rmssdMs: 51, source: "garmin"),
        ])
        XCTAssertEqual(try ws.read(SleepEpisode.self).count, 2)
        XCTAssertEqual(try ws.read(DailyInputRow.self).map { "\($0.date) \($0.metric) \($0.value)" },
                       ["2024-03-02 resting_hr 52.0", "2024-03-02 steps 8000.0"])
    }

    func testListenBrainzExportWithUserJSONIsOneSubject() throws {
        let root = try makeTempDir() + "/listenbrainz_ana_1700000000"
        try ExportArchiveFixtures.writeListenBrainzExport(root)
        let (ws, m) = try importSources([root])
        assertAccounting(m)
        XCTAssertEqual(paths(m), [
            "listenbrainz_ana_1700000000/listens/2024/1.jsonl listenbrainz 2/2/0",
            "listenbrainz_ana_1700000000/listens/2024/2.jsonl listenbrainz 2/1/1",
        ])
        XCTAssertEqual(m.exportRoots, [ExportRootInfo(path: "listenbrainz_ana_1700000000", export: "ListenBrainz export",
                                                      subject: "listenbrainz_ana_1700000000")])
        XCTAssertEqual(m.skipped, [SkippedFile(path: "listenbrainz_ana_1700000000/user.json",
                                               reason: "ListenBrainz user.json: the account, no listens")])
        let plays = try ws.read(Play.self)
        XCTAssertEqual(plays.map(\.title), ["River", "Blue", "Carey"])
        XCTAssertEqual(plays.map { Timestamp.iso($0.startedAtMs) },
                       ["2024-01-01T10:00:00.000Z", "2024-01-01T10:05:00.000Z", "2024-02-01T10:00:00.000Z"])
        XCTAssertEqual(Set(plays.map(\.subject)), ["listenbrainz_ana_1700000000"])
        XCTAssertEqual(try ws.read(Reject.self).map { "\($0.line) \($0.reason)" }, ["2 line is not a JSON object"])
    }

    /// `--subject` names the person of any export: the same files and rows as from its
    /// root, under that subject, and no export root recorded.
    func testEachExportImportedWithSubjectIsThatSubject() throws {
        let dir = try makeTempDir()
        let exports: [(String, (String) throws -> Void, [Int])] = [
            ("DI_CONNECT", ExportArchiveFixtures.writeGarminExport, [1, 1, 2]),
            ("listenbrainz_ana", ExportArchiveFixtures.writeListenBrainzExport, [2, 2]),
            ("apple_health_export", ExportArchiveFixtures.writeAppleHealthExport, [4, 2]),
            ("Spotify Extended Streaming History", ExportArchiveFixtures.writeSpotifyExtendedHistory, [2, 0]),
        ]
        for (name, write, rowsRead) in exports {
            try write(dir + "/" + name)
            let (_, own) = try importSources([dir + "/" + name])
            let (_, named) = try importSources([dir + "/" + name], subject: "P1")
            assertAccounting(named)
            XCTAssertEqual(named.sources.map(\.rowsRead), rowsRead, name)
            XCTAssertEqual(paths(named), paths(own), name)
            XCTAssertEqual(own.exportRoots?.map(\.subject), [name])
            XCTAssertNil(named.exportRoots, name)
            XCTAssertEqual(named.subjects.map(\.subject), ["P1"], name)
            XCTAssertEqual(own.subjects.map(\.subject), [name], name)
        }
    }

    /// A record dated after `ExportDate` (2019-06-17T17:21:02Z) is rejected with its reason:
    /// the 2030 step count makes no day of daily_inputs.csv.
    func testAppleHealthExportFolderAndARecordDatedAfterItsExportDate() throws {
        let root = try makeTempDir() + "/apple_health_export"
        try ExportArchiveFixtures.writeAppleHealthExport(root)
        let (ws, m) = try importSources([root])
        assertAccounting(m)
        XCTAssertEqual(paths(m), ["apple_health_export/export.xml apple-health-xml 4/3/1",
                                  "apple_health_export/electrocardiograms/ecg_2019-06-16.csv apple-health-ecg 2/2/0"])
        XCTAssertEqual(m.sources[0].unusedRecords, ["HKQuantityTypeIdentifierBodyTemperature": 1])
        XCTAssertTrue(m.sources[0].notes.contains("export made 2019-06-17T17:21:02.000Z (ExportDate): records dated after it rejected"),
                      "\(m.sources[0].notes)")
        XCTAssertTrue(m.sources[0].notes.contains(
            "1 record dated after the export was made (2019-06-17T17:21:02.000Z, ExportDate): rejected (see rejects.csv)"))
        XCTAssertEqual(m.exportRoots?.map(\.subject), ["apple_health_export"])
        XCTAssertEqual(m.skipped, [
            SkippedFile(path: "apple_health_export/export_cda.xml", reason: "Apple Health clinical records (export_cda.xml, HL7 CDA documents): not read"),
            SkippedFile(path: "apple_health_export/workout-routes/route_2019-06-16.gpx", reason: "unknown extension .gpx"),
        ])
        let rejects = try ws.read(Reject.self)
        XCTAssertEqual(rejects.map { "\($0.line) \($0.reason)" },
                       ["11 dated after the export was made (2019-06-17T17:21:02.000Z, ExportDate)"])
        XCTAssertEqual(try ws.read(DailyInputRow.self), [
            DailyInputRow(subject: "apple_health_export", date: "2019-06-16", metric: "steps", value: 800, unit: "count",
                          source: "Ana’s iPhone"),
        ])
        XCTAssertEqual(try ws.read(HRSample.self).map(\.bpm), [62, 64])
    }

    /// `--exported-at` judges every file without a date of its own; clockless R-R anchored
    /// at the default start (the epoch) lies before any export.
    func testExportedAtRejectsLaterRecordsOfEveryFormat() throws {
        let dir = try makeTempDir() + "/P1"
        try writeFixture("timestamp,bpm\n2024-03-01T08:00:00Z,61\n2024-03-01T12:00:00Z,62\n2024-03-02T08:00:00Z,63\n",
                         to: dir + "/heart.csv")
        try writeFixture("0.8\n0.81\n0.79\n", to: dir + "/rec_rr_secs.txt")
        try writeFixture("date,metric,value\n2024-03-01,steps,100\n2024-03-02,steps,200\n", to: dir + "/daily.csv")
        let ws = Workspace(path: try makeTempDir() + "/ws")
        var options = Importer.Options(subject: "P1")
        options.exportedAtMs = ms("2024-03-01T12:00:00Z")
        var warnings: [String] = []
        options.warning = { warnings.append($0) }
        let m = try Importer.run(sources: [dir], workspace: ws, options: options)
        assertAccounting(m)
        XCTAssertEqual(paths(m), ["P1/daily.csv daily-metrics 2/1/1", "P1/heart.csv csv 3/2/1", "P1/rec_rr_secs.txt physionet-rr 3/3/0"])
        let reason = "dated after the export was made (2024-03-01T12:00:00.000Z, --exported-at)"
        XCTAssertEqual(try ws.read(Reject.self).map { "\($0.sourceFile):\($0.line):\($0.column) \($0.reason)" },
                       ["P1/daily.csv:3:1 \(reason)", "P1/heart.csv:4:1 \(reason)"])
        XCTAssertEqual(warnings, ["P1/daily.csv: 1 record \(reason): rejected (see rejects.csv)",
                                  "P1/heart.csv: 1 record \(reason): rejected (see rejects.csv)"])
        XCTAssertEqual(try ws.read(HRSample.self).map(\.bpm), [61, 62])
    }

    /// Spotify's video history of podcast episodes only is no failure: its records are
    /// counted per kind; a play of 0 ms is a skip, counted in the notes.
    func testSpotifyEpisodesAudiobooksAndZeroLengthPlaysAreCountedNotFailed() throws {
        let root = try makeTempDir() + "/Spotify Extended Streaming History"
        try ExportArchiveFixtures.writeSpotifyExtendedHistory(root)
        let (ws, m) = try importSources([root])
        assertAccounting(m)
        XCTAssertEqual(paths(m), [
            "Spotify Extended Streaming History/Streaming_History_Audio_2026.json spotify-extended 2/2/0",
            "Spotify Extended Streaming History/Streaming_History_Video_2026.json spotify-extended 0/0/0",
        ])
        XCTAssertEqual(m.sources[0].unusedRecords, ["podcast episode": 1, "audiobook": 1])
        XCTAssertEqual(m.sources[1].unusedRecords, ["video podcast episode (Streaming_History_Video)": 2])
        XCTAssertFalse(m.sources.contains(where: Importer.gaveNoRows))
        XCTAssertTrue(m.sources[0].notes.contains("1 play of ms_played 0 (heard 0 %): skipped"), "\(m.sources[0].notes)")
        XCTAssertEqual(try ws.read(Reject.self), [])
        let plays = try ws.read(Play.self)
        XCTAssertEqual(plays.map(\.title), ["River", "Carey"])
        XCTAssertEqual(plays.map(\.skipped), [false, true])
        XCTAssertEqual(plays.map(\.playedS), [200, 0])
        XCTAssertEqual(Importer.unusedNotice(m.sources), "import: 4 records of kinds the toolkit does not use, counted and not "
            + "read: video podcast episode (Streaming_History_Video) 2, audiobook 1, podcast episode 1 (see unusedRecords in manifest.json)")
        // A history whose entries are bad data (no song, episode or audiobook) still fails.
        try writeFixture("[{\"ts\": \"2026-01-05T10:00:00Z\", \"ms_played\": 1000, \"master_metadata_track_name\": null}]\n",
                         to: root + "/Streaming_History_Audio_2027.json")
        let (_, bad) = try importSources([root])
        let failed = try XCTUnwrap(bad.sources.first { $0.path.hasSuffix("2027.json") })
        XCTAssertEqual([failed.rowsRead, failed.rejected], [1, 1])
        XCTAssertTrue(Importer.gaveNoRows(failed))
    }

    /// Health Auto Export's per-minute CSV: `Heart Rate [Avg]` is the sample (one hr.csv row
    /// per row with an Avg), Min and Max are counted, as is the sleep total.
    func testHealthAutoExportCSVHeartRateAvgPerRow() throws {
        let path = try writeFixture("""
            Date/Time,Heart Rate [Min] (count/min),Heart Rate [Max] (count/min),Heart Rate [Avg] (count/min),Sleep Analysis [Asleep] (hr)
            2024-03-01 08:00:00 -0500,60,66,62.5,7.5
            2024-03-01 08:01:00 -0500,,,,
            2024-03-01 08:02:00 -0500,61,70,65,
            2024-03-01 08:03:00 -0500,58,,,
            2024-03-01 08:04:00,64,64,64,

            """, to: try makeTempDir() + "/ana/HealthAutoExport-2024-03-01.csv")
        XCTAssertEqual(try SourceFormat.detect(path: path), .healthAutoExportCSV)
        let (ws, m) = try importSources([path])
        assertAccounting(m)
        let s = m.sources[0]
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected], [3, 3, 0])
        XCTAssertEqual(s.unusedRecords, [
            "column Heart Rate [Min] (count/min) (not read)": 4, "column Heart Rate [Max] (count/min) (not read)": 3,
            "column Sleep Analysis [Asleep] (hr) (not read)": 1, "rows without a value read": 2,
        ])
        XCTAssertEqual(try ws.read(HRSample.self), [
            HRSample(subject: "ana", timestampMs: ms("2024-03-01T08:04:00Z"), bpm: 64, source: "health_auto_export"),
            HRSample(subject: "ana", timestampMs: ms("2024-03-01T13:00:00Z"), bpm: 62.5, source: "health_auto_export"),
            HRSample(subject: "ana", timestampMs: ms("2024-03-01T13:02:00Z"), bpm: 65, source: "health_auto_export"),
        ])
        XCTAssertEqual(try ws.read(SleepEpisode.self), [])
        XCTAssertTrue(s.notes.contains("1 row of heart rate or Heart Rate Variability without an offset: read as UTC (give --tz)"))
        // With --tz the zone-less row is local time.
        let (tz, _) = try importSources([path], tz: "America/New_York")
        XCTAssertEqual(try tz.read(HRSample.self).map { Timestamp.iso($0.timestampMs) },
                       ["2024-03-01T13:00:00.000Z", "2024-03-01T13:02:00.000Z", "2024-03-01T13:04:00.000Z"])
    }

    /// Two devices writing heart rate under one source name are two sources of hr.csv, so
    /// the rule for heart rate from several sources sets the sparser one aside.
    func testAppleHealthHeartRateKeepsItsDeviceInTheSource() throws {
        let watch = "&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.1&gt;"
        let strap = "&lt;&lt;HKDevice: 0x2&gt;, name:Polar H10, manufacturer:Polar Electro Oy, model:H10, hardware:1.0&gt;"
        func record(_ time: String, _ bpm: Int, _ device: String?) -> String {
            " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Ana’s Apple Watch\" "
                + (device.map { "device=\"\($0)\" " } ?? "") + "unit=\"count/min\" startDate=\"2024-03-01 08:00:\(time) +0000\" "
                + "endDate=\"2024-03-01 08:00:\(time) +0000\" value=\"\(bpm)\"/>\n"
        }
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
            + record("00", 60, watch) + record("20", 61, watch) + record("30", 70, strap) + record("40", 62, nil) + "</HealthData>\n"
        let path = try writeFixture(xml, to: try makeTempDir() + "/ana/export.xml")
        let (ws, _) = try importSources([path])
        let hr = try ws.read(HRSample.self)
        XCTAssertEqual(hr.map(\.source), ["apple_health:Apple Watch/Watch", "apple_health:Apple Watch/Watch",
                                          "apple_health:Polar H10/H10", "apple_health"])
        let (kept, overlap) = HeartRateSources.resolve(hr)
        XCTAssertEqual(overlap, HeartRateSources.Overlap(minutes: 1, samplesSetAside: 2))
        XCTAssertEqual(kept.map(\.bpm), [60, 61])
        XCTAssertEqual(AppleHealth.heartRateSource(device: "<<HKDevice: 0x3>, name:iPhone, model:iPhone>"), "apple_health:iPhone")
        XCTAssertEqual(AppleHealth.heartRateSource(device: "<<HKDevice: 0x3>>"), "apple_health")
    }

    func testFoldersDeeperThanTheBoundAreListedSkipped() throws {
        let root = try makeTempDir() + "/study"
        let eight = root + "/P1/a/b/c/d/e/f/g"  // 8 folder levels below study
        try writeFixture("timestamp,bpm\n2024-03-01T08:00:00Z,61\n", to: eight + "/hr.csv")
        try writeFixture("timestamp,bpm\n2024-03-01T09:00:00Z,62\n", to: eight + "/h/hr.csv")
        let (_, m) = try importSources([root])
        XCTAssertEqual(m.sources.map(\.path), ["study/P1/a/b/c/d/e/f/g/hr.csv"])
        XCTAssertEqual(m.subjects.map(\.subject), ["P1"])
        XCTAssertEqual(m.skipped, [SkippedFile(path: "study/P1/a/b/c/d/e/f/g/h",
                                               reason: "folder more than 8 levels below the imported folder: not read (import it on its own)")])
        // The walk stops at its bound of files and folders with an error naming the folder.
        var layout = DatasetLayout(forcedFormat: nil, mapping: ColumnMapping(), subject: nil, naming: try SubjectNaming(pattern: nil), delimiter: nil,
                                   strict: false, progress: { _ in })
        layout.entryLimit = 9
        XCTAssertThrowsError(try layout.plan(root)) { error in
            XCTAssertEqual("\(error)", "study/P1/a/b/c/d/e/f/g: more than 9 files and folders, the most one import walks; "
                + "import its sub-folders on their own")
        }
    }

    func testAFolderWithoutDataNamesWhatItSawAndDidNotRead() throws {
        let root = try makeTempDir() + "/Takeout"
        try writeFixture("<html></html>\n", to: root + "/archive_browser.html")
        try writeFixture("{\"Browser History\": []}\n", to: root + "/Chrome/BrowserHistory.json")
        XCTAssertThrowsError(try importSources([root])) { error in
            XCTAssertEqual("\(error)", "\(root): no file in a known format; seen and not read: Takeout/archive_browser.html "
                + "(unknown extension .html); Takeout/Chrome/BrowserHistory.json (JSON in no known format (Spotify, Fitbit, "
                + "YouTube Music, ListenBrainz, Oura, Garmin))")
        }
    }
}
