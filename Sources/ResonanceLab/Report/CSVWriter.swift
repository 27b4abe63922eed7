/// Builds RFC 4180 CSV rows (comma, CRLF-free `\n` line ends, quotes doubled) into an
/// `AtomicFile`, field by field through `LineEncoder` (the one quoting, number and
/// timestamp text of every table). Numbers use Swift's shortest round-trip form, so that
/// outputs are byte-identical between runs and read back to the same Double in pandas and R.
public final class CSVWriter {
    private let file: AtomicFile?
    /// The row being built. Every access to a class's stored property carries a run-time
    /// exclusivity check, and a row takes dozens (2 M rows for coherence.csv), so the
    /// state lives behind a pointer the writer owns instead.
    private let state: UnsafeMutablePointer<RowState>

    private struct RowState {
        var row: [UInt8] = []
        var fieldsInRow = 0
        /// Rows ended after the header, plus those of encoded parts written.
        var records = 0
        /// Rows mostly follow each other in time, so the date text is formatted once per day.
        var timestamps = LineEncoder.TimestampCache()
        /// A writer without a file: the rows moved on to `spill` once `row` holds this many
        /// bytes, or before its buffer would have to grow past it.
        var spillBytes = Int.max
        var spill: SpillFile?
        /// The longest row ended so far, bytes: room the buffer must have for the next.
        var longestRow = 0
        /// Where the row being encoded starts in `row`.
        var rowStart = 0
    }

    private var row: [UInt8] {
        get { state.pointee.row }
        _modify { yield &state.pointee.row }
    }

    private var fieldsInRow: Int {
        get { state.pointee.fieldsInRow }
        _modify { yield &state.pointee.fieldsInRow }
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    public init(path: String, header: [String]) throws {
        file = try AtomicFile(path: path)
        state = CSVWriter.newState()
        for name in header { field(name) }
        try endRow()
        state.pointee.records = 0
    }

    /// A writer without a file, which keeps every row it encodes in `bytes`: for rows
    /// encoded in parallel workers (`Workspace.encode`) or stored by the caller, as the
    /// importer's sorted tables do.
    public init() {
        file = nil
        state = CSVWriter.newState()
    }

    /// A writer without a file that keeps at most about `spillBytes` of its rows in memory:
    /// the rows before go on to an unnamed temporary file (`part` hands both over). A
    /// subject's rows encoded in a worker then cost that much memory, however many.
    public convenience init(spillingAfter spillBytes: Int) {
        self.init()
        state.pointee.spillBytes = spillBytes
    }

    /// The rows encoded by a writer without a file, in order.
    public var part: EncodedRows { EncodedRows(rows: records, spilled: state.pointee.spill, bytes: row) }

    private static func newState() -> UnsafeMutablePointer<RowState> {
        let state = UnsafeMutablePointer<RowState>.allocate(capacity: 1)
        state.initialize(to: RowState())
        return state
    }

    /// Starts over with `fields` already encoded (e.g. an interned subject field): the
    /// next field follows them after a comma.
    public func beginRow(after fields: UnsafeBufferPointer<UInt8>) {
        row.removeAll(keepingCapacity: true)
        state.pointee.rowStart = 0
        row.append(contentsOf: fields)
        fieldsInRow = fields.isEmpty ? 0 : 1
    }

    /// Without a file: every byte encoded so far (since `beginRow`), line ends included.
    public var bytes: [UInt8] { row }

    /// Appends the rows another writer encoded, as they are.
    public func write(_ part: EncodedRows) throws {
        if let file, let spilled = part.spilled { try spilled.forEachChunk { try file.write($0) } }
        try file?.write(part.bytes)
        state.pointee.records += part.rows
    }

    /// Data rows written (the header excluded): the row count a manifest records.
    public var records: Int { state.pointee.records }

    /// The file's SHA-256 (hex), once committed.
    public var sha256: String? { file?.sha256 }

    /// The file written; nil for a writer without one.
    public var path: String? { file?.path }

    public func field(_ text: String) {
        separator()
        LineEncoder.appendField(text, to: &row)
    }

    /// Missing and non-finite numbers are written as an empty field (NA in R/pandas).
    public func field(_ value: Double?) {
        separator()
        guard let value, value.isFinite else { return }
        LineEncoder.appendNumber(value, to: &row)
    }

    public func field(_ value: Int) {
        separator()
        LineEncoder.appendInteger(value, to: &row)
    }

    public func field(_ value: Int?) {
        guard let value else { return separator() }
        field(value)
    }
    public func field(_ value: Bool) { field(value ? "true" : "false") }

    /// A timestamp in the canonical ISO 8601 form; nil → empty.
    public func field(timestampMs: Int64?) {
        separator()
        guard let ms = timestampMs else { return }
        state.pointee.timestamps.append(ms, to: &state.pointee.row)
    }

    public func endRow() throws {
        row.append(10)
        fieldsInRow = 0
        state.pointee.records += 1
        guard let file else {
            // The buffer grows by doubling: once doubled it would pass the limit, the rows
            // move on while the next row still fits, so it never holds more than the limit.
            let limit = state.pointee.spillBytes
            state.pointee.longestRow = max(state.pointee.longestRow, row.count - state.pointee.rowStart)
            state.pointee.rowStart = row.count
            let full = row.count + state.pointee.longestRow > row.capacity && row.capacity > limit / 2
            if row.count >= limit || full {
                let spill = try state.pointee.spill ?? SpillFile()
                state.pointee.spill = spill
                try spill.write(row)
                row.removeAll(keepingCapacity: true)
                state.pointee.rowStart = 0
            }
            return
        }
        // Written before it is emptied, so the row buffer stays unshared and is reused.
        try file.write(row)
        row.removeAll(keepingCapacity: true)
    }

    public func commit() throws {
        try file?.commit()
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
