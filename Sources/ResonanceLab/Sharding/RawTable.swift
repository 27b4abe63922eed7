import Foundation

/// A workspace table as raw CSV records, for moving rows between workspaces without
/// re-encoding them (shard and merge): the header, and the data records grouped into
/// runs of consecutive rows with the same subject. Tables are as the toolkit writes
/// them (docs/tables.md): RFC 4180 quoting, `\n` after every record.
struct RawTable {
    /// A run of consecutive records with one subject (all records, for a table
    /// without a `subject` column).
    struct Block {
        /// UTF-8 bytes of the subject, unquoted; nil in a table without a `subject` column.
        var subject: [UInt8]?
        /// Byte range of the records, line ends included.
        var range: Range<Int>
        var rows: Int
        /// Physical line (1-based) of the first record.
        var line: Int
    }

    let path: String
    let bytes: Data
    /// Byte range of the header record, its line end included.
    let header: Range<Int>
    /// 0-based position of the `subject` column; nil when there is none.
    let subjectColumn: Int?
    let blocks: [Block]

    var rows: Int { blocks.reduce(0) { $0 + $1.rows } }

    /// Reads (maps) the table at `path`. Every record must have the header's number of
    /// fields and end with `\n`.
    init(path: String) throws {
        self.path = path
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw TableError(path: path, line: 0, column: 0, message: "cannot read table: \(error.localizedDescription)")
        }
        guard !bytes.isEmpty else { throw TableError(path: path, line: 1, column: 0, message: "empty file: no header") }
        let path = path
        (header, subjectColumn, blocks) = try bytes.withUnsafeBytes { b in
            var line = 1
            var field: [UInt8] = []
            let head = try Self.record(b, at: 0, line: &line, column: nil, field: &field, path: path)
            let names = String(decoding: b[0..<head.end - 1], as: UTF8.self).split(separator: ",", omittingEmptySubsequences: false)
            let column = names.firstIndex(of: "subject")
            var blocks: [Block] = []
            var at = head.end
            while at < b.count {
                let first = line
                let record = try Self.record(b, at: at, line: &line, column: column, field: &field, path: path)
                guard record.fields == names.count else {
                    throw TableError(path: path, line: first, column: 0,
                                     message: "row has \(record.fields) fields, the header \(names.count)")
                }
                let subject = column == nil ? nil : field
                if let last = blocks.last, last.subject == subject {
                    blocks[blocks.count - 1].range = last.range.lowerBound..<record.end
                    blocks[blocks.count - 1].rows += 1
                } else {
                    blocks.append(Block(subject: subject, range: at..<record.end, rows: 1, line: first))
                }
                at = record.end
            }
            return (0..<head.end, column, blocks)
        }
    }

    /// Scans the record that starts at `start`: the index just past its `\n`, its number
    /// of fields, and in `field` the unquoted bytes of field `column` (0-based).
    private static func record(_ b: UnsafeRawBufferPointer, at start: Int, line: inout Int, column: Int?,
                               field: inout [UInt8], path: String) throws -> (end: Int, fields: Int) {
        field.removeAll(keepingCapacity: true)
        let first = line
        var i = start, index = 0, quoted = false, fieldStart = true
        while i < b.count {
            let c = b[i]
            if quoted {
                if c == 34 {
                    if i + 1 < b.count, b[i + 1] == 34 {
                        if index == column { field.append(34) }
                        i += 2
                        continue
                    }
                    quoted = false
                } else {
                    if c == 10 { line += 1 }
                    if index == column { field.append(c) }
                }
                i += 1
                continue
            }
            switch c {
            case 34 where fieldStart:
                quoted = true
                fieldStart = false
            case 44:
                index += 1
                fieldStart = true
            case 10:
                line += 1
                return (i + 1, index + 1)
            default:
                fieldStart = false
                if index == column { field.append(c) }
            }
            i += 1
        }
        throw TableError(path: path, line: first, column: quoted ? index + 1 : 0,
                         message: quoted ? "quoted field not closed" : "last row has no line end")
    }
}
