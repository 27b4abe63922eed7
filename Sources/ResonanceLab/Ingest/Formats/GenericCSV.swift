/// Generic CSV: a header naming a time column and a bpm and/or RR column, with an
/// optional subject column. Times are ISO 8601 (with or without zone) or unix
/// seconds / milliseconds; RR is in ms or s, from the header's unit or, when the
/// header states none, from the magnitude of the first values (recorded in notes).
enum GenericCSV: FormatAdapter {
    static let timeNames: Set<String> = [
        "timestamp", "time", "datetime", "date_time", "date", "ts", "unix", "unix_time", "unix_timestamp", "epoch",
        "utc", "timestamp_utc", "time_utc", "datetime_utc",
    ]
    static let bpmNames: Set<String> = ["bpm", "hr", "heart_rate", "heartrate", "pulse", "hr_bpm", "heart_rate_bpm"]
    static let rrNames: Set<String> = ["rr", "rri", "rr_interval", "ibi", "nn", "nn_interval", "interbeat_interval"]
    /// A bare `id` column is a row id far more often than a person, so it is not one.
    static let subjectNames: Set<String> = ["subject", "subject_id", "participant", "participant_id", "user"]

    struct Columns {
        var time: Int
        var timeUnit: ColumnName.Unit?
        var bpm: Int?
        var rr: Int?
        var rrUnit: ColumnName.Unit?
        var subject: Int?

        init?(header: [String]) {
            var time: Int?, bpm: Int?, rr: Int?, subject: Int?
            var timeUnit: ColumnName.Unit?, rrUnit: ColumnName.Unit?
            for (i, name) in header.enumerated() {
                let (base, unit) = ColumnName.baseAndUnit(name)
                if time == nil, GenericCSV.timeNames.contains(base) { time = i; timeUnit = unit }
                else if bpm == nil, GenericCSV.bpmNames.contains(base) { bpm = i }
                else if rr == nil, GenericCSV.rrNames.contains(base) { rr = i; rrUnit = unit }
                else if subject == nil, GenericCSV.subjectNames.contains(base) { subject = i }
            }
            guard let time, bpm != nil || rr != nil else { return nil }
            self.time = time; self.timeUnit = timeUnit; self.bpm = bpm; self.rr = rr
            self.rrUnit = rrUnit; self.subject = subject
        }
    }

    /// The first header column that repeats an earlier one — the same name, or a
    /// second time, heart-rate, RR or subject column (`hr` after `bpm`) — as an error
    /// naming both, since which of the two holds the data would be a guess.
    static func repeatedColumn(_ header: [String], path: String) -> ImportError? {
        let roles: [(String, Set<String>)] = [
            ("time", timeNames), ("heart rate", bpmNames), ("rr", rrNames), ("subject", subjectNames),
        ]
        var seen: [String: Int] = [:]
        for (i, name) in header.enumerated() {
            let base = ColumnName.baseAndUnit(name).base
            let key = roles.first { $0.1.contains(base) }.map { "the \($0.0) column" } ?? "column '\(base)'"
            if let first = seen[key] {
                return .badMetadata(path: path, line: 1, column: i + 1,
                                    message: "'\(name)' repeats \(key) '\(header[first])' (column \(first + 1))")
            }
            seen[key] = i
        }
        return nil
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let head = try CSVPeek.records(path: input.path, count: 101)
        guard let header = head.first, let columns = Columns(header: header) else {
            throw ImportError.unknownFormat(path: input.path, columns: head.first ?? [])
        }
        if let error = repeatedColumn(header, path: input.display) { throw error }
        let file = input.file
        let unix: TimeFieldParser.UnixUnit
        switch columns.timeUnit {
        case .seconds?: unix = .seconds
        case .milliseconds?: unix = .milliseconds
        case nil: unix = .byMagnitude
        }
        let timeRule = columns.timeUnit.map { "unix \($0 == .seconds ? "seconds" : "milliseconds") (from the header)" }
            ?? "ISO 8601, or unix ms when ≥ 1e11 else unix s"
        sink.note(file, "time column '\(header[columns.time])': \(timeRule)")
        var rrScale = 1.0
        if let rr = columns.rr {
            let unit = columns.rrUnit ?? RRUnit.fromMagnitude(head.dropFirst().compactMap { row in
                rr < row.count ? NumberParsing.double(row[rr]) : nil
            })
            rrScale = unit == .seconds ? 1000 : 1
            let how = columns.rrUnit != nil ? "from the header" : "from the values' magnitude"
            sink.note(file, "rr column '\(header[rr])' in \(unit == .seconds ? "seconds" : "milliseconds") (\(how))")
        }
        let source = SourceFormat.genericCSV.rawValue
        let defaultSubject = sink.subject(input.subject, group: input.group)
        var lastSubjectBytes: [UInt8] = []
        var lastSubject = defaultSubject
        let times = input.times
        let rows = try input.forEachRow(headerLines: 1) { record in
            guard record.count <= header.count else {
                return try sink.reject(file, record, column: header.count + 1,
                                       reason: "\(record.count) fields but the header names \(header.count)")
            }
            var subject = defaultSubject
            if let s = columns.subject {
                guard s < record.count, !record.bytes(s).isEmpty else {
                    return try sink.reject(file, record, column: s + 1, reason: "missing subject")
                }
                if !record.bytes(s).elementsEqual(lastSubjectBytes) {
                    lastSubjectBytes = Array(record.bytes(s))
                    lastSubject = sink.subject(record.trimmed(s), group: input.group)
                }
                subject = lastSubject
            }
            guard let ms = times.parse(record, columns.time, unix: unix) else {
                return try sink.reject(file, record, column: columns.time + 1, reason: "unparsable time")
            }
            var bpm: Double?, rrMs: Double?
            if let c = columns.bpm {
                guard let v = try sink.checkedBpm(record, c, file: file) else { return }
                bpm = v
            }
            if let c = columns.rr {
                guard let v = try sink.checkedRRMs(record, c, scale: rrScale, file: file) else { return }
                rrMs = v
            }
            if let bpm { try sink.heartRate(subject: subject, ms: ms, bpm: bpm, source: source, file: file) }
            if let rrMs { try sink.rrInterval(subject: subject, ms: ms, rrMs: rrMs, source: source, file: file) }
            sink.accept(file)
        }
        try sink.endSource(input, rowsRead: rows)
    }
}

/// RR interval unit decided from values when the source does not state it.
enum RRUnit {
    /// Seconds when the median of the values is below 10 (an RR of 10 ms or of
    /// 10 s is impossible, so the two units cannot be confused), else milliseconds.
    static func fromMagnitude(_ values: [Double]) -> ColumnName.Unit {
        guard !values.isEmpty else { return .milliseconds }
        return Stats.median(values) < 10 ? .seconds : .milliseconds
    }
}
