import Foundation

/// Samsung Health heart rate from the app's personal-data download (Settings →
/// Download personal data): `com.samsung.shealth.tracker.heart_rate.<yyyyMMddHHmm>.csv`.
/// The file starts with a UTF-8 byte-order mark (read as every text file's, `TextFile`)
/// and a metadata line (the data type, a number and the column-set version:
/// `com.samsung.shealth.tracker.heart_rate,6313007,3`),
/// then a header whose names are namespaced (`com.samsung.health.heart_rate.heart_rate`;
/// `source`, `tag_id` are not), and rows that end in a comma.
///
/// Read: `heart_rate` (bpm) → hr.csv at `start_time` (`yyyy-MM-dd HH:mm:ss.SSS`, UTC),
/// source `samsung_health`. `time_offset` (`UTC+0100`) is the phone's zone when it
/// measured: `start_time` is already UTC, so it is not applied (an unparsable one is
/// rejected, as the row's time is then in doubt). A `heart_rate` that is empty or 0
/// (no reading) is missing, rejected, never 0 bpm. `min`, `max`, `heart_beat_count`,
/// `end_time`, `binning_data` (per-minute values in separate JSON files), `comment`
/// and the device and package ids are not read.
enum SamsungHealth: FormatAdapter {
    static let source = "samsung_health"
    static let dataType = "com.samsung.shealth.tracker.heart_rate"

    /// Whether a file's name or its first (metadata) record names Samsung's heart-rate type.
    static func matches(fileName: String, first: [String]) -> Bool {
        fileName.hasPrefix(dataType + ".") && fileName.hasSuffix(".csv")
            || first.first.map { ColumnName.normalized($0) == ColumnName.normalized(dataType) } == true
    }

    /// A header name without its `com.samsung.health.<type>.` namespace, normalised.
    static func column(_ name: String) -> String {
        ColumnName.normalized(String(name.split(separator: ".").last ?? ""))
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let file = input.file
        let subject = sink.subject(input.subject, group: input.group)
        var col = (time: 0, bpm: 0, offset: Int?.none)
        let rows = try input.forEachRow(headerLines: 2, header: { record, index in
            if index == 0 {
                guard matches(fileName: "", first: record.strings) else {
                    throw ImportError.unknownFormat(path: input.path, columns: record.strings)
                }
                return
            }
            var map: [String: Int] = [:]
            for i in (0..<record.count).reversed() { map[column(record.string(i))] = i }
            guard let t = map["start_time"], let b = map["heart_rate"] else {
                throw ImportError.unknownFormat(path: input.path, columns: record.strings)
            }
            col = (t, b, map["time_offset"])
        }, rejectingWiderRowsInto: sink) { record in
            guard let (ms, _) = col.time < record.count ? Timestamp.parseISO(record.trimmed(col.time)) : nil else {
                return try sink.reject(file, record, column: col.time + 1, reason: "unparsable start_time")
            }
            if try sink.rejectedAfterExport(file, record, column: col.time + 1, ms) { return }
            if let c = col.offset, c < record.count, !record.trimmed(c).isEmpty, UTCOffset.minutes(record.trimmed(c)) == nil {
                return try sink.reject(file, record, column: c + 1, reason: "unparsable time_offset")
            }
            let text = col.bpm < record.count ? record.trimmed(col.bpm) : ""
            guard !text.isEmpty, record.double(col.bpm) != 0 else {
                return try sink.reject(file, record, column: col.bpm + 1, reason: "no heart rate (empty or 0)")
            }
            guard let bpm = try sink.checkedBpm(record, col.bpm, file: file) else { return }
            try sink.heartRate(subject: subject, ms: ms, bpm: bpm, source: source, file: file)
            sink.accept(file)
        }
        sink.note(file, "metadata line and namespaced header read; start_time is UTC (time_offset, the phone's zone, not applied); "
            + "heart_rate (bpm) → hr; empty or 0 heart_rate rejected as no reading")
        try sink.endSource(input, rowsRead: rows)
    }
}
