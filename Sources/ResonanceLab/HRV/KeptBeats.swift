import Foundation

/// A subject's NN beats, each its time and interval, kept as they pass on their way to one
/// stage for another that reads them after it (`HRVCoherencePass`). The first `held` beats
/// stay in memory; past them, every beat waits in an unnamed temporary file (in the page
/// cache), 16 bytes a beat. A year of beats so costs its file, not the process's memory.
final class KeptBeats {
    private let held: Int
    /// Beats not yet written to the file, time and interval interleaved.
    private var tail: [Double] = []
    private var file: SpillFile?
    /// Beats in the file.
    private var written = 0
    private(set) var count = 0

    /// `held`: beats kept in memory before they move to the file (64 K: 1 MiB).
    init(held: Int = 1 << 16) {
        self.held = max(1, held)
    }

    func append(_ beats: NNSeries) throws {
        for k in 0..<beats.count {
            tail.append(beats.timeMs[k])
            tail.append(beats.nnMs[k])
            count += 1
            if tail.count >= 2 * held { try spill() }
        }
    }

    private func spill() throws {
        let spill = try file ?? SpillFile()
        file = spill
        try spill.write(tail.withUnsafeBytes { Array($0) })
        written += tail.count / 2
        tail.removeAll(keepingCapacity: true)
    }

    /// The beats in order, up to `held` at a time (the file's, then those in memory); nil
    /// after the last.
    struct Reader {
        let beats: KeptBeats
        private var read = 0

        init(_ beats: KeptBeats) { self.beats = beats }

        mutating func next() throws -> (timeMs: [Double], nnMs: [Double])? {
            let pairs: [Double]
            if read < beats.written, let file = beats.file {
                let wanted = min(beats.held, beats.written - read)
                var chunk = [Double](repeating: 0, count: 2 * wanted)
                let bytes = try chunk.withUnsafeMutableBytes { try file.read(at: 16 * read, into: $0) }
                guard bytes == 16 * wanted else {
                    throw OutputError.cannotWrite(path: "a temporary file", reason: "short read")
                }
                pairs = chunk
                read += wanted
            } else if read == beats.written && !beats.tail.isEmpty {
                pairs = beats.tail
                read += beats.tail.count / 2
            } else {
                return nil
            }
            let n = pairs.count / 2
            return ((0..<n).map { pairs[2 * $0] }, (0..<n).map { pairs[2 * $0 + 1] })
        }
    }
}
