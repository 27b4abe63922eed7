import Foundation

/// A waveform in a delimited file (`waveform-csv`): one or more numeric signal columns,
/// one sample of each per row, timed either by `--rate` (sample k at `--start` + k /
/// rate, else at the epoch, as for the clockless formats: `ClocklessRR`) or by a time
/// column (`--time-column`, else the first column named as a generic CSV's time column,
/// `time`, `timestamp`, …). A time column gives the rate as `SampleRate` does (the mean
/// of its steps, the gaps left out) and its gaps (a step over `gapPeriods` periods)
/// start new segments (`TimedSampleRows`); nothing is resampled. Its values are ISO 8601
/// (naive ones read in `--tz`) or numbers: seconds (milliseconds when the header says
/// `ms`, or when the first value is at least 10¹¹, the generic CSV's rule) since
/// `--start`, else since the epoch (unix time).
///
/// Every other column holding a number in its first `headRows` rows is a channel, named
/// by its header in lower case without its unit (`ECG [mV]` → `ecg`) and with that
/// unit, `a.u.` when the header gives none. A file is detected as one when its header
/// names nothing but signals (`signalNames`: `ecg`, `ppg2`, `acc_x`, …) and at most one
/// time column; `--format waveform-csv` reads any other.
enum WaveformCSV: FormatAdapter {
    static let source = SourceFormat.waveformCSV.rawValue
    /// A step of the time column longer than this many sample periods is a gap (one
    /// missing sample makes a step of two).
    static let gapPeriods = 1.5
    /// Rows after the header looked at for which columns hold numbers.
    static let headRows = 100
    /// First words of column names that are signals (digits after them allowed, `ppg0`).
    static let signalNames: Set<String> = ["ecg", "ekg", "ppg", "bvp", "pleth", "resp", "acc", "eda", "emg"]

    static func isSignal(_ column: String) -> Bool {
        guard let word = ColumnName.words(column).first else { return false }
        return signalNames.contains(String(word.prefix { !$0.isNumber }))
    }

    static func isTime(_ column: String) -> Bool {
        GenericCSV.timeNames.contains(ColumnName.baseAndUnit(column).base)
    }

    /// Whether a header names signals and nothing else but one time column at most.
    static func matches(header: [String]) -> Bool {
        let times = header.filter(isTime).count
        return times <= 1 && header.contains(where: isSignal) && header.allSatisfy { isTime($0) || isSignal($0) }
    }

    /// A column's channel: its name in lower case without the unit of its last brackets
    /// or parentheses (`ECG [mV]`, `resp (a.u.)`), and that unit, else `a.u.`.
    static func channel(_ column: String) -> WaveformSink.Channel {
        let text = column.trimmingCharacters(in: .whitespaces)
        for (open, close) in [("[", "]"), ("(", ")")] where text.hasSuffix(close) {
            guard let at = text.range(of: open, options: .backwards) else { continue }
            let unit = text[at.upperBound..<text.index(before: text.endIndex)].trimmingCharacters(in: .whitespaces)
            if !unit.isEmpty { return WaveformSink.Channel(name: WFDB.channelName(String(text[..<at.lowerBound])), unit: unit) }
        }
        return WaveformSink.Channel(name: WFDB.channelName(text), unit: "a.u.")
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let head = try CSVPeek.records(path: input.path, count: headRows + 1, delimiter: input.delimiter)
        guard let header = head.first else { throw ImportError.emptyFile(path: input.path) }
        func bad(_ column: Int, _ message: String) -> ImportError {
            .badMetadata(path: input.path, line: 1, column: column, message: "waveform CSV: \(message)")
        }
        var timeField = header.firstIndex(where: isTime)
        if let name = input.settings.mapping.time {
            guard let i = ColumnMapping.index(of: name, in: header) else {
                throw bad(0, "--time-column '\(name)' is not a column (columns: \(header.joined(separator: ", ")))")
            }
            timeField = i
        }
        let fields = header.indices.filter { k in
            k != timeField && head.dropFirst().contains { k < $0.count && NumberParsing.double($0[k]) != nil }
        }
        guard !fields.isEmpty else { throw bad(0, "no column of numbers besides the time column") }
        let channels = fields.map { channel(header[$0]) }
        for (i, c) in channels.enumerated() where channels[..<i].contains(where: { $0.name == c.name }) {
            throw bad(fields[i] + 1, "'\(header[fields[i]])' repeats the channel '\(c.name)' of an earlier column")
        }
        let unread = header.indices.filter { $0 != timeField && !fields.contains($0) }.map { "'\(header[$0])'" }
        if !unread.isEmpty {
            sink.note(input.file, "not read (no number in their first \(headRows) rows): \(unread.joined(separator: ", "))")
        }
        let subject = sink.subject(input.subject, group: input.group)
        let named = channels.map { "\($0.name) (\($0.unit))" }.joined(separator: ", ")
        let rows: Int
        if let rateHz = input.settings.rateHz {
            guard WaveformSink.rateRangeHz.contains(rateHz) else {
                throw ImportError.badOption(message: "--rate: a sample rate in Hz within \(WaveformSink.rateRangeText), got \(rateHz)")
            }
            rows = try readAtRate(input, rateHz, fields, channels, header.count, subject, into: sink)
            sink.note(input.file, "waveform CSV: \(named) at \(CSVWriter.format(rateHz)) Hz (--rate)"
                + (timeField.map { "; the time column '\(header[$0])' is not read" } ?? ""))
        } else if let timeField {
            rows = try readTimed(input, TimeColumn(field: timeField, header: header[timeField]), fields, channels, header.count,
                                 subject, into: sink)
            sink.note(input.file, "waveform CSV: \(named) from the time column '\(header[timeField])'")
        } else {
            throw bad(0, "no time column: give the rate with --rate HZ, or name the time column with --time-column")
        }
        try sink.endSource(input, rowsRead: rows)
    }

    /// Every row a frame: sample k at `--start` (else the epoch) + k / rate.
    static func readAtRate(_ input: SourceInput, _ rateHz: Double, _ fields: [Int], _ channels: [WaveformSink.Channel],
                           _ width: Int, _ subject: Int, into sink: ImportSink) throws -> Int {
        let recording = sink.waveforms.begin(subject: sink.subjectName(subject), source: source,
                                             startMs: input.settings.startMs ?? 0, rateHz: rateHz, file: input.display,
                                             channels: channels)
        var rows = SampleRows(recording: recording, file: input.file, fields: fields, width: width)
        let read = try input.forEachRow(headerLines: 1) { try rows.row($0, into: sink) }
        try rows.flushRejected(into: sink)
        try sink.endRecording(recording, subject: subject)
        sink.note(input.file, ClocklessRR.note(startMs: input.settings.startMs, what: "sample k at start + k / rate"))
        return read
    }

    /// Rows timed by their time column: the rate and the start from a first pass.
    static func readTimed(_ input: SourceInput, _ column: TimeColumn, _ fields: [Int], _ channels: [WaveformSink.Channel],
                          _ width: Int, _ subject: Int, into sink: ImportSink) throws -> Int {
        var times = column, rate = SampleRate(gapPeriods: gapPeriods)
        let anchorMs = input.settings.startMs ?? 0
        let read = try input.forEachRow(headerLines: 1) { r in
            rate.add(times.seconds(r, input.times, anchorMs: anchorMs))
        }
        guard read > 0 else { return 0 }
        func bad(_ message: String) -> ImportError {
            .badMetadata(path: input.path, line: 2, column: column.field + 1, message: "waveform CSV: \(message)")
        }
        guard let startMs = times.firstMs, let rateHz = rate.rateHz() else { throw bad("no two rows with increasing times to give the rate") }
        guard WaveformSink.rateRangeHz.contains(rateHz) else { throw bad("the times give a rate outside \(WaveformSink.rateRangeText)") }
        let recording = sink.waveforms.begin(subject: sink.subjectName(subject), source: source, startMs: startMs,
                                             rateHz: rateHz, file: input.display, channels: channels)
        var rows = TimedSampleRows(SampleRows(recording: recording, file: input.file, fields: fields, width: width),
                                   rateHz: rateHz, gapPeriods: gapPeriods)
        times = column
        _ = try input.forEachRow(headerLines: 1) { r in
            try rows.row(r, time: times.seconds(r, input.times, anchorMs: anchorMs), timeField: column.field, into: sink)
        }
        try rows.finish(into: sink)
        try sink.endRecording(recording, subject: subject)
        sink.note(input.file, "\(CSVWriter.format(rateHz)) Hz from the time column (the mean of its steps, gaps left out); "
            + "recording start \(Timestamp.iso(startMs)), the first row's time; sample k of a segment at "
            + "start + (first_sample + k) / rate")
        if rows.gaps > 0 {
            sink.note(input.file, "\(plural(rows.gaps, "gap")) in the time column (a step over "
                + "\(CSVWriter.format(gapPeriods)) sample periods): a new segment after each")
        }
        return read
    }

    /// A time column's values as seconds since its first readable one (`WaveformCSV`).
    struct TimeColumn {
        let field: Int
        /// The header's unit (`time [ms]`), if any.
        let unit: ColumnName.Unit?
        /// The first readable value: its instant, and for a number its value in seconds.
        private var first: (ms: Int64, seconds: Double?)?
        /// Seconds a number is worth (set by the first number).
        private var scale = 1.0

        init(field: Int, header: String) {
            self.field = field
            unit = ColumnName.baseAndUnit(header).unit
        }

        var firstMs: Int64? { first?.ms }

        /// The time of `r` in seconds since the first readable one; nil when it cannot be
        /// read (or is written the other way, ISO against a number).
        mutating func seconds(_ r: CSVRecord, _ parser: TimeFieldParser, anchorMs: Int64) -> Double? {
            guard field < r.count else { return nil }
            let b = r.bytes(field)
            if b.count >= 10, b[4] == 45 {
                guard let ms = parser.parse(r, field) else { return nil }
                if first == nil { first = (ms, nil) }
                guard let origin = first, origin.seconds == nil else { return nil }
                return Double(ms - origin.ms) / 1000
            }
            guard let v = r.double(field) else { return nil }
            if first == nil {
                scale = unit == .milliseconds || unit == nil && v.magnitude >= 1e11 ? 0.001 : 1
                guard let ms = Timestamp.instant(ms: Double(anchorMs) + v * scale * 1000) else { return nil }
                first = (ms, v * scale)
            }
            guard let origin = first?.seconds else { return nil }
            return v * scale - origin
        }
    }
}
