import Foundation

/// Input formats `resonance import` understands (docs/import.md, Formats). The raw value is the
/// name used by `--format` and recorded in the manifest.
public enum SourceFormat: String, CaseIterable, Sendable {
    case genericCSV = "csv"
    case e4HR = "e4-hr"
    case e4IBI = "e4-ibi"
    case e4Tags = "e4-tags"
    case physionetRR = "physionet-rr"
    /// Elite HRV R-R export: one interval (ms) per line, named by its local start time
    /// `YYYY-MM-DD HH-MM-SS.txt`.
    case eliteHRV = "elite-hrv"
    case appleMusic = "apple-music"
    case appleHealth = "apple-health"
    case stressPredictLabels = "stress-predict-labels"
    case canonical = "canonical"
    /// Polar Sensor Logger R-R file: `Phone timestamp;RR-interval [ms]`.
    case polarSensorLogger = "polar-sensor-logger"
    /// HRV Logger R-R export: `date,rr,since start` (or a unix `timestamp` column).
    case hrvLogger = "hrv-logger"
    /// Kubios two-column R-R text: `Time(s)<tab>RR(s)`, time since the recording's start.
    case kubiosRR = "kubios-rr"
    /// Spotify extended streaming history (`Streaming_History_Audio_*.json`).
    case spotifyExtended = "spotify-extended"
    /// Spotify account data (`StreamingHistory*.json`).
    case spotifyAccount = "spotify-account"
    /// Last.fm scrobbles (CSV, with or without header).
    case lastfm = "lastfm"
    /// Apple Health `export.xml`.
    case appleHealthXML = "apple-health-xml"
    /// Apple Health `export.zip` (its `apple_health_export/export.xml`).
    case appleHealthZip = "apple-health-zip"
    /// Fitbit Takeout `heart_rate-YYYY-MM-DD.json`.
    case fitbitHR = "fitbit-hr"
    /// Fitbit Takeout `Heart Rate Variability Details - YYYY-MM-DD.csv`.
    case fitbitHRV = "fitbit-hrv"
    /// Empatica EmbracePlus aggregated per-minute CSVs (`pulse_rate_bpm`, `prv_rmssd_ms`).
    case embracePlus = "embrace-plus"
    /// R-R text without a header, elapsed time and interval per line (Polar Flow's
    /// `…_RR.txt`: elapsed seconds and R-R in ms); units from the values.
    case rrText = "rr-text"
    /// Song audio features (tempo, energy, valence, genre) keyed by track id or title + artist.
    case songFeatures = "song-features"
    /// YouTube Music plays in Google Takeout's `watch-history.json`.
    case youtubeMusic = "youtube-music"
    /// ListenBrainz export listens (`listens/<year>/<month>.jsonl`).
    case listenbrainz = "listenbrainz"
    /// Samsung Health `com.samsung.shealth.tracker.heart_rate.<stamp>.csv`.
    case samsungHeartRate = "samsung-hr"
    /// Withings `raw_hr_hr.csv` / `raw_bed_hr.csv` (`start,duration,value`, bracketed arrays).
    case withingsHR = "withings-hr"
    /// Polar Flow training session CSV (summary block, then the 1 Hz sample table).
    case polarFlow = "polar-flow"
    /// WHOOP export `physiological_cycles.csv`, `sleeps.csv`, `workouts.csv`.
    case whoop = "whoop"
    /// Health Auto Export JSON (`{"data": {"metrics": […], "workouts": […]}}`).
    case healthAutoExport = "health-auto-export"
    /// Oura API v2 `heartrate` and `sleep` documents (`{"data": [...]}`).
    case oura = "oura"
    /// Garmin Connect export `*sleepData.json` and `UDSFile_*.json`.
    case garmin = "garmin"
    /// Google Fit Takeout `Daily activity metrics/YYYY-MM-DD.csv` (15-minute buckets).
    case googleFit = "google-fit"
    /// Health Auto Export CSV (`Date` and one `Metric (unit)` column per metric).
    case healthAutoExportCSV = "health-auto-export-csv"
    /// Fitbit Takeout `resting_heart_rate-YYYY-MM-DD.json` (one resting HR per day).
    case fitbitRestingHR = "fitbit-resting-hr"
    /// Per-day values under the daily_inputs.csv metric names, long or wide.
    case dailyMetrics = "daily-metrics"
    /// Empatica E4 raw channels: `BVP.csv`, `ACC.csv`, `EDA.csv`, `TEMP.csv`.
    case e4Signal = "e4-signal"
    /// A WFDB signal file (`<record>.dat`, formats 212 and 16) read with its `.hea` header.
    case wfdb = "wfdb"
    /// WFDB reference annotations (`<record>.atr`, MIT format) of a record with its header.
    case wfdbAnnotations = "wfdb-annotations"
    /// BIDMC PPG and Respiration Dataset signals CSV (`bidmc_NN_Signals.csv`).
    case bidmc = "bidmc"
    /// Polar Sensor Logger raw channels: `…_ECG.txt`, `…_PPG.txt`, `…_ACC.txt`.
    case polarSignal = "polar-signal"
    /// Apple Health ECG recording (`electrocardiograms/ecg_*.csv`).
    case appleHealthECG = "apple-health-ecg"
    /// A waveform in a CSV: numeric signal columns, and a time column or `--rate`.
    case waveformCSV = "waveform-csv"

    /// Field separator of a file: `;` or tab when its first line has one of them
    /// and no comma (Polar Sensor Logger, Kubios), else a comma.
    static func delimiter(path: String) -> UInt8 {
        let line = TextFile.head(path: path).prefix { $0 != 10 }
        if line.contains(UInt8(ascii: ",")) { return UInt8(ascii: ",") }
        if line.contains(UInt8(ascii: ";")) { return UInt8(ascii: ";") }
        if line.contains(9) { return 9 }
        return UInt8(ascii: ",")
    }

    /// Detects the format from the file name and its first records.
    /// `detect`, except that a file no format claims is read by the generic reader when
    /// `mapping` names its time column and a bpm or R-R column (`--time-column` with
    /// `--bpm-column` or `--rr-column`) and the header has that time column: naming the
    /// columns says which reader is meant.
    static func detect(path: String, delimiter: UInt8, naming mapping: ColumnMapping) throws -> SourceFormat {
        do {
            return try detect(path: path, delimiter: delimiter)
        } catch ImportError.unknownFormat(_, let columns) where mapping.namesTime(in: columns) {
            return .genericCSV
        }
    }

    static func detect(path: String, delimiter: UInt8 = UInt8(ascii: ",")) throws -> SourceFormat {
        let name = (path as NSString).lastPathComponent
        let lower = name.lowercased()
        // E4 tag files are empty when the button was never pressed.
        if lower.hasPrefix("tags_") && lower.hasSuffix(".csv") { return .e4Tags }
        // E4 Connect's own name for them: one unix time per line, no header.
        if lower == "tags.csv", E4.Tags.looksLikeTags(path: path) { return .e4Tags }
        // WFDB records are binary: told by their header before any text is read.
        if (lower as NSString).pathExtension == "dat", WFDB.isSignalFile(path) { return .wfdb }
        if WFDB.isAnnotationFile(path) { return .wfdbAnnotations }
        if (lower as NSString).pathExtension == "zip" {
            // Other archives hold nothing we read.
            guard AppleHealthZip.matches(path: path) else { throw ImportError.unknownFormat(path: path, columns: []) }
            return .appleHealthZip
        }
        // A byte-order mark of an encoding that is not read is named here, before any reading.
        _ = try TextFile(path: path)
        if (lower as NSString).pathExtension == "xml" {
            // export_cda.xml and other XML beside export.xml hold no rows we read.
            guard AppleHealthXML.matches(path: path) else { throw ImportError.unknownFormat(path: path, columns: []) }
            return .appleHealthXML
        }
        if (lower as NSString).pathExtension == "jsonl" {
            guard ListenBrainz.matches(head: CSVPeek.headText(path: path)) else {
                throw ImportError.unknownFormat(path: path, columns: [])
            }
            return .listenbrainz
        }
        if (lower as NSString).pathExtension == "json" {
            let head = CSVPeek.headText(path: path)
            if head.contains("\"ms_played\"") && head.contains("\"ts\"") { return .spotifyExtended }
            if head.contains("\"msPlayed\"") && head.contains("\"endTime\"") { return .spotifyAccount }
            if head.contains("\"dateTime\"") && head.contains("\"bpm\"") { return .fitbitHR }
            if Fitbit.RestingHeartRate.matches(fileName: lower, head: head) { return .fitbitRestingHR }
            if Oura.matches(fileName: lower, head: head) { return .oura }
            if Garmin.kind(fileName: lower, head: head) != nil { return .garmin }
            if YouTubeMusic.matches(fileName: lower, head: head) { return .youtubeMusic }
            if ListenBrainz.matches(head: head) { return .listenbrainz }
            if HealthAutoExport.matches(head: head) { return .healthAutoExport }
            // Other JSON (a workspace's manifest.json) holds no rows.
            throw ImportError.unknownFormat(path: path, columns: [])
        }
        let first = try CSVPeek.records(path: path, count: 2, delimiter: delimiter)
        guard let header = first.first else { throw ImportError.emptyFile(path: path) }
        let columns = Set(header.map(ColumnName.normalized))
        let numericFirst = header.count == 1 && NumberParsing.double(header[0]) != nil
        if SamsungHealth.matches(fileName: lower, first: header) { return .samsungHeartRate }
        if lower == "hr.csv" && numericFirst { return .e4HR }
        if E4Signal.layout(path: path) != nil, header.allSatisfy({ NumberParsing.double($0) != nil }) { return .e4Signal }
        if BIDMC.matches(header: header) { return .bidmc }
        if PolarSignal.layout(header: header) != nil { return .polarSignal }
        if header.count <= 2, NumberParsing.double(header[0]) == nil, AppleHealthECG.matches(path: path) { return .appleHealthECG }
        if header.count == 2, NumberParsing.double(header[0]) != nil,
           header[1].trimmingCharacters(in: .whitespaces).uppercased() == "IBI" { return .e4IBI }
        if !columns.isDisjoint(with: ["song_name", "content_name"])
            && (columns.contains("event_start_timestamp") || lower.contains("play activity")) {
            return .appleMusic
        }
        if columns.contains("type") && columns.contains("value")
            && (columns.contains("start") || columns.contains("startdate")) { return .appleHealth }
        if columns.isSuperset(of: ["workoutactivitytype", "startdate", "enddate"]) { return .appleHealth }

        if columns.isSuperset(of: ["participant", "time_sec", "label"]) { return .stressPredictLabels }
        if Withings.matches(fileName: lower, columns: columns) { return .withingsHR }
        if PolarFlow.matches(columns: columns) { return .polarFlow }
        if Whoop.matches(columns: columns) { return .whoop }
        // Google Fit's all-days summary holds daily totals, no samples.
        if GoogleFit.isDailySummary(fileName: lower, columns: columns) {
            throw ImportError.unknownFormat(path: path, columns: header)
        }
        if GoogleFit.matches(fileName: lower, columns: columns) { return .googleFit }
        if Fitbit.HRVDetails.matches(columns: columns) { return .fitbitHRV }
        if EmbracePlus.matches(columns: columns) { return .embracePlus }
        if try SongFeaturesCSV.matches(header: header, path: path) { return .songFeatures }
        if CanonicalTable.matches(header: header) { return .canonical }
        if HealthAutoExportCSV.matches(header: header) { return .healthAutoExportCSV }
        if DailyMetricsCSV.layout(header: header) != nil { return .dailyMetrics }
        if LastFM.matches(header: header) { return .lastfm }
        let bases = header.map { ColumnName.baseAndUnit($0).base }
        if columns.contains("phone_timestamp"), bases.contains("rr_interval") { return .polarSensorLogger }
        if columns.contains("since_start"), bases.contains("rr") { return .hrvLogger }
        if header.count == 2, bases == ["time", "rr"], header.allSatisfy({ ColumnName.baseAndUnit($0).unit == .seconds }) {
            return .kubiosRR
        }
        if GenericCSV.Columns(header: header) != nil { return .genericCSV }
        if WaveformCSV.matches(header: header) { return .waveformCSV }
        // Apple's name for an ECG whose layout is not read: its reader says why, and its
        // first line (the person's name) is never shown as an unknown file's.
        if AppleHealthECG.hasItsName(path) { return .appleHealthECG }
        let ext = (lower as NSString).pathExtension
        if ["txt", "rr", ""].contains(ext) || lower.contains("_rr") {
            if numericFirst { return EliteHRV.localStartMs(fileName: name) == nil ? .physionetRR : .eliteHRV }
            // Two numbers and no header: elapsed time and interval (Polar Flow's `_RR.txt`).
            if RRText.numbers(header)?.count == 2 { return .rrText }
        }
        throw ImportError.unknownFormat(path: path, columns: header)
    }
}

/// Reads the first records of a file (for detection and unit decisions).
enum CSVPeek {
    private struct Enough: Error {}

    static func records(path: String, count: Int, delimiter: UInt8 = UInt8(ascii: ",")) throws -> [[String]] {
        var out: [[String]] = []
        try each(path: path, delimiter: delimiter, count: count) { out.append($0.strings) }
        return out
    }

    /// The first bytes of a file's text (`TextFile`), for detecting JSON and XML formats.
    static func headText(path: String, count: Int = 4096) -> String {
        String(decoding: TextFile.head(path: path, count: count), as: UTF8.self)
    }

    /// Calls `body` on the first `count` records of the file.
    static func each(path: String, delimiter: UInt8, count: Int, _ body: (CSVRecord) throws -> Void) throws {
        var seen = 0
        do {
            try CSVReader(path: path, delimiter: delimiter).forEachRecord { record in
                try body(record)
                seen += 1
                if seen >= count { throw Enough() }
            }
        } catch is Enough {}
    }
}

/// Header names compared loosely: lower case, the unit removed, words joined by `_`
/// ("Time(sec)" → `time_sec`, "Song Name" → `song_name`). A byte-order mark never reaches
/// a header: `TextFile` reads it as the file's encoding.
enum ColumnName {
    static func words(_ name: String) -> [String] {
        name.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    static func normalized(_ name: String) -> String {
        words(name).joined(separator: "_")
    }

    /// Column index by normalised name (the first column wins on a clash).
    static func index(_ header: CSVRecord) -> [String: Int] {
        var map: [String: Int] = [:]
        for i in (0..<header.count).reversed() { map[normalized(header.string(i))] = i }
        return map
    }

    enum Unit { case seconds, milliseconds }
    private static let unitWords: [String: Unit] = [
        "ms": .milliseconds, "msec": .milliseconds, "millis": .milliseconds,
        "milliseconds": .milliseconds, "s": .seconds, "sec": .seconds, "secs": .seconds, "seconds": .seconds,
    ]

    /// The name without unit words, and the unit it states if any ("rr (ms)" → `rr`, ms).
    static func baseAndUnit(_ name: String) -> (base: String, unit: Unit?) {
        let all = words(name)
        let unit = all.compactMap { unitWords[$0] }.last
        let base = all.filter { unitWords[$0] == nil }.joined(separator: "_")
        return (base, unit)
    }
}
