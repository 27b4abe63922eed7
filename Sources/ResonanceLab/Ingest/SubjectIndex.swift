import Foundation

/// Where each subject's rows lie in a workspace table: per subject, in order of first
/// appearance, the byte ranges of its runs of consecutive records and the line each run
/// starts on. One pass over the file finds them, splitting records by RFC 4180 quoting
/// and reading only the first field; that pass also hashes the file for the manifest
/// check when the session asks for it. A per-subject stage then reads one subject's rows
/// by reading its ranges, in the worker that computes that subject, so that its memory
/// is bounded by the subjects in flight, not by the table (docs/scaling.md).
///
/// A subject's rows read this way are the rows a whole-table read groups under it, in
/// file order, whether or not the table is sorted by subject: its runs are read in
/// file order. An imported table is sorted by subject, so each subject is one run.
public struct SubjectIndex: Sendable {
    /// One run of consecutive records of a subject.
    struct Run: Sendable {
        var bytes: Range<Int>
        var line: Int
        /// Records in the run (blank lines aside).
        var records: Int
    }

    /// The table's path; nil when the workspace has no such table (it reads as empty).
    public let path: String?
    /// Subjects in order of first appearance.
    public private(set) var subjects: [String] = []
    private var runs: [[Run]] = []
    private var position: [String: Int] = [:]

    public func contains(_ subject: String) -> Bool { position[subject] != nil }

    /// The index of table `Row` at `path` (its header checked); `digest` receives the
    /// file's SHA-256, computed in the same pass (beside the scan with `jobs` ≥ 2), when given.
    /// `pieceRecords`: the records of a piece (`pieces(of:)`).
    init<Row: CanonicalRow>(_ type: Row.Type, path: String?, jobs: Int = 1, pieceRecords: Int = RecordScanner.pieceRecords,
                            digest: ((String) throws -> Void)? = nil) throws {
        self.path = path
        guard let path else { return }
        guard Row.header.first == "subject" else {
            throw TableError(path: path, line: 1, column: 1, message: "not a per-subject table: its first column is not 'subject'")
        }
        // The import's one text rule decides the encoding; byte ranges need UTF-8.
        let file = try TextFile.openRegularFile(path)
        defer { fclose(file) }
        var head = [UInt8](repeating: 0, count: 4)
        let headCount = head.withUnsafeMutableBytes { pread(fileno(file), $0.baseAddress, 4, 0) }
        let text = TextEncoding.of(head: head[0..<max(0, headCount)])
        if let found = text.found { throw ImportError.unreadableText(path: path, line: 1, found: found) }
        guard text.encoding == .utf8 || text.encoding == .utf8Marked else {
            throw TableError(path: path, line: 1, column: 0, message: "\(text.encoding.rawValue) text: workspace tables are read "
                + "one subject at a time and must be UTF-8 (tables the toolkit writes are)")
        }
        var scanner = RecordScanner(skipping: text.markLength, pieceRecords: pieceRecords)
        if let digest {
            let hex = try SHA256.hex(ofFile: path, jobs: jobs) { scanner.feed($0) }
            try digest(hex)
        } else {
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let n = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
                if n == 0 { break }
                buffer.withUnsafeBytes { scanner.feed(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            }
        }
        scanner.finish()
        // The header: the first record, checked as a whole-table read checks it.
        guard let header = scanner.header else {
            throw TableError(path: path, line: 1, column: 0, message: "empty file: no header")
        }
        try CSVReader(path: path, byteRange: header.bytes, rangeFirstLine: header.line).forEachRecord { record in
            try TableError.checkHeader(record, expected: Row.header, path: path)
        }
        for run in scanner.runs {
            let name = run.subject
            if let i = position[name] {
                if let last = runs[i].last, last.bytes.upperBound == run.bytes.lowerBound,
                   last.records + run.records <= pieceRecords {
                    runs[i][runs[i].count - 1].bytes = last.bytes.lowerBound..<run.bytes.upperBound
                    runs[i][runs[i].count - 1].records += run.records
                } else {
                    runs[i].append(Run(bytes: run.bytes, line: run.line, records: run.records))
                }
            } else {
                position[name] = subjects.count
                subjects.append(name)
                runs.append([Run(bytes: run.bytes, line: run.line, records: run.records)])
            }
        }
    }

    /// Calls `body` with every record of `subject`, in file order (none when absent).
    func forEachRecord(of subject: String, _ body: (CSVRecord) throws -> Void) throws {
        for piece in 0..<pieces(of: subject) { try forEachRecord(of: subject, piece: piece, body) }
    }

    /// The number of pieces `subject`'s records are read in: runs of consecutive records,
    /// each of at most `RecordScanner.pieceRecords`, so that a subject can be read forward
    /// a piece at a time (`RowCursor`).
    func pieces(of subject: String) -> Int {
        position[subject].map { runs[$0].count } ?? 0
    }

    /// Calls `body` with every record of piece `piece` of `subject`, in file order.
    func forEachRecord(of subject: String, piece: Int, _ body: (CSVRecord) throws -> Void) throws {
        guard let path, let i = position[subject] else { return }
        let run = runs[i][piece]
        try CSVReader(path: path, byteRange: run.bytes, rangeFirstLine: run.line).forEachRecord(body)
    }

    /// The number of records of `subject`.
    func records(of subject: String) -> Int {
        position[subject].map { runs[$0].reduce(0) { $0 + $1.records } } ?? 0
    }

    /// The rows of `subject` (none when absent).
    public func rows<Row: CanonicalRow>(_ type: Row.Type, of subject: String) throws -> [Row] {
        var rows: [Row] = []
        rows.reserveCapacity(records(of: subject))
        try forEachRow(Row.self, of: subject) { rows.append($0) }
        return rows
    }

    /// Calls `body` with each row of `subject`, in file order, without holding them.
    public func forEachRow<Row: CanonicalRow>(_ type: Row.Type, of subject: String, _ body: (Row) throws -> Void) throws {
        var cursor = RowCursor<Row>(self, subject)
        while try cursor.readPiece(body) {}
    }

    /// The measurements of `subject` as columns, in file order (empty when absent).
    public func series<Row: MeasurementRow>(_ type: Row.Type, of subject: String) throws -> MeasurementSeries {
        var out = MeasurementSeries(subject: subject)
        out.timestampsMs.reserveCapacity(records(of: subject))
        out.values.reserveCapacity(records(of: subject))
        try forEachMeasurement(Row.self, of: subject) { timeMs, value in
            out.timestampsMs.append(timeMs)
            out.values.append(value)
        }
        return out
    }

    /// Calls `body` with each measurement of `subject` (epoch ms, value), in file order,
    /// without holding them.
    public func forEachMeasurement<Row: MeasurementRow>(_ type: Row.Type, of subject: String,
                                                        _ body: (Int64, Double) throws -> Void) throws {
        var cursor = MeasurementCursor<Row>(self, subject)
        while try cursor.readPiece(body) {}
    }
}

/// One subject's rows read forward a piece at a time (`SubjectIndex.pieces(of:)`), for a
/// stage that walks a recording in time and holds a stretch of it.
struct RowCursor<Row: CanonicalRow> {
    let index: SubjectIndex
    let subject: String
    private var piece = 0
    private let columns = ColumnIndex(Row.header)
    private let repeated = RepeatedText()

    init(_ index: SubjectIndex, _ subject: String) {
        self.index = index; self.subject = subject
    }

    /// Calls `body` with each row of the next piece, in file order; false when every piece
    /// has been read.
    mutating func readPiece(_ body: (Row) throws -> Void) throws -> Bool {
        guard let path = index.path, piece < index.pieces(of: subject) else { return false }
        let (columns, repeated) = (self.columns, self.repeated)
        try index.forEachRecord(of: subject, piece: piece) { record in
            guard record.count == Row.header.count else {
                throw TableError(path: path, line: record.line, column: min(record.count, Row.header.count) + 1,
                                 message: "row has \(record.count) fields, the header \(Row.header.count)")
            }
            try body(try Row(CanonicalFieldReader(record: record, columns: columns, path: path, repeated: repeated)))
        }
        piece += 1
        return true
    }
}

/// One subject's measurements (epoch ms, value) read forward a piece at a time.
struct MeasurementCursor<Row: MeasurementRow> {
    let index: SubjectIndex
    let subject: String
    private var piece = 0
    private var parser: MeasurementRowParser<Row>?

    init(_ index: SubjectIndex, _ subject: String) {
        self.index = index; self.subject = subject
        parser = index.path.map { MeasurementRowParser<Row>(path: $0, expectsHeader: false) }
    }

    /// Calls `body` with each measurement of the next piece, in file order; false when
    /// every piece has been read.
    mutating func readPiece(_ body: (Int64, Double) throws -> Void) throws -> Bool {
        guard var p = parser, piece < index.pieces(of: subject) else { return false }
        defer { parser = p }
        try index.forEachRecord(of: subject, piece: piece) { record in
            guard let row = try p.parse(record) else { return }
            try body(row.timeMs, row.value)
        }
        piece += 1
        return true
    }
}

/// Splits a CSV file's bytes into records (a newline inside a quoted field does not end
/// one) and groups consecutive records by their first field. The first field is taken as
/// the reader takes it: unquoted, spaces and tabs trimmed; quoted, its doubled quotes made
/// one. Blank lines belong to the run they lie in (the reader skips them).
struct RecordScanner {
    /// Records in a run before it is split, so that no piece read at once is larger: at
    /// 8,192, a piece of `rr.csv` is about two hours of beats.
    static let pieceRecords = 8192

    struct Run {
        var subject: String
        var bytes: Range<Int>
        var line: Int
        var records: Int
    }

    private(set) var runs: [Run] = []
    private(set) var header: (bytes: Range<Int>, line: Int)?

    private var offset = 0
    private var line = 1
    /// The current record: its first byte and line, its first field's bytes so far, whether
    /// the first field is complete, and whether the scan is inside quotes.
    private var recordStart = 0, recordLine = 1
    private var field: [UInt8] = []
    private var fieldDone = false
    private var fieldQuoted = false
    private var inQuotes = false
    private var pendingQuote = false
    private var blank = true
    /// The current run's first field as read (raw bytes), its start and line.
    private var runField: [UInt8]? {
        didSet {
            // Bytes that the rules would read differently inside a field (a quote, a
            // newline) or none at all keep a record on the byte-by-byte path.
            plainRunField = runField.flatMap { f in f.isEmpty || f.contains(0x22) || f.contains(0x0A) ? nil : f }
        }
    }
    private var runStart = 0, runLine = 1, runRecords = 0
    /// The run's first field when a record starting with its bytes and a comma may skip
    /// the byte-by-byte rules, and whether the current record did.
    private var plainRunField: [UInt8]?
    private var sameSubject = false

    /// A scanner that skips the file's first `mark` bytes (a UTF-8 byte-order mark) and
    /// ends a run after `pieceRecords` records.
    init(skipping mark: Int, pieceRecords: Int = Self.pieceRecords) {
        self.mark = mark
        self.runLimit = max(1, pieceRecords)
        recordStart = mark
    }

    private let mark: Int
    private let runLimit: Int

    mutating func feed(_ chunk: UnsafeRawBufferPointer) {
        guard let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        var i = max(0, min(chunk.count, mark - offset))
        let n = chunk.count
        while i < n {
            if fieldDone {
                // Past the first field only a newline or a quote changes the scan's state:
                // skip to the next one (most of a table's bytes are passed over here).
                i = Self.nextNewlineOrQuote(base, from: i, count: n)
                if i == n { break }
            } else if recordStart == offset + i, let f = plainRunField, i + f.count < n, base[i + f.count] == 0x2C,
                      f.withUnsafeBufferPointer({ f in (0..<f.count).allSatisfy { base[i + $0] == f[$0] } }) {
                // A record that starts with the current run's subject, as is, then a comma:
                // the byte-by-byte rules below would read the same field.
                fieldDone = true
                blank = false
                sameSubject = true
                i += f.count + 1
                continue
            }
            let b = base[i]
            if b == 0x0A && !inQuotes {
                endRecord(at: offset + i + 1)
                line += 1
                recordStart = offset + i + 1
                recordLine = line
            } else {
                if b == 0x0A { line += 1 }
                take(b)
            }
            i += 1
        }
        offset += n
    }

    /// The index of the first newline or quote in `base[from..<count]`, else `count`. Eight
    /// bytes are tested at a time: a byte b of word w equals c exactly when byte b of
    /// w ^ c·0x0101… is zero, and (v − 0x0101…) & ~v & 0x8080… sets the high bit of the
    /// lowest zero byte of v (a borrow runs only upward, past a zero byte), so the lowest
    /// set bit names the first match (Anderson, "Bit Twiddling Hacks", determining if a
    /// word has a zero byte).
    static func nextNewlineOrQuote(_ base: UnsafePointer<UInt8>, from: Int, count n: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var i = from
        while i + 8 <= n {
            let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self).littleEndian
            let newline = w ^ (0x0A &* ones), quote = w ^ (0x22 &* ones)
            let found = (((newline &- ones) & ~newline) | ((quote &- ones) & ~quote)) & highs
            if found != 0 { return i + found.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < n && base[i] != 0x0A && base[i] != 0x22 { i += 1 }
        return i
    }

    /// One byte of the current record (not a record-ending newline).
    private mutating func take(_ b: UInt8) {
        if b != 0x20 && b != 0x09 && b != 0x0D { blank = false }
        if b == 0x22 {
            // Quote parity decides whether a newline ends the record; a doubled quote
            // inside a quoted field toggles twice.
            inQuotes.toggle()
            if fieldDone { return }
            if !fieldQuoted && field.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) && !pendingQuote {
                fieldQuoted = true
                field = []
                return
            }
            if fieldQuoted {
                if pendingQuote { field.append(0x22); pendingQuote = false } else { pendingQuote = true }
                return
            }
            field.append(b)
            return
        }
        if fieldDone { return }
        if fieldQuoted && pendingQuote {
            // The quote before this byte closed the field.
            pendingQuote = false
            if b == UInt8(ascii: ",") { fieldDone = true }
            return
        }
        if b == UInt8(ascii: ",") && !inQuotes {
            fieldDone = true
            return
        }
        field.append(b)
    }

    private mutating func endRecord(at end: Int) {
        defer {
            field.removeAll(keepingCapacity: true)
            fieldDone = false; fieldQuoted = false; pendingQuote = false; blank = true; sameSubject = false
        }
        if sameSubject {
            runRecords += 1
            splitIfFull(at: end)
            return
        }
        if blank { return }
        var lo = 0, hi = field.count
        if !fieldQuoted {
            while hi > lo, field[hi - 1] == 0x20 || field[hi - 1] == 0x09 || field[hi - 1] == 0x0D { hi -= 1 }
            while lo < hi, field[lo] == 0x20 || field[lo] == 0x09 { lo += 1 }
        }
        if header == nil {
            header = (recordStart..<end, recordLine)
            return
        }
        if runField.map({ !$0.elementsEqual(field[lo..<hi]) }) ?? true {
            closeRun(at: recordStart)
            runField = Array(field[lo..<hi])
            runStart = recordStart
            runLine = recordLine
            runRecords = 0
        }
        runRecords += 1
        splitIfFull(at: end)
    }

    /// Ends the run after `runLimit` records; the next record, of the same subject or not,
    /// starts another.
    private mutating func splitIfFull(at end: Int) {
        guard runRecords == runLimit else { return }
        closeRun(at: end)
        runStart = end
        runLine = line + 1
        runRecords = 0
    }

    private mutating func closeRun(at end: Int) {
        guard let f = runField, runRecords > 0 else { return }
        runs.append(Run(subject: String(decoding: f, as: UTF8.self), bytes: runStart..<end, line: runLine, records: runRecords))
    }

    mutating func finish() {
        if !blank || !field.isEmpty { endRecord(at: offset) }
        closeRun(at: offset)
        runField = nil
    }
}

extension Workspace {
    /// The subject index of table `Row` (`SubjectIndex`), verified against the manifest in
    /// the same pass (the digest beside the scan with `jobs` ≥ 2); an absent table gives
    /// an empty index.
    public func subjectIndex<Row: CanonicalRow>(_ type: Row.Type, jobs: Int = 1) throws -> SubjectIndex {
        try subjectIndex(Row.self, table: Row.fileName, jobs: jobs)
    }

    /// The same for table `name`, whose rows are `Row`'s (rr_combined.csv holds rr.csv's).
    public func subjectIndex<Row: CanonicalRow>(_ type: Row.Type, table name: String, jobs: Int = 1) throws -> SubjectIndex {
        guard exists(name) else { return try SubjectIndex(Row.self, path: nil) }
        let path = file(name)
        guard let session, session.needsDigest(name) else {
            try session?.check(name)
            return try SubjectIndex(Row.self, path: path)
        }
        return try SubjectIndex(Row.self, path: path, jobs: jobs) { try session.check(name, digest: $0) }
    }
}
