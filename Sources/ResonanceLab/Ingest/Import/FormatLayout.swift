import Foundation

/// The header or layout each format expects, so that a file forced into a format it does
/// not have (`--format kubios-rr` on a file without Kubios's header) is one line saying
/// what was expected and what was found, not "unknown format" (docs/import.md).
enum FormatLayout {
    /// What a file of `format` looks like, in words.
    static func expected(_ format: SourceFormat) -> String {
        switch format {
        case .genericCSV:
            return "a header naming a time column (timestamp, time, date, …) and a bpm or R-R column (bpm, hr, rr, ibi, …), "
                + "or the columns named with --time-column and --bpm-column or --rr-column"
        case .e4HR: return "Empatica E4 HR.csv: line 1 the session start (unix seconds), line 2 the sample rate (Hz), then one bpm per line"
        case .e4IBI: return "Empatica E4 IBI.csv: line 1 '<session start>, IBI', then 't, ibi' per line (seconds)"
        case .e4Tags: return "Empatica E4 tags (tags.csv, tags_*.csv): one unix time (seconds) per line, no header"
        case .physionetRR, .rrText:
            return "R-R text without a header: one interval per line (s or ms), or elapsed time and interval per line "
                + "(tab, space, comma or semicolon separated)"
        case .eliteHRV:
            return "Elite HRV R-R export: a file named by its start time 'YYYY-MM-DD HH-MM-SS.txt', one interval (ms) per line"
        case .appleMusic: return "a header with 'Song Name' (or 'Content Name') and 'Event Start Timestamp'"
        case .appleHealth:
            return "a header with 'type', 'value' and 'startDate' (or 'start'), or 'workoutActivityType', 'startDate' and 'endDate'"
        case .stressPredictLabels: return "a header with 'Participant', 'Time(sec)' and 'Label'"
        case .canonical: return "the exact header of a canonical table (e.g. 'subject,timestamp,bpm,source' for hr.csv)"
        case .polarSensorLogger: return "a header 'Phone timestamp;RR-interval [ms]' (';'-separated)"
        case .hrvLogger: return "a header 'date, rr, since start' (or a unix 'timestamp' column for 'date')"
        case .kubiosRR: return "a header of two columns 'Time(s)' and 'RR(s)' (tab-separated, as Kubios exports R-R)"
        case .spotifyExtended: return "a JSON array whose objects have 'ts' and 'ms_played'"
        case .spotifyAccount: return "a JSON array whose objects have 'endTime' and 'msPlayed'"
        case .lastfm:
            return "columns 'artist', 'track' and 'uts' (or 'utc_time', 'date'), or four columns without header 'artist,album,track,date'"
        case .appleHealthXML: return "an XML file holding <HealthData> (Apple Health export.xml)"
        case .appleHealthZip: return "a .zip archive holding apple_health_export/export.xml"
        case .fitbitHR: return "a JSON array of {\"dateTime\": \"MM/dd/yy HH:mm:ss\", \"value\": {\"bpm\": …}}"
        case .fitbitHRV: return "a header 'timestamp,rmssd,coverage,low_frequency,high_frequency'"
        case .songFeatures:
            return "a header naming two of 'tempo' (or 'bpm'), 'energy' and 'valence', and a track id column or title and artist columns"
        case .embracePlus:
            return "a header with 'participant_full_id', 'timestamp_unix' (or 'timestamp_iso') and 'pulse_rate_bpm' and/or 'prv_rmssd_ms'"
        case .youtubeMusic: return "a JSON array of Takeout history items with 'header', 'title', 'titleUrl' and 'time'"
        case .listenbrainz: return "JSON Lines, one ListenBrainz listen per line with 'listened_at' and 'track_metadata'"
        case .samsungHeartRate:
            return "a metadata line 'com.samsung.shealth.tracker.heart_rate,…', then a header with "
                + "'com.samsung.health.heart_rate.start_time' and '….heart_rate'"
        case .withingsHR: return "a header 'start,duration,value' with bracketed arrays (raw_hr_hr.csv, raw_bed_hr.csv)"
        case .polarFlow:
            return "a summary header 'Name,Sport,Date,Start time,Duration,…' and its values, then 'Sample rate,Time,HR (bpm),…'"
        case .whoop:
            return "a header with 'Cycle start time', 'Cycle timezone' and 'Sleep onset' with 'Heart rate variability (ms)' "
                + "(physiological_cycles.csv) or 'Nap' (sleeps.csv), or 'Workout start time' and 'Workout end time' (workouts.csv)"
        case .healthAutoExport:
            return "a JSON object {\"data\": {\"metrics\": [{\"name\", \"units\", \"data\": […]}], \"workouts\": […]}}"
        case .oura:
            return "an Oura API v2 document {\"data\": [...]} of heartrate items ('bpm', 'timestamp') or sleep documents "
                + "('bedtime_start', 'bedtime_end', 'heart_rate', 'hrv', 'sleep_phase_5_min')"
        case .garmin:
            return "a Garmin Connect JSON array of nights with 'sleepStartTimestampGMT' (*sleepData.json) "
                + "or of daily summaries with 'calendarDate', 'restingHeartRate', 'totalSteps' (UDSFile_*.json)"
        case .googleFit:
            return "a Google Fit daily file named YYYY-MM-DD.csv with 'Start time', 'End time' and "
                + "'Average heart rate (bpm)' or 'Step count'"
        case .healthAutoExportCSV:
            return "a header 'Date' (or 'Date/Time') and metric columns named with their unit, e.g. 'Resting Heart Rate (count/min)'"
        case .fitbitRestingHR:
            return "a JSON array of {\"dateTime\": \"MM/dd/yy HH:mm:ss\", \"value\": {\"date\": \"MM/dd/yy\", \"value\": …, \"error\": …}}"
        case .dailyMetrics:
            return "a header 'date,metric,value' (optionally 'subject', 'unit') or 'date' and daily metric columns "
                + "(resting_hr, steps, …; optionally 'subject')"
        case .e4Signal:
            return "Empatica E4 BVP.csv, ACC.csv, EDA.csv or TEMP.csv: line 1 the start (unix seconds), line 2 the rate (Hz), "
                + "then one sample per channel per line"
        case .wfdb: return "a WFDB signal file (<record>.dat, format 212 or 16) with its header <record>.hea beside it"
        case .wfdbAnnotations: return "a WFDB annotation file (<record>.atr, MIT format) with its header <record>.hea beside it"
        case .bidmc: return "a header 'Time [s], RESP, PLETH, V, AVR, II' (BIDMC signals CSV)"
        case .polarSignal:
            return "a header 'Phone timestamp;sensor timestamp [ns];' then 'timestamp [ms];ecg [uV]' (ECG), "
                + "'channel 0;channel 1;channel 2;ambient' (PPG) or 'X [mg];Y [mg];Z [mg]' (ACC), as Polar Sensor Logger writes them"
        case .appleHealthECG:
            return "an Apple Health ECG (electrocardiograms/ecg_*.csv): metadata lines with 'Recorded Date' and "
                + "'Sample Rate,512 hertz', then one voltage per line"
        case .waveformCSV:
            return "a header naming numeric signal columns, and a time column or --rate HZ"
        }
    }

    /// Formats whose reader would take a file of another layout without complaint (rejecting
    /// every row, or reading columns of another meaning), so their layout is checked first.
    static let checked: Set<SourceFormat> = [.e4HR, .e4IBI, .e4Tags, .e4Signal, .physionetRR, .eliteHRV, .rrText, .kubiosRR,
                                             .polarSensorLogger, .hrvLogger]

    /// What the start of a file forced into `format` shows when it does not have that
    /// format's header or layout (`found 'time,bpm'`), or nil when it fits or the format's
    /// reader checks it itself (JSON, XML, archives, the CSV formats that name their header).
    static func mismatch(_ format: SourceFormat, path: String, delimiter: UInt8) throws -> String? {
        guard checked.contains(format) else { return nil }
        let records = try CSVPeek.records(path: path, count: 2, delimiter: delimiter)
        // An empty file is no mismatch: it is reported as a file without rows.
        guard let first = records.first else { return nil }
        let fits: Bool
        let bases = first.map { ColumnName.baseAndUnit($0).base }
        let single = first.count == 1 && NumberParsing.double(first[0]) != nil
        switch format {
        case .e4HR:
            fits = single && (records.count < 2 || records[1].count == 1 && NumberParsing.double(records[1][0]) != nil)
        case .e4IBI:
            fits = first.count == 2 && NumberParsing.double(first[0]) != nil
                && first[1].trimmingCharacters(in: .whitespaces).uppercased() == "IBI"
        case .e4Tags: fits = single
        case .e4Signal:
            fits = first.allSatisfy { NumberParsing.double($0) != nil } && E4Signal.layout(path: path) != nil
        case .eliteHRV:
            let name = (path as NSString).lastPathComponent
            if single, EliteHRV.localStartMs(fileName: name) == nil { return "found the file name '\(name)'" }
            fits = single
        case .physionetRR, .rrText: fits = RRText.numbers(first).map { (1...2).contains($0.count) } ?? false
        case .kubiosRR:
            fits = first.count == 2 && bases == ["time", "rr"] && ColumnName.baseAndUnit(first[0]).unit == .seconds
        case .polarSensorLogger:
            fits = Set(first.map(ColumnName.normalized)).contains("phone_timestamp") && bases.contains("rr_interval")
        case .hrvLogger: fits = GenericCSV.Columns(header: first).map { $0.rr != nil } ?? false
        default: fits = true
        }
        return fits ? nil : "found \(firstLine(path))"
    }

    /// The first line of a file as it is, quoted and cut to 80 characters; not an Apple
    /// Health ECG's, which names the person.
    static func firstLine(_ path: String) -> String {
        if AppleHealthECG.hasItsName(path) || AppleHealthECG.matches(path: path) {
            return "an Apple Health ECG, whose first line is not shown (it names the person)"
        }
        let head = CSVPeek.headText(path: path, count: 512)
        let line = head.prefix { $0 != "\n" && $0 != "\r" }
        return line.isEmpty ? "an empty first line" : "first line \(excerpt(String(line)))"
    }

    /// `text` quoted, tabs shown as `\t`, cut to 80 characters.
    static func excerpt(_ text: String) -> String {
        let shown = text.replacingOccurrences(of: "\t", with: "\\t")
        return "'" + (shown.count > 80 ? String(shown.prefix(80)) + "…" : shown) + "'"
    }
}
