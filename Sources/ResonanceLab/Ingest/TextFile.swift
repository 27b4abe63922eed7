import Foundation

/// How a file's bytes become text: the one rule of every text reader of the import (CSV,
/// JSON, JSON Lines, Health Auto Export JSON, Apple Health XML, and format detection),
/// decided by the file's first bytes (docs/import.md, Text encodings):
/// - a UTF-8 byte-order mark (`EF BB BF`) is skipped;
/// - a UTF-16 byte-order mark — `FF FE` little-endian, `FE FF` big-endian, as Excel's
///   "Unicode text" writes — makes the rest UTF-16, converted to UTF-8 as it is read;
/// - the mark of an encoding that is not read (`unreadMarks`: UTF-32, UTF-7, …) is an
///   error naming the file and the encoding found;
/// - without a mark the bytes are read as they are: UTF-8 (an id that is not valid UTF-8
///   is read as Latin-1 where it names a subject, `IdText`).
public enum TextEncoding: String, Sendable {
    case utf8 = "UTF-8"
    case utf8Marked = "UTF-8 with a byte-order mark"
    case utf16LE = "UTF-16 LE"
    case utf16BE = "UTF-16 BE"

    /// Byte-order marks of encodings that are not read, longest first where one begins
    /// another (UTF-32 LE before UTF-16 LE).
    static let unreadMarks: [(mark: [UInt8], name: String)] = [
        ([0xFF, 0xFE, 0x00, 0x00], "UTF-32 LE"), ([0x00, 0x00, 0xFE, 0xFF], "UTF-32 BE"),
        ([0x2B, 0x2F, 0x76, 0x38], "UTF-7"), ([0x2B, 0x2F, 0x76, 0x39], "UTF-7"), ([0x2B, 0x2F, 0x76, 0x2B], "UTF-7"),
        ([0x2B, 0x2F, 0x76, 0x2F], "UTF-7"), ([0xF7, 0x64, 0x4C], "UTF-1"), ([0xDD, 0x73, 0x66, 0x73], "UTF-EBCDIC"),
        ([0x0E, 0xFE, 0xFF], "SCSU"), ([0xFB, 0xEE, 0x28], "BOCU-1"), ([0x84, 0x31, 0x95, 0x33], "GB18030"),
    ]

    /// The encoding the first bytes of a file state and the length of its mark; for the
    /// mark of an encoding not read, its name and mark (`found`).
    static func of(head: ArraySlice<UInt8>) -> (encoding: TextEncoding, markLength: Int, found: String?) {
        for (mark, name) in unreadMarks where head.starts(with: mark) {
            let hex = mark.map { String(format: "%02X", $0) }.joined(separator: " ")
            return (.utf8, 0, "text in \(name) (byte-order mark \(hex)), an encoding the import does not read: "
                + "save it as UTF-8 (or UTF-16)")
        }
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8Marked, 3, nil) }
        if head.starts(with: [0xFF, 0xFE]) { return (.utf16LE, 2, nil) }
        if head.starts(with: [0xFE, 0xFF]) { return (.utf16BE, 2, nil) }
        return (.utf8, 0, nil)
    }
}

/// A file's text as UTF-8 bytes, read in chunks in bounded memory (`TextEncoding` decides
/// how). Only regular files are opened, without blocking. Errors name `name` (the file
/// as the import shows it).
final class TextFile {
    let name: String
    let encoding: TextEncoding
    private let file: UnsafeMutablePointer<FILE>
    /// Bytes of the file still to read (a byte range's, else unlimited).
    private var remaining: Int
    /// UTF-8 bytes converted and not yet handed out (UTF-16 only).
    private var pending: [UInt8] = []
    private var pendingStart = 0
    /// UTF-16: a byte of an unfinished code unit, a high surrogate awaiting its low one,
    /// the bytes read so far and the line ends written (for error messages).
    private var oddByte: UInt8?
    private var highSurrogate: UInt16?
    private var consumed = 0
    private var lines = 1
    private var chunk: [UInt8] = []

    /// Opens `path`; with `byteRange`, only those bytes of it are read (a range of a
    /// UTF-16 file cannot be converted on its own: `CSVReader.NeedsWholeFile`).
    init(path: String, name: String? = nil, byteRange: Range<Int>? = nil) throws {
        self.name = name ?? path
        let file = try TextFile.openRegularFile(path)
        self.file = file
        var head = [UInt8](repeating: 0, count: 4)
        let n = head.withUnsafeMutableBytes { pread(fileno(file), $0.baseAddress, 4, 0) }
        let (encoding, markLength, found) = TextEncoding.of(head: head[0..<max(0, n)])
        if let found {
            fclose(file)
            throw ImportError.unreadableText(path: name ?? path, line: 1, found: found)
        }
        self.encoding = encoding
        let start = max(byteRange?.lowerBound ?? 0, markLength)
        if byteRange != nil, encoding == .utf16LE || encoding == .utf16BE {
            fclose(file)
            throw CSVReader.NeedsWholeFile()
        }
        remaining = byteRange.map { max(0, $0.upperBound - start) } ?? Int.max
        consumed = start
        // Fully initialised here: `deinit` closes the file.
        if start > 0, fseeko(file, off_t(start), SEEK_SET) != 0 {
            throw CSVError.cannotOpen(path: self.name, reason: String(cString: strerror(errno)))
        }
    }

    deinit { fclose(file) }

    /// Opens `path` for reading if it is a regular file. The open does not block (a
    /// FIFO with no writer would wait forever), and anything but a regular file — a
    /// FIFO, a device, a folder — is an error rather than an endless or a blocking read.
    static func openRegularFile(_ path: String) throws -> UnsafeMutablePointer<FILE> {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw CSVError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw CSVError.cannotOpen(path: path, reason: "not a regular file")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        guard let file = fdopen(fd, "rb") else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw CSVError.cannotOpen(path: path, reason: reason)
        }
        return file
    }

    /// Reads up to `count` bytes of text into `buffer`; 0 at the end of the file.
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
        guard count > 0 else { return 0 }
        if encoding == .utf8 || encoding == .utf8Marked {
            let n = fread(buffer, 1, min(count, remaining), file)
            remaining -= n
            return n
        }
        while pendingStart == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
            guard try convertChunk() else { return 0 }
        }
        let n = min(count, pending.count - pendingStart)
        pending.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + pendingStart, count: n) }
        pendingStart += n
        return n
    }

    /// Up to `count` bytes of text; empty at the end of the file.
    func read(upToCount count: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let n = try out.withUnsafeMutableBufferPointer { try read(into: $0.baseAddress!, count: count) }
        out.removeLast(count - n)
        return out
    }

    /// The first `count` bytes of a file's text, for detecting its format; empty when it
    /// cannot be read (the reader then names why).
    static func head(path: String, count: Int = 4096) -> [UInt8] {
        guard let text = try? TextFile(path: path) else { return [] }
        var out: [UInt8] = []
        while out.count < count, let more = try? text.read(upToCount: count - out.count), !more.isEmpty {
            out += more
        }
        return out
    }

    /// Converts the next chunk of UTF-16 to UTF-8 into `pending`; false at the end.
    private func convertChunk() throws -> Bool {
        let size = 1 << 16
        if chunk.count != size { chunk = [UInt8](repeating: 0, count: size) }
        let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, min(size, remaining), file) }
        remaining -= n
        guard n > 0 else {
            if oddByte != nil { throw invalid("an odd number of bytes (the last code unit is cut)") }
            if highSurrogate != nil { throw invalid("a high surrogate without its low one at the end") }
            return false
        }
        let bigEndian = encoding == .utf16BE
        var i = 0
        func unit(_ a: UInt8, _ b: UInt8) -> UInt16 {
            bigEndian ? UInt16(a) << 8 | UInt16(b) : UInt16(b) << 8 | UInt16(a)
        }
        if let odd = oddByte, n > 0 {
            try put(unit(odd, chunk[0]))
            oddByte = nil
            i = 1
            consumed += 1
        }
        while i + 1 < n {
            try put(unit(chunk[i], chunk[i + 1]))
            i += 2
            consumed += 2
        }
        if i < n { oddByte = chunk[i]; consumed += 1 }
        return true
    }

    /// Appends the UTF-8 of one UTF-16 code unit (a surrogate pair's second half completes it).
    private func put(_ u: UInt16) throws {
        if let high = highSurrogate {
            guard (0xDC00...0xDFFF).contains(u) else { throw invalid(String(format: "a high surrogate %04X not followed by a low one", high)) }
            highSurrogate = nil
            let scalar = 0x10000 + (UInt32(high - 0xD800) << 10 | UInt32(u - 0xDC00))
            pending += [UInt8(0xF0 | scalar >> 18), UInt8(0x80 | scalar >> 12 & 0x3F), UInt8(0x80 | scalar >> 6 & 0x3F),
                        UInt8(0x80 | scalar & 0x3F)]
            return
        }
        switch u {
        case 0..<0x80:
            if u == 10 { lines += 1 }
            pending.append(UInt8(u))
        case 0x80..<0x800: pending += [UInt8(0xC0 | u >> 6), UInt8(0x80 | u & 0x3F)]
        case 0xD800...0xDBFF: highSurrogate = u
        case 0xDC00...0xDFFF: throw invalid(String(format: "a low surrogate %04X without its high one", u))
        default: pending += [UInt8(0xE0 | u >> 12), UInt8(0x80 | u >> 6 & 0x3F), UInt8(0x80 | u & 0x3F)]
        }
    }

    private func invalid(_ what: String) -> ImportError {
        .unreadableText(path: name, line: lines, found: "invalid \(encoding.rawValue) (byte-order mark at its start): "
            + "\(what), byte \(consumed) of the file")
    }
}
