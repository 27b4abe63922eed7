import Foundation

/// One subject's measurements as columns: times (epoch ms) and values in file order.
public struct MeasurementSeries: Sendable, Equatable {
    public var subject: String
    public var timestampsMs: [Int64]
    public var values: [Double]

    public init(subject: String, timestampsMs: [Int64] = [], values: [Double] = []) {
        self.subject = subject; self.timestampsMs = timestampsMs; self.values = values
    }
}

/// Parses the rows of a measurement table (subject, ISO 8601 time, value), numbering
/// subjects in order of first appearance. The subject text is compared as bytes and
/// only turned into a String when it changes, so millions of rows cost no allocation
/// each.
struct MeasurementRowParser<Row: MeasurementRow> {
    let path: String
    /// Whether the next record is the header (only the file's first part has one).
    var expectsHeader: Bool
    private(set) var subjects: [String] = []
    private var index: [String: Int] = [:]
    private var current = -1
    private var currentBytes: [UInt8] = []

    init(path: String, expectsHeader: Bool) {
        self.path = path; self.expectsHeader = expectsHeader
    }

    /// The record's (subject number, epoch ms, value); nil for the header.
    mutating func parse(_ record: CSVRecord) throws -> (subject: Int, timeMs: Int64, value: Double)? {
        if expectsHeader {
            try TableError.checkHeader(record, expected: Row.header, path: path)
            expectsHeader = false
            return nil
        }
        guard record.count == Row.header.count else {
            throw TableError(path: path, line: record.line, column: min(record.count, Row.header.count) + 1,
                             message: "row has \(record.count) fields, the header \(Row.header.count)")
        }
        let subjectBytes = record.bytes(0)
        let same = subjectBytes.count == currentBytes.count && currentBytes.withUnsafeBufferPointer { c in
            guard let a = c.baseAddress, let b = subjectBytes.baseAddress else { return true }  // both empty
            return memcmp(a, b, c.count) == 0
        }
        if current < 0 || !same {
            currentBytes = Array(subjectBytes)
            let name = String(decoding: subjectBytes, as: UTF8.self)
            if let i = index[name] {
                current = i
            } else {
                current = subjects.count
                index[name] = current
                subjects.append(name)
            }
        }
        guard let t = Timestamp.parseISO(bytes: record.bytes(1)) else {
            throw TableError(path: path, line: record.line, column: 2,
                             message: "'timestamp' is not an ISO 8601 time: '\(record.string(1))'")
        }
        guard let v = record.double(2) else {
            throw TableError(path: path, line: record.line, column: 3,
                             message: "'\(Row.header[2])' is not a number: '\(record.string(2))'")
        }
        return (current, t.ms, v)
    }
}

extension Workspace {
    /// Streams a measurement table (`hr.csv`, `rr.csv`, `hrv_samples.csv`) column-wise:
    /// `body(subjectIndex, time, value)` per row, subjects numbered in order of first
    /// appearance. Returns the subjects; an absent table reads as empty. The header must
    /// be exactly the row type's.
    @discardableResult
    public func scanMeasurements<Row: MeasurementRow>(
        _ type: Row.Type, _ body: (_ subject: Int, _ timeMs: Int64, _ value: Double) throws -> Void
    ) throws -> [String] {
        guard let path = try readable(Row.fileName) else { return [] }
        var parser = MeasurementRowParser<Row>(path: path, expectsHeader: true)
        try CSVReader(path: path).forEachRecord { record in
            if let row = try parser.parse(record) { try body(row.subject, row.timeMs, row.value) }
        }
        if parser.expectsHeader { throw TableError(path: path, line: 1, column: 0, message: "empty file: no header") }
        return parser.subjects
    }

    /// Reads a measurement table straight into per-subject columns, subjects in order of
    /// first appearance: millions of beats fit in 16 bytes each this way, where whole
    /// rows would hold two strings apiece.
    ///
    /// With `jobs` > 1 a large table is cut at line starts into parts parsed side by side,
    /// while another worker computes its SHA-256 for the manifest check, which still comes
    /// before anything read is returned; the parts' columns are joined in file order, so
    /// the result and every error (its line counted from the file's start) are those of
    /// one pass. A table with quoted fields is read in one pass.
    public func readSeries<Row: MeasurementRow>(_ type: Row.Type, jobs: Int = 1) throws -> [MeasurementSeries] {
        try readSeries(Row.self, jobs: jobs, partBytes: Workspace.seriesPartBytes)
    }

    /// `readSeries` with parts of about `partBytes` bytes, read side by side when the table
    /// holds at least two.
    func readSeries<Row: MeasurementRow>(_ type: Row.Type, jobs: Int, partBytes: Int) throws -> [MeasurementSeries] {
        if jobs > 1, exists(Row.fileName), let series = try readSeriesInParts(Row.self, jobs: jobs, partBytes: partBytes) {
            return series
        }
        var times: [[Int64]] = [], values: [[Double]] = []
        let subjects = try scanMeasurements(Row.self) { s, t, v in
            if s == times.count { times.append([]); values.append([]) }
            times[s].append(t)
            values[s].append(v)
        }
        return subjects.indices.map { MeasurementSeries(subject: subjects[$0], timestampsMs: times[$0], values: values[$0]) }
    }

    /// Bytes per part of a table read side by side; smaller tables are read in one pass.
    static let seriesPartBytes = 8 << 20

    /// The parallel read of `readSeries`; nil when the table is better read in one pass
    /// (small, or holding a line that needs the quoting parser).
    private func readSeriesInParts<Row: MeasurementRow>(_ type: Row.Type, jobs: Int, partBytes: Int) throws -> [MeasurementSeries]? {
        let path = file(Row.fileName)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var info = stat()
        guard stat(path, &info) == 0, Int(info.st_size) >= 2 * max(1, partBytes) else { return nil }
        // Several parts per worker, so that the digest and uneven parts even out.
        let parts = min(4 * jobs, Int(info.st_size) / max(1, partBytes))
        let ranges = try CSVReader.lineAlignedRanges(path: path, parts: parts)
        let digesting = session?.needsDigest(Row.fileName) ?? false
        let tasks = (digesting ? [SeriesReadTask.digest] : []) + ranges.indices.map { SeriesReadTask.part($0) }
        let outcomes = try Parallel.map(tasks, jobs: jobs) { task -> Result<SeriesReadOutcome, Error> in
            Result {
                switch task {
                case .digest:
                    return .digest(try WorkspaceSession.digest(ofFile: path))
                case let .part(k):
                    var parser = MeasurementRowParser<Row>(path: path, expectsHeader: k == 0)
                    var part = SeriesPart()
                    try CSVReader(path: path, byteRange: ranges[k]).forEachRecord { record in
                        guard let row = try parser.parse(record) else { return }
                        if row.subject == part.times.count { part.times.append([]); part.values.append([]) }
                        part.times[row.subject].append(row.timeMs)
                        part.values[row.subject].append(row.value)
                    }
                    // A first part of blank lines only: the header lies further on, where
                    // only one pass finds it.
                    if parser.expectsHeader { throw CSVReader.NeedsWholeFile() }
                    part.subjects = parser.subjects
                    return .part(part)
                }
            }
        }
        // The manifest check first, as a one-pass read makes it before parsing.
        var digest: String?
        if case let .success(.digest(d)) = outcomes.first { digest = d }
        if digesting, digest == nil, case let .failure(error) = outcomes[0] { throw error }
        try session?.check(Row.fileName, digest: digest)
        var subjects: [String] = [], index: [String: Int] = [:]
        var times: [[Int64]] = [], values: [[Double]] = []
        for (k, outcome) in outcomes.dropFirst(digesting ? 1 : 0).enumerated() {
            switch outcome {
            case .failure(is CSVReader.NeedsWholeFile):
                return nil
            case let .failure(error as TableError) where k > 0:
                // Its line counts from the part's start: add the lines before the part.
                let before = try CSVReader.lineCount(path: path, bytes: ranges[k].lowerBound)
                throw TableError(path: error.path, line: error.line + before, column: error.column, message: error.message)
            case let .failure(error):
                throw error
            case let .success(.part(part)):
                for (s, name) in part.subjects.enumerated() {
                    let g: Int
                    if let i = index[name] { g = i } else {
                        g = subjects.count
                        index[name] = g
                        subjects.append(name); times.append([]); values.append([])
                    }
                    times[g].append(contentsOf: part.times[s])
                    values[g].append(contentsOf: part.values[s])
                }
            case .success(.digest):
                continue
            }
        }
        return subjects.indices.map { MeasurementSeries(subject: subjects[$0], timestampsMs: times[$0], values: values[$0]) }
    }
}

/// One part of a table read side by side: its subjects in order of first appearance
/// within the part, with their columns.
private struct SeriesPart {
    var subjects: [String] = [], times: [[Int64]] = [], values: [[Double]] = []
}

private enum SeriesReadTask { case digest, part(Int) }

private enum SeriesReadOutcome { case digest(String), part(SeriesPart) }
