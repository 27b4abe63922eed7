import Dispatch
import Foundation

/// SHA-256 of source files computed on a background queue, so that hashing (a
/// second full read of each file) overlaps parsing instead of adding to it.
final class FileDigests: @unchecked Sendable {
    private let queue = DispatchQueue(label: "resonance.import.sha256")
    private let group = DispatchGroup()
    /// Written only on `queue`, read only after `group` completes.
    private var results: [Int: Result<String, Error>] = [:]

    func start(_ index: Int, path: String) {
        queue.async(group: group) { [self] in
            results[index] = Result { try FileDigests.sha256(path: path) }
        }
    }

    /// Waits for every digest; rethrows the first failure.
    func wait() throws -> [Int: String] {
        group.wait()
        return try queue.sync { try results.mapValues { try $0.get() } }
    }

    static func sha256(path: String) throws -> String {
        guard let handle = fopen(path, "rb") else {
            throw CSVError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        defer { fclose(handle) }
        var hash = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, handle) }
            if n == 0 { break }
            buffer.withUnsafeBytes { hash.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
        return hash.finalizeHex()
    }
}
