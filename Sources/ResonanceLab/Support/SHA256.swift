import CCrypto
import Foundation

/// SHA-256 (FIPS 180-4) by OpenSSL's libcrypto, for the manifest's file digests and constants digests.
public struct SHA256 {
    /// OpenSSL's context: a value, so copying a `SHA256` copies the running digest.
    private var context = SHA256_CTX()

    public init() {
        SHA256_Init(&context)
    }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        SHA256_Update(&context, base, bytes.count)
    }

    public mutating func update<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        let array = Array(bytes)
        array.withUnsafeBytes { update($0) }
    }

    /// Lower-case hex digest.
    public mutating func finalizeHex() -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        SHA256_Final(&digest, &context)
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(2 * digest.count)
        for byte in digest { out.append(hex[Int(byte >> 4)]); out.append(hex[Int(byte & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Digest of a file's bytes, read in 1 MiB chunks; `inspect` sees each chunk too.
    /// With `jobs` ≥ 2 the digest runs on a thread of its own while `inspect` reads each
    /// chunk on the caller's: a thread, not a parallel loop, because a parallel loop nested
    /// in another (a stage indexing two tables at once) runs on one thread.
    public static func hex(ofFile path: String, jobs: Int = 1,
                           inspect: (UnsafeRawBufferPointer) -> Void = { _ in }) throws -> String {
        guard let handle = fopen(path, "rb") else {
            throw CSVError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        defer { fclose(handle) }
        let chunkBytes = 1 << 20
        guard jobs >= 2 else {
            var hash = SHA256()
            var buffer = [UInt8](repeating: 0, count: chunkBytes)
            while true {
                let n = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, handle) }
                if n == 0 { break }
                buffer.withUnsafeBytes {
                    let chunk = UnsafeRawBufferPointer(rebasing: $0[0..<n])
                    hash.update(chunk)
                    inspect(chunk)
                }
            }
            return hash.finalizeHex()
        }
        // Two buffers: one is read into and inspected while the other's digest may still run;
        // a buffer's semaphore is signalled when its chunk is digested.
        let buffers = (0..<2).map { _ in UnsafeMutableRawBufferPointer.allocate(byteCount: chunkBytes, alignment: 64) }
        let free = [DispatchSemaphore(value: 1), DispatchSemaphore(value: 1)]
        let digest = DigestThread()
        defer { for b in buffers { b.deallocate() } }
        var k = 0
        while true {
            let b = k % 2
            free[b].wait()
            let n = fread(buffers[b].baseAddress, 1, chunkBytes, handle)
            if n == 0 { free[b].signal(); break }
            let chunk = UnsafeRawBufferPointer(rebasing: buffers[b][0..<n])
            digest.update(chunk, then: free[b])
            inspect(chunk)
            k += 1
        }
        return digest.finalizeHex()
    }

    public static func hex(_ text: String) -> String {
        var h = SHA256()
        h.update(Array(text.utf8))
        return h.finalizeHex()
    }
}

/// A running SHA-256 fed on a serial queue of its own, chunk after chunk in the order given.
private final class DigestThread: @unchecked Sendable {
    private var hash = SHA256()
    private let queue = DispatchQueue(label: "resonance.sha256")

    /// Digests `chunk` after every chunk given before, then signals `done`; the caller keeps
    /// the chunk's bytes unchanged until then.
    func update(_ chunk: UnsafeRawBufferPointer, then done: DispatchSemaphore) {
        nonisolated(unsafe) let bytes = chunk  // read-only here and by the caller until `done`
        queue.async { self.hash.update(bytes); done.signal() }
    }

    /// The digest, once every chunk given is digested.
    func finalizeHex() -> String {
        queue.sync { hash.finalizeHex() }
    }
}
