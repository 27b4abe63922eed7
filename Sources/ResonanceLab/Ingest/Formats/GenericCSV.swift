/// CSV read by column: a header naming a time column and a bpm and/or RR column,
/// with an optional subject column. Times are ISO 8601 (with or without zone),
/// unix seconds / milliseconds, or `--time-format`; RR is in ms or s, from the
/// header's unit or, when the header states none, from the magnitude of the first
/// values (recorded in notes). Columns can be named with `--time-column`,
/// `--bpm-column`, `--rr-column` and `--subject-column`.
///
/// The R-R loggers are read the same way:
/// - Polar Sensor Logger: `Phone timestamp;RR-interval [ms]` (`;`-separated, phone
///   local time);
/// - HRV Logger: `date,rr,since start` (rr in ms; `since start` is not read), or a
///   unix `timestamp` column;
/// - Kubios two-column text `Time(s)<tab>RR(s)`: time in seconds since the
///   recording's start, anchored at `--start` (default: the epoch).
/// Each R-R file's timestamps are checked for which beat they mark (`RRClock`).
enum GenericCSV: FormatAdapter {
    static let timeNames: Set<String> = [
        "timestamp", "time", "datetime", "date_time", "date", "ts", "unix", "unix_time", "unix_timestamp", "epoch",
        "utc", "timestamp_utc", "time_utc", "datetime_utc", "phone_timestamp",
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

        init?(header: [String], mapping: ColumnMapping = ColumnMapping()) {
            var time: Int?, bpm: Int?, rr: Int?, subject: Int?
            var timeUnit: ColumnName.Unit?, rrUnit: ColumnName.Unit?
            for (i, name) in header.enumerated() {
                let (base, unit) = ColumnName.baseAndUnit(name)
                if time == nil, GenericCSV.timeNames.contains(base) { time = i; timeUnit = unit }
                else if bpm == nil, GenericCSV.bpmNames.contains(base) { bpm = i }
                else if rr == nil, GenericCSV.rrNames.contains(base) { rr = i; rrUnit = unit }
                else if subject == nil, GenericCSV.subjectNames.contains(base) { subject = i }
            }
            func mapped(_ name: String?) -> Int? { name.flatMap { ColumnMapping.index(of: $0, in: header) } }
            if let i = mapped(mapping.time) { time = i; timeUnit = ColumnName.baseAndUnit(header[i]).unit }
            if let i = mapped(mapping.bpm) { bpm = i }
            if let i = mapped(mapping.rr) { rr = i; rrUnit = ColumnName.baseAndUnit(header[i]).unit }
            if let i = mapped(mapping.subject) { subject = i }
            guard let time, bpm != nil || rr != nil else { return nil }
            self.time = time; self.timeUnit = timeUnit; self.bpm = bpm; self.rr = rr
            self.rrUnit = rrUnit; self.subject = subject
        }
    }

    /// The first header column that repeats an earlier one — the same name, or a
    /// second time, heart-rate, RR or subject column (`hr` after `bpm`) — as an error
    /// naming both, since which of the two holds the data would be a guess. A role
    /// whose column is named by an option (`--bpm-column`) is no guess.
    static func repeatedColumn(_ header: [String], mapping: ColumnMapping, path: String) -> ImportError? {
        let roles: [(String, Set<String>)] = [
            ("time", mapping.time == nil ? timeNames : []), ("heart rate", mapping.bpm == nil ? bpmNames : []),
            ("rr", mapping.rr == nil ? rrNames : []), ("subject", mapping.subject == nil ? subjectNames : []),
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
        let mapping = input.settings.mapping
        let head = try CSVPeek.records(path: input.path, count: 101, delimiter: input.delimiter)
        let header = head.first ?? []
        for (option, name) in [("--time-column", mapping.time), ("--bpm-column", mapping.bpm),
                               ("--rr-column", mapping.rr), ("--subject-column", mapping.subject)] {
            if let name, ColumnMapping.index(of: name, in: header) == nil {
                throw ImportError.badMetadata(path: input.path, line: 1, column: 0,
                                              message: "\(option) '\(name)' is not a column (columns: \(header.joined(separator: ", ")))")
            }
        }
        guard let columns = Columns(header: header, mapping: mapping) else {
            throw ImportError.unknownFormat(path: input.path, columns: header)
        }
        if let error = repeatedColumn(header, mapping: mapping, path: input.display) { throw error }
        let file = input.file
        let clockless = input.format == .kubiosRR
        let unix: TimeFieldParser.UnixUnit
        switch columns.timeUnit {
        case .seconds?: unix = .seconds
        case .milliseconds?: unix = .milliseconds
        case nil: unix = .byMagnitude
        }
        let anchorMs = clockless ? input.settings.startMs ?? 0 : 0
        if clockless {
            sink.note(file, ClocklessRR.note(startMs: input.settings.startMs, what: "time column '\(header[columns.time])' is seconds since the recording's start"))
        } else {
            let timeRule = mapping.timeFormat.map { "format '\($0)'" }
                ?? columns.timeUnit.map { "unix \($0 == .seconds ? "seconds" : "milliseconds") (from the header)" }
                ?? "ISO 8601, or unix ms when ≥ 1e11 else unix s"
            sink.note(file, "time column '\(header[columns.time])': \(timeRule)")
        }
        let times = input.times
        func stamp(_ record: CSVRecord) -> Int64? {
            guard let t = times.parse(record, columns.time, unix: clockless ? .seconds : unix) else { return nil }
            return anchorMs == 0 ? t : Timestamp.instant(ms: Double(t) + Double(anchorMs))
        }
        var rrScale = 1.0
        var clock = RRClock(convention: .end, how: "")
        if let rr = columns.rr {
            let unit = columns.rrUnit ?? RRUnit.fromMagnitude(head.dropFirst().compactMap { row in
                rr < row.count ? NumberParsing.double(row[rr]) : nil
            })
            rrScale = unit == .seconds ? 1000 : 1
            let how = columns.rrUnit != nil ? "from the header" : "from the values' magnitude"
            sink.note(file, "rr column '\(header[rr])' in \(unit == .seconds ? "seconds" : "milliseconds") (\(how))")
            var sampleTimes: [Int64] = [], sampleRR: [Double] = []
            var firstSubject: [UInt8]?
            try input.peek(101) { record in
                guard record.line > 1, let t = stamp(record), let v = record.double(rr) else { return }
                if let s = columns.subject, s < record.count {
                    let id = Array(record.bytes(s))
                    if firstSubject == nil { firstSubject = id }
                    guard id == firstSubject else { return }
                }
                sampleTimes.append(t)
                sampleRR.append(v * rrScale)
            }
            clock = RRClock(stamp: input.settings.rrStamp, timesMs: sampleTimes, rrMs: sampleRR)
            sink.setRRStamp(file, clock)
        }
        let source = input.format.rawValue
        let defaultSubject = sink.subject(input.subject, group: input.group)
        if let bpm = columns.bpm, columns.rr == nil, !clockless {
            let rules = RangeRules(input: input, columns: columns, bpm: bpm, width: header.count, unix: unix, hr: sink.hrRange,
                                   export: sink.exportCutoff)
            if let rows = try readInRanges(rules, subject: defaultSubject, into: sink) {
                return try sink.endSource(input, rowsRead: rows)
            }
        }
        var lastSubjectBytes: [UInt8] = []
        var lastSubject = defaultSubject
        let rows = try input.forEachRow(headerLines: 1, rejectingWiderRowsInto: sink) { record in
            var subject = defaultSubject
            if let s = columns.subject {
                guard s < record.count, !record.bytes(s).isEmpty else {
                    return try sink.reject(file, record, column: s + 1, reason: "missing subject")
                }
                if !record.bytes(s).elementsEqual(lastSubjectBytes) {
                    lastSubjectBytes = Array(record.bytes(s))
                    let (id, latin1) = IdText.decode(record.bytes(s))
                    if latin1 { sink.note(file, IdText.latin1Note) }
                    lastSubject = sink.subject(id, group: input.group)
                }
                subject = lastSubject
            }
            guard let ms = stamp(record) else {
                return try sink.reject(file, record, column: columns.time + 1, reason: "unparsable time")
            }
            if try sink.rejectedAfterExport(file, record, column: columns.time + 1, ms) { return }
            var bpm: Double?, rrMs: Double?, beatMs = ms
            if let c = columns.bpm {
                guard let v = try sink.checkedBpm(record, c, file: file) else { return }
                bpm = v
            }
            if let c = columns.rr {
                if let raw = record.double(c) {
                    guard let t = clock.beatTime(subject: subject, stampMs: ms, rawMs: raw * rrScale) else {
                        return try sink.reject(file, record, column: columns.time + 1, reason: "time outside years 0000–9999")
                    }
                    beatMs = t
                }
                guard let v = try sink.checkedRRMs(record, c, scale: rrScale, file: file) else { return }
                rrMs = v
            }
            if let bpm { try sink.heartRate(subject: subject, ms: ms, bpm: bpm, source: source, file: file) }
            if let rrMs { try sink.rrInterval(subject: subject, ms: beatMs, rrMs: rrMs, source: source, file: file) }
            sink.accept(file)
        }
        try sink.endSource(input, rowsRead: rows)
    }
}

/// R-R interval unit decided from values when the source does not state it.
enum RRUnit {
    /// Seconds when the median of the values is below 10 (an RR of 10 ms or of
    /// 10 s is impossible, so the two units cannot be confused), else milliseconds.
    static func fromMagnitude(_ values: [Double]) -> ColumnName.Unit {
        guard !values.isEmpty else { return .milliseconds }
        return Stats.median(values) < 10 ? .seconds : .milliseconds
    }
}

/// R-R series without absolute time (PhysioNet, Kubios and Polar Flow text): anchored
/// at `--start`, else at the epoch, which the manifest says.
enum ClocklessRR {
    static func note(startMs: Int64?, what: String) -> String {
        if let startMs { return "no absolute time: \(what); anchored at \(Timestamp.iso(startMs)) (--start)" }
        return "no absolute time: \(what); anchored at the epoch 1970-01-01T00:00:00.000Z (no --start given)"
    }
}
