/// A canonical table of another workspace (docs/tables.md) — `hr.csv`, `rr.csv`,
/// `plays.csv`, `labels.csv`, `sleep.csv`, `workouts.csv`, `hrv_samples.csv`,
/// `daily_inputs.csv`, `subjects.csv` —
/// recognised by its exact header. Re-importing one puts every row through the
/// same checks as a raw export, so a workspace written by another tool (or by
/// `personas generate`) can be validated row by row.
enum CanonicalTable: FormatAdapter {
    /// The canonical headers this adapter reads.
    static let headers: [[String]] = [
        HRSample.header, RRInterval.header, Play.header, LabelInterval.header,
        SleepEpisode.header, SleepEpisode.headerWithoutSource, Workout.header, HRVSample.header, DailyInputRow.header,
        SubjectRow.header, SubjectRow.headerWithoutAliases,
    ]

    static func matches(header: [String]) -> Bool {
        headers.contains(header.map { $0.trimmingCharacters(in: .whitespaces) })
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let file = input.file
        var columns = ColumnIndex([])
        var header: [String] = []
        let rows = try input.forEachRow(headerLines: 1, header: { record, _ in
            header = (0..<record.count).map { record.trimmed($0) }
            columns = ColumnIndex(header)
        }, rejectingWiderRowsInto: sink) { record in
            let fields = CanonicalFieldReader(record: record, columns: columns, path: input.display)
            do {
                try importRow(fields, header: header, record: record, input: input, sink: sink)
            } catch let error as TableError {
                try sink.reject(file, record, column: error.column, reason: error.message)
            }
        }
        try sink.endSource(input, rowsRead: rows)
    }

    /// Parses one row as the table its header names, checks it and hands it to the
    /// sink; unparsable fields throw `TableError`, implausible values are rejected.
    private static func importRow(_ fields: CanonicalFieldReader, header: [String], record: CSVRecord,
                                  input: SourceInput, sink: ImportSink) throws {
        let file = input.file
        func subject(_ name: String) -> Int { sink.subject(name, group: input.group) }
        /// Rejects the row when its time (`ms`, in column `column`) lies after the export was made.
        func late(_ ms: Int64, column: Int = 2) throws -> Bool {
            try sink.rejectedAfterExport(file, record, column: column, ms)
        }
        func ordered(_ start: Int64, _ end: Int64) throws -> Bool {
            guard end >= start else {
                try sink.reject(file, record, column: (header.firstIndex(of: "end") ?? 0) + 1, reason: "end before start")
                return false
            }
            return true
        }
        switch header {
        case HRSample.header:
            let row = try HRSample(fields)
            if try late(row.timestampMs) { return }
            guard sink.hrRange.isPlausible(row.bpm) else {
                return try sink.reject(file, record, column: 3, reason: sink.hrRange.rejectReason)
            }
            try sink.heartRate(subject: subject(row.subject), ms: row.timestampMs, bpm: row.bpm, source: row.source, file: file)
        case RRInterval.header:
            let row = try RRInterval(fields)
            if try late(row.timestampMs) { return }
            guard sink.rrRange.isPlausible(row.rrMs) else {
                return try sink.reject(file, record, column: 3, reason: sink.rrRange.rejectReason)
            }
            try sink.rrInterval(subject: subject(row.subject), ms: row.timestampMs, rrMs: row.rrMs, source: row.source, file: file)
        case HRVSample.header:
            let row = try HRVSample(fields)
            if try late(row.timestampMs) { return }
            guard row.sdnnMs != nil || row.rmssdMs != nil else {
                return try sink.reject(file, record, column: 3, reason: "neither sdnn nor rmssd")
            }
            if let v = row.sdnnMs, v <= 0 { return try sink.reject(file, record, column: 3, reason: "sdnn not positive") }
            if let v = row.rmssdMs, v <= 0 { return try sink.reject(file, record, column: 4, reason: "rmssd not positive") }
            try sink.hrvSample(subject: subject(row.subject), ms: row.timestampMs, sdnnMs: row.sdnnMs, rmssdMs: row.rmssdMs,
                               source: row.source, file: file)
        case Play.header:
            let row = try Play(fields)
            if try late(row.startedAtMs, column: 8) { return }
            if let end = row.endedAtMs, end < row.startedAtMs {
                return try sink.reject(file, record, column: 9, reason: "end before start")
            }
            guard !row.songId.isEmpty else { return try sink.reject(file, record, column: 3, reason: "no song") }
            if let d = row.mediaDurationS, d <= 0 {
                return try sink.reject(file, record, column: 10, reason: "zero media duration")
            }
            try sink.play(row, subject: subject(row.subject), file: file)
        case LabelInterval.header:
            let row = try LabelInterval(fields)
            guard try ordered(row.startMs, row.endMs), try !late(row.startMs) else { return }
            try sink.label(subject: subject(row.subject), startMs: row.startMs, endMs: row.endMs, label: row.label, file: file)
        case SleepEpisode.header, SleepEpisode.headerWithoutSource:
            let row = try SleepEpisode(fields)
            guard try ordered(row.startMs, row.endMs), try !late(row.startMs) else { return }
            try sink.sleep(subject: subject(row.subject), startMs: row.startMs, endMs: row.endMs, stage: row.stage,
                           source: row.source, file: file)
        case DailyInputRow.header:
            let row = try DailyInputRow(fields)
            guard let metric = DailyMetric(rawValue: row.metric) else {
                return try sink.reject(file, record, column: 3, reason: "unknown metric (one of "
                    + DailyMetric.allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            guard row.unit == metric.unit else {
                return try sink.reject(file, record, column: 5, reason: "unit is not \(metric.unit)")
            }
            guard row.value.isFinite, row.value >= 0 else { return try sink.reject(file, record, column: 4, reason: "negative value") }
            let day = Int64(Timestamp.dayNumber(isoDate: row.date) ?? 0)
            if try late(day * 86_400_000) { return }
            sink.dailyInput(subject: subject(row.subject), day: day, metric: metric,
                            value: row.value, source: row.source, file: file)
        case SubjectRow.header, SubjectRow.headerWithoutAliases:
            let row = try SubjectRow(fields)
            sink.subjectFacts(subject: subject(row.subject), row)
        default:
            let row = try Workout(fields)
            guard try ordered(row.startMs, row.endMs), try !late(row.startMs) else { return }
            try sink.workout(subject: subject(row.subject), startMs: row.startMs, endMs: row.endMs, activity: row.activity, file: file)
        }
        sink.accept(file)
    }
}
