import Foundation

/// A workspace folder holding canonical tables and stage outputs (docs/tables.md, Workspace).
public struct Workspace: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public func file(_ name: String) -> String {
        (path as NSString).appendingPathComponent(name)
    }

    public func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: file(name))
    }

    /// Reads a canonical table; a table that is absent reads as empty.
    public func read<Row: CanonicalRow>(_ type: Row.Type) throws -> [Row] {
        guard exists(Row.fileName) else { return [] }
        return try Workspace.readTable(Row.self, path: file(Row.fileName))
    }

    /// Writes a canonical table atomically, header first.
    public func write<Row: CanonicalRow>(_ rows: [Row]) throws {
        let writer = try CSVWriter(path: file(Row.fileName), header: Row.header)
        for row in rows {
            row.write(to: writer)
            try writer.endRow()
        }
        try writer.commit()
    }

    /// Reads any CSV table whose header names the row type's columns (in any order).
    public static func readTable<Row: CanonicalRow>(_ type: Row.Type, path: String) throws -> [Row] {
        var rows: [Row] = []
        var columns: [String: Int]?
        try CSVReader(path: path).forEachRecord { record in
            guard let columns else {
                var map: [String: Int] = [:]
                for i in 0..<record.count { map[record.trimmed(i)] = i }
                for name in Row.header where map[name] == nil {
                    throw TableError(path: path, line: record.line, column: 0,
                                     message: "header lacks column '\(name)'")
                }
                columns = map
                return
            }
            rows.append(try Row(CanonicalFieldReader(record: record, columns: columns, path: path)))
        }
        return rows
    }
}
