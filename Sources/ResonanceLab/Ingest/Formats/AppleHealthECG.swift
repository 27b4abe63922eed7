import Foundation

/// One Apple Watch ECG as the Health app exports it: `electrocardiograms/ecg_*.csv` in
/// `apple_health_export/`, unpacked or inside `export.zip` (`AppleHealthZip`), a 30-s
/// recording of one lead. Metadata lines `key,value` (quoted where the value holds a
/// comma), blank lines, then one voltage per line:
///
///     Name,…
///     Date of Birth,"…"
///     Recorded Date,2024-03-01 09:10:00 +0100
///     Classification,Sinus Rhythm
///     Symptoms,
///     Software Version,1.90
///     Device,"Watch6,1"
///     Sample Rate,512 hertz
///     Lead,Lead I
///     Unit,µV
///     -265.868
///
/// (fabriciojm/hadt's `apple_csv_to_data` finds `Sample Rate` and skips the 14 lines
/// before the samples; BRO3886/healthsync's `parseECG` reads the same keys and the
/// locale's decimal comma, `-265,868`, and notes that the folder's name is localised).
///
/// The samples begin at the first line that is a number (`-265.868`, `12`) or one
/// comma-joined pair of digit groups (`-265,868`: the phone's decimal comma, written
/// unquoted, so that the CSV reader sees two fields). The decimal separator is decided
/// per file from those lines: a comma when more lines are such pairs than hold a
/// point, else a point; a line written the other way is rejected, as is digit grouping
/// (`1.234,5`). The manifest notes the decision. Metadata keys are English or in the
/// small table `keys` (Portuguese, German); a key not in it is found by its value's
/// shape: the sample rate is the value `<number> hertz` (or `Hz`), the recorded date
/// the value that is a time with a UTC offset, the classification the line after the
/// recorded date, the lead the line after the sample rate and the unit the line after
/// the lead (Apple's order). The name and date of birth are never read: no value of
/// theirs reaches a table, note, warning, reject or error. Each file is one `ecg`
/// segment (`AppleHealth.source`) of the export's subject, starting at its recorded
/// date; its classification and lead are noted in the manifest.
enum AppleHealthECG: FormatAdapter {
    static let channel = "ecg"
    /// Lines of a file's start searched for the sample rate when detecting the layout.
    static let headLines = 24

    enum Field { case recorded, classification, rate, lead, unit }

    /// Metadata keys, lower case: English, Portuguese (`Data de Registo`, …) and German
    /// (`Aufzeichnungsdatum`, …).
    static let keys: [String: Field] = [
        "recorded date": .recorded, "data de registo": .recorded, "data de registro": .recorded,
        "aufzeichnungsdatum": .recorded,
        "classification": .classification, "classificação": .classification, "klassifizierung": .classification,
        "sample rate": .rate, "taxa de amostragem": .rate, "abtastrate": .rate,
        "lead": .lead, "derivação": .lead, "ableitung": .lead,
        "unit": .unit, "unidade": .unit, "einheit": .unit,
    ]

    /// How a line is written: a number without a point, with a point, a comma-joined
    /// pair of digit groups, or anything else (metadata, or a sample that cannot be read).
    enum Shape { case integer, point, commaPair, other }

    static func shape(_ r: CSVRecord) -> Shape {
        func digits(_ i: Int, signed: Bool) -> Bool {
            let b = r.bytes(i)
            let from = signed && b.first.map { $0 == 43 || $0 == 45 } == true ? 1 : 0
            return b.count > from && b[from...].allSatisfy { $0 >= 48 && $0 <= 57 }
        }
        switch r.count {
        case 1 where digits(0, signed: true): return .integer
        case 1 where r.bytes(0).contains(46) && parse(r) != nil: return .point
        case 2 where digits(0, signed: true) && digits(1, signed: false): return .commaPair
        default: return .other
        }
    }

    /// The sample of a one-field line.
    static func parse(_ r: CSVRecord) -> (fixed: WaveformCodec.Fixed, rounded: Bool)? {
        WaveformCodec.parse(r.cString(0), length: r.bytes(0).count)
    }

    /// The sample of a comma-joined pair, its comma read as the decimal point.
    static func parsePair(_ r: CSVRecord) -> (fixed: WaveformCodec.Fixed, rounded: Bool)? {
        let text = Array(r.bytes(0)) + [46] + Array(r.bytes(1)) + [0]
        return text.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { p in p.baseAddress.flatMap { WaveformCodec.parse($0, length: text.count - 1) } }
        }
    }

    /// The rate of a value `512 hertz` (or `512 Hz`, a decimal comma allowed), Hz.
    static func rateHz(_ value: String) -> Double? {
        let words = value.split(separator: " ")
        guard words.count == 2, ["hertz", "hz"].contains(words[1].lowercased()) else { return nil }
        return NumberParsing.double(words[0].replacingOccurrences(of: ",", with: "."))
    }

    /// Whether `path` has Apple's name for such a recording, `ecg_*.csv`.
    static func hasItsName(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent.lowercased()
        return name.hasPrefix("ecg_") && name.hasSuffix(".csv")
    }

    /// Whether `path` is such a recording: among the lines before its first sample,
    /// within its first `headLines`, one gives a sample rate.
    static func matches(path: String) -> Bool {
        var found = false, inSamples = false
        try? CSVPeek.each(path: path, delimiter: UInt8(ascii: ","), count: headLines) { r in
            inSamples = inSamples || shape(r) != .other
            if !inSamples, r.count > 1, keys[r.trimmed(0).lowercased()] == .rate || rateHz(r.trimmed(1)) != nil { found = true }
        }
        return found
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let rows = try readRecording(input, textPath: input.path, name: input.path, display: input.display, into: sink)
        try sink.endSource(input, rowsRead: rows)
    }

    /// What the lines before the samples say, and how the samples are written.
    struct Layout {
        var startMs: Int64
        var rateHz: Double
        var classification: String?
        var lead: String?
        var unit: String
        /// Line of the first sample; nil without one.
        var firstSampleLine: Int?
        var comma = false
        var points = 0, pairs = 0
    }

    /// The first pass: the lines before the first sample are metadata, read by key or
    /// by shape and place (the name and date of birth among them, never looked at), and
    /// the sample lines decide the decimal separator.
    static func scan(_ reader: CSVReader, _ times: TimeFieldParser, name: String) throws -> Layout {
        var lines: [(line: Int, key: String, value: String)] = []
        var firstSample: Int?, points = 0, pairs = 0
        try reader.forEachRecord { r in
            let s = shape(r)
            if firstSample == nil, s == .other, r.count > 0 {
                return lines.append((r.line, r.trimmed(0).lowercased(), (1..<r.count).map(r.trimmed).joined(separator: ",")))
            }
            if firstSample == nil { firstSample = r.line }
            if s == .point { points += 1 } else if s == .commaPair { pairs += 1 }
        }
        var at: [Field: Int] = [:]
        for (i, l) in lines.enumerated() { if let f = keys[l.key], at[f] == nil { at[f] = i } }
        func unkeyed(_ i: Int) -> Int? { i < lines.count && keys[lines[i].key] == nil ? i : nil }
        if at[.rate] == nil { at[.rate] = lines.indices.first { unkeyed($0) != nil && rateHz(lines[$0].value) != nil } }
        if at[.recorded] == nil {
            at[.recorded] = lines.indices.first { unkeyed($0) != nil && Timestamp.parseISO(lines[$0].value)?.hasZone == true }
        }
        if at[.classification] == nil, let r = at[.recorded] { at[.classification] = unkeyed(r + 1) }
        if at[.lead] == nil, let r = at[.rate] { at[.lead] = unkeyed(r + 1) }
        if at[.unit] == nil, let l = at[.lead] { at[.unit] = unkeyed(l + 1) }
        func value(_ f: Field) -> (line: Int, text: String)? { at[f].map { (lines[$0].line, lines[$0].value) } }
        func text(_ f: Field) -> String? { value(f).flatMap { $0.text.isEmpty ? nil : $0.text } }
        func bad(_ line: Int, _ message: String) -> ImportError {
            .badMetadata(path: name, line: line, column: line == 1 ? 0 : 2, message: "Apple Health ECG: \(message)")
        }
        guard let rate = value(.rate) else { throw bad(1, "no sample rate line (e.g. 'Sample Rate,512 hertz')") }
        guard let hz = rateHz(rate.text), WaveformSink.rateRangeHz.contains(hz) else {
            throw bad(rate.line, "sample rate '\(rate.text)' is not '<number> hertz' within \(WaveformSink.rateRangeText)")
        }
        guard let recorded = value(.recorded) else {
            throw bad(1, "no recorded date line (e.g. 'Recorded Date,2024-03-01 09:10:00 +0100')")
        }
        guard let time = Timestamp.parseISO(recorded.text), let start = time.hasZone ? time.ms : times.instant(fromNaive: time.ms)
        else { throw bad(recorded.line, "recorded date '\(recorded.text)' is not a time such as 2024-03-01 09:10:00 +0100") }
        return Layout(startMs: start, rateHz: hz, classification: text(.classification), lead: text(.lead),
                      unit: text(.unit) ?? "µV", firstSampleLine: firstSample, comma: pairs > points, points: points, pairs: pairs)
    }

    /// Reads the recording at `textPath` (the file, or an archive's entry decompressed)
    /// into `input`'s source as one segment named `display`; errors name `name`. Returns
    /// the rows read: the lines from the first sample on.
    static func readRecording(_ input: SourceInput, textPath: String, name: String, display: String,
                              into sink: ImportSink) throws -> Int {
        let reader = CSVReader(path: textPath, delimiter: UInt8(ascii: ","), name: name)
        let layout = try scan(reader, input.times, name: name)
        guard let firstSample = layout.firstSampleLine else { return 0 }
        let file = input.file
        let subject = sink.subject(input.subject, group: input.group)
        let recording = sink.waveforms.begin(subject: sink.subjectName(subject), source: AppleHealth.source,
                                             startMs: layout.startMs, rateHz: layout.rateHz, file: display,
                                             channels: [WaveformSink.Channel(name: channel, unit: layout.unit)])
        var rows = SampleRows(recording: recording, file: file, fields: [0])
        var read = 0, lastLine = firstSample
        try reader.forEachRecord { r in
            guard r.line >= firstSample else { return }
            read += 1
            lastLine = r.line
            switch (shape(r), layout.comma) {
            case (.integer, _), (.point, false): try rows.row(r, parsed: parse(r), column: 1, into: sink)
            case (.commaPair, true): try rows.row(r, parsed: parsePair(r), column: 1, into: sink)
            default: try rows.row(r, parsed: nil, column: 1, into: sink)
            }
        }
        try rows.flushRejected(into: sink)
        try sink.endRecording(recording, subject: subject)
        let written = layout.comma ? "',' (\(layout.pairs) lines such as -265,868, \(layout.points) with a point)"
            : "'.' (\(layout.points) lines with a point, \(layout.pairs) such as -265,868)"
        let about = [layout.lead, layout.classification.map { "classification '\($0)'" }].compactMap { $0 }
        sink.note(file, "\(display): ECG recorded \(Timestamp.iso(layout.startMs)), \(CSVWriter.format(layout.rateHz)) Hz, "
            + ([layout.unit] + about).joined(separator: ", ") + "; samples on lines \(firstSample)–\(lastLine); decimal separator \(written)")
        sink.note(file, "Apple Health ECG: the recorded date (with its UTC offset), sample rate, lead, unit and classification "
            + "are read; the name and date of birth are not")
        return read
    }
}
