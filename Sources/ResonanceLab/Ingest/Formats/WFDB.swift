import Foundation

/// PhysioNet's WFDB records (Moody G.B., "WFDB Applications Guide" and the `header(5)`,
/// `signal(5)` and `annot(5)` pages of the WFDB Software Package): a text header
/// `<record>.hea` names the record's signal files, their format, gain, baseline and
/// units; `<record>.dat` holds the samples frame by frame; `<record>.atr` the reference
/// annotations. A signal file is the source read (its samples go to `waveforms.bin`,
/// one row read per frame), with the header beside it; the annotation file is a source
/// of its own (`annotations.csv`, one row per annotation); the header alone is skipped.
enum WFDB {
    static let source = "wfdb"

    /// A parsed header: the record line and the signals of one signal file.
    struct Header {
        var record: String
        var rateHz: Double
        /// Frames the header declares (nil: not said; the file's length decides).
        var frames: Int?
        /// The record's start when the header gives a base date, epoch ms as written
        /// (zone-less: `--tz` applies).
        var baseLocalMs: Int64?
        var signals: [Signal]
    }

    struct Signal {
        var file: String
        var format: Int
        var byteOffset: Int
        var gain: Double
        var baseline: Double
        var unit: String
        var description: String
        /// Line of the header it is described on.
        var line: Int
    }

    /// Storage formats read: 212 (two 12-bit samples in three bytes) and 16 (16-bit
    /// little-endian). Their invalid-sample codes (WFDB_INVALID_SAMPLE as stored).
    static let invalidSample: [Int: Int64] = [212: -2048, 16: -32768]
    /// WFDB's default gain when the header gives 0 or none (adu per physical unit).
    static let defaultGain = 200.0

    /// The header beside `path` (`<record>.hea` for `<record>.dat` or `<record>.atr`).
    static func headerPath(for path: String) -> String {
        ((path as NSString).deletingPathExtension as NSString).appendingPathExtension("hea") ?? path + ".hea"
    }

    /// Whether `path` is a WFDB signal file: its record's header names it.
    static func isSignalFile(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        guard let header = try? parseHeader(path: headerPath(for: path), signalFile: name) else { return false }
        return !header.signals.isEmpty
    }

    /// Whether `path` is an annotation file of a record with a header beside it.
    static func isAnnotationFile(_ path: String) -> Bool {
        (path as NSString).pathExtension.lowercased() == "atr"
            && FileManager.default.fileExists(atPath: headerPath(for: path))
    }

    /// Reads the header at `path`, keeping the signals stored in `signalFile` (every
    /// signal when nil). Comment lines (`#`) and blank lines are skipped wherever they are.
    static func parseHeader(path: String, signalFile: String?) throws -> Header {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CSVError.cannotOpen(path: path, reason: "no WFDB header beside the signal file")
        }
        let text = String(decoding: data, as: UTF8.self)
        var lines: [(number: Int, fields: [Substring])] = []
        // `\r\n` is one Character, a new line as `\n` is.
        for (i, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = content.split { $0 == " " || $0 == "\t" }
            if !fields.isEmpty { lines.append((i + 1, fields)) }
        }
        func bad(_ line: Int, _ column: Int, _ message: String) -> ImportError {
            .badMetadata(path: path, line: line, column: column, message: message)
        }
        guard let recordLine = lines.first else { throw bad(1, 1, "WFDB header without a record line") }
        let r = recordLine.fields
        guard r.count >= 2, let count = Int(r[1]), count >= 0 else {
            throw bad(recordLine.number, 2, "WFDB record line needs a record name and a signal count")
        }
        if r[0].contains("/") { throw bad(recordLine.number, 1, "multi-segment WFDB records are not read") }
        var rateHz = 250.0
        if r.count > 2 {
            // `fs[/counter[(base)]]`: the sampling frequency comes first.
            let text = r[2].split(separator: "/").first.map(String.init) ?? ""
            guard let v = Double(text), WaveformSink.rateRangeHz.contains(v) else {
                throw bad(recordLine.number, 3, "WFDB sampling frequency '\(r[2])' is not a number in \(WaveformSink.rateRangeText)")
            }
            rateHz = v
        }
        let frames = r.count > 3 ? Int(r[3]) : nil
        if r.count > 3, (frames ?? -1) < 0 { throw bad(recordLine.number, 4, "WFDB sample count '\(r[3])' is not a whole number ≥ 0") }
        var baseLocalMs: Int64?
        if r.count > 5 {
            guard let ms = baseTime(String(r[4]), date: String(r[5])) else {
                throw bad(recordLine.number, 5, "WFDB base time '\(r[4]) \(r[5])' is not HH:MM:SS DD/MM/YYYY")
            }
            baseLocalMs = ms
        }
        let signalLines = lines.dropFirst().prefix(count)
        guard signalLines.count == count else { throw bad(recordLine.number, 2, "WFDB header names \(count) signals, describes \(signalLines.count)") }
        var signals: [Signal] = []
        for (number, f) in signalLines {
            guard f.count >= 2 else { throw bad(number, 2, "WFDB signal line needs a file name and a format") }
            guard signalFile == nil || String(f[0]) == signalFile else { continue }
            // `format[xsamples][:skew][+offset]`
            var formatText = Substring(f[1])
            var byteOffset = 0
            if let plus = formatText.firstIndex(of: "+") {
                guard let v = Int(formatText[formatText.index(after: plus)...]), v >= 0 else { throw bad(number, 2, "WFDB byte offset in '\(f[1])' is not a whole number") }
                byteOffset = v
                formatText = formatText[..<plus]
            }
            if formatText.contains("x") { throw bad(number, 2, "WFDB multi-frequency signals ('\(f[1])') are not read") }
            if let colon = formatText.firstIndex(of: ":") { formatText = formatText[..<colon] }
            guard let format = Int(formatText), invalidSample[format] != nil else {
                throw bad(number, 2, "WFDB storage format '\(f[1])' is not read (formats 212 and 16 are)")
            }
            // `gain[(baseline)][/units]`, then resolution, ADC zero, initial value,
            // checksum, block size, description.
            var gain = defaultGain, baseline: Double?, unit = "mV"
            if f.count > 2 {
                var g = Substring(f[2])
                if let slash = g.firstIndex(of: "/") { unit = String(g[g.index(after: slash)...]); g = g[..<slash] }
                if let open = g.firstIndex(of: "("), g.hasSuffix(")") {
                    guard let b = Double(g[g.index(after: open)..<g.index(before: g.endIndex)]) else { throw bad(number, 3, "WFDB baseline in '\(f[2])' is not a number") }
                    baseline = b
                    g = g[..<open]
                }
                guard let v = Double(g), v.isFinite else { throw bad(number, 3, "WFDB gain '\(f[2])' is not a number") }
                if v != 0 { gain = v }
            }
            let adcZero = f.count > 4 ? Double(f[4]) ?? 0 : 0
            let description = f.count > 8 ? f[8...].joined(separator: " ") : "signal \(signals.count)"
            signals.append(Signal(file: String(f[0]), format: format, byteOffset: byteOffset, gain: gain,
                                  baseline: baseline ?? adcZero, unit: unit, description: description, line: number))
        }
        if Set(signals.map(\.format)).count > 1 || Set(signals.map(\.byteOffset)).count > 1 {
            throw bad(signals.first?.line ?? recordLine.number, 2, "WFDB signals of one file with different formats or offsets are not read")
        }
        return Header(record: String(r[0]), rateHz: rateHz, frames: frames, baseLocalMs: baseLocalMs, signals: signals)
    }

    /// `HH:MM:SS[.sss]` and `DD/MM/YYYY` as epoch ms of that wall-clock time.
    static func baseTime(_ time: String, date: String) -> Int64? {
        let t = time.split(separator: ":")
        let d = date.split(separator: "/").compactMap { Int($0) }
        guard t.count == 3, d.count == 3, let h = Int(t[0]), let m = Int(t[1]), let s = Double(t[2]),
              (0..<24).contains(h), (0..<60).contains(m), s >= 0, s < 61, (1...31).contains(d[0]), (1...12).contains(d[1])
        else { return nil }
        let days = Int64(Timestamp.daysFromCivil(d[2], d[1], d[0]))
        return days * 86_400_000 + Int64(h) * 3_600_000 + Int64(m) * 60_000 + Int64((s * 1000).rounded())
    }

    /// A channel name from a signal's description: lower case, words joined by `_`
    /// (`MLII` → `mlii`, `ECG lead II` → `ecg_lead_ii`).
    static func channelName(_ description: String) -> String {
        let name = ColumnName.normalized(description)
        return name.isEmpty ? "signal" : name
    }

    /// The start of the record: its base date read in `--tz` (else UTC), else `--start`,
    /// else the epoch; and the manifest's note saying which.
    static func start(_ header: Header, _ input: SourceInput) -> (ms: Int64, note: String)? {
        if let local = header.baseLocalMs {
            guard let ms = input.times.instant(fromNaive: local) else { return nil }
            return (ms, "record start from the header's base time and date (wall clock, read in \(input.times.zone?.identifier ?? "UTC"))")
        }
        let ms = input.settings.startMs ?? 0
        return (ms, ClocklessRR.note(startMs: input.settings.startMs, what: "sample k at start + k / the header's frequency"))
    }

    /// `<record>.dat`: the samples of the signals its header stores in it.
    enum Signals: FormatAdapter {
        static func read(_ input: SourceInput, into sink: ImportSink) throws {
            let file = input.file
            let name = (input.path as NSString).lastPathComponent
            let header = try parseHeader(path: headerPath(for: input.path), signalFile: name)
            guard let first = header.signals.first else {
                throw ImportError.badMetadata(path: headerPath(for: input.path), line: 1, column: 1,
                                              message: "the WFDB header names no signal stored in \(name)")
            }
            guard let start = start(header, input) else {
                throw ImportError.badMetadata(path: headerPath(for: input.path), line: 1, column: 5,
                                              message: "WFDB base time outside years 0000–9999")
            }
            let subject = sink.subject(input.subject, group: input.group)
            let channels = header.signals.map {
                WaveformSink.Channel(name: channelName($0.description), unit: $0.unit, gain: $0.gain, baseline: $0.baseline)
            }
            let recording = sink.waveforms.begin(subject: sink.subjectName(subject), source: source, startMs: start.ms,
                                                 rateHz: header.rateHz, file: input.display, channels: channels)
            let width = header.signals.count
            let invalid = invalidSample[first.format] ?? Int64.min
            let stored = try storedBytes(input.path, from: first.byteOffset)
            let whole = decode(stored, format: first.format) / width
            let frames = min(whole, header.frames ?? whole)
            var run: (first: Int, count: Int)?
            var frame = [WaveformCodec.Fixed](repeating: WaveformCodec.Fixed(whole: 0, decimals: 0), count: width)
            let exact = [Bool](repeating: false, count: width)
            func flush() throws {
                guard let r = run else { return }
                run = nil
                try sink.reject(file, line: r.first + 1, column: 0,
                                reason: r.count == 1 ? "invalid sample (WFDB's invalid-sample code)"
                                    : "invalid samples (WFDB's invalid-sample code): \(r.count) frames, \(r.first + 1)–\(r.first + r.count)",
                                raw: "frame \(r.first + 1)", count: r.count)
            }
            try forEachFrame(input.path, from: first.byteOffset, format: first.format, width: width, frames: frames) { f, samples in
                var valid = true
                for (k, v) in zip(0..<width, samples) {
                    if v == invalid { valid = false }
                    frame[k].whole = v
                }
                if valid {
                    try flush()
                    recording.frame(frame, rounded: exact)
                    sink.accept(file)
                } else {
                    if run == nil { run = (f, 0) }
                    run?.count += 1
                    recording.gap()
                }
            }
            try flush()
            try sink.endRecording(recording, subject: subject)
            sink.note(file, "WFDB record \(header.record): format \(first.format), \(plural(width, "signal")) "
                + "(\(channels.map(\.name).joined(separator: ", "))) at \(CSVWriter.format(header.rateHz)) Hz, "
                + "stored as ADC units with each signal's gain and baseline; one row read per frame")
            sink.note(file, start.note)
            if let declared = header.frames, declared != frames {
                sink.warn(file, "the header declares \(declared) frames, the file holds \(whole): \(frames) read")
            }
            if whole * width != decode(stored, format: first.format) {
                sink.note(file, "trailing bytes after the last whole frame: not read")
            }
            try sink.endSource(input, rowsRead: frames)
        }

        /// The bytes of a signal file from `offset` on.
        static func storedBytes(_ path: String, from offset: Int) throws -> Int {
            guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else {
                throw CSVError.cannotOpen(path: path, reason: "cannot read file")
            }
            return max(0, size - offset)
        }

        /// Calls `body` with each of the first `frames` frames (its index and its `width`
        /// samples) of a signal file, read a few hundred kilobytes at a time so that a day
        /// of Holter data never sits in memory whole.
        static func forEachFrame(_ path: String, from offset: Int, format: Int, width: Int, frames: Int,
                                 _ body: (Int, ArraySlice<Int64>) throws -> Void) throws {
            guard frames > 0 else { return }
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw CSVError.cannotOpen(path: path, reason: "cannot read file")
            }
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(offset))
            // Whole 212 sample pairs (3 bytes) and 16-bit samples (2 bytes) in each read.
            let chunkBytes = 6 << 17
            var pending: [Int64] = []
            var next = 0
            while next < frames, let data = try handle.read(upToCount: chunkBytes), !data.isEmpty {
                pending += decode([UInt8](data), format: format)
                var at = 0
                while next < frames, pending.count - at >= width {
                    try body(next, pending[at..<at + width])
                    at += width
                    next += 1
                }
                pending.removeFirst(at)
            }
        }

        /// Every sample of a signal file's bytes in storage order (frame by frame).
        static func decode(_ bytes: [UInt8], format: Int) -> [Int64] {
            var out: [Int64] = []
            switch format {
            case 212:
                out.reserveCapacity(bytes.count / 3 * 2)
                var i = 0
                while i + 3 <= bytes.count {
                    let b0 = Int64(bytes[i]), b1 = Int64(bytes[i + 1]), b2 = Int64(bytes[i + 2])
                    out.append(signExtend12(b0 | (b1 & 0x0F) << 8))
                    out.append(signExtend12(b2 | (b1 & 0xF0) << 4))
                    i += 3
                }
                // A last single sample fills its first 1.5 bytes.
                if bytes.count - i == 2 { out.append(signExtend12(Int64(bytes[i]) | (Int64(bytes[i + 1]) & 0x0F) << 8)) }
            default:
                out.reserveCapacity(bytes.count / 2)
                var i = 0
                while i + 2 <= bytes.count {
                    out.append(Int64(Int16(bitPattern: UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8)))
                    i += 2
                }
            }
            return out
        }

        /// How many samples `count` bytes hold in `format`.
        static func decode(_ count: Int, format: Int) -> Int {
            format == 212 ? count / 3 * 2 + (count % 3 == 2 ? 1 : 0) : count / 2
        }

        static func signExtend12(_ v: Int64) -> Int64 { v >= 2048 ? v - 4096 : v }
    }

    /// `<record>.atr`: MIT-format annotations (`annot(5)`): 16-bit little-endian words,
    /// the code in the top 6 bits and the time since the previous annotation (frames)
    /// in the low 10; SKIP (59) carries a 32-bit interval in the next two words (high word
    /// first), AUX (63) a string of the low 10 bits' length (padded to even), and NUM,
    /// SUB and CHN (60–62) modify the annotation before them. Each annotation is a row
    /// read; its label is the code's mnemonic.
    enum Annotations: FormatAdapter {
        /// Mnemonics of the annotation codes 0–49 (WFDB's `ecgcodes.h`).
        static let mnemonics: [String] = [
            "", "N", "L", "R", "a", "V", "F", "J", "A", "S", "E", "j", "/", "Q", "~", "", "|", "", "s", "T",
            "*", "D", "\"", "=", "p", "B", "^", "t", "+", "u", "?", "!", "[", "]", "e", "n", "@", "x", "f", "(",
            ")", "r", "", "", "", "", "", "", "", "",
        ]
        /// Codes of beats (WFDB's `isqrs`), the labels ANSI/AAMI EC57 matches against.
        static let beatCodes: Set<Int> = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 25, 30, 34, 35, 38, 41]

        static func read(_ input: SourceInput, into sink: ImportSink) throws {
            let file = input.file
            let header = try parseHeader(path: headerPath(for: input.path), signalFile: nil)
            guard let start = start(header, input) else {
                throw ImportError.badMetadata(path: headerPath(for: input.path), line: 1, column: 5,
                                              message: "WFDB base time outside years 0000–9999")
            }
            let subject = sink.subject(input.subject, group: input.group)
            guard let data = FileManager.default.contents(atPath: input.path) else {
                throw CSVError.cannotOpen(path: input.path, reason: "cannot read file")
            }
            let bytes = [UInt8](data)
            var rows: [ReferenceAnnotation] = []
            var read = 0
            /// Whether the last annotation read was kept (its AUX text goes with it).
            var lastKept = false
            var time: Int64 = 0
            var i = 0
            func word(_ at: Int) -> Int? { at + 1 < bytes.count ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : nil }
            while let w = word(i) {
                i += 2
                let code = w >> 10, value = w & 0x3FF
                switch code {
                case 0 where value == 0:
                    i = bytes.count
                case 59:
                    guard let high = word(i), let low = word(i + 2) else {
                        throw ImportError.badMetadata(path: input.path, line: 0, column: 0, message: "annotation file ends inside a SKIP at byte \(i)")
                    }
                    time += Int64(Int32(bitPattern: UInt32(high << 16 | low)))
                    i += 4
                case 60, 61, 62:
                    break
                case 63:
                    let text = bytes[min(i, bytes.count)..<min(i + value, bytes.count)]
                    if lastKept { rows[rows.count - 1].aux = String(decoding: text.prefix { $0 != 0 }, as: UTF8.self) }
                    i += value + value % 2
                default:
                    time += Int64(value)
                    read += 1
                    let ms = Double(start.ms) + Double(time) * 1000 / header.rateHz
                    guard time >= 0, let stamp = Timestamp.instant(ms: ms.rounded(.down)) else {
                        lastKept = false
                        try sink.reject(file, line: 0, column: 0, reason: "annotation before the record's start or outside years 0000–9999",
                                        raw: "annotation \(read) at sample \(time)")
                        continue
                    }
                    lastKept = true
                    rows.append(ReferenceAnnotation(
                        subject: sink.subjectName(subject), timestampMs: stamp, sample: Int(time),
                        label: code < mnemonics.count ? mnemonics[code] : "code \(code)", beat: beatCodes.contains(code),
                        aux: "", file: input.display))
                }
            }
            for row in rows {
                sink.annotation(row)
                sink.accept(file)
            }
            if let first = rows.first, let last = rows.last {
                sink.waveformSpan(subject: subject, firstMs: first.timestampMs, lastMs: last.timestampMs)
            }
            let beats = rows.filter(\.beat).count
            sink.note(file, "MIT-format annotations of record \(header.record): \(rows.count) annotations, \(beats) of them beats; "
                + "time = start + sample / \(CSVWriter.format(header.rateHz)) Hz")
            sink.note(file, start.note)
            try sink.endSource(input, rowsRead: read)
        }
    }
}
