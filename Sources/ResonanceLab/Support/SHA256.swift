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
    /// With `jobs` ≥ 2 the digest and `inspect` run side by side on each chunk.
    public static func hex(ofFile path: String, jobs: Int = 1,
                           inspect: (UnsafeRawBufferPointer) -> Void = { _ in }) throws -> String {
        guard let handle = fopen(path, "rb") else {
            throw CSVError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        defer { fclose(handle) }
        var hash = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, handle) }
            if n == 0 { break }
            try buffer.withUnsafeBytes {
                let chunk = UnsafeRawBufferPointer(rebasing: $0[0..<n])
                _ = try Parallel.both(jobs: jobs, { hash.update(chunk) }, { inspect(chunk) })
            }
        }
        return hash.finalizeHex()
    }

    public static func hex(_ text: String) -> String {
        var h = SHA256()
        h.update(Array(text.utf8))
        return h.finalizeHex()
    }
}
