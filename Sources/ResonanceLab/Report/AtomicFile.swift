import Foundation

/// Errors writing outputs; each names the file.
public enum OutputError: Error, CustomStringConvertible {
    case cannotCreate(path: String, reason: String)
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case let .cannotCreate(path, reason): return "\(path): cannot create: \(reason)"
        case let .cannotWrite(path, reason): return "\(path): cannot write: \(reason)"
        }
    }
}

/// A file written to a temporary sibling and renamed into place on `commit()`, so
/// that readers never see a partial output and an interrupted run leaves none.
/// Dropping the writer without committing removes the temporary file.
public final class AtomicFile {
    public let path: String
    private let tempPath: String
    private var handle: UnsafeMutablePointer<FILE>?
    private var buffer: [UInt8] = []
    private static let flushThreshold = 1 << 20
    /// SHA-256 of every byte written so far, hashed as it goes out.
    private var hash = SHA256()
    /// The file's SHA-256 (hex), set by `commit()`: a workspace records it in its
    /// manifest without reading the file again.
    public private(set) var sha256: String?

    public init(path: String) throws {
        self.path = path
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            } catch {
                throw OutputError.cannotCreate(path: dir, reason: "\(error.localizedDescription)")
            }
        }
        (tempPath, handle) = try AtomicFile.createTemporary(for: path)
        buffer.reserveCapacity(AtomicFile.flushThreshold + 4096)
    }

    /// Creates the temporary sibling `NAME.PID.tmp` (or `NAME.PID-K.tmp` when that
    /// name is taken) with exclusive create and mode 0600: an existing file or a
    /// planted symlink at that path is never opened, so nothing outside the output
    /// folder can be overwritten through it. The process id in the name is what
    /// `TemporaryFiles.removeLeftovers` uses to tell a killed run's file from a live one.
    /// Returns its path and a write-only descriptor.
    static func createTemporaryDescriptor(for path: String) throws -> (path: String, fd: Int32) {
        for attempt in 0..<100 {
            let candidate = path + (attempt == 0 ? ".\(getpid()).tmp" : ".\(getpid())-\(attempt).tmp")
            let fd = open(candidate, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if fd >= 0 { return (candidate, fd) }
            if errno != EEXIST { throw OutputError.cannotCreate(path: path, reason: String(cString: strerror(errno))) }
        }
        throw OutputError.cannotCreate(path: path, reason: "every temporary name beside it is taken")
    }

    /// `createTemporaryDescriptor`, as a buffered stream.
    private static func createTemporary(for path: String) throws -> (String, UnsafeMutablePointer<FILE>) {
        let (candidate, fd) = try createTemporaryDescriptor(for: path)
        guard let handle = fdopen(fd, "wb") else {
            let reason = String(cString: strerror(errno))
            close(fd)
            unlink(candidate)
            throw OutputError.cannotCreate(path: path, reason: reason)
        }
        return (candidate, handle)
    }

    deinit {
        if let handle {
            fclose(handle)
            unlink(tempPath)
        }
    }

    public func write(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= AtomicFile.flushThreshold { try flush() }
    }

    public func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= AtomicFile.flushThreshold { try flush() }
    }

    /// Appends bytes through a closure that writes into the pending buffer directly.
    public func append(_ body: (inout [UInt8]) -> Void) throws {
        body(&buffer)
        if buffer.count >= AtomicFile.flushThreshold { try flush() }
    }

    private func flush() throws {
        guard let handle, !buffer.isEmpty else { return }
        let written = buffer.withUnsafeBytes { bytes in
            hash.update(bytes)
            return fwrite(bytes.baseAddress, 1, bytes.count, handle)
        }
        guard written == buffer.count else {
            throw OutputError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, closes and renames the temporary file over `path`.
    public func commit() throws {
        try flush()
        guard let h = handle else { return }
        handle = nil
        // Created 0600; the finished output gets the usual 0644 (less the umask).
        guard fflush(h) == 0, fchmod(fileno(h), 0o644 & ~AtomicFile.umaskBits) == 0, fclose(h) == 0 else {
            unlink(tempPath)
            throw OutputError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        guard rename(tempPath, path) == 0 else {
            unlink(tempPath)
            throw OutputError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        sha256 = hash.finalizeHex()
    }

    /// The process's file mode creation mask, read from `/proc/self/status` (reading
    /// it with `umask(2)` would change it for every thread); 022 when unavailable.
    private static let umaskBits: mode_t = {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
              let value = mode_t(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) else { return 0o022 }
        return value
    }()

    /// Writes a whole text file atomically.
    public static func write(_ text: String, to path: String) throws {
        let file = try AtomicFile(path: path)
        try file.write(text)
        try file.commit()
    }
}
