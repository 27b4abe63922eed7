import Foundation

/// PhysioNet-style RR text: one interval per line, in seconds (`*_rr_secs`, or
/// values below 10) or milliseconds (`*_rr_ms`, or larger values).
///
/// The same one-interval-per-line text is what Polar Flow's R-R export writes
/// (milliseconds), and Elite HRV's, whose file name gives the clock (`EliteHRV`).
///
/// These files carry no absolute time, so beat times are the cumulative sum of
/// every parsable value, anchored at `--start` or else at 1970-01-01T00:00:00.000Z
/// (the manifest says which). The first value of
/// an RHRV-distributed `_rr_secs` file can be the offset from the start of the
/// recording to the first beat (e.g. 225.8 s in nsr001): it advances time like any
/// other value but is rejected as an RR outside 250–2500 ms.
enum PhysioNetRR: FormatAdapter {
    static let source = "physionet"

    /// Subject id from a file name: the stem without a `_rr_secs`/`_rr_ms` suffix.
    static func subject(fileName: String) -> String {
        let stem = (fileName as NSString).deletingPathExtension
        for suffix in ["_rr_secs", "_rr_ms"] where stem.hasSuffix(suffix) {
            return String(stem.dropLast(suffix.count))
        }
        return stem
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        try read(input, into: sink, source: source, startMs: input.settings.startMs,
                 clockNote: ClocklessRR.note(startMs: input.settings.startMs,
                                             what: "beat times are the cumulative sum of all parsable values, rejected ones included"))
    }

    /// Reads one interval per line as rows of `source`, the first beat closing the first
    /// interval after `startMs` (nil: the epoch); `clockNote` says in the manifest where
    /// that anchor came from.
    static func read(_ input: SourceInput, into sink: ImportSink, source: String, startMs: Int64?,
                     clockNote: String) throws {
        let file = input.file
        let subject = sink.subject(input.subject, group: input.group)
        let name = (input.path as NSString).lastPathComponent.lowercased()
        let unit: ColumnName.Unit
        let how: String
        if name.contains("_rr_secs") {
            (unit, how) = (.seconds, "from the file name")
        } else if name.contains("_rr_ms") {
            (unit, how) = (.milliseconds, "from the file name")
        } else {
            unit = RRUnit.fromMagnitude(try CSVPeek.records(path: input.path, count: 100).compactMap {
                $0.first.flatMap(NumberParsing.double)
            })
            how = "from the values' magnitude"
        }
        let scale = unit == .seconds ? 1000.0 : 1.0
        var elapsedMs = Double(startMs ?? 0)
        let rows = try input.forEachRow { record in
            guard record.count == 1, let value = record.double(0) else {
                return try sink.reject(file, record, column: 1, reason: "unparsable rr")
            }
            // A beat cannot come before the previous one: a value ≤ 0 is rejected
            // without moving the clock back.
            guard value > 0 else {
                return try sink.reject(file, record, column: 1, reason: "rr not positive")
            }
            // An absurd value (e.g. 1e20) is rejected without advancing the clock.
            guard let ms = Timestamp.instant(ms: elapsedMs + value * scale) else {
                return try sink.reject(file, record, column: 1, reason: "time outside years 0000–9999")
            }
            elapsedMs += value * scale
            if try sink.rejectedAfterExport(file, record, column: 1, ms) { return }
            guard let rrMs = try sink.checkedRRMs(record, 0, scale: scale, file: file) else { return }
            try sink.rrInterval(subject: subject, ms: ms, rrMs: rrMs, source: source, file: file)
            sink.accept(file)
        }
        sink.note(file, "rr values in \(unit == .seconds ? "seconds" : "milliseconds") (\(how))")
        sink.note(file, clockNote)
        try sink.endSource(input, rowsRead: rows)
    }
}
