import Foundation

/// One in-memory row of a `SortedTableWriter` batch: a slice of its byte arena.
struct RunEntry {
    var offset: UInt32
    var length: UInt32
    /// Index of the source file the row came from (for duplicate accounting).
    var file: Int32

    func bytes(in base: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: base[Int(offset)..<Int(offset + length)])
    }
}

/// A sorted sequence of encoded lines feeding a merge.
protocol RunSource: AnyObject {
    /// Advances to the next line; false at the end.
    func next() throws -> Bool
    var line: UnsafeBufferPointer<UInt8> { get }
    var file: Int32 { get }
}

/// A sorted batch still in memory; `base` must outlive the merge.
final class MemoryRun: RunSource {
    private let base: UnsafeBufferPointer<UInt8>
    private let entries: [RunEntry]
    private var index = -1

    init(base: UnsafeBufferPointer<UInt8>, entries: [RunEntry]) {
        self.base = base
        self.entries = entries
    }

    func next() throws -> Bool {
        index += 1
        return index < entries.count
    }

    var line: UnsafeBufferPointer<UInt8> { entries[index].bytes(in: base) }
    var file: Int32 { entries[index].file }
}

/// A run spilled to disk, read back through a fixed-size buffer. Text runs are CSV
/// lines after one header line (run 0, written while rows were still in order);
/// binary runs are records `UInt32 length, Int32 file, bytes`.
final class FileRun: RunSource {
    private let path: String
    private let text: Bool
    private let handle: UnsafeMutablePointer<FILE>
    private var buffer: UnsafeMutableBufferPointer<UInt8>
    private var start = 0
    private var end = 0
    private var eof = false
    private var current = 0..<0
    private(set) var file: Int32 = -1

    init(path: String, text: Bool, bufferSize: Int = 1 << 18) throws {
        guard let handle = fopen(path, "rb") else {
            throw CSVError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        self.path = path
        self.text = text
        self.handle = handle
        buffer = .allocate(capacity: bufferSize)
        if text { _ = try next() }
    }

    deinit {
        fclose(handle)
        buffer.deallocate()
    }

    static func appendRecord(_ line: UnsafeBufferPointer<UInt8>, file: Int32, to buf: inout [UInt8]) {
        withUnsafeBytes(of: UInt32(line.count).littleEndian) { buf.append(contentsOf: $0) }
        withUnsafeBytes(of: file.littleEndian) { buf.append(contentsOf: $0) }
        buf.append(contentsOf: line)
    }

    var line: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: buffer[current]) }

    func next() throws -> Bool {
        text ? try nextText() : try nextBinary()
    }

    /// Next CSV line; a line break inside a quoted field does not end it.
    private func nextText() throws -> Bool {
        var offset = 0
        var quoted = false
        while true {
            if start + offset == end {
                guard try refill() else {
                    if offset == 0 { return false }
                    break
                }
            }
            let c = buffer[start + offset]
            if c == 34 { quoted.toggle() } else if c == 10, !quoted { break }
            offset += 1
        }
        current = start..<(start + offset)
        start = min(start + offset + 1, end)
        return true
    }

    private func nextBinary() throws -> Bool {
        guard try ensure(8) else { return false }
        let raw = UnsafeRawPointer(buffer.baseAddress! + start)
        let length = Int(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
        file = Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 4, as: Int32.self))
        guard try ensure(8 + length) else {
            throw OutputError.cannotWrite(path: path, reason: "truncated temporary run")
        }
        current = (start + 8)..<(start + 8 + length)
        start += 8 + length
        return true
    }

    /// Makes `count` bytes available from `start`; false at a clean end of file.
    private func ensure(_ count: Int) throws -> Bool {
        while end - start < count {
            guard try refill() else {
                if end == start { return false }
                throw OutputError.cannotWrite(path: path, reason: "truncated temporary run")
            }
        }
        return true
    }

    /// Moves the unread bytes to the front (doubling the buffer for an over-long
    /// line) and reads more; false at end of file.
    private func refill() throws -> Bool {
        guard !eof else { return false }
        let pending = end - start
        if start > 0 {
            memmove(buffer.baseAddress!, buffer.baseAddress! + start, pending)
            end = pending
            start = 0
        }
        if end == buffer.count {
            let bigger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: buffer.count * 2)
            memcpy(bigger.baseAddress!, buffer.baseAddress!, end)
            buffer.deallocate()
            buffer = bigger
        }
        let n = fread(buffer.baseAddress! + end, 1, buffer.count - end, handle)
        if n == 0 { eof = true; return false }
        end += n
        return true
    }
}

/// k-way merge of sorted runs by line bytes; among equal lines the earlier run comes
/// first, so the first copy kept is always the earliest.
enum RunMerge {
    static func merge(_ runs: [RunSource], _ body: (UnsafeBufferPointer<UInt8>, Int32) throws -> Void) throws {
        var heap: [Int] = []
        for (i, run) in runs.enumerated() where try run.next() { heap.append(i) }
        func less(_ a: Int, _ b: Int) -> Bool {
            let c = SortedTableWriter.compare(runs[a].line, runs[b].line)
            return c != 0 ? c < 0 : a < b
        }
        func siftDown(_ from: Int) {
            var i = from
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < heap.count, less(heap[l], heap[m]) { m = l }
                if r < heap.count, less(heap[r], heap[m]) { m = r }
                if m == i { return }
                heap.swapAt(i, m)
                i = m
            }
        }
        for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
        while let top = heap.first {
            try body(runs[top].line, runs[top].file)
            if try runs[top].next() {
                siftDown(0)
            } else {
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
                if !heap.isEmpty { siftDown(0) }
            }
        }
    }
}
