import Foundation

/// Writes one canonical table sorted and free of exact duplicates, in memory bounded
/// by `memoryBudget` whatever the number of rows.
///
/// Rows are encoded CSV lines whose first fields are the subject and a canonical
/// ISO 8601 time, so plain byte order of the lines is subject order, then time
/// order, then the remaining fields: every identical row lands next to its twin.
/// While rows arrive in that order (the usual case: one recording after another)
/// they stream straight into the output file. At the first row out of order the
/// text written so far becomes a sorted run; later rows are sorted in memory-bounded
/// batches spilled as further runs, and `finish()` merges all runs (k-way merge).
final class SortedTableWriter {
    let path: String
    private let header: [String]
    private let memoryBudget: Int
    /// Output while in order; after the first disorder, run 0 being written.
    private var stream: AtomicFile?
    /// Streamed lines not yet handed to `stream` (batched to keep the per-row path
    /// free of calls into the file object).
    private var pending: [UInt8] = []
    private static let pendingLimit = 1 << 20
    private var last: [UInt8] = []
    private var hasLast = false
    /// Rows streamed in order, and rows of the finished table.
    private var streamedRows = 0
    private var rows = 0
    /// Spill state after the first disorder: sorted runs in creation order (run 0
    /// is text while `textRun0`), and a counter naming new run files.
    private var runPaths: [String] = []
    private var textRun0 = false
    private var runsNamed = 1
    /// Runs open at most at once (each holds a read buffer during a merge).
    static let maxRuns = 32
    private var arena: [UInt8] = []
    private var entries: [RunEntry] = []
    /// Exact duplicates dropped, per source file index.
    private(set) var duplicates: [Int32: Int] = [:]
    private var output: AtomicFile?

    init(path: String, header: [String], memoryBudget: Int = 16 << 20) throws {
        self.path = path
        self.header = header
        self.memoryBudget = memoryBudget
        let file = try AtomicFile(path: SortedTableWriter.runPath(for: path, index: 0))
        try file.write(header.joined(separator: ",") + "\n")
        stream = file
    }

    /// A writer that keeps every row in memory and opens no file, for an in-memory
    /// import of small inputs (`ImportSink.inMemory(registry:)`); it is never finished.
    init(inMemory header: [String]) {
        path = ""
        self.header = header
        memoryBudget = .max
    }

    deinit {
        for run in runPaths { unlink(run) }
    }

    /// Adds one encoded row (no line terminator) read from source file `file`.
    func add(_ line: UnsafeBufferPointer<UInt8>, file: Int32) throws {
        if stream != nil {
            let order = hasLast ? SortedTableWriter.compare(line, last) : 1
            if order > 0 {
                pending.append(contentsOf: line)
                pending.append(10)
                streamedRows += 1
                if pending.count >= SortedTableWriter.pendingLimit { try flushPending() }
                last.removeAll(keepingCapacity: true)
                last.append(contentsOf: line)
                hasLast = true
                return
            }
            if order == 0 {
                duplicates[file, default: 0] += 1
                return
            }
            try startSpilling()
        }
        if arena.count + line.count > memoryBudget, !entries.isEmpty { try spill() }
        entries.append(RunEntry(offset: UInt32(arena.count), length: UInt32(line.count), file: file))
        arena.append(contentsOf: line)
    }

    func add(_ line: [UInt8], file: Int32) throws {
        try line.withUnsafeBufferPointer { try add($0, file: file) }
    }

    private func flushPending() throws {
        try stream?.write(pending)
        pending.removeAll(keepingCapacity: true)
    }

    /// Completes the table into a temporary file; `commit()` puts it in place.
    func finish() throws {
        try flushPending()
        if let stream {
            output = stream
            rows = streamedRows
            self.stream = nil
            return
        }
        guard output == nil else { return }
        sortEntries()
        var sources: [RunSource] = []
        for (i, run) in runPaths.enumerated() { sources.append(try FileRun(path: run, text: i == 0 && textRun0)) }
        let out = try AtomicFile(path: path)
        try out.write(header.joined(separator: ",") + "\n")
        var last: [UInt8] = []
        var hasLast = false
        var duplicates = self.duplicates
        var rows = 0
        try arena.withUnsafeBufferPointer { base in
            try RunMerge.merge(sources + [MemoryRun(base: base, entries: entries)]) { line, file in
                if hasLast, SortedTableWriter.compare(line, last) == 0 {
                    duplicates[file, default: 0] += 1
                    return
                }
                try out.append { $0.append(contentsOf: line); $0.append(10) }
                rows += 1
                last.removeAll(keepingCapacity: true)
                last.append(contentsOf: line)
                hasLast = true
            }
        }
        self.duplicates = duplicates
        self.rows = rows
        arena = []
        entries = []
        output = out
    }

    /// Renames the finished table into place; its rows and SHA-256 (hashed as it was
    /// written), which the workspace session records so that it need not read it again.
    @discardableResult
    func commit() throws -> (rows: Int, sha256: String)? {
        guard let output else { return nil }
        try output.commit()
        if output.path != path, rename(output.path, path) != 0 {
            throw OutputError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        self.output = nil
        for run in runPaths { unlink(run) }
        runPaths = []
        return output.sha256.map { (rows, $0) }
    }

    /// Byte order of two encoded lines (negative, zero, positive).
    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(a.count, b.count)
        if common > 0 {
            let c = memcmp(a.baseAddress!, b.baseAddress!, common)
            if c != 0 { return Int(c) }
        }
        return a.count - b.count
    }

    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: [UInt8]) -> Int {
        b.withUnsafeBufferPointer { compare(a, $0) }
    }

    // MARK: - Spilling

    /// The rows streamed so far become run 0 (text, with the header line).
    private func startSpilling() throws {
        try flushPending()
        guard let stream else { return }
        try stream.commit()
        runPaths.append(stream.path)
        textRun0 = true
        self.stream = nil
        hasLast = false
        arena.reserveCapacity(memoryBudget)
    }

    /// Hidden temporary sibling of the table holding run `index`.
    private static func runPath(for path: String, index: Int) -> String {
        let dir = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        return (dir as NSString).appendingPathComponent(".\(name).run\(index).\(getpid()).tmp")
    }

    /// Sorts the in-memory batch by line bytes, then source file (stable for ties).
    private func sortEntries() {
        arena.withUnsafeBufferPointer { base in
            entries.sort { x, y in
                let c = SortedTableWriter.compare(x.bytes(in: base), y.bytes(in: base))
                return c != 0 ? c < 0 : x.file < y.file
            }
        }
    }

    /// Writes the in-memory batch as a sorted binary run (see `FileRun`).
    private func spill() throws {
        let file = try newRun()
        sortEntries()
        try arena.withUnsafeBufferPointer { base in
            for e in entries {
                try file.append { FileRun.appendRecord(e.bytes(in: base), file: e.file, to: &$0) }
            }
        }
        try file.commit()
        runPaths.append(file.path)
        arena.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        if runPaths.count >= SortedTableWriter.maxRuns { try compact() }
    }

    private func newRun() throws -> AtomicFile {
        defer { runsNamed += 1 }
        return try AtomicFile(path: SortedTableWriter.runPath(for: path, index: runsNamed))
    }

    /// Merges the newer half of the runs into one (keeping duplicates and their
    /// source files for the final merge), so the number of open runs stays below
    /// `maxRuns` and each row is rewritten O(log n) times whatever the input size.
    private func compact() throws {
        let keep = runPaths.count - SortedTableWriter.maxRuns / 2
        let merged = try newRun()
        let sources: [RunSource] = try runPaths[keep...].enumerated().map {
            try FileRun(path: $0.element, text: keep + $0.offset == 0 && textRun0)
        }
        try RunMerge.merge(sources) { line, file in
            try merged.append { FileRun.appendRecord(line, file: file, to: &$0) }
        }
        try merged.commit()
        for run in runPaths[keep...] { unlink(run) }
        runPaths = Array(runPaths[..<keep]) + [merged.path]
    }
}
