import Foundation

/// Synthetic exports laid out as the services' downloads are (folder names, nesting, the
/// other products and files beside the data), small enough to work every count out by
/// hand. No real person's data: every value is made up.
public enum ExportArchiveFixtures {
    /// A Google Takeout folder (`root` ends in `Takeout`): YouTube Music's watch history
    /// (2 plays, a video, an ad) and search history, a Google Fit day (3 buckets: one
    /// empty, one with heart rate 92.5 bpm and 1200 steps at 08:00+01:00, one with 300
    /// steps) with the all-days summary and a session, and other products that hold no
    /// rows: Chrome history, a Google Photos picture and its metadata sidecar, Maps saved
    /// places, My Activity logs, and Takeout's archive_browser.html. 10 files are skipped.
    public static func writeTakeout(_ root: String) throws {
        try writeFixture("<html><body>Takeout</body></html>\n", to: root + "/archive_browser.html")
        try writeFixture("""
            [{"header": "YouTube Music", "title": "Watched Blue", "titleUrl": "https://music.youtube.com/watch?v=b2",
              "subtitles": [{"name": "Joni Mitchell - Topic", "url": "https://www.youtube.com/channel/UC1"}],
              "time": "2024-03-01T10:04:00.000Z", "products": ["YouTube"], "activityControls": ["YouTube watch history"]},
             {"header": "YouTube Music", "title": "Watched River", "titleUrl": "https://music.youtube.com/watch?v=r1",
              "subtitles": [{"name": "Joni Mitchell - Topic"}], "time": "2024-03-01T10:00:00.000Z", "products": ["YouTube"]},
             {"header": "YouTube", "title": "Watched a cat", "titleUrl": "https://www.youtube.com/watch?v=c3",
              "time": "2024-03-01T09:00:00.000Z", "products": ["YouTube"]},
             {"header": "YouTube Music", "title": "Watched an ad", "titleUrl": "https://www.youtube.com/watch?v=a4",
              "details": [{"name": "From Google Ads"}], "time": "2024-03-01T09:59:00.000Z", "products": ["YouTube"]}]

            """, to: root + "/YouTube and YouTube Music/history/watch-history.json")
        try writeFixture("""
            [{"header": "YouTube", "title": "Searched for lofi", "titleUrl": "https://www.youtube.com/results?search_query=lofi",
              "time": "2024-03-01T08:00:00.000Z", "products": ["YouTube"], "activityControls": ["YouTube search history"]}]

            """, to: root + "/YouTube and YouTube Music/history/search-history.json")
        try writeFixture("""
            Start time,End time,Move Minutes count,Calories (kcal),Distance (m),Heart Points,Heart Minutes,Average heart rate (bpm),Max heart rate (bpm),Min heart rate (bpm),Step count
            00:00:00.000+01:00,00:15:00.000+01:00,,,,,,,,,
            08:00:00.000+01:00,08:15:00.000+01:00,5,20.1,800,5,5,92.5,110,80,1200
            08:15:00.000+01:00,08:30:00.000+01:00,,,,,,,,,300

            """, to: root + "/Fit/Daily activity metrics/2024-03-01.csv")
        try writeFixture("Date,Move Minutes count,Step count\n2024-03-01,5,1500\n",
                         to: root + "/Fit/Daily activity metrics/Daily activity metrics.csv")
        try writeFixture("""
            {"fitnessActivity": "walking", "startTime": "2024-03-01T07:00:00.000Z", "endTime": "2024-03-01T07:15:00.000Z",
             "duration": "900.000s", "aggregate": [{"metricName": "com.google.step_count.delta", "intValue": 1200}]}

            """, to: root + "/Fit/All Sessions/2024-03-01T08_00_00+01_00_WALKING.json")
        try writeFixture("""
            {"Browser History": [{"favicon_url": "https://en.wikipedia.org/favicon.ico", "page_transition": "LINK",
              "title": "Heart rate - Wikipedia", "url": "https://en.wikipedia.org/wiki/Heart_rate", "client_id": "c1",
              "time_usec": 1709280000000000}]}

            """, to: root + "/Chrome/BrowserHistory.json")
        try writeFixture("\u{FF}\u{D8}\u{FF}jpeg", to: root + "/Google Photos/Photos from 2024/IMG_0001.jpg")
        try writeFixture("""
            {"title": "IMG_0001.jpg", "description": "", "imageViews": "3",
             "creationTime": {"timestamp": "1709280000", "formatted": "Mar 1, 2024, 8:00:00 AM UTC"},
             "photoTakenTime": {"timestamp": "1709280000", "formatted": "Mar 1, 2024, 8:00:00 AM UTC"},
             "geoData": {"latitude": 0.0, "longitude": 0.0, "altitude": 0.0}, "url": "https://photos.google.com/photo/p1"}

            """, to: root + "/Google Photos/Photos from 2024/IMG_0001.jpg.json")
        try writeFixture("""
            {"type": "FeatureCollection", "features": [{"geometry": {"coordinates": [0, 0], "type": "Point"},
             "properties": {"date": "2024-03-01T08:00:00Z", "google_maps_url": "https://maps.google.com/?cid=1",
             "location": {"name": "Park"}}, "type": "Feature"}]}

            """, to: root + "/Maps (your places)/Saved Places.json")
        try writeFixture("""
            [{"header": "YouTube Music", "title": "Watched River", "titleUrl": "https://music.youtube.com/watch?v=r1",
              "time": "2024-03-01T10:00:00.000Z", "products": ["YouTube"], "activityControls": ["YouTube watch history"]}]

            """, to: root + "/My Activity/YouTube/MyActivity.json")
        try writeFixture("""
            [{"header": "Search", "title": "Searched for resting heart rate", "titleUrl": "https://www.google.com/search?q=rhr",
              "time": "2024-03-01T07:30:00.000Z", "products": ["Search"], "activityControls": ["Web & App Activity"]}]

            """, to: root + "/My Activity/Search/MyActivity.json")
    }

    /// A Garmin Connect export (`root` ends in `DI_CONNECT`): two nights of sleep data
    /// (22:30–06:30 GMT with avgOvernightHrv 45 ms, then 23:00–07:00 GMT without), the
    /// health status of four days (HRV 45 on the first night, 51 on the second, 49 on a
    /// day without sleep data, and a day without HRV), a daily summary of two days (52 bpm
    /// and 8000 steps, then a day not worn), and files that hold no rows (profile,
    /// activities, the uploaded FIT archive).
    public static func writeGarminExport(_ root: String) throws {
        let wellness = root + "/DI-Connect-Wellness/"
        try writeFixture("""
            [{"calendarDate": "2024-03-02", "sleepStartTimestampGMT": "2024-03-01T22:30:00.0",
              "sleepEndTimestampGMT": "2024-03-02T06:30:00.0", "deepSleepSeconds": 3600, "avgOvernightHrv": 45.0},
             {"calendarDate": "2024-03-03", "sleepStartTimestampGMT": "2024-03-02T23:00:00.0",
              "sleepEndTimestampGMT": "2024-03-03T07:00:00.0", "deepSleepSeconds": 3000}]

            """, to: wellness + "ana_sleepData.json")
        try writeFixture("""
            [{"calendarDate": "2024-03-02", "metrics": [{"type": "HRV", "value": 45.0, "status": "IN_RANGE"}, {"type": "HR", "value": 52}]},
             {"calendarDate": "2024-03-03", "metrics": [{"type": "HRV", "value": 51.0, "status": "IN_RANGE"}, {"type": "SPO2", "value": 96}]},
             {"calendarDate": "2024-03-04", "metrics": [{"type": "HRV", "value": 49.0}]},
             {"calendarDate": "2024-03-05", "metrics": [{"type": "HR", "value": 55}]}]

            """, to: wellness + "ana_healthStatusData.json")
        try writeFixture("""
            [{"calendarDate": "2024-03-02", "totalSteps": 8000, "restingHeartRate": 52, "minHeartRate": 48},
             {"calendarDate": "2024-03-03", "totalSteps": 0, "restingHeartRate": 0}]

            """, to: root + "/DI-Connect-Aggregator/UDSFile_2024-03-01_2024-03-31.json")
        try writeFixture("{\"userName\": \"ana\", \"gender\": \"FEMALE\"}\n", to: root + "/DI-Connect-User/user_profile.json")
        try writeFixture("""
            [{"summarizedActivitiesExport": [{"activityId": 1, "name": "Run", "startTimeGmt": 1709280000000, "duration": 1800000}]}]

            """, to: root + "/DI-Connect-Fitness/ana_0_summarizedActivities.json")
        try writeFixture("PK\u{5}\u{6}" + String(repeating: "\u{0}", count: 18),
                         to: root + "/DI-Connect-Uploaded-Files/UploadedFiles_0-_Part1.zip")
    }

    /// A ListenBrainz export: `user.json` and `listens/2024/1.jsonl` (River at
    /// 2024-01-01T10:00:00Z and Blue 5 minutes later) and `listens/2024/2.jsonl` (Carey at
    /// 2024-02-01T10:00:00Z, then a line that is not JSON).
    public static func writeListenBrainzExport(_ root: String) throws {
        try writeFixture("{\"user_id\": 1, \"user_name\": \"ana\"}\n", to: root + "/user.json")
        func listen(_ at: Int, _ title: String, _ mbid: String) -> String {
            "{\"listened_at\": \(at), \"recording_msid\": \"m-\(mbid)\", \"track_metadata\": {\"track_name\": \"\(title)\", "
                + "\"artist_name\": \"Joni Mitchell\", \"release_name\": \"Blue\", \"additional_info\": "
                + "{\"duration_ms\": 240000, \"recording_mbid\": \"\(mbid)\"}}}\n"
        }
        try writeFixture(listen(1_704_103_200, "River", "r1") + listen(1_704_103_500, "Blue", "b2"),
                         to: root + "/listens/2024/1.jsonl")
        try writeFixture(listen(1_706_781_600, "Carey", "c3") + "not json\n", to: root + "/listens/2024/2.jsonl")
    }

    /// An Apple Health export folder made 2019-06-17 10:21:02 −0700 (`ExportDate`): two
    /// heart-rate records (62 and 64 bpm at 08:00:00 and 08:00:30 −0700 on June 16th), a
    /// step count of 800 that day, one dated 2030-01-06 (after the export), a body
    /// temperature (a type not read); `export_cda.xml`, an electrocardiogram (two samples
    /// at 512 Hz) and a workout route beside it.
    public static func writeAppleHealthExport(_ root: String) throws {
        try writeFixture("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
            ]>
            <HealthData locale="en_US">
             <ExportDate value="2019-06-17 10:21:02 -0700"/>
             <Me HKCharacteristicTypeIdentifierDateOfBirth="1985-04-02" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Ana’s Apple Watch" unit="count/min" startDate="2019-06-16 08:00:00 -0700" endDate="2019-06-16 08:00:00 -0700" value="62"/>
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Ana’s Apple Watch" unit="count/min" startDate="2019-06-16 08:00:30 -0700" endDate="2019-06-16 08:00:30 -0700" value="64"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Ana’s iPhone" unit="count" startDate="2019-06-16 09:00:00 -0700" endDate="2019-06-16 09:10:00 -0700" value="800"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Ana’s iPhone" unit="count" startDate="2030-01-06 09:00:00 -0800" endDate="2030-01-06 09:10:00 -0800" value="500"/>
             <Record type="HKQuantityTypeIdentifierBodyTemperature" sourceName="Thermometer" unit="degC" startDate="2019-06-16 07:00:00 -0700" endDate="2019-06-16 07:00:00 -0700" value="36.6"/>
            </HealthData>

            """, to: root + "/export.xml")
        try writeFixture("<?xml version=\"1.0\"?>\n<ClinicalDocument xmlns=\"urn:hl7-org:v3\"></ClinicalDocument>\n",
                         to: root + "/export_cda.xml")
        try writeFixture("Name,Ana\nDate of Birth,\"Apr 2, 1985\"\nRecorded Date,2019-06-16 08:00:00 -0700\nClassification,Sinus Rhythm\n"
                         + "Symptoms,\nSoftware Version,1.70\nDevice,\"Watch4,1\"\nSample Rate,512 hertz\n\n\nLead,Lead I\nUnit,µV\n\n\n-12.5\n30.25\n",
                         to: root + "/electrocardiograms/ecg_2019-06-16.csv")
        try writeFixture("<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"></gpx>\n", to: root + "/workout-routes/route_2019-06-16.gpx")
    }

    /// A Spotify extended streaming history folder: an audio history of two songs (River,
    /// 200 s ending 2026-01-05T10:03:20Z, and Carey, played 0 ms), a podcast episode and an
    /// audiobook chapter; a video history of two video podcast episodes only; Spotify's
    /// ReadMeFirst PDF.
    public static func writeSpotifyExtendedHistory(_ root: String) throws {
        try writeFixture("""
            [{"ts": "2026-01-05T10:03:20Z", "platform": "ios", "ms_played": 200000, "master_metadata_track_name": "River",
              "master_metadata_album_artist_name": "Joni Mitchell", "master_metadata_album_album_name": "Blue",
              "spotify_track_uri": "spotify:track:r1", "episode_name": null, "spotify_episode_uri": null,
              "audiobook_title": null, "reason_start": "trackdone", "reason_end": "trackdone", "skipped": false},
             {"ts": "2026-01-05T10:03:20Z", "platform": "ios", "ms_played": 0, "master_metadata_track_name": "Carey",
              "master_metadata_album_artist_name": "Joni Mitchell", "master_metadata_album_album_name": "Blue",
              "spotify_track_uri": "spotify:track:c3", "reason_start": "clickrow", "reason_end": "trackdone", "skipped": false},
             {"ts": "2026-01-05T11:00:00Z", "ms_played": 1800000, "master_metadata_track_name": null, "episode_name": "Ep 1",
              "episode_show_name": "A Show", "spotify_episode_uri": "spotify:episode:e1", "reason_end": "trackdone"},
             {"ts": "2026-01-05T12:00:00Z", "ms_played": 600000, "master_metadata_track_name": null, "episode_name": null,
              "audiobook_title": "A Book", "audiobook_uri": "spotify:audiobook:a1", "audiobook_chapter_uri": "spotify:chapter:c1",
              "reason_end": "trackdone"}]

            """, to: root + "/Streaming_History_Audio_2026.json")
        try writeFixture("""
            [{"ts": "2026-01-06T09:00:00Z", "ms_played": 900000, "master_metadata_track_name": null, "episode_name": "Video Ep 1",
              "episode_show_name": "A Video Show", "spotify_episode_uri": "spotify:episode:v1", "reason_end": "trackdone"},
             {"ts": "2026-01-07T09:00:00Z", "ms_played": 300000, "master_metadata_track_name": null, "episode_name": "Video Ep 2",
              "episode_show_name": "A Video Show", "spotify_episode_uri": "spotify:episode:v2", "reason_end": "endplay"}]

            """, to: root + "/Streaming_History_Video_2026.json")
        try writeFixture("%PDF-1.4\n", to: root + "/ReadMeFirst_ExtendedStreamingHistory.pdf")
    }
}
