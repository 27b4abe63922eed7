import Foundation

/// A workspace folder holding canonical tables and stage outputs (docs/tables.md, Workspace).
/// Within a `WorkspaceSession` (every command does that), only tables listed in the
/// manifest exist, each is verified before it is read, and outputs go to the staging
/// folder until the session commits.
public struct Workspace: Sendable {
    public let path: String
    public let session: WorkspaceSession?

    public init(path: String, session: WorkspaceSession? = nil) {
        self.path = path; self.session = session
    }

    public func file(_ name: String) -> String {
        (path as NSString).appendingPathComponent(name)
    }

    public func exists(_ name: String) -> Bool {
        session?.lists(name) ?? FileManager.default.fileExists(atPath: file(name))
    }

    /// The path of table `name` to read: nil when the workspace has no such table;
    /// verified against the manifest first within a session.
    func readable(_ name: String) throws -> String? {
        guard exists(name) else { return nil }
        try session?.check(name)
        return file(name)
    }

    /// Where output `name` is written: the staging folder within a session.
    public func output(_ name: String) throws -> String {
        try session?.stagedPath(name) ?? file(name)
    }

    /// Where an output file given by path is written: staged when it lies in this
    /// workspace folder (so that the commit lists it), else the path itself.
    public func output(path: String) throws -> String {
        let dir = ((path as NSString).deletingLastPathComponent as NSString).standardizingPath
        guard session != nil, dir == (self.path as NSString).standardizingPath else { return path }
        return try output((path as NSString).lastPathComponent)
    }

    /// Reads a table; a table that is absent reads as empty.
    public func read<Row: CanonicalRow>(_ type: Row.Type) throws -> [Row] {
        var rows: [Row] = []
        try forEachRow(Row.self) { rows.append($0) }
        return rows
    }

    /// Reads a table that may be absent: nil when it is.
    public func readIfPresent<Row: CanonicalRow>(_ type: Row.Type) throws -> [Row]? {
        exists(Row.fileName) ? try read(Row.self) : nil
    }

    /// Streams the rows of a table in file order (absent: none), memory one row.
    public func forEachRow<Row: CanonicalRow>(_ type: Row.Type, _ body: (Row) throws -> Void) throws {
        guard let path = try readable(Row.fileName) else { return }
        try Workspace.forEachRow(Row.self, path: path, body)
    }

    /// Writes a table atomically, header first.
    public func write<S: Sequence>(_ rows: S) throws where S.Element: CanonicalRow {
        let table = try writer(S.Element.self)
        for row in rows { try table.append(row) }
        try table.commit()
    }

    /// A writer of table `Row` into `output(Row.fileName)`, header first, for rows or
    /// encoded parts as they come.
    public func writer<Row: CanonicalRow>(_ type: Row.Type, table name: String = Row.fileName) throws -> TableWriter<Row> {
        try TableWriter(self, table: name)
    }

    /// The CSV text of `rows` without the header, exactly as `write(_:)` writes them: a
    /// stage encodes each subject's rows in its parallel workers and appends the parts
    /// in order to a `TableWriter`, so formatting millions of rows is not serial.
    public static func encode<S: Sequence>(_ rows: S) throws -> EncodedRows where S.Element: CanonicalRow {
        try encode(rowsOf: { row in try rows.forEach(row) })
    }

    /// The rows `produce` hands over one at a time (e.g. `HRVWindows.forEachRow`), encoded
    /// as they come, so that they are never all held.
    public static func encode<Row: CanonicalRow>(rowsOf produce: ((Row) throws -> Void) throws -> Void) throws -> EncodedRows {
        try encode { writer in
            try produce { row in
                row.write(to: writer)
                try writer.endRow()
            }
        }
    }

    /// The CSV text of the rows `body` writes field by field (no header), for the files
    /// that have no row type (hrv's `hrv_nn.csv`, `hrv_psd.csv`).
    public static func encode(_ body: (CSVWriter) throws -> Void) rethrows -> EncodedRows {
        let writer = CSVWriter(spillingAfter: encodedBytesHeld)
        try body(writer)
        return writer.part
    }

    /// Bytes of encoded rows a worker keeps in memory per output (1 MiB); the rest wait in
    /// an unnamed temporary file until their turn to be written (docs/scaling.md).
    static let encodedBytesHeld = 1 << 20

    /// Commits a CSV writer of an output (`output(_:)`, `output(path:)`); within a
    /// session, a staged table's digest and row count, taken while it was written, go
    /// to the session, so that committing it does not read the file again.
    public func commit(_ csv: CSVWriter) throws {
        try csv.commit()
        if let session, let path = csv.path, let sha256 = csv.sha256 {
            session.wrote(file: path, rows: csv.records, sha256: sha256)
        }
    }

    /// Reads the table at `path`, whose header must be exactly the row type's.
    public static func readTable<Row: CanonicalRow>(_ type: Row.Type, path: String) throws -> [Row] {
        var rows: [Row] = []
        try forEachRow(Row.self, path: path) { rows.append($0) }
        return rows
    }

    static func forEachRow<Row: CanonicalRow>(_ type: Row.Type, path: String, _ body: (Row) throws -> Void) throws {
        var columns: ColumnIndex?
        let repeated = RepeatedText()
        try CSVReader(path: path).forEachRecord { record in
            guard let columns else {
                try TableError.checkHeader(record, expected: Row.header, path: path)
                columns = ColumnIndex(Row.header)
                return
            }
            guard record.count == Row.header.count else {
                throw TableError(path: path, line: record.line, column: min(record.count, Row.header.count) + 1,
                                 message: "row has \(record.count) fields, the header \(Row.header.count)")
            }
            try body(Row(CanonicalFieldReader(record: record, columns: columns, path: path, repeated: repeated)))
        }
        if columns == nil {
            throw TableError(path: path, line: 1, column: 0, message: "empty file: no header")
        }
    }
}

/// Rows of a table encoded as CSV text without the header (`Workspace.encode`).
public struct EncodedRows: Sendable {
    public var rows: Int
    /// The first rows' text, when they outgrew the writer's memory (`CSVWriter(spillingAfter:)`).
    var spilled: SpillFile?
    /// The text of the rows after those spilled.
    public var bytes: [UInt8]
}

/// One table written into a workspace: the header, then rows or encoded parts in
/// order; `commit` renames it into place and, within a session, hands the session the
/// SHA-256 and row count computed while writing, so committing the session does not
/// read the file again.
public final class TableWriter<Row: CanonicalRow> {
    private let workspace: Workspace
    private let csv: CSVWriter

    /// Writes table `name`, whose rows are `Row`'s (rr.csv's rows make rr_combined.csv).
    init(_ workspace: Workspace, table name: String = Row.fileName) throws {
        self.workspace = workspace
        csv = try CSVWriter(path: try workspace.output(name), header: Row.header)
    }

    public func append(_ row: Row) throws {
        row.write(to: csv)
        try csv.endRow()
    }

    public func append(_ part: EncodedRows) throws {
        try csv.write(part)
    }

    /// Data rows written so far.
    public var rows: Int { csv.records }

    public func commit() throws {
        try workspace.commit(csv)
    }
}
