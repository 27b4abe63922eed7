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
            results[index] = Result { try SHA256.hex(ofFile: path) }
        }
    }

    /// Waits for every digest; rethrows the failure of the first file in import order.
    func wait() throws -> [Int: String] {
        group.wait()
        return try queue.sync {
            var out: [Int: String] = [:]
            for (index, result) in results.sorted(by: { $0.key < $1.key }) { out[index] = try result.get() }
            return out
        }
    }
}
