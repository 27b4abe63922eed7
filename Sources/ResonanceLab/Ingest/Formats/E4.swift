/// Empatica E4 exports (E4 Connect "info.txt" in each session folder):
/// `HR.csv` — line 1 session start (unix s, UTC), line 2 sample rate (Hz), then one
/// bpm per line; `IBI.csv` — line 1 `<start>, IBI`, then `t,ibi` (seconds since
/// start, seconds); `tags.csv` (E4 Connect's name; `tags_*.csv` in Stress-Predict) —
/// one unix time per line (button presses). Header lines are metadata, not data rows.
/// The raw channels of a session folder (`ACC.csv`, `BVP.csv`, `EDA.csv`, `TEMP.csv`)
/// are read by `E4Signal` into the workspace's waveforms.
enum E4 {
    static let source = "e4"

    /// Number in field 0 of metadata line `line`, or a one-line error naming it.
    static func metadata(_ record: CSVRecord, _ input: SourceInput, _ what: String) throws -> Double {
        guard let v = record.double(0) else {
            throw ImportError.badMetadata(path: input.path, line: record.line, column: 1,
                                          message: "E4 \(what) is not a number: '\(record.string(0))'")
        }
        return v
    }

    /// HR.csv. The E4 derives each HR value from the previous 10 s of BVP, which is
    /// why this file's start is 10 s after the session's: the first rows are the
    /// device's warm-up. They are measurements, so they are kept (and range-checked
    /// like every row); the manifest says so, and the HRV and session stages screen
    /// artifacts.
    /// Session start (line 1, unix seconds) in epoch milliseconds.
    static func startTime(_ record: CSVRecord, _ input: SourceInput) throws -> Int64 {
        guard let ms = Timestamp.instant(ms: try metadata(record, input, "start time") * 1000) else {
            throw ImportError.badMetadata(path: input.path, line: record.line, column: 1,
                                          message: "E4 start time is not a unix time in years 0000–9999")
        }
        return ms
    }

    enum HR: FormatAdapter {
        static func read(_ input: SourceInput, into sink: ImportSink) throws {
            let file = input.file
            let subject = sink.subject(input.subject, group: input.group)
            var startMs: Int64 = 0
            var rateHz = 1.0
            var index = 0
            let rows = try input.forEachRow(headerLines: 2, header: { record, i in
                if i == 0 {
                    startMs = try startTime(record, input)
                    return sink.recordingStart(subject: subject, ms: startMs)
                }
                rateHz = try metadata(record, input, "sample rate")
                guard rateHz > 0 else {
                    throw ImportError.badMetadata(path: input.path, line: record.line, column: 1,
                                                  message: "E4 sample rate must be positive")
                }
            }, rejectingWiderRowsInto: sink) { record in
                let offset = Double(index) * 1000 / rateHz
                index += 1
                guard let ms = Timestamp.instant(ms: Double(startMs) + offset) else {
                    return try sink.reject(file, record, column: 1, reason: "time outside years 0000–9999")
                }
                if try sink.rejectedAfterExport(file, record, column: 1, ms) { return }
                guard let bpm = try sink.checkedBpm(record, 0, file: file) else { return }
                try sink.heartRate(subject: subject, ms: ms, bpm: bpm, source: source, file: file)
                sink.accept(file)
            }
            sink.note(file, "sample k at start + k / rate; warm-up samples at the start kept (range-checked only)")
            try sink.endSource(input, rowsRead: rows)
        }
    }

    /// IBI.csv: each beat stamped at start + t, the interval that it closes = ibi.
    enum IBI: FormatAdapter {
        static func read(_ input: SourceInput, into sink: ImportSink) throws {
            let file = input.file
            let subject = sink.subject(input.subject, group: input.group)
            var startMs: Int64 = 0
            let rows = try input.forEachRow(headerLines: 1, header: { record, _ in
                startMs = try startTime(record, input)
                sink.recordingStart(subject: subject, ms: startMs)
            }, rejectingWiderRowsInto: sink) { record in
                guard let t = record.double(0), let ms = Timestamp.instant(ms: Double(startMs) + t * 1000) else {
                    return try sink.reject(file, record, column: 1, reason: "unparsable time")
                }
                if try sink.rejectedAfterExport(file, record, column: 1, ms) { return }
                guard let rrMs = try sink.checkedRRMs(record, 1, scale: 1000, file: file) else { return }
                try sink.rrInterval(subject: subject, ms: ms, rrMs: rrMs, source: source, file: file)
                sink.accept(file)
            }
            sink.note(file, "beat time = start + t; rr_ms = ibi × 1000")
            try sink.endSource(input, rowsRead: rows)
        }
    }

    /// tags.csv, tags_*.csv: each press becomes a zero-length label interval `e4_tag`,
    /// an event marker (a marker outside the subject's recording is flagged, see
    /// `ImportSink.marker`).
    enum Tags: FormatAdapter {
        static let label = "e4_tag"

        /// Whether a file holds E4 tags: empty (no press), or a first line that is one number.
        static func looksLikeTags(path: String) -> Bool {
            guard let records = try? CSVPeek.records(path: path, count: 1) else { return false }
            guard let first = records.first else { return true }
            return first.count == 1 && NumberParsing.double(first[0]) != nil
        }

        static func read(_ input: SourceInput, into sink: ImportSink) throws {
            let file = input.file
            let subject = sink.subject(input.subject, group: input.group)
            let rows = try input.forEachRow { record in
                guard let ms = input.times.parse(record, 0, unix: .seconds) else {
                    return try sink.reject(file, record, column: 1, reason: "unparsable time")
                }
                if try sink.rejectedAfterExport(file, record, column: 1, ms) { return }
                try sink.marker(subject: subject, ms: ms, label: label, file: file)
                sink.accept(file)
            }
            sink.note(file, "each tag is a zero-length label '\(label)' at the press time")
            try sink.endSource(input, rowsRead: rows)
        }
    }
}
