import Foundation

/// An unnamed temporary file (`tmpfile(3)`, in `TMPDIR` or /tmp) that holds bytes until
/// they are read back once, in order; the system removes it when it is closed, even
/// after a crash. Encoded rows waiting for their turn to be written wait here, in the page
/// cache, rather than in the process's memory.
final class SpillFile: @unchecked Sendable {
    private let handle: UnsafeMutablePointer<FILE>

    init() throws {
        guard let handle = tmpfile() else {
            throw OutputError.cannotCreate(path: "a temporary file", reason: String(cString: strerror(errno)))
        }
        self.handle = handle
    }

    deinit { fclose(handle) }

    func write(_ bytes: [UInt8]) throws {
        let n = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, handle) }
        guard n == bytes.count else {
            throw OutputError.cannotWrite(path: "a temporary file", reason: String(cString: strerror(errno)))
        }
    }

    /// Reads up to `buffer.count` bytes written, from byte `offset` on, into `buffer`,
    /// without moving the position writes continue from; returns the bytes read.
    func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard fflush(handle) == 0 else {
            throw OutputError.cannotWrite(path: "a temporary file", reason: String(cString: strerror(errno)))
        }
        let n = pread(fileno(handle), buffer.baseAddress, buffer.count, off_t(offset))
        guard n >= 0 else { throw OutputError.cannotWrite(path: "a temporary file", reason: String(cString: strerror(errno))) }
        return n
    }

    /// Reads everything written, from the start, in chunks of 1 MiB.
    func forEachChunk(_ body: ([UInt8]) throws -> Void) throws {
        guard fflush(handle) == 0, fseek(handle, 0, SEEK_SET) == 0 else {
            throw OutputError.cannotWrite(path: "a temporary file", reason: String(cString: strerror(errno)))
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, handle) }
            if n == 0 { break }
            try body(n == buffer.count ? buffer : Array(buffer[0..<n]))
        }
        guard ferror(handle) == 0 else {
            throw OutputError.cannotWrite(path: "a temporary file", reason: "read error")
        }
    }
}
