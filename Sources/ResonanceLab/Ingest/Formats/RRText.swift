import Foundation

/// R-R text without a header, in either common layout, each line's fields separated by
/// tab, space, comma or semicolon:
/// - one interval per line (PhysioNet): read by `PhysioNetRR` (Elite HRV's, named by
///   its start time, is its own format, `EliteHRV`);
/// - elapsed time and interval per line, e.g. Polar Flow's `…_RR.txt` (elapsed
///   seconds, R-R in ms; Polar Sensor Logger's `_RR.txt` has a header and is another
///   format).
/// The layout is the first numeric line's number of values, so a two-column file is never
/// read as one column. Units come from the values (docs/import.md, R-R text): the
/// interval is in seconds when the median of the first 100 is below 10, else in
/// milliseconds; the elapsed time is in the unit in which its median step is closest to
/// the median interval. The file carries no clock time: times are anchored at `--start`
/// (default: the epoch), and the manifest notes the layout, both units and why.
enum RRText: FormatAdapter {
    static let source = SourceFormat.rrText.rawValue

    /// The numbers of a record, its fields split further at white space; nil when a value
    /// is not a number or the record has none.
    static func numbers(_ fields: [String]) -> [Double]? {
        let tokens = values(fields)
        guard !tokens.isEmpty else { return nil }
        var out: [Double] = []
        for t in tokens {
            guard let v = NumberParsing.double(t) else { return nil }
            out.append(v)
        }
        return out
    }

    /// The values of a record: its fields split at spaces and tabs, empty ones dropped.
    static func values(_ fields: [String]) -> [String] {
        fields.flatMap { $0.split { $0 == " " || $0 == "\t" }.map(String.init) }
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        var columns = 1
        var seen = false
        try input.peek(10) { record in
            guard !seen, let n = numbers(record.strings) else { return }
            columns = n.count
            seen = true
        }
        if columns == 2 { return try readElapsedAndInterval(input, into: sink) }
        try PhysioNetRR.read(input, into: sink)
    }

    /// Elapsed time and interval per line.
    static func readElapsedAndInterval(_ input: SourceInput, into sink: ImportSink) throws {
        let file = input.file
        let subject = sink.subject(input.subject, group: input.group)
        var sampleTimes: [Double] = [], sampleRR: [Double] = []
        try input.peek(101) { record in
            guard let n = numbers(record.strings), n.count == 2 else { return }
            sampleTimes.append(n[0]); sampleRR.append(n[1])
        }
        let rrUnit = RRUnit.fromMagnitude(sampleRR)
        let rrScale = rrUnit == .seconds ? 1000.0 : 1
        let (timeUnit, timeHow) = elapsedUnit(times: sampleTimes, rrMs: sampleRR.map { $0 * rrScale })
        let timeScale = timeUnit == .seconds ? 1000.0 : 1
        let anchor = Double(input.settings.startMs ?? 0)
        func name(_ unit: ColumnName.Unit) -> String { unit == .seconds ? "seconds" : "milliseconds" }
        let polarFlow = timeUnit == .seconds && rrUnit == .milliseconds
        sink.note(file, "layout: elapsed time and R-R interval per line, no header"
            + (polarFlow ? " (Polar Flow's R-R export: elapsed seconds, R-R in ms)" : ""))
        sink.note(file, "elapsed time in \(name(timeUnit)) (\(timeHow))")
        let median = sampleRR.isEmpty ? "no values" : "median \(short(Stats.median(sampleRR)))"
        sink.note(file, "rr values in \(name(rrUnit)) (from the values' magnitude: \(median); below 10 is seconds)")
        sink.note(file, ClocklessRR.note(startMs: input.settings.startMs,
                                         what: "elapsed time is the time since the recording's start"))
        var stamps: [Int64] = [], intervals: [Double] = []
        for (t, rr) in zip(sampleTimes, sampleRR) {
            guard let ms = Timestamp.instant(ms: anchor + t * timeScale) else { continue }
            stamps.append(ms); intervals.append(rr * rrScale)
        }
        var clock = RRClock(stamp: input.settings.rrStamp, timesMs: stamps, rrMs: intervals)
        sink.setRRStamp(file, clock)
        let range = sink.rrRange
        let rows = try input.forEachRow { record in
            let fields = values(record.strings)
            guard fields.count == 2 else {
                return try sink.reject(file, record, column: 0,
                                       reason: "\(fields.count) values on the line, expected elapsed time and rr")
            }
            guard let t = NumberParsing.double(fields[0]) else {
                return try sink.reject(file, record, column: 1, reason: "unparsable time")
            }
            guard let raw = NumberParsing.double(fields[1]) else {
                return try sink.reject(file, record, column: 2, reason: "unparsable rr")
            }
            let rrMs = raw * rrScale
            guard let stamp = Timestamp.instant(ms: anchor + t * timeScale),
                  let beat = clock.beatTime(subject: subject, stampMs: stamp, rawMs: rrMs) else {
                return try sink.reject(file, record, column: 1, reason: "time outside years 0000–9999")
            }
            if try sink.rejectedAfterExport(file, record, column: 1, beat) { return }
            guard range.rangeMs.contains(rrMs) else {
                return try sink.reject(file, record, column: 2, reason: range.rejectReason)
            }
            try sink.rrInterval(subject: subject, ms: beat, rrMs: rrMs, source: source, file: file)
            sink.accept(file)
        }
        try sink.endSource(input, rowsRead: rows)
    }

    /// The unit of the elapsed-time column: the one in which the median step between
    /// successive times is closest (by ratio) to the median interval, and how it was told.
    static func elapsedUnit(times: [Double], rrMs: [Double]) -> (ColumnName.Unit, String) {
        let steps = zip(times, times.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }
        let rr = rrMs.filter { $0 > 0 }
        guard !steps.isEmpty, !rr.isEmpty else {
            return (.seconds, "too few rows to compare its steps with the intervals: seconds, as Polar Flow writes it")
        }
        let step = Stats.median(steps), interval = Stats.median(rr)
        let offSeconds = abs(log(step * 1000 / interval)), offMs = abs(log(step / interval))
        let unit: ColumnName.Unit = offMs < offSeconds ? .milliseconds : .seconds
        let stepMs = unit == .seconds ? "\(short(step)) s" : "\(short(step)) ms"
        return (unit, "from the values: its median step, \(stepMs), is closest to the median interval, \(short(interval)) ms")
    }

    /// Up to 4 significant digits, for notes.
    static func short(_ v: Double) -> String {
        String(format: "%.4g", v)
    }
}
