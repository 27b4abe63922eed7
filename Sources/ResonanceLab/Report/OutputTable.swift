/// A row of a stage's output table (e.g. `hrv.csv`, `coherence.csv`): its header and
/// how it writes itself.
public protocol OutputRow {
    static var header: [String] { get }
    func write(to writer: CSVWriter)
}

extension Sequence where Element: OutputRow {
    /// Writes the rows, header first, atomically to `path`. Inlinable, so that the
    /// caller's sequence type (e.g. joined per-subject arrays) is iterated specialised.
    @inlinable
    public func write(to path: String) throws {
        let writer = try CSVWriter(path: path, header: Element.header)
        for row in self {
            row.write(to: writer)
            try writer.endRow()
        }
        try writer.commit()
    }
}
