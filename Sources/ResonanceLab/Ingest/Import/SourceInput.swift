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
    /// Field separator (sniffed from the first line, or `--delimiter`).
    var delimiter: UInt8 = UInt8(ascii: ",")
    var format: SourceFormat = .genericCSV
    var settings = ReadSettings()
    /// Workers a large file may be read with (`--jobs`), in ranges of about `rangeBytes`
    /// (`RecordRanges`); the tables and rejects are those of a one-pass read.
    var jobs = 1
    var rangeBytes = RecordRanges.rangeBytes

    /// Reads the file: the first `headerLines` records (a header, metadata lines)
    /// go to `header` with their 0-based index, every later record to `body`.
    /// With `sink`, a data row with more fields than the widest header line is
    /// rejected there instead (which column would hold the extra value is a guess).
    /// Returns the number of data rows.
    func forEachRow(headerLines: Int = 0, header: (CSVRecord, Int) throws -> Void = { _, _ in },
                    rejectingWiderRowsInto sink: ImportSink? = nil,
                    _ body: (CSVRecord) throws -> Void) throws -> Int {
        var seen = 0, width = 0
        try CSVReader(path: path, delimiter: delimiter).forEachRecord { record in
            seen += 1
            if seen <= headerLines {
                width = max(width, record.count)
                return try header(record, seen - 1)
            }
            if let sink, headerLines > 0, record.count > width {
                return try sink.reject(file, record, column: width + 1, reason: SourceInput.widerRow(record.count, width))
            }
            try body(record)
        }
        return max(0, seen - headerLines)
    }

    /// The reject reason of a data row with `count` fields under a header of `width`.
    static func widerRow(_ count: Int, _ width: Int) -> String {
        "\(count) fields but the header names \(width)"
    }

    /// Calls `body` on the first `count` records (header included), then stops.
    func peek(_ count: Int, _ body: (CSVRecord) throws -> Void) throws {
        try CSVPeek.each(path: path, delimiter: delimiter, count: count, body)
    }
}

/// Import settings adapters consult (from the command line).
struct ReadSettings {
    var rrStamp: RRStamp = .auto
    /// `--start`: epoch ms at which clockless R-R series (PhysioNet, Kubios, Polar
    /// Flow text) begin; nil anchors them at the epoch.
    var startMs: Int64?
    /// `--rate`: the sample rate (Hz) of a waveform CSV read without its times.
    var rateHz: Double?
    var mapping = ColumnMapping()
}

/// Column choices for CSV files whose names the importer does not know
/// (`--time-column`, `--bpm-column`, `--rr-column`, `--subject-column`,
/// `--time-format`, `--delimiter`). Names match the header exactly or loosely
/// (case, spaces and units ignored).
public struct ColumnMapping: Equatable, Sendable {
    public var delimiter: Character?
    public var time: String?
    public var bpm: String?
    public var rr: String?
    public var subject: String?
    /// Unicode date pattern of the time column, e.g. `dd/MM/yyyy HH:mm:ss`.
    public var timeFormat: String?

    public init(delimiter: Character? = nil, time: String? = nil, bpm: String? = nil, rr: String? = nil,
                subject: String? = nil, timeFormat: String? = nil) {
        self.delimiter = delimiter; self.time = time; self.bpm = bpm; self.rr = rr
        self.subject = subject; self.timeFormat = timeFormat
    }

    var isEmpty: Bool { self == ColumnMapping() }

    /// Index of the header column `name` names, exactly or loosely.
    /// Whether the time column and a bpm or R-R column are named, and `header` has that
    /// time column.
    func namesTime(in header: [String]) -> Bool {
        guard let time, bpm != nil || rr != nil else { return false }
        return Self.index(of: time, in: header) != nil
    }

    static func index(of name: String, in header: [String]) -> Int? {
        header.firstIndex(of: name)
            ?? header.firstIndex { ColumnName.normalized($0) == ColumnName.normalized(name) }
    }
}

/// A format adapter: reads one source file into the sink.
protocol FormatAdapter {
    static func read(_ input: SourceInput, into sink: ImportSink) throws
}
