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
        tempPath = path + ".\(getpid()).tmp"
        guard let h = fopen(tempPath, "wb") else {
            throw OutputError.cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        handle = h
        buffer.reserveCapacity(AtomicFile.flushThreshold + 4096)
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
        let written = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, handle) }
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
        guard fflush(h) == 0, fclose(h) == 0 else {
            unlink(tempPath)
            throw OutputError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        guard rename(tempPath, path) == 0 else {
            unlink(tempPath)
            throw OutputError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Writes a whole text file atomically.
    public static func write(_ text: String, to path: String) throws {
        let file = try AtomicFile(path: path)
        try file.write(text)
        try file.commit()
    }
}
