import Foundation

/// A delimited text file cut into byte ranges of about `bytes` each that begin at the
/// start of a record, so that each can be parsed on its own (`CSVReader` with
/// `byteRange` and `rangeFirstLine`) and the results put back in file order. A cut goes
/// just after the first newline at or past the target that lies outside quotes: one
/// pass follows RFC 4180 quote parity (a doubled quote toggles twice), so a quoted field
/// holding a newline is never cut, whichever range its newline falls in. The pass reads
/// the file in fixed chunks and keeps only the cuts: bounded memory at any size.
///
/// Only UTF-8 text is cut (a UTF-8 byte-order mark stays in the first range, which the
/// reader skips as it does for the whole file); UTF-16 text is converted as a whole
/// (`TextFile`), so such a file — and one whose mark names an encoding that is not
/// read — gives no ranges, and is read in one pass.
public enum RecordRanges {
    /// Bytes per range of a file read in parallel: the reader's chunk, so that the ranges
    /// in flight (two per worker) hold a few MB of decided rows.
    public static let rangeBytes = 1 << 20

    /// The ranges of `path`, in file order, together covering it; nil when the file is not
    /// UTF-8 text. A file under `bytes` gives one range.
    public static func split(path: String, bytes: Int = rangeBytes) throws -> [Range<Int>]? {
        let file = try TextFile.openRegularFile(path)
        defer { fclose(file) }
        var head = [UInt8](repeating: 0, count: 4)
        let headCount = head.withUnsafeMutableBytes { pread(fileno(file), $0.baseAddress, 4, 0) }
        let text = TextEncoding.of(head: head[0..<max(0, headCount)])
        guard text.found == nil, text.encoding == .utf8 || text.encoding == .utf8Marked else { return nil }
        var cutter = Cutter(bytes: bytes)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if n == 0 { break }
            buffer.withUnsafeBytes { cutter.feed(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
        return cutter.ranges()
    }

    /// The quote-parity scan: where the ranges end, fed the file's bytes in order.
    struct Cutter {
        let bytes: Int
        private var cuts = [0]
        private var offset = 0
        private var inQuotes = false
        private var target: Int

        init(bytes: Int) {
            self.bytes = max(1, bytes)
            target = self.bytes
        }

        mutating func feed(_ chunk: UnsafeRawBufferPointer) {
            guard let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            let n = chunk.count
            var i = 0
            while i < n {
                if inQuotes || offset + i < target {
                    // Before the target (or inside quotes) only quotes matter: jump to the next.
                    let stop = inQuotes ? n : min(n, target - offset)
                    guard let quote = memchr(base + i, 0x22, stop - i) else { i = stop; continue }
                    i = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(quote)) + 1
                    inQuotes.toggle()
                    continue
                }
                // Past the target, outside quotes: the next newline ends the range unless
                // a quote opens a field first.
                let j = RecordScanner.nextNewlineOrQuote(base, from: i, count: n)
                if j == n { break }
                if base[j] == 0x22 {
                    inQuotes = true
                } else {
                    cuts.append(offset + j + 1)
                    target = offset + j + 1 + bytes
                }
                i = j + 1
            }
            offset += n
        }

        /// The ranges between the cuts and the end of the bytes fed.
        func ranges() -> [Range<Int>] {
            var bounds = cuts
            if bounds.count > 1, bounds[bounds.count - 1] == offset { bounds.removeLast() }
            bounds.append(offset)
            return zip(bounds, bounds.dropFirst()).map { $0..<$1 }
        }
    }
}
