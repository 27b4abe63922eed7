import CLibZ
import Foundation

/// A zip archive read in place: its central directory, and one entry decompressed
/// with zlib into a file descriptor in 64 KiB chunks. Layout from PKWARE's
/// APPNOTE.TXT 6.3.10: end of central directory record (§4.3.16), zip64 end record
/// and locator (§4.3.14–4.3.15), central directory header (§4.3.12), local file
/// header (§4.3.7), zip64 extended information field (§4.5.3). Deflate (method 8)
/// is a raw RFC 1951 stream, inflated by zlib with `windowBits` −15; stored
/// (method 0) entries are copied.
///
/// Every loop makes progress or stops: directory records advance by their own
/// length inside the directory's bounds, and decompression stops with an error on a
/// corrupt stream, on compressed bytes that run out before the stream ends, on
/// output beyond the declared size, and on a CRC-32 that differs from the archive's.
final class ZipArchive {
    struct Entry {
        /// The name as stored (UTF-8; the names read here are ASCII).
        let path: String
        /// 0 stored, 8 deflate.
        let method: UInt64
        /// General purpose flags; bit 0 marks an encrypted entry.
        let flags: UInt64
        let crc32: UInt32
        let compressedSize: UInt64
        let uncompressedSize: UInt64
        /// Offset of the entry's local file header in the archive, bytes.
        let localHeaderOffset: UInt64

        var isDirectory: Bool { path.hasSuffix("/") }
    }

    /// Bytes read and written at a time while decompressing.
    static let chunkBytes = 1 << 16

    let path: String
    private(set) var entries: [Entry] = []
    private let fd: Int32
    /// The archive's size in bytes.
    private let size: UInt64

    /// Opens the archive and reads its central directory; throws when `path` cannot
    /// be read or is not a zip archive.
    init(path: String) throws {
        self.path = path
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CSVError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw CSVError.cannotOpen(path: path, reason: "not a regular file")
        }
        size = UInt64(info.st_size)
        do {
            entries = try readDirectory()
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    private func notZip(_ reason: String) -> CSVError {
        .cannotOpen(path: path, reason: "not a readable zip archive (\(reason))")
    }

    /// `count` bytes at `offset`, or nil when the archive ends before them.
    private func bytes(at offset: UInt64, _ count: Int) -> [UInt8]? {
        guard count >= 0, offset <= size, UInt64(count) <= size - offset else { return nil }
        var out = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            done += n
        }
        return out
    }

    private func readDirectory() throws -> [Entry] {
        // The end record (22 bytes) closes the archive, followed by a comment of at most 65535 bytes.
        let tailCount = Int(min(size, 22 + 0xFFFF))
        guard let tail = bytes(at: size - UInt64(tailCount), tailCount) else { throw notZip("cannot read its end") }
        var end = tailCount - 22
        while end >= 0, tail.u32(end) != 0x0605_4B50 { end -= 1 }
        guard end >= 0 else { throw notZip("no end of central directory record") }
        var count = tail.u16(end + 10), dirSize = tail.u32(end + 12), dirOffset = tail.u32(end + 16)
        if count == 0xFFFF || dirSize == 0xFFFF_FFFF || dirOffset == 0xFFFF_FFFF {
            let locatorAt = size - UInt64(tailCount - end)
            guard locatorAt >= 20, let locator = bytes(at: locatorAt - 20, 20), locator.u32(0) == 0x0706_4B50,
                  let end64 = bytes(at: locator.u64(8), 56), end64.u32(0) == 0x0606_4B50
            else { throw notZip("no zip64 end of central directory record") }
            count = end64.u64(32)
            dirSize = end64.u64(40)
            dirOffset = end64.u64(48)
        }
        guard dirSize <= size, dirOffset <= size - dirSize, let directory = bytes(at: dirOffset, Int(dirSize))
        else { throw notZip("the central directory lies outside the file") }

        var entries: [Entry] = []
        var at = 0
        while UInt64(entries.count) < count {
            guard at + 46 <= directory.count, directory.u32(at) == 0x0201_4B50 else {
                throw notZip("central directory record \(entries.count + 1) of \(count) is damaged")
            }
            let nameLength = Int(directory.u16(at + 28)), extraLength = Int(directory.u16(at + 30))
            let next = at + 46 + nameLength + extraLength + Int(directory.u16(at + 32))
            guard next <= directory.count else { throw notZip("central directory record \(entries.count + 1) of \(count) is damaged") }
            var uncompressed = directory.u32(at + 24), compressed = directory.u32(at + 20), offset = directory.u32(at + 42)
            // Zip64: the 64-bit values of the fields set to 0xFFFFFFFF, in this order.
            var extra = at + 46 + nameLength
            let extraEnd = extra + extraLength
            while extra + 4 <= extraEnd {
                let id = directory.u16(extra), length = Int(directory.u16(extra + 2))
                guard extra + 4 + length <= extraEnd else { break }
                if id == 0x0001 {
                    var field = extra + 4
                    if uncompressed == 0xFFFF_FFFF, field + 8 <= extra + 4 + length { uncompressed = directory.u64(field); field += 8 }
                    if compressed == 0xFFFF_FFFF, field + 8 <= extra + 4 + length { compressed = directory.u64(field); field += 8 }
                    if offset == 0xFFFF_FFFF, field + 8 <= extra + 4 + length { offset = directory.u64(field) }
                }
                extra += 4 + length
            }
            let name = String(decoding: directory[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
            entries.append(Entry(path: name, method: directory.u16(at + 10), flags: directory.u16(at + 8),
                                 crc32: UInt32(directory.u32(at + 16)), compressedSize: compressed,
                                 uncompressedSize: uncompressed, localHeaderOffset: offset))
            at = next
        }
        return entries
    }

    /// Decompresses `entry` into `out` (a descriptor open for writing), checking its
    /// size and CRC-32. Errors are one line naming the archive and the entry.
    func extract(_ entry: Entry, to out: Int32) throws {
        func failure(_ message: String) -> ImportError {
            .badMetadata(path: path, line: 0, column: 0, message: "cannot decompress \(entry.path): \(message)")
        }
        guard entry.flags & 1 == 0 else { throw failure("the entry is encrypted") }
        guard entry.method == 0 || entry.method == 8 else {
            throw failure("compression method \(entry.method) (only stored and deflate are read)")
        }
        // The data follows the local header: 30 bytes, the name and the extra field.
        guard let header = bytes(at: entry.localHeaderOffset, 30), header.u32(0) == 0x0403_4B50 else {
            throw failure("no local file header at byte \(entry.localHeaderOffset)")
        }
        let dataOffset = entry.localHeaderOffset + 30 + header.u16(26) + header.u16(28)
        guard dataOffset <= size, entry.compressedSize <= size - dataOffset else {
            throw failure("its \(entry.compressedSize) compressed bytes from byte \(dataOffset) run past the end of the archive (\(size) bytes)")
        }

        let input = UnsafeMutablePointer<UInt8>.allocate(capacity: ZipArchive.chunkBytes)
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: ZipArchive.chunkBytes)
        defer { input.deallocate(); output.deallocate() }
        var readAt = dataOffset
        var remaining = entry.compressedSize
        var written: UInt64 = 0
        var crc = UInt(0)

        /// Reads the next compressed chunk into `input`; its length (0 when the entry's bytes are all read).
        func refill() throws -> Int {
            let want = Int(min(UInt64(ZipArchive.chunkBytes), remaining))
            guard want > 0 else { return 0 }
            var n: Int
            repeat { n = pread(fd, input, want, off_t(readAt)) } while n < 0 && errno == EINTR
            guard n > 0 else { throw failure(n < 0 ? String(cString: strerror(errno)) : "the archive ends at byte \(readAt)") }
            readAt += UInt64(n)
            remaining -= UInt64(n)
            return n
        }
        /// Checks, sums and writes `count` decompressed bytes of `output`.
        func emit(_ count: Int) throws {
            written += UInt64(count)
            guard written <= entry.uncompressedSize else {
                throw failure("it holds more than the \(entry.uncompressedSize) bytes the archive declares")
            }
            crc = CLibZ.crc32(crc, output, UInt32(count))
            var done = 0
            while done < count {
                let n = write(out, output + done, count - done)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { throw failure("cannot write the decompressed entry: \(String(cString: strerror(errno)))") }
                done += n
            }
        }

        if entry.method == 0 {
            guard entry.compressedSize == entry.uncompressedSize else {
                throw failure("a stored entry of \(entry.compressedSize) bytes declares \(entry.uncompressedSize) bytes")
            }
            while remaining > 0 {
                let n = try refill()
                output.update(from: input, count: n)
                try emit(n)
            }
        } else {
            var stream = z_stream()
            guard inflateInit2_(&stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                throw failure("zlib cannot start inflating (out of memory)")
            }
            defer { inflateEnd(&stream) }
            inflating: while true {
                if stream.avail_in == 0 {
                    stream.next_in = input
                    stream.avail_in = UInt32(try refill())
                }
                stream.next_out = output
                stream.avail_out = UInt32(ZipArchive.chunkBytes)
                let inBefore = stream.total_in
                let status = inflate(&stream, Z_NO_FLUSH)
                let produced = ZipArchive.chunkBytes - Int(stream.avail_out)
                if produced > 0 { try emit(produced) }
                let progressed = produced > 0 || stream.total_in != inBefore
                switch status {
                case Z_STREAM_END:
                    break inflating
                case Z_OK where progressed:
                    continue
                case Z_BUF_ERROR where stream.avail_in == 0 && remaining == 0, Z_OK where stream.avail_in == 0 && remaining == 0:
                    throw failure("the compressed data (\(entry.compressedSize) bytes) ends before the deflate stream does")
                case Z_MEM_ERROR:
                    throw failure("out of memory")
                default:
                    let reason = stream.msg.map { " (\(String(cString: $0)))" } ?? ""
                    throw failure("corrupt deflate stream at byte \(dataOffset + UInt64(stream.total_in)) of the archive\(reason)")
                }
            }
        }
        guard written == entry.uncompressedSize else {
            throw failure("it holds \(written) bytes, the archive declares \(entry.uncompressedSize)")
        }
        guard UInt32(crc) == entry.crc32 else {
            throw failure("CRC-32 \(hex(UInt32(crc))) differs from the archive's \(hex(entry.crc32))")
        }
    }
}

private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}

/// Little-endian integers of a zip record.
private extension Array where Element == UInt8 {
    func u16(_ at: Int) -> UInt64 { UInt64(self[at]) | UInt64(self[at + 1]) << 8 }
    func u32(_ at: Int) -> UInt64 { u16(at) | u16(at + 2) << 16 }
    func u64(_ at: Int) -> UInt64 { u32(at) | u32(at + 4) << 32 }
}
