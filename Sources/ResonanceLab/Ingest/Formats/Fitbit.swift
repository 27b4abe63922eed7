import Foundation

/// Fitbit data from Google Takeout (`Takeout/Fitbit/…`):
/// - `heart_rate-YYYY-MM-DD.json` (Global Export Data): a JSON array of
///   `{"dateTime": "MM/dd/yy HH:mm:ss", "value": {"bpm": N, "confidence": C}}`, one
///   element per sample (every few seconds while worn) → hr.csv at `dateTime`,
///   source `fitbit`. `confidence` (0–3, the device's own rating) is not a filter:
///   every sample whose bpm is plausible is kept, and the manifest counts the
///   samples per confidence level.
/// - `Heart Rate Variability Details - YYYY-MM-DD.csv` (Heart Rate Variability):
///   `timestamp,rmssd,coverage,low_frequency,high_frequency`, one row per 5-minute
///   window of the main sleep → hrv_samples.csv `rmssd_ms` at `timestamp` (the
///   window's start), source `fitbit`. `coverage` (share of the window with usable
///   beats) and the LF / HF band powers have no canonical column and are not read.
///
/// - `resting_heart_rate-YYYY-MM-DD.json` (Global Export Data): a JSON array of
///   `{"dateTime": "MM/dd/yy HH:mm:ss", "value": {"date": "MM/dd/yy", "value": R, "error": E}}`,
///   one element per day → daily_inputs.csv `resting_hr` = R on `value.date` (the day it
///   describes; `dateTime`'s date when it is missing), source `fitbit`. R = 0 is Fitbit's
///   "no estimate that day" and is rejected with that reason, never read as 0 bpm;
///   `error` (the estimate's uncertainty, bpm) has no canonical column and is not read.
///
/// The heart-rate and HRV files carry no time zone: the times are the account's local wall-clock
/// time (Takeout's Profile.csv names the zone). They are read in `--tz`, or as UTC
/// when it is not given, which the manifest says.
enum Fitbit {
    static let source = "fitbit"

    /// Epoch-style milliseconds of the wall-clock time `MM/dd/yy HH:mm:ss` (years
    /// 2000–2099: Fitbit devices date from 2009), or nil for any other text.
    static func wallClock(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        guard b.count == 17, b[2] == 47, b[5] == 47, b[8] == 32, b[11] == 58, b[14] == 58 else { return nil }
        func two(_ at: Int) -> Int? {
            let x = Int(b[at]) - 48, y = Int(b[at + 1]) - 48
            guard (0...9).contains(x), (0...9).contains(y) else { return nil }
            return x * 10 + y
        }
        guard let month = two(0), let day = two(3), let yy = two(6), let h = two(9), let m = two(12), let s = two(15),
              (1...12).contains(month), h < 24, m < 60, s < 60 else { return nil }
        let year = 2000 + yy
        guard day >= 1, day <= Timestamp.daysInMonth(year, month) else { return nil }
        let seconds = Int64(Timestamp.daysFromCivil(year, month, day)) * 86_400 + Int64(h * 3600 + m * 60 + s)
        return seconds * 1000
    }

    /// `heart_rate-*.json`.
    enum HeartRate: FormatAdapter {
        static func read(_ input: SourceInput, into sink: ImportSink) throws {
            let file = input.file
            let subject = sink.subject(input.subject, group: input.group)
            var rows = 0
            var confidence: [String: Int] = [:]
            try JSONArrayReader(path: input.path).forEachObject { object, line in
                rows += 1
                func reject(_ reason: String) throws {
                    try sink.reject(file, line: line, column: 0, reason: reason, raw: JSONText.compact(object))
                }
                guard let text = object["dateTime"] as? String, let wall = wallClock(text),
                      let ms = input.times.instant(fromNaive: wall) else {
                    return try reject("unparsable dateTime")
                }
                if let late = sink.afterExport(ms) { return try reject(late) }
                guard let value = object["value"] as? [String: Any], let bpm = (value["bpm"] as? NSNumber)?.doubleValue,
                      bpm.isFinite else {
                    return try reject("unparsable bpm")
                }
                guard sink.hrRange.isPlausible(bpm) else { return try reject(sink.hrRange.rejectReason) }
                try sink.heartRate(subject: subject, ms: ms, bpm: bpm, source: source, file: file)
                let level = (value["confidence"] as? NSNumber).map { "\($0.intValue)" } ?? "none"
                confidence[level, default: 0] += 1
                sink.accept(file)
            }
            let levels = confidence.keys.sorted().map { "\($0): \(confidence[$0] ?? 0)" }.joined(separator: ", ")
            sink.note(file, "dateTime is local wall-clock time (MM/dd/yy HH:mm:ss); samples kept whatever their confidence (per level: \(levels.isEmpty ? "none" : levels))")
            try sink.endSource(input, rowsRead: rows)
        }
    }

    /// `resting_heart_rate-*.json`.
    enum RestingHeartRate: FormatAdapter {
        static func matches(fileName: String, head: String) -> Bool {
            fileName.hasPrefix("resting_heart_rate") || (head.contains("\"dateTime\"") && head.contains("\"error\""))
        }

        /// Days since 1970-01-01 of `MM/dd/yy` (years 2000–2099).
        static func day(_ text: String) -> Int64? {
            wallClock(text + " 00:00:00").map { Timestamp.floorDivMod($0, 86_400_000).0 }
        }

        static func read(_ input: SourceInput, into sink: ImportSink) throws {
            let file = input.file
            let subject = sink.subject(input.subject, group: input.group)
            var rows = 0
            try JSONArrayReader(path: input.path).forEachObject { object, line in
                rows += 1
                func reject(_ reason: String) throws {
                    try sink.reject(file, line: line, column: 0, reason: reason, raw: JSONText.compact(object))
                }
                guard let value = object["value"] as? [String: Any] else { return try reject("no value object") }
                let stated = (value["date"] as? String).flatMap(day)
                    ?? (object["dateTime"] as? String).flatMap { wallClock($0) }.map { Timestamp.floorDivMod($0, 86_400_000).0 }
                guard let day = stated else { return try reject("unparsable date (MM/dd/yy) and dateTime") }
                if let late = sink.afterExport(day * 86_400_000) { return try reject(late) }
                guard let bpm = (value["value"] as? NSNumber)?.doubleValue, bpm.isFinite else {
                    return try reject("unparsable resting heart rate value")
                }
                guard bpm != 0 else { return try reject("value 0: no resting heart rate estimate that day") }
                guard sink.hrRange.isPlausible(bpm) else { return try reject(sink.hrRange.rejectReason) }
                sink.dailyInput(subject: subject, day: day, metric: .restingHR, value: bpm, source: source, file: file)
                sink.accept(file)
            }
            sink.note(file, "value.value (bpm) → daily_inputs.csv resting_hr on value.date (MM/dd/yy, the local day); 0 rejected as no estimate; error not read")
            try sink.endSource(input, rowsRead: rows)
        }
    }

    /// `Heart Rate Variability Details - *.csv`.
    enum HRVDetails: FormatAdapter {
        static let columns = ["timestamp", "rmssd", "coverage", "low_frequency", "high_frequency"]

        static func matches(columns names: Set<String>) -> Bool { names.isSuperset(of: columns) }

        static func read(_ input: SourceInput, into sink: ImportSink) throws {
            let file = input.file
            let subject = sink.subject(input.subject, group: input.group)
            var time = 0, rmssd = 1
            let rows = try input.forEachRow(headerLines: 1, header: { record, _ in
                let map = ColumnName.index(record)
                guard let t = map["timestamp"], let r = map["rmssd"] else {
                    throw ImportError.unknownFormat(path: input.path, columns: record.strings)
                }
                (time, rmssd) = (t, r)
            }, rejectingWiderRowsInto: sink) { record in
                guard let ms = input.times.parse(record, time) else {
                    return try sink.reject(file, record, column: time + 1, reason: "unparsable time")
                }
                if try sink.rejectedAfterExport(file, record, column: time + 1, ms) { return }
                guard let value = record.double(rmssd), value > 0 else {
                    return try sink.reject(file, record, column: rmssd + 1, reason: "rmssd not a positive number")
                }
                try sink.hrvSample(subject: subject, ms: ms, rmssdMs: value, source: source, file: file)
                sink.accept(file)
            }
            sink.note(file, "rmssd (ms, 5-minute window starting at timestamp) → hrv_samples.rmssd_ms; coverage, low_frequency, high_frequency not read")
            try sink.endSource(input, rowsRead: rows)
        }
    }
}
