import Foundation

/// A whole recording's NN intervals and run flags, taken in time order, for the indices of
/// the whole-recording row, which read them in passes (`NNBeats`). The first `held` beats
/// stay in memory; past them, every beat waits in an unnamed temporary file (in the page
/// cache), 8 bytes a beat: the interval, negated for a beat that starts a run (intervals
/// are positive). A year of beats so costs its file, not the process's memory.
final class SpilledBeats: NNBeats {
    private let held: Int
    /// Beats not yet written to the file (all of them while there are at most `held`).
    private var tail: [Double] = []
    private var file: SpillFile?
    /// Beats in the file.
    private var written = 0
    /// Set when a pass could not read the file back; `checkRead()` throws it.
    fileprivate var readError: Error?
    private(set) var count = 0

    /// `held`: beats kept in memory before they move to the file (64 K: 512 KiB).
    init(held: Int = 1 << 16) {
        self.held = max(1, held)
    }

    func append(nnMs: Double, runStart: Bool) throws {
        tail.append(runStart ? -nnMs : nnMs)
        count += 1
        guard tail.count >= held else { return }
        let spill = try file ?? SpillFile()
        file = spill
        try spill.write(tail.withUnsafeBytes { Array($0) })
        written += tail.count
        tail.removeAll(keepingCapacity: true)
    }

    /// Throws when a pass over the beats could not read the file back (so the row read
    /// from them is not to be written).
    func checkRead() throws {
        if let readError { throw readError }
    }

    var intervals: Intervals { Intervals(beats: self) }

    func forEachSuccessivePair(_ body: (Double, Double) -> Void) {
        var previous = 0.0, first = true
        for stored in Stored(beats: self) {
            let nn = abs(stored)
            if !first, stored > 0 { body(previous, nn) }
            previous = nn
            first = false
        }
    }

    /// The intervals, ms, in order.
    struct Intervals: Sequence {
        let beats: SpilledBeats
        func makeIterator() -> Iterator { Iterator(stored: Stored(beats: beats).makeIterator()) }

        struct Iterator: IteratorProtocol {
            var stored: Stored.Iterator
            mutating func next() -> Double? { stored.next().map(abs) }
        }
    }

    /// The values as stored (a run's first beat negated), file then memory.
    struct Stored: Sequence {
        let beats: SpilledBeats

        func makeIterator() -> Iterator { Iterator(beats: beats) }

        struct Iterator: IteratorProtocol {
            let beats: SpilledBeats
            /// Values read from the file and not yet handed over, and where the next read starts.
            private var chunk: [Double] = [], position = 0, readBeats = 0
            private var inTail = false

            init(beats: SpilledBeats) {
                self.beats = beats
                inTail = beats.file == nil
            }

            mutating func next() -> Double? {
                if position < chunk.count {
                    defer { position += 1 }
                    return chunk[position]
                }
                if inTail {
                    guard readBeats < beats.tail.count else { return nil }
                    defer { readBeats += 1 }
                    return beats.tail[readBeats]
                }
                let wanted = Swift.min(1 << 16, beats.written - readBeats)
                guard wanted > 0, let file = beats.file else {
                    inTail = true
                    readBeats = 0
                    chunk = []
                    return next()
                }
                if chunk.count != wanted { chunk = [Double](repeating: 0, count: wanted) }
                do {
                    let bytes = try chunk.withUnsafeMutableBytes { try file.read(at: 8 * readBeats, into: $0) }
                    guard bytes == 8 * wanted else {
                        throw OutputError.cannotWrite(path: "a temporary file", reason: "short read")
                    }
                } catch {
                    beats.readError = error
                    return nil
                }
                readBeats += wanted
                position = 1
                return chunk[0]
            }
        }
    }
}
