/// Builds RFC 4180 CSV rows (comma, CRLF-free `\n` line ends, quotes doubled) into an
/// `AtomicFile`. Numbers use Swift's shortest round-trip form, so that outputs are
/// byte-identical between runs and read back to the same Double in pandas and R.
public final class CSVWriter {
    private let file: AtomicFile
    private var row: [UInt8] = []
    private var fieldsInRow = 0

    public init(path: String, header: [String]) throws {
        file = try AtomicFile(path: path)
        for name in header { field(name) }
        try endRow()
    }

    public func field(_ text: String) {
        separator()
        let utf8 = text.utf8
        let needsQuotes = utf8.contains { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }
        if needsQuotes {
            row.append(34)
            for byte in utf8 {
                if byte == 34 { row.append(34) }
                row.append(byte)
            }
            row.append(34)
        } else {
            row.append(contentsOf: utf8)
        }
    }

    /// Missing and non-finite numbers are written as an empty field (NA in R/pandas).
    public func field(_ value: Double?) {
        guard let value, value.isFinite else { return field("") }
        number(CSVWriter.format(value))
    }

    public func field(_ value: Int) { number(String(value)) }
    public func field(_ value: Int?) { field(value.map(String.init) ?? "") }

    /// The text of a number, which never needs quotes.
    private func number(_ text: String) {
        separator()
        row.append(contentsOf: text.utf8)
    }
    public func field(_ value: Bool) { field(value ? "true" : "false") }

    /// A timestamp in the canonical ISO 8601 form; nil → empty.
    public func field(timestampMs: Int64?) {
        separator()
        guard let ms = timestampMs else { return }
        let at = row.count
        row.append(contentsOf: repeatElement(0, count: 24))
        Timestamp.write(ms, into: &row, at: at)
    }

    public func endRow() throws {
        row.append(10)
        fieldsInRow = 0
        // Written before it is emptied, so the row buffer stays unshared and is reused.
        try file.write(row)
        row.removeAll(keepingCapacity: true)
    }

    public func commit() throws {
        try file.commit()
    }

    /// Shortest text that reads back to the same Double; integral values keep `.0`.
    public static func format(_ value: Double) -> String {
        value == 0 ? "0.0" : value.description
    }

    private func separator() {
        if fieldsInRow > 0 { row.append(44) }
        fieldsInRow += 1
    }
}
