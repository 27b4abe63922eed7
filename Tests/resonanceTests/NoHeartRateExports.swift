import Foundation

/// A person's exports that hold no heart rate, written as the services write them: an
/// iPhone's Apple Health `export.xml` without a watch (steps, walking and running
/// distance, flights climbed and four sleep records, May–June 2019; HealthKit export
/// version 8: the DTD, `ExportDate`, `Me`, records with `sourceName`, `sourceVersion`,
/// `device`, `unit`, `creationDate`, `startDate`, `endDate`, `value`, and
/// `MetadataEntry` children) and a Spotify extended streaming history folder
/// (`Streaming_History_Audio_*.json`, May 2022 – May 2026, every field of the extended
/// history's records: `ts` in UTC at the play's end, `ms_played`, `conn_country`,
/// `ip_addr`, `master_metadata_*`, `spotify_track_uri`, the episode and audiobook
/// fields, `reason_start`, `reason_end`, `shuffle`, `skipped`, `offline`,
/// `offline_timestamp`, `incognito_mode`; no song length). The two never overlap in time.
/// The layout and values follow a real public iPhone export of that period and a real
/// public extended streaming history; names, devices and addresses are invented.
enum NoHeartRateExports {
    /// The health records' and the plays' dates (UTC), as the assessment names them.
    static let healthDates = "2019-05-14 – 2019-06-17"
    static let listeningDates = "2022-05-20 – 2026-05-28"
    /// Records of each kind in `export.xml`, and the plays of the history (one podcast episode besides).
    static let steps = 7, distances = 5, flights = 2, sleeps = 4, stepDays = 3, plays = 9

    /// Writes `export.xml` and `spotify-extended/` into `dir`.
    static func write(into dir: String) throws {
        try FileManager.default.createDirectory(atPath: dir + "/spotify-extended", withIntermediateDirectories: true)
        try exportXML.write(toFile: dir + "/export.xml", atomically: true, encoding: .utf8)
        try history2022.write(toFile: dir + "/spotify-extended/Streaming_History_Audio_2022-2024.json", atomically: true, encoding: .utf8)
        try history2024.write(toFile: dir + "/spotify-extended/Streaming_History_Audio_2024-2026.json", atomically: true, encoding: .utf8)
    }

    static let device = "&lt;&lt;HKDevice: 0x283a91400&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, "
        + "hardware:iPhone10,4, software:12.3&gt;"

    static func record(_ type: String, unit: String?, created: String, start: String, end: String, value: String) -> String {
        " <Record type=\"HKQuantityTypeIdentifier\(type)\" sourceName=\"Sam’s iPhone\" sourceVersion=\"12.3\" device=\"\(device)\" "
            + (unit.map { "unit=\"\($0)\" " } ?? "")
            + "creationDate=\"\(created)\" startDate=\"\(start)\" endDate=\"\(end)\" value=\"\(value)\"/>\n"
    }

    static let exportXML: String = {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!-- HealthKit Export Version: 8 -->
            <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
            <!ATTLIST HealthData
              locale CDATA #REQUIRED
            >
            <!ELEMENT ExportDate EMPTY>
            <!ATTLIST ExportDate
              value CDATA #REQUIRED
            >
            <!ELEMENT Me EMPTY>
            <!ATTLIST Me
              HKCharacteristicTypeIdentifierDateOfBirth         CDATA #REQUIRED
              HKCharacteristicTypeIdentifierBiologicalSex       CDATA #REQUIRED
              HKCharacteristicTypeIdentifierBloodType           CDATA #REQUIRED
              HKCharacteristicTypeIdentifierFitzpatrickSkinType CDATA #REQUIRED
            >
            <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
            <!ATTLIST Record
              type          CDATA #REQUIRED
              unit          CDATA #IMPLIED
              value         CDATA #IMPLIED
              sourceName    CDATA #REQUIRED
              sourceVersion CDATA #IMPLIED
              device        CDATA #IMPLIED
              creationDate  CDATA #IMPLIED
              startDate     CDATA #REQUIRED
              endDate       CDATA #REQUIRED
            >
            <!ELEMENT MetadataEntry EMPTY>
            <!ATTLIST MetadataEntry
              key   CDATA #REQUIRED
              value CDATA #REQUIRED
            >
            ]>
            <HealthData locale="en_US">
             <ExportDate value="2019-06-17 21:07:11 -0400"/>
             <Me HKCharacteristicTypeIdentifierDateOfBirth="" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexNotSet" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet"/>

            """
        // Steps on three days (the phone's pedometer: a record per walk).
        for (created, start, end, value) in [
            ("2019-05-14 19:05:29 -0400", "2019-05-14 18:52:09 -0400", "2019-05-14 19:01:40 -0400", "47"),
            ("2019-05-14 20:35:59 -0400", "2019-05-14 20:08:51 -0400", "2019-05-14 20:15:32 -0400", "289"),
            ("2019-05-14 20:56:09 -0400", "2019-05-14 20:36:22 -0400", "2019-05-14 20:46:23 -0400", "377"),
            ("2019-05-15 11:27:23 -0400", "2019-05-15 11:13:24 -0400", "2019-05-15 11:23:25 -0400", "239"),
            ("2019-05-15 13:25:33 -0400", "2019-05-15 13:04:50 -0400", "2019-05-15 13:13:55 -0400", "345"),
            ("2019-06-16 10:12:02 -0400", "2019-06-16 09:58:40 -0400", "2019-06-16 10:06:11 -0400", "612"),
            ("2019-06-16 17:40:51 -0400", "2019-06-16 17:21:07 -0400", "2019-06-16 17:30:44 -0400", "958"),
        ] {
            xml += record("StepCount", unit: "count", created: created, start: start, end: end, value: value)
        }
        for (created, start, end, value) in [
            ("2019-05-14 19:05:29 -0400", "2019-05-14 18:52:09 -0400", "2019-05-14 19:01:40 -0400", "0.0202753"),
            ("2019-05-14 20:35:59 -0400", "2019-05-14 20:08:51 -0400", "2019-05-14 20:15:32 -0400", "0.131862"),
            ("2019-05-15 11:27:23 -0400", "2019-05-15 11:13:24 -0400", "2019-05-15 11:23:25 -0400", "0.105004"),
            ("2019-06-16 10:12:02 -0400", "2019-06-16 09:58:40 -0400", "2019-06-16 10:06:11 -0400", "0.273515"),
            ("2019-06-16 17:40:51 -0400", "2019-06-16 17:21:07 -0400", "2019-06-16 17:30:44 -0400", "0.428092"),
        ] {
            xml += record("DistanceWalkingRunning", unit: "mi", created: created, start: start, end: end, value: value)
        }
        for (created, start, end) in [
            ("2019-05-14 20:35:59 -0400", "2019-05-14 20:13:52 -0400", "2019-05-14 20:14:03 -0400"),
            ("2019-06-16 10:12:02 -0400", "2019-06-16 10:01:15 -0400", "2019-06-16 10:01:27 -0400"),
        ] {
            xml += record("FlightsClimbed", unit: "count", created: created, start: start, end: end, value: "1")
        }
        // Bedtime's in-bed records (the Clock app, with the zone) and one night entered by hand.
        let clock = " <Record type=\"HKCategoryTypeIdentifierSleepAnalysis\" sourceName=\"Clock\" device=\"\(device)\" "
        xml += clock + """
            creationDate="2019-06-15 09:00:48 -0400" startDate="2019-06-15 08:13:44 -0400" endDate="2019-06-15 09:00:43 -0400" value="HKCategoryValueSleepAnalysisInBed">
              <MetadataEntry key="HKTimeZone" value="America/New_York"/>
             </Record>
             <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Health" sourceVersion="12.3" creationDate="2019-06-16 06:46:11 -0400" startDate="2019-06-15 22:21:00 -0400" endDate="2019-06-16 08:21:00 -0400" value="HKCategoryValueSleepAnalysisAsleep">
              <MetadataEntry key="HKWasUserEntered" value="1"/>
             </Record>

            """
        xml += clock + """
            creationDate="2019-06-16 09:14:54 -0400" startDate="2019-06-16 08:55:52 -0400" endDate="2019-06-16 09:14:49 -0400" value="HKCategoryValueSleepAnalysisInBed">
              <MetadataEntry key="HKTimeZone" value="America/New_York"/>
             </Record>

            """
        xml += clock + """
            creationDate="2019-06-17 09:11:18 -0400" startDate="2019-06-17 07:49:48 -0400" endDate="2019-06-17 09:11:13 -0400" value="HKCategoryValueSleepAnalysisInBed">
              <MetadataEntry key="HKTimeZone" value="America/New_York"/>
             </Record>
            </HealthData>

            """
        return xml
    }()

    /// One record of the extended streaming history: a song, or with `episode` a podcast episode.
    static func play(ts: String, ms: Int, track: (name: String, artist: String, album: String, uri: String)?,
                     episode: (name: String, show: String, uri: String)? = nil, start: String = "trackdone",
                     end: String = "trackdone", skipped: Bool = false, offline: Int) -> String {
        func text(_ s: String?) -> String { s.map { "\"\($0)\"" } ?? "null" }
        return """
              {
                "ts": "\(ts)",
                "platform": "ios",
                "ms_played": \(ms),
                "conn_country": "DE",
                "ip_addr": "192.0.2.17",
                "master_metadata_track_name": \(text(track?.name)),
                "master_metadata_album_artist_name": \(text(track?.artist)),
                "master_metadata_album_album_name": \(text(track?.album)),
                "spotify_track_uri": \(text(track?.uri)),
                "episode_name": \(text(episode?.name)),
                "episode_show_name": \(text(episode?.show)),
                "spotify_episode_uri": \(text(episode?.uri)),
                "audiobook_title": null,
                "audiobook_uri": null,
                "audiobook_chapter_uri": null,
                "audiobook_chapter_title": null,
                "reason_start": "\(start)",
                "reason_end": "\(end)",
                "shuffle": false,
                "skipped": \(skipped),
                "offline": false,
                "offline_timestamp": \(offline),
                "incognito_mode": false
              }
            """
    }

    static let river = (name: "River", artist: "Lowland Choir", album: "Estuary", uri: "spotify:track:4u7EnebtmKWzUH433cf5Qv")
    static let harbour = (name: "Harbour Lights", artist: "Lowland Choir", album: "Estuary", uri: "spotify:track:0VjIjW4GlUZAMYd2vXMi3b")
    static let tide = (name: "Slow Tide", artist: "Mara Quell", album: "Night Shift", uri: "spotify:track:6habFhsOp2NvshLv26DqMb")

    static let history2022 = "[\n" + [
        play(ts: "2022-05-20T18:03:31Z", ms: 211_000, track: river, start: "clickrow", offline: 1_653_069_600),
        play(ts: "2022-05-20T18:07:43Z", ms: 252_000, track: harbour, offline: 1_653_069_811),
        play(ts: "2022-05-20T18:08:10Z", ms: 27_000, track: tide, end: "fwdbtn", skipped: true, offline: 1_653_070_063),
        play(ts: "2022-05-20T18:35:02Z", ms: 1_500_000, track: nil,
             episode: (name: "Tides and Time", show: "Coastal Talks", uri: "spotify:episode:5Ezjb4R8A3F0uVEYRiS7Qv"),
             start: "playbtn", offline: 1_653_070_090),
        play(ts: "2023-11-02T07:41:10Z", ms: 211_000, track: river, start: "playbtn", offline: 1_698_910_659),
        play(ts: "2023-11-02T07:45:22Z", ms: 252_000, track: harbour, offline: 1_698_910_870),
    ].joined(separator: ",\n") + "\n]\n"

    static let history2024 = "[\n" + [
        play(ts: "2024-08-14T20:15:40Z", ms: 198_000, track: tide, start: "clickrow", offline: 1_723_666_342),
        play(ts: "2024-08-14T20:19:11Z", ms: 211_000, track: river, offline: 1_723_666_540),
        play(ts: "2026-05-28T07:41:00Z", ms: 211_000, track: river, start: "playbtn", offline: 1_779_953_849),
        play(ts: "2026-05-28T07:45:12Z", ms: 252_000, track: harbour, offline: 1_779_954_060),
    ].joined(separator: ",\n") + "\n]\n"
}
