import Foundation

/// Polar Flow training session CSV (flow.polar.com → a training session → Export
/// session → CSV): a summary block, two lines — `Name,Sport,Date,Start time,Duration,…`
/// and its values (`Date` as `dd-mm-yyyy`, `Start time` and `Duration` as `hh:mm:ss`) —
/// then the sample table: `Sample rate,Time,HR (bpm),Speed (km/h),…`, one row per
/// second with `Time` the elapsed `hh:mm:ss` and the sample rate on the first row only.
///
/// Read: the summary → one workouts.csv row (`Sport`, from the start to start +
/// `Duration`); each sample's `HR (bpm)` → hr.csv at start + `Time`, source
/// `polar_flow`. The times have no zone: they are local wall-clock time, read in `--tz`;
/// without it they are read as UTC with a warning on stderr and in the manifest. Rows
/// read are the summary row and the sample rows; a sample without HR (empty or 0: the
/// strap lost contact) is rejected as no reading. Speed, pace, cadence, altitude,
/// distance, power and the summary's aggregates are not read.
enum PolarFlow: FormatAdapter {
    static let source = "polar_flow"
    static let summaryColumns: Set<String> = ["name", "sport", "date", "start_time", "duration"]

    static func matches(columns: Set<String>) -> Bool { columns.isSuperset(of: summaryColumns) }

    /// `hh:mm:ss` (or `hh:mm:ss.f…`) as milliseconds; nil for any other text.
    static func clock(_ text: String) -> Int64? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let h = Int(parts[0]), let m = Int(parts[1]), h >= 0, h < 1000, (0..<60).contains(m),
              let s = NumberParsing.double(String(parts[2])), s >= 0, s < 60 else { return nil }
        return Int64(h * 3600 + m * 60) * 1000 + Int64((s * 1000).rounded())
    }

    /// `dd-mm-yyyy` (Polar Flow's date) as epoch-style milliseconds of its midnight.
    static func date(_ text: String) -> Int64? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "-")
        guard parts.count == 3, parts[0].count == 2, parts[1].count == 2, parts[2].count == 4,
              let d = Int(parts[0]), let mo = Int(parts[1]), let y = Int(parts[2]),
              (1...12).contains(mo), y >= 1, d >= 1, d <= Timestamp.daysInMonth(y, mo) else { return nil }
        return Int64(Timestamp.daysFromCivil(y, mo, d)) * 86_400_000
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let file = input.file
        let subject = sink.subject(input.subject, group: input.group)
        var summary: [String: Int] = [:]
        var sample = (time: -1, hr: -1)
        var startMs: Int64?
        var records = 0
        try CSVReader(path: input.path, delimiter: input.delimiter).forEachRecord { record in
            records += 1
            switch records {
            case 1:
                summary = ColumnName.index(record)
                guard matches(columns: Set(summary.keys)) else {
                    throw ImportError.unknownFormat(path: input.path, columns: record.strings)
                }
            case 2:
                func field(_ name: String) -> String {
                    summary[name].flatMap { $0 < record.count ? record.trimmed($0) : nil } ?? ""
                }
                guard let day = date(field("date")), let time = clock(field("start_time")),
                      let start = input.times.instant(fromNaive: day + time) else {
                    throw ImportError.badMetadata(path: input.path, line: record.line, column: (summary["date"] ?? 0) + 1,
                                                  message: "unparsable Date (dd-mm-yyyy) or Start time (hh:mm:ss) of the session")
                }
                startMs = start
                guard let duration = clock(field("duration")), duration > 0 else {
                    return try sink.reject(file, record, column: (summary["duration"] ?? 0) + 1, reason: "unparsable Duration")
                }
                guard Timestamp.representable.contains(start + duration) else {
                    return try sink.reject(file, record, column: (summary["duration"] ?? 0) + 1, reason: "time outside years 0000–9999")
                }
                if try sink.rejectedAfterExport(file, record, column: (summary["date"] ?? 0) + 1, start) { return }
                let sport = field("sport")
                try sink.workout(subject: subject, startMs: start, endMs: start + duration,
                                 activity: sport.isEmpty ? "unknown" : sport, file: file)
                sink.accept(file)
            case 3:
                let map = ColumnName.index(record)
                guard let t = map["time"], let hr = map["hr_bpm"] ?? map["hr"] else {
                    throw ImportError.badMetadata(path: input.path, line: record.line, column: 0,
                                                  message: "line 3 is not the sample header ('Sample rate,Time,HR (bpm),…')")
                }
                sample = (t, hr)
            default:
                guard let start = startMs, let elapsed = sample.time < record.count ? clock(record.trimmed(sample.time)) : nil else {
                    return try sink.reject(file, record, column: sample.time + 1, reason: "unparsable time")
                }
                let text = sample.hr < record.count ? record.trimmed(sample.hr) : ""
                guard !text.isEmpty, record.double(sample.hr) != 0 else {
                    return try sink.reject(file, record, column: sample.hr + 1, reason: "no heart rate (empty or 0)")
                }
                guard Timestamp.representable.contains(start + elapsed) else {
                    return try sink.reject(file, record, column: sample.time + 1, reason: "time outside years 0000–9999")
                }
                if try sink.rejectedAfterExport(file, record, column: sample.time + 1, start + elapsed) { return }
                guard let bpm = try sink.checkedBpm(record, sample.hr, file: file) else { return }
                try sink.heartRate(subject: subject, ms: start + elapsed, bpm: bpm, source: source, file: file)
                sink.accept(file)
            }
        }
        if records == 1 {
            throw ImportError.badMetadata(path: input.path, line: 2, column: 0, message: "no session summary line")
        }
        if input.times.zone == nil, startMs != nil {
            sink.warn(file, "Polar Flow times carry no zone: read as UTC (give --tz for the zone of the recording)")
        }
        sink.note(file, "summary block → one workout (Sport, Start time + Duration); HR (bpm) → hr at start + Time (elapsed)")
        // Line 1 and, when there is one, line 3 are headers; the rest are rows read.
        try sink.endSource(input, rowsRead: records - min(records, records >= 3 ? 2 : 1))
    }
}
