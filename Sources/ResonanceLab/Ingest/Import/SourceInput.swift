/// One source file as an adapter sees it: where it is, how the manifest names it,
/// the default subject (and group) its rows belong to, and how to read naive times.
struct SourceInput {
    var path: String
    /// Path recorded in the manifest and `rejects.csv` (see `PlannedFile`).
    var display: String
    var subject: String
    var group: String?
    var file: Int32
    var times: TimeFieldParser

    /// Reads the file: the first `headerLines` records (a header, metadata lines)
    /// go to `header` with their 0-based index, every later record to `body`.
    /// Returns the number of data rows.
    func forEachRow(headerLines: Int = 0, header: (CSVRecord, Int) throws -> Void = { _, _ in },
                    _ body: (CSVRecord) throws -> Void) throws -> Int {
        var seen = 0
        try CSVReader(path: path).forEachRecord { record in
            seen += 1
            if seen <= headerLines { return try header(record, seen - 1) }
            try body(record)
        }
        return max(0, seen - headerLines)
    }
}

/// A format adapter: reads one source file into the sink.
protocol FormatAdapter {
    static func read(_ input: SourceInput, into sink: ImportSink) throws
}
