/// Time span of each file's series per table and subject, to catch two sources
/// that would interleave their beats or samples under one subject (e.g. two
/// participants' files in one folder, both named after the folder).
///
/// Merge rule: overlapping spans are allowed when every row one of the two files
/// put in that table is an exact duplicate of a row already there (the same
/// export copied from two devices or folders); anything else is an error naming
/// both files.
struct SeriesSpans {
    struct Key: Hashable {
        var table: ObjectIdentifier
        var subject: Int
        var file: Int32
    }

    struct Span {
        var firstMs: Int64
        var lastMs: Int64
        var rows: Int
    }

    private var spans: [Key: Span] = [:]
    /// The span being extended (rows arrive in runs of one key), stored on change.
    private var current: (key: Key, span: Span)?

    mutating func add(table: ObjectIdentifier, subject: Int, file: Int32, ms: Int64) {
        if var c = current, c.key.table == table, c.key.subject == subject, c.key.file == file {
            c.span.firstMs = min(c.span.firstMs, ms)
            c.span.lastMs = max(c.span.lastMs, ms)
            c.span.rows += 1
            current = c
            return
        }
        store()
        let key = Key(table: table, subject: subject, file: file)
        current = (key, spans.removeValue(forKey: key) ?? Span(firstMs: ms, lastMs: ms, rows: 0))
        add(table: table, subject: subject, file: file, ms: ms)
    }

    private mutating func store() {
        if let c = current { spans[c.key] = c.span }
    }

    /// The first pair of files (in import order) whose spans for one subject in
    /// `table` overlap, unless one of them is made only of exact duplicates
    /// (`duplicates`: rows dropped per file in that table).
    mutating func firstOverlap(table: ObjectIdentifier, duplicates: [Int32: Int]) -> (subject: Int, first: Int32, second: Int32)? {
        store()
        current = nil
        var rowsPerFile: [Int32: Int] = [:]
        var bySubject: [Int: [(file: Int32, span: Span)]] = [:]
        for (key, span) in spans where key.table == table {
            rowsPerFile[key.file, default: 0] += span.rows
            bySubject[key.subject, default: []].append((key.file, span))
        }
        func onlyDuplicates(_ file: Int32) -> Bool { duplicates[file, default: 0] >= rowsPerFile[file, default: 0] }
        var clashes: [(subject: Int, first: Int32, second: Int32)] = []
        for (subject, list) in bySubject {
            let sorted = list.sorted { $0.file < $1.file }
            for j in sorted.indices {
                for i in sorted.indices where i < j {
                    let a = sorted[i], b = sorted[j]
                    guard a.span.firstMs < b.span.lastMs, b.span.firstMs < a.span.lastMs else { continue }
                    if onlyDuplicates(a.file) || onlyDuplicates(b.file) { continue }
                    clashes.append((subject, a.file, b.file))
                }
            }
        }
        return clashes.min { ($0.second, $0.first) < ($1.second, $1.first) }
    }
}
