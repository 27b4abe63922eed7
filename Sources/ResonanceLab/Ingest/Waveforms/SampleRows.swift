/// The sample rows of a text waveform file, one frame a row: each channel's number is
/// read at its printed precision (`WaveformCodec.parse`) into the recording. A row
/// whose numbers cannot all be read (unparsable, `nan`, `inf`, a missing field) is
/// rejected and leaves a gap; a run of such rows is one `rejects.csv` row that counts
/// them all, so that rows read = accepted + rejected still holds. With `width`, a row
/// with more fields than the header names (a trailing empty field aside) is rejected on
/// its own and leaves a gap too: which column would hold the extra value is a guess.
struct SampleRows {
    let recording: WaveformSink.Recording
    let file: Int32
    /// The field of each channel, in channel order.
    let fields: [Int]
    /// The header's field count, when rows wider than it are rejected here.
    let width: Int?
    private var fixed: [WaveformCodec.Fixed]
    private var rounded: [Bool]
    private var bad: (line: Int, lastLine: Int, column: Int, raw: String, count: Int)?

    init(recording: WaveformSink.Recording, file: Int32, fields: [Int], width: Int? = nil) {
        self.recording = recording; self.file = file; self.fields = fields; self.width = width
        fixed = fields.map { _ in WaveformCodec.Fixed(whole: 0, decimals: 0) }
        rounded = fields.map { _ in false }
    }

    mutating func row(_ record: CSVRecord, into sink: ImportSink) throws {
        if let width, record.count > width, record.count > width + 1 || !record.bytes(width).isEmpty {
            try flushRejected(into: sink)
            try sink.reject(file, record, column: width + 1, reason: SourceInput.widerRow(record.count, width))
            return recording.gap()
        }
        for (k, field) in fields.enumerated() {
            guard field < record.count, let parsed = WaveformCodec.parse(record.cString(field), length: record.bytes(field).count)
            else { return unreadable(record, column: field + 1) }
            fixed[k] = parsed.fixed
            rounded[k] = parsed.rounded
        }
        try accept(into: sink)
    }

    /// A row of one channel whose sample the reader parsed itself (`parsed`; nil when it
    /// cannot be read, `column` then names where).
    mutating func row(_ record: CSVRecord, parsed: (fixed: WaveformCodec.Fixed, rounded: Bool)?, column: Int,
                      into sink: ImportSink) throws {
        guard let parsed else { return unreadable(record, column: column) }
        fixed[0] = parsed.fixed
        rounded[0] = parsed.rounded
        try accept(into: sink)
    }

    private mutating func accept(into sink: ImportSink) throws {
        try flushRejected(into: sink)
        recording.frame(fixed, rounded: rounded)
        sink.accept(file)
    }

    /// Counts an unreadable row into the run being rejected; its frame is a gap.
    private mutating func unreadable(_ record: CSVRecord, column: Int) {
        if bad == nil { bad = (record.line, record.line, column, record.raw, 0) }
        bad?.count += 1
        bad?.lastLine = record.line
        recording.gap()
    }

    /// Writes the run of rejected rows being counted, if any.
    mutating func flushRejected(into sink: ImportSink) throws {
        guard let run = bad else { return }
        bad = nil
        let reason = run.count == 1 ? "unparsable or non-finite sample"
            : "unparsable or non-finite samples: \(run.count) rows, lines \(run.line)–\(run.lastLine)"
        try sink.reject(file, line: run.line, column: run.column, reason: reason, raw: run.raw, count: run.count)
    }
}
