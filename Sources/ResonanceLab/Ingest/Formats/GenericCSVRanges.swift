import Foundation

/// The generic reader on every core, for a large heart-rate file (a bpm column, no R-R
/// column): the file is cut into ranges that begin at records (`RecordRanges`), workers
/// decide each range's records — subject, time, the export cut-off, the bpm range, the
/// row's encoded fields — and the decisions reach the sink in file order. The sink so
/// sees the calls of a one-pass read, in the same order: the tables, `rejects.csv` (line
/// numbers as in the file), the notes and the manifest are the same bytes
/// (docs/import.md, Large files). R-R files stay on one pass (the stamp convention is
/// decided over the file's first rows and each beat's time from its subject's clock).
extension GenericCSV {
    /// What a worker makes of one range.
    struct Piece {
        /// Accepted rows: time, and where each row's encoded fields end in `fields`.
        var ms: [Int64] = []
        var ends: [Int] = []
        var fields: [UInt8] = []
        /// Subjects met and rejected records, each before the accepted row `beforeRow`.
        var marks: [(beforeRow: Int, mark: Mark)] = []
        /// Data records (the header aside), and the line ends of the range.
        var records = 0
        var lineEnds = 0
        var headerSeen = false
        let times: TimeFieldParser
        /// The error that ended the range early (its line counted from the range's start);
        /// the records before it are kept, as a one-pass read has handed them on.
        var failure: Error?
    }

    enum Mark {
        case subject(String, latin1: Bool)
        /// `line` counts from the range's first line (1).
        case reject(line: Int, column: Int, reason: String, raw: String)
    }

    /// What every worker needs to decide a record as `read` does.
    struct RangeRules {
        let input: SourceInput
        let columns: Columns
        let bpm: Int
        /// Fields of the header: a row with more is rejected.
        let width: Int
        let unix: TimeFieldParser.UnixUnit
        let hr: HRConstants
        let export: (ms: Int64, reason: String)?
    }

    /// Reads `input` in ranges when it is a large UTF-8 heart-rate file and `jobs` ≥ 2,
    /// giving the data records read; nil when it is read in one pass instead.
    static func readInRanges(_ rules: RangeRules, subject defaultSubject: Int, into sink: ImportSink) throws -> Int? {
        let input = rules.input
        var info = stat()
        guard input.jobs > 1, stat(input.path, &info) == 0, Int(info.st_size) >= 2 * max(1, input.rangeBytes),
              let ranges = try RecordRanges.split(path: input.path, bytes: input.rangeBytes), ranges.count > 1 else {
            return nil
        }
        var rows = 0, linesBefore = 0, applied = 0, subject = defaultSubject
        do {
            try Parallel.forEach(Array(ranges.indices), jobs: input.jobs, { k in
                readPiece(ranges[k], first: k == 0, rules)
            }, inOrder: { piece in
                // A first range of blank lines only: the header lies further on.
                if applied == 0, !piece.headerSeen, piece.failure == nil { throw CSVReader.NeedsWholeFile() }
                try apply(piece, linesBefore: linesBefore, subject: &subject, input: input, into: sink)
                rows += piece.records
                linesBefore += piece.lineEnds
                applied += 1
            })
        } catch is CSVReader.NeedsWholeFile where applied == 0 {
            return nil
        }
        return rows
    }

    /// Decides the records of one range (`first`: the file's first, holding the header).
    static func readPiece(_ range: Range<Int>, first: Bool, _ rules: RangeRules) -> Piece {
        var piece = Piece(times: rules.input.times.copy())
        // A row's fields take about the bytes of its line: one allocation for most ranges.
        piece.fields.reserveCapacity(range.count + range.count / 8)
        var timestamps = LineEncoder.TimestampCache()
        var lastSubject: [UInt8] = []
        let source = rules.input.format.rawValue
        let reader = CSVReader(path: rules.input.path, delimiter: rules.input.delimiter, byteRange: range, rangeFirstLine: 1)
        do {
            try reader.forEachRecord { record in
                if first && !piece.headerSeen { piece.headerSeen = true; return }
                piece.records += 1
                func reject(_ column: Int, _ reason: String) {
                    piece.marks.append((beforeRow: piece.ms.count,
                                        mark: Mark.reject(line: record.line, column: column, reason: reason, raw: record.raw)))
                }
                if record.count > rules.width { return reject(rules.width + 1, SourceInput.widerRow(record.count, rules.width)) }
                if let s = rules.columns.subject {
                    guard s < record.count, !record.bytes(s).isEmpty else { return reject(s + 1, "missing subject") }
                    if !record.bytes(s).elementsEqual(lastSubject) {
                        lastSubject = Array(record.bytes(s))
                        let (id, latin1) = IdText.decode(record.bytes(s))
                        piece.marks.append((beforeRow: piece.ms.count, mark: Mark.subject(id, latin1: latin1)))
                    }
                }
                let time = rules.columns.time
                guard let ms = piece.times.parse(record, time, unix: rules.unix) else { return reject(time + 1, "unparsable time") }
                if let export = rules.export, ms > export.ms { return reject(time + 1, export.reason) }
                switch MeasurementCheck.bpm(record.double(rules.bpm), rules.hr) {
                case let .rejected(reason): reject(rules.bpm + 1, reason)
                case let .value(bpm):
                    piece.ms.append(ms)
                    ImportSink.appendMeasurementFields(ms: ms, value: bpm, source: source, timestamps: &timestamps,
                                                       to: &piece.fields)
                    piece.ends.append(piece.fields.count)
                }
            }
            piece.lineEnds = reader.lineEnds
        } catch {
            piece.failure = error
        }
        return piece
    }

    /// Hands one range's decisions to the sink as a one-pass read would have made them;
    /// `linesBefore`: the line ends of the ranges before it.
    private static func apply(_ piece: Piece, linesBefore: Int, subject: inout Int, input: SourceInput,
                              into sink: ImportSink) throws {
        let file = input.file
        var row = 0
        // Every row handed on is accepted, also when a later one fails.
        defer { sink.accept(file, count: row) }
        try piece.fields.withUnsafeBufferPointer { fields in
            func rows(upTo end: Int) throws {
                while row < end {
                    let start = row == 0 ? 0 : piece.ends[row - 1]
                    try sink.heartRate(subject: subject, ms: piece.ms[row],
                                       fields: UnsafeBufferPointer(rebasing: fields[start..<piece.ends[row]]), file: file)
                    row += 1
                }
            }
            for (before, mark) in piece.marks {
                try rows(upTo: before)
                switch mark {
                case let .subject(id, latin1):
                    if latin1 { sink.note(file, IdText.latin1Note) }
                    subject = sink.subject(id, group: input.group)
                case let .reject(line, column, reason, raw):
                    try sink.reject(file, line: line + linesBefore, column: column, reason: reason, raw: raw)
                }
            }
            try rows(upTo: piece.ms.count)
        }
        input.times.absorb(piece.times)
        if let failure = piece.failure { throw shifted(failure, by: linesBefore) }
    }

    /// A reader's error with its line counted from the file's start.
    private static func shifted(_ error: Error, by lines: Int) -> Error {
        switch error {
        case let CSVError.malformedQuote(path, line, column):
            return CSVError.malformedQuote(path: path, line: line + lines, column: column)
        case let CSVError.outOfMemory(path, line):
            return CSVError.outOfMemory(path: path, line: line + lines)
        default:
            return error
        }
    }
}
