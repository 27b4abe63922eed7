import Foundation

/// Google Fit in Google Takeout: `Takeout/Fit/Daily activity metrics/YYYY-MM-DD.csv`, one
/// file per day of 15-minute buckets, `Start time` and `End time` a time of day with its
/// offset (`00:00:00.000+01:00`) on the date of the file name. Per bucket,
/// `Average heart rate (bpm)` → hr.csv at the bucket's start (source `google_fit`), and
/// `Step count` → daily_inputs.csv `steps` on the file's date (the day's buckets summed).
/// A bucket with neither is counted in the manifest (`unusedRecords`), not a row read.
/// The all-days summary `Daily activity metrics.csv` (one row per `Date`, totals only)
/// adds no samples: it is skipped, with its reason in the manifest. A time without an
/// offset is read in `--tz`, or as UTC with a warning.
enum GoogleFit: FormatAdapter {
    static let source = "google_fit"
    static let summaryFileName = "daily activity metrics.csv"

    static func matches(fileName: String, columns: Set<String>) -> Bool {
        day(fileName: fileName) != nil && columns.isSuperset(of: ["start_time", "end_time"])
            && !columns.isDisjoint(with: ["average_heart_rate_bpm", "step_count"])
    }

    /// Whether a file is the all-days summary (a `Date` column instead of bucket times).
    static func isDailySummary(fileName: String, columns: Set<String>) -> Bool {
        fileName == summaryFileName && columns.contains("date") && !columns.contains("start_time")
    }

    /// The date of a `YYYY-MM-DD.csv` file name: days since 1970-01-01, or nil.
    static func day(fileName: String) -> Int64? {
        guard fileName.count == 14, fileName.hasSuffix(".csv"),
              let (ms, _) = Timestamp.parseISO(String(fileName.prefix(10)) + "T00:00:00Z") else { return nil }
        return Timestamp.floorDivMod(ms, 86_400_000).0
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let file = input.file
        let subject = sink.subject(input.subject, group: input.group)
        let name = (input.path as NSString).lastPathComponent.lowercased()
        guard let day = day(fileName: name) else {
            throw ImportError.badMetadata(path: input.path, line: 0, column: 0,
                                          message: "the file name is not the day it holds (YYYY-MM-DD.csv)")
        }
        let date = Timestamp.isoDate(day * 86_400_000)
        var map: [String: Int] = [:]
        var unused: [String: Int] = [:]
        var zoneless = 0
        var rows = try input.forEachRow(headerLines: 1, header: { record, _ in
            map = ColumnName.index(record)
            guard map["start_time"] != nil else {
                throw ImportError.unknownFormat(path: input.path, columns: record.strings)
            }
        }, rejectingWiderRowsInto: sink) { record in
            func text(_ name: String) -> String { map[name].flatMap { $0 < record.count ? record.trimmed($0) : nil } ?? "" }
            let bpm = NumberParsing.double(text("average_heart_rate_bpm")).flatMap { $0 > 0 ? $0 : nil }
            let steps = NumberParsing.double(text("step_count")).flatMap { $0 > 0 ? $0 : nil }
            guard bpm != nil || steps != nil else {
                unused["bucket without Average heart rate (bpm) or Step count", default: 0] += 1
                return
            }
            if bpm == nil, try sink.rejectedAfterExport(file, record, column: 0, day * 86_400_000) { return }
            if let bpm {
                let column = (map["start_time"] ?? 0) + 1
                guard let (local, hasZone) = Timestamp.parseISO(date + "T" + text("start_time")) else {
                    return try sink.reject(file, record, column: column, reason: "unparsable Start time")
                }
                var ms = local
                if !hasZone {
                    zoneless += 1
                    guard let utc = input.times.instant(fromNaive: local) else {
                        return try sink.reject(file, record, column: column, reason: "time outside years 0000–9999")
                    }
                    ms = utc
                }
                if try sink.rejectedAfterExport(file, record, column: column, ms) { return }
                guard sink.hrRange.isPlausible(bpm) else {
                    return try sink.reject(file, record, column: (map["average_heart_rate_bpm"] ?? 0) + 1,
                                           reason: sink.hrRange.rejectReason)
                }
                try sink.heartRate(subject: subject, ms: ms, bpm: bpm, source: source, file: file)
            }
            if let steps { sink.dailyInput(subject: subject, day: day, metric: .steps, value: steps, source: source, file: file) }
            sink.accept(file)
        }
        rows -= unused.values.reduce(0, +)
        sink.setUnused(file, unused)
        sink.note(file, "Average heart rate (bpm) → hr.csv at Start time on \(date) (the file name's date, the time's offset); "
            + "Step count summed → daily_inputs.csv steps")
        if zoneless > 0, input.times.zone == nil {
            sink.warn(file, "\(zoneless) Google Fit times without an offset: read as UTC (give --tz)")
        }
        try sink.endSource(input, rowsRead: rows)
    }
}
