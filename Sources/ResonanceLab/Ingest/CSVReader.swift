import CCSV
import Foundation

/// One parsed CSV record, valid only inside the closure that receives it.
///
/// Fields are views into the reader's buffer, each followed by a NUL byte so that
/// C number parsers (`strtod`) can read them in place without copying.
public struct CSVRecord {
    /// Physical line (1-based) on which the record starts.
    public let line: Int
    let base: UnsafePointer<UInt8>
    let starts: UnsafeBufferPointer<Int>
    let lengths: UnsafeBufferPointer<Int>
    /// The file's field separator, which `raw` joins the fields with.
    var delimiter = UInt8(ascii: ",")

    public var count: Int { starts.count }

    /// Raw bytes of field `i` (0-based), without the trailing NUL.
    public func bytes(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + starts[i], count: lengths[i])
    }

    /// NUL-terminated C string of field `i`.
    public func cString(_ i: Int) -> UnsafePointer<CChar> {
        UnsafeRawPointer(base + starts[i]).assumingMemoryBound(to: CChar.self)
    }

    public func string(_ i: Int) -> String {
        String(decoding: bytes(i), as: UTF8.self)
    }

    /// Field `i` with surrounding ASCII white space removed.
    public func trimmed(_ i: Int) -> String {
        string(i).trimmingCharacters(in: .whitespaces)
    }

    /// All fields as strings.
    public var strings: [String] { (0..<count).map(string) }

    /// The record re-joined with the file's separator, for `rejects.csv`'s `raw` column: the
    /// line as the file has it when no field was quoted.
    public var raw: String { strings.joined(separator: String(UnicodeScalar(delimiter))) }

    /// Field `i` as a finite Double, or nil when empty, unparsable or not finite.
    public func double(_ i: Int) -> Double? {
        guard i < count, lengths[i] > 0 else { return nil }
        return NumberParsing.double(cString(i), length: lengths[i])
    }
}

/// Errors raised while reading CSV text. Every case names file and line.
public enum CSVError: Error, CustomStringConvertible, Equatable {
    case cannotOpen(path: String, reason: String)
    case malformedQuote(path: String, line: Int, column: Int)
    case outOfMemory(path: String, line: Int)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason): return "\(path): cannot read file: \(reason)"
        case let .malformedQuote(path, line, column):
            return "\(path):\(line):\(column): malformed quoted field"
        case let .outOfMemory(path, line): return "\(path):\(line): field too large to buffer"
        }
    }
}

/// Streaming CSV reader on libcsv (strict RFC 4180 quoting).
///
/// Memory is bounded by the chunk size plus the longest record, whatever the file
/// size: the file is read in fixed-size chunks and handled one physical line at a
/// time, which is what lets every record carry its line number. A line without
/// any quote character outside a quoted record is split in place (fields trimmed
/// of spaces and tabs, as libcsv does for unquoted fields); every other line goes
/// through libcsv, so quoting keeps libcsv's strict semantics. The file's bytes become
/// text by the import's one rule (`TextFile`: a UTF-8 byte-order mark skipped, UTF-16
/// with its mark converted to UTF-8).
public final class CSVReader {
    public let path: String
    /// What errors call the file (`path` unless given: an archive's entry read from a
    /// temporary file is named as the entry).
    public let name: String
    public let chunkSize: Int
    public let delimiter: UInt8
    /// When set, only these bytes of the file are read, as if they were the whole file
    /// (line numbers count from the range's start), and a line that needs the quoting
    /// parser (a quote or a stray carriage return) throws `CSVReader.NeedsWholeFile`: a
    /// range cut from a file can begin inside a quoted field, so only plain lines can be
    /// read from a range safely.
    public let byteRange: Range<Int>?
    /// The line number of the range's first line. Set (`SubjectIndex` does) when the range
    /// is known to begin at the start of a record: its lines are then numbered as in the
    /// file, and lines that need the quoting parser are read with it.
    public let rangeFirstLine: Int?

    /// Thrown by a reader limited to a byte range on a line that needs the quoting parser.
    public struct NeedsWholeFile: Error {}

    /// The line ends ('\n') read by the last `forEachRecord` that reached the end: the
    /// lines a range holds, so that the next range's lines can be numbered as in the file.
    public private(set) var lineEnds = 0

    public init(path: String, chunkSize: Int = 1 << 20, delimiter: UInt8 = UInt8(ascii: ","),
                byteRange: Range<Int>? = nil, rangeFirstLine: Int? = nil, name: String? = nil) {
        self.path = path
        self.name = name ?? path
        self.chunkSize = chunkSize
        self.delimiter = delimiter
        self.byteRange = byteRange
        self.rangeFirstLine = rangeFirstLine
    }

    /// Splits the file into at most `parts` byte ranges of about equal size, each
    /// beginning at the start of a line, together covering the whole file.
    public static func lineAlignedRanges(path: String, parts: Int) throws -> [Range<Int>] {
        let file = try TextFile.openRegularFile(path)
        defer { fclose(file) }
        let fd = fileno(file)
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw CSVError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        let size = Int(info.st_size)
        var bounds = [0]
        var probe = [UInt8](repeating: 0, count: 1 << 16)
        for k in 1..<max(1, parts) {
            var at = max(size * k / parts, bounds[bounds.count - 1])
            // The cut goes just after the first newline at or beyond the target.
            var found = false
            while at < size && !found {
                let n = probe.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(at)) }
                guard n > 0 else { break }
                if let i = probe[0..<n].firstIndex(of: 0x0A) { at += i + 1; found = true } else { at += n }
            }
            if !found || at >= size { break }
            if at > bounds[bounds.count - 1] { bounds.append(at) }
        }
        bounds.append(size)
        return zip(bounds, bounds.dropFirst()).map { $0..<$1 }
    }

    /// The number of line ends ('\n') in the file's first `bytes` bytes.
    public static func lineCount(path: String, bytes: Int) throws -> Int {
        let file = try TextFile.openRegularFile(path)
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var left = bytes, lines = 0
        while left > 0 {
            let n = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, min($0.count, left), file) }
            guard n > 0 else { break }
            for byte in buffer[0..<n] where byte == 0x0A { lines += 1 }
            left -= n
        }
        return lines
    }

    /// Calls `body` for every record in file order. Empty lines are skipped.
    public func forEachRecord(_ body: (CSVRecord) throws -> Void) throws {
        let separator = delimiter
        try parseRecords { record in
            var record = record
            record.delimiter = separator
            try body(record)
        }
    }

    private func parseRecords(_ body: (CSVRecord) throws -> Void) throws {
        let text = try TextFile(path: path, name: name, byteRange: byteRange)

        var parser = csv_parser()
        guard csv_init(&parser, UInt8(CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL)) == 0 else {
            throw CSVError.outOfMemory(path: name, line: 0)
        }
        defer { csv_free(&parser) }
        csv_set_delim(&parser, delimiter)

        let state = ParseState()
        let context = Unmanaged.passUnretained(state).toOpaque()
        // One spare byte so that a last line without a newline can be NUL-terminated.
        var capacity = max(chunkSize, 1) + 1
        var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        // Field offsets and lengths of the current plain line (grown on demand).
        var fieldCapacity = 64
        var starts = UnsafeMutablePointer<Int>.allocate(capacity: fieldCapacity)
        var lengths = UnsafeMutablePointer<Int>.allocate(capacity: fieldCapacity)
        defer { starts.deallocate(); lengths.deallocate() }
        var start = 0, end = 0, line = rangeFirstLine ?? 1, eof = false

        func drain() throws {
            try state.withRecords { record in try body(record) }
        }

        /// One physical line `buffer[from..<to]`; `to` holds its '\n' (or is the end).
        func handle(_ from: Int, _ to: Int, terminated: Bool) throws {
            let idle = state.fieldCount == 0 && parser.pstate == 0
            var stop = to
            if stop > from, buffer[stop - 1] == 0x0D { stop -= 1 }
            if idle, memchr(buffer + from, 0x22, to - from) == nil, memchr(buffer + from, 0x0D, stop - from) == nil {
                guard stop > from else { return }
                try splitPlain(from, stop, line: line, body)
                return
            }
            if byteRange != nil, rangeFirstLine == nil { throw NeedsWholeFile() }
            if idle { state.recordLine = line }
            let length = to - from + (terminated ? 1 : 0)
            if csv_parse(&parser, buffer + from, length, fieldCallback, rowCallback, context) != length {
                try fail(&parser, state: state, line: line)
            }
            try drain()
        }

        /// Splits a quote-free line in place: delimiters become NULs, fields trimmed.
        func splitPlain(_ from: Int, _ stop: Int, line: Int, _ body: (CSVRecord) throws -> Void) throws {
            var fields = 0
            var fieldStart = from
            var i = from
            while true {
                if i == stop || buffer[i] == delimiter {
                    var a = fieldStart, b = i
                    while a < b, buffer[a] == 0x20 || buffer[a] == 0x09 { a += 1 }
                    while b > a, buffer[b - 1] == 0x20 || buffer[b - 1] == 0x09 { b -= 1 }
                    if fields == fieldCapacity {
                        let newStarts = UnsafeMutablePointer<Int>.allocate(capacity: fieldCapacity * 2)
                        let newLengths = UnsafeMutablePointer<Int>.allocate(capacity: fieldCapacity * 2)
                        newStarts.update(from: starts, count: fields)
                        newLengths.update(from: lengths, count: fields)
                        starts.deallocate(); lengths.deallocate()
                        starts = newStarts; lengths = newLengths
                        fieldCapacity *= 2
                    }
                    starts[fields] = a - from
                    lengths[fields] = b - a
                    fields += 1
                    buffer[b] = 0
                    if i == stop { break }
                    fieldStart = i + 1
                }
                i += 1
            }
            try body(CSVRecord(line: line, base: UnsafePointer(buffer + from),
                               starts: UnsafeBufferPointer(start: starts, count: fields),
                               lengths: UnsafeBufferPointer(start: lengths, count: fields)))
        }

        while true {
            if start < end, let newline = memchr(buffer + start, 0x0A, end - start) {
                let at = UnsafeMutableRawPointer(buffer) .distance(to: newline)
                try handle(start, at, terminated: true)
                start = at + 1
                line += 1
                continue
            }
            if eof {
                if start < end { try handle(start, end, terminated: false) }
                break
            }
            // Keep the partial line, growing the buffer when it fills it, and read on.
            let pending = end - start
            if start > 0 { memmove(buffer, buffer + start, pending) }
            start = 0
            end = pending
            if capacity - 1 - end < max(1, chunkSize / 2) {
                let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
                bigger.update(from: buffer, count: end)
                buffer.deallocate()
                buffer = bigger
                capacity *= 2
            }
            let n = try text.read(into: buffer + end, count: capacity - 1 - end)
            if n == 0 { eof = true }
            end += n
        }
        if state.fieldCount == 0 && parser.pstate == 0 { state.recordLine = line }
        if csv_fini(&parser, fieldCallback, rowCallback, context) != 0 {
            try fail(&parser, state: state, line: state.recordLine)
        }
        try drain()
        lineEnds = line - (rangeFirstLine ?? 1)
    }

    private func fail(_ parser: inout csv_parser, state: ParseState, line: Int) throws -> Never {
        if csv_error(&parser) == CSV_ENOMEM || csv_error(&parser) == CSV_ETOOBIG {
            throw CSVError.outOfMemory(path: name, line: line)
        }
        throw CSVError.malformedQuote(path: name, line: line, column: state.fieldCount + 1)
    }
}

/// Mutable state shared with the C callbacks: completed records of the current
/// segment, stored contiguously until Swift code consumes them.
private final class ParseState {
    var buffer: [UInt8] = []
    var starts: [Int] = []
    var lengths: [Int] = []
    /// Field index where each completed record begins, plus its line.
    var recordFieldStart: [Int] = []
    var recordLines: [Int] = []
    var fieldCount = 0
    var recordLine = 1

    init() {
        buffer.reserveCapacity(1 << 12)
    }

    func appendField(_ data: UnsafeRawPointer?, _ length: Int) {
        if fieldCount == 0 {
            recordFieldStart.append(starts.count)
            recordLines.append(recordLine)
        }
        starts.append(buffer.count)
        lengths.append(length)
        if let data, length > 0 {
            buffer.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
        }
        buffer.append(0)
        fieldCount += 1
    }

    func endRecord() {
        fieldCount = 0
    }

    /// Hands every completed record to `body`, then forgets them. A record still in
    /// progress (quoted field spanning lines) stays buffered.
    func withRecords(_ body: (CSVRecord) throws -> Void) throws {
        let completed = fieldCount == 0 ? recordFieldStart.count : recordFieldStart.count - 1
        guard completed > 0 else { return }
        try buffer.withUnsafeBufferPointer { buf in
            try starts.withUnsafeBufferPointer { s in
                try lengths.withUnsafeBufferPointer { l in
                    for r in 0..<completed {
                        let first = recordFieldStart[r]
                        let end = r + 1 < recordFieldStart.count ? recordFieldStart[r + 1] : starts.count
                        let record = CSVRecord(
                            line: recordLines[r], base: buf.baseAddress!,
                            starts: UnsafeBufferPointer(rebasing: s[first..<end]),
                            lengths: UnsafeBufferPointer(rebasing: l[first..<end]))
                        try body(record)
                    }
                }
            }
        }
        if completed == recordFieldStart.count {
            buffer.removeAll(keepingCapacity: true)
            starts.removeAll(keepingCapacity: true)
            lengths.removeAll(keepingCapacity: true)
            recordFieldStart.removeAll(keepingCapacity: true)
            recordLines.removeAll(keepingCapacity: true)
        } else {
            // Keep the unfinished record, rebased to the buffer's start.
            let first = recordFieldStart[completed]
            let byteStart = starts[first]
            buffer.removeSubrange(0..<byteStart)
            starts = starts[first...].map { $0 - byteStart }
            lengths.removeSubrange(0..<first)
            recordFieldStart = [0]
            recordLines = [recordLines[completed]]
        }
    }
}

private func fieldCallback(_ data: UnsafeMutableRawPointer?, _ length: Int, _ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    Unmanaged<ParseState>.fromOpaque(context).takeUnretainedValue().appendField(data, length)
}

private func rowCallback(_ terminator: Int32, _ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    Unmanaged<ParseState>.fromOpaque(context).takeUnretainedValue().endRecord()
}
