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
        let writer = try CSVWriter(path: try output(S.Element.fileName), header: S.Element.header)
        for row in rows {
            row.write(to: writer)
            try writer.endRow()
        }
        try writer.commit()
    }

    /// The CSV text of `rows` without the header, exactly as `write(_:)` writes them: a
    /// stage encodes each subject's rows in its parallel workers and writes the parts with
    /// `write(_:encoded:)`, so formatting millions of rows is not serial.
    public static func encode<S: Sequence>(_ rows: S) throws -> [UInt8] where S.Element: CanonicalRow {
        let writer = CSVWriter()
        for row in rows {
            row.write(to: writer)
            try writer.endRow()
        }
        return writer.bytes
    }

    /// Writes a table atomically: the header, then the parts (`encode`) in order; the
    /// same bytes as `write(_:)` of the parts' rows.
    public func write<Row: CanonicalRow>(_ type: Row.Type, encoded parts: [[UInt8]]) throws {
        let writer = try CSVWriter(path: try output(Row.fileName), header: Row.header)
        for part in parts { try writer.write(encoded: part) }
        try writer.commit()
    }

    /// Reads the table at `path`, whose header must be exactly the row type's.
    public static func readTable<Row: CanonicalRow>(_ type: Row.Type, path: String) throws -> [Row] {
        var rows: [Row] = []
        try forEachRow(Row.self, path: path) { rows.append($0) }
        return rows
    }

    static func forEachRow<Row: CanonicalRow>(_ type: Row.Type, path: String, _ body: (Row) throws -> Void) throws {
        var columns: [String: Int]?
        try CSVReader(path: path).forEachRecord { record in
            guard let columns else {
                try TableError.checkHeader(record, expected: Row.header, path: path)
                columns = Dictionary(uniqueKeysWithValues: Row.header.enumerated().map { ($1, $0) })
                return
            }
            guard record.count == Row.header.count else {
                throw TableError(path: path, line: record.line, column: min(record.count, Row.header.count) + 1,
                                 message: "row has \(record.count) fields, the header \(Row.header.count)")
            }
            try body(Row(CanonicalFieldReader(record: record, columns: columns, path: path)))
        }
        if columns == nil {
            throw TableError(path: path, line: 1, column: 0, message: "empty file: no header")
        }
    }
}
