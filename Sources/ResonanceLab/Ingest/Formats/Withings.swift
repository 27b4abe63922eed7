import Foundation

/// Withings heart rate from the account's data export (Health Mate / Withings app →
/// Download my data): `raw_hr_hr.csv` (watches and scales) and `raw_bed_hr.csv` (the
/// Sleep Analyzer under the mattress), each `start,duration,value` with one row per
/// batch of samples: `start` ISO 8601 with its offset, `duration` and `value` bracketed
/// arrays (`"[60,60]"`, `"[72,74]"`): sample j lasts `duration[j]` seconds and is
/// stamped at start + the durations before it. Rows are not in time order (the sink
/// sorts). A value of 0 is no reading: the slot keeps its time but gives no sample.
/// A row whose arrays differ in length, hold anything but numbers, or hold a heart rate
/// outside the plausible range is rejected whole.
/// Other `raw_*.csv` files share the header (steps, respiration rate, …) and are not
/// heart rate: they are recognised by name only.
enum Withings: FormatAdapter {
    static let source = "withings"
    static let fileNames: Set<String> = ["raw_hr_hr.csv", "raw_bed_hr.csv"]

    static func matches(fileName: String, columns: Set<String>) -> Bool {
        fileNames.contains(fileName) && columns.isSuperset(of: ["start", "duration", "value"])
    }

    /// The numbers of a bracketed array `[60,60.5]`; nil for anything else.
    static func array(_ text: String) -> [Double]? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard t.hasPrefix("["), t.hasSuffix("]") else { return nil }
        let inner = t.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
        if inner.isEmpty { return [] }
        var out: [Double] = []
        for part in inner.split(separator: ",", omittingEmptySubsequences: false) {
            guard let v = NumberParsing.double(part.trimmingCharacters(in: .whitespaces)) else { return nil }
            out.append(v)
        }
        return out
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let file = input.file
        let subject = sink.subject(input.subject, group: input.group)
        var col = (start: 0, duration: 1, value: 2)
        var samples = 0, zeros = 0
        let rows = try input.forEachRow(headerLines: 1, header: { record, _ in
            let map = ColumnName.index(record)
            guard let s = map["start"], let d = map["duration"], let v = map["value"] else {
                throw ImportError.unknownFormat(path: input.path, columns: record.strings)
            }
            col = (s, d, v)
        }, rejectingWiderRowsInto: sink) { record in
            guard let start = input.times.parse(record, col.start) else {
                return try sink.reject(file, record, column: col.start + 1, reason: "unparsable start")
            }
            if try sink.rejectedAfterExport(file, record, column: col.start + 1, start) { return }
            guard col.duration < record.count, let durations = array(record.string(col.duration)),
                  durations.allSatisfy({ $0 >= 0 && $0 <= 86_400 }) else {
                return try sink.reject(file, record, column: col.duration + 1, reason: "duration not an array of seconds")
            }
            guard col.value < record.count, let values = array(record.string(col.value)) else {
                return try sink.reject(file, record, column: col.value + 1, reason: "value not an array of numbers")
            }
            guard values.count == durations.count, !values.isEmpty else {
                return try sink.reject(file, record, column: col.value + 1,
                                       reason: "\(values.count) values but \(durations.count) durations")
            }
            guard values.allSatisfy({ $0 == 0 || sink.hrRange.isPlausible($0) }) else {
                return try sink.reject(file, record, column: col.value + 1, reason: sink.hrRange.rejectReason)
            }
            guard Timestamp.instant(ms: Double(start) + durations.reduce(0, +) * 1000) != nil else {
                return try sink.reject(file, record, column: col.start + 1, reason: "time outside years 0000–9999")
            }
            var offsetMs: Int64 = 0
            for (value, duration) in zip(values, durations) {
                defer { offsetMs += Int64((duration * 1000).rounded()) }
                guard value != 0 else { zeros += 1; continue }
                try sink.heartRate(subject: subject, ms: start + offsetMs, bpm: value, source: source, file: file)
                samples += 1
            }
            sink.accept(file)
        }
        sink.note(file, "bracketed arrays: sample j at start + the durations (s) before it; \(plural(samples, "sample")) from \(plural(rows, "row")); "
            + "\(plural(zeros, "value")) of 0 (no reading) not read")
        try sink.endSource(input, rowsRead: rows)
    }
}
