/// A row type stored as one workspace table (a canonical table such as `rr.csv`, or a
/// stage's output such as `hrv.csv`): its file name, exact header, how to write one row
/// and how to read one back. The same type writes and reads its table, so a renamed
/// column fails the round trip instead of silently breaking a later reader.
public protocol CanonicalRow {
    static var fileName: String { get }
    static var header: [String] { get }
    func write(to writer: CSVWriter)
    init(_ row: CanonicalFieldReader) throws
}

/// A time series table whose first three columns are `subject,timestamp,<value>`
/// (`hr.csv`, `rr.csv`, `hrv_samples.csv`): it can also be read column-wise.
public protocol MeasurementRow: CanonicalRow {}

/// Error reading a canonical table back: names file, line, column and the problem.
public struct TableError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let line: Int
    public let column: Int
    public let message: String

    public init(path: String, line: Int, column: Int, message: String) {
        self.path = path; self.line = line; self.column = column; self.message = message
    }

    public var description: String {
        line == 0 ? "\(path): \(message)"
            : column > 0 ? "\(path):\(line):\(column): \(message)" : "\(path):\(line): \(message)"
    }

    /// Checks that a header record names exactly `expected`, in order.
    static func checkHeader(_ record: CSVRecord, expected: [String], path: String) throws {
        let names = (0..<record.count).map { record.trimmed($0) }
        guard names != expected else { return }
        let at = (0..<min(names.count, expected.count)).first { names[$0] != expected[$0] } ?? min(names.count, expected.count)
        let found = at < names.count ? "'\(names[at])'" : "nothing"
        let wanted = at < expected.count ? "'\(expected[at])'" : "no further column"
        throw TableError(path: path, line: record.line, column: at + 1,
                         message: "header has \(found) where \(wanted) is expected (header must be \(expected.joined(separator: ",")))")
    }
}

/// A table's column numbers by name, found without hashing the name (which every field
/// of every row would pay): a slot picked by the name's length and end bytes, probed on
/// to the next slot while another name holds it.
public struct ColumnIndex: Sendable {
    private let names: [String]
    /// Column number + 1 per slot (0: empty); a power of two at least twice the columns.
    private let slots: [Int32]

    public init(_ header: [String]) {
        var size = 16
        while size < 2 * header.count { size *= 2 }
        var slots = [Int32](repeating: 0, count: size)
        // A repeated name keeps its last column.
        for (i, name) in header.enumerated() {
            var s = Self.slot(name, mask: size - 1)
            while slots[s] != 0 && header[Int(slots[s]) - 1] != name { s = (s + 1) & (size - 1) }
            slots[s] = Int32(i + 1)
        }
        names = header
        self.slots = slots
    }

    private static func slot(_ name: String, mask: Int) -> Int {
        let u = name.utf8
        return (u.count &* 31 &+ Int(u.first ?? 0) &* 7 &+ Int(u.last ?? 0)) & mask
    }

    /// The column named `name`: the last, when the header repeats it.
    public subscript(name: String) -> Int? {
        let mask = slots.count - 1
        var s = Self.slot(name, mask: mask)
        while slots[s] != 0 {
            let i = Int(slots[s]) - 1
            if names[i] == name { return i }
            s = (s + 1) & mask
        }
        return nil
    }
}

/// Typed access to the fields of one record of a canonical table, by column name.
public struct CanonicalFieldReader {
    let record: CSVRecord
    let columns: ColumnIndex
    let path: String
    /// Text fields repeated from the row before (a subject, a source), shared, when given.
    var repeated: RepeatedText?

    func index(_ name: String) throws -> Int {
        guard let i = columns[name], i < record.count else {
            throw TableError(path: path, line: record.line, column: record.count + 1,
                             message: "row has \(record.count) fields, '\(name)' is missing")
        }
        return i
    }

    public func string(_ name: String) throws -> String {
        let i = try index(name)
        return repeated?.string(record, i) ?? record.string(i)
    }

    public func double(_ name: String) throws -> Double {
        let i = try index(name)
        guard let v = record.double(i) else {
            throw TableError(path: path, line: record.line, column: i + 1,
                             message: "'\(name)' is not a number: '\(record.string(i))'")
        }
        return v
    }

    /// A number that may be empty (written for a missing or non-finite value): NaN then.
    public func doubleOrNaN(_ name: String) throws -> Double {
        try optionalDouble(name) ?? .nan
    }

    /// A whole, non-negative count (e.g. `plays`, `line`).
    public func count(_ name: String) throws -> Int {
        let v = try double(name)
        guard v >= 0, v <= Double(Int32.max), v == v.rounded() else {
            throw fail(name, "'\(name)' is not a whole count: '\(try string(name))'")
        }
        return Int(v)
    }

    /// An optional number that must lie in `range` (e.g. a duration in seconds).
    public func optionalDouble(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let v = try optionalDouble(name) else { return nil }
        guard range.contains(v) else {
            throw fail(name, "'\(name)' = \(v) is outside \(range.lowerBound)…\(range.upperBound)")
        }
        return v
    }

    public func optionalDouble(_ name: String) throws -> Double? {
        let i = try index(name)
        return record.bytes(i).isEmpty ? nil : try double(name)
    }

    public func timestamp(_ name: String) throws -> Int64 {
        let i = try index(name)
        guard let t = Timestamp.parseISO(bytes: record.bytes(i)) else {
            throw TableError(path: path, line: record.line, column: i + 1,
                             message: "'\(name)' is not an ISO 8601 time: '\(record.string(i))'")
        }
        return t.ms
    }

    public func optionalTimestamp(_ name: String) throws -> Int64? {
        record.bytes(try index(name)).isEmpty ? nil : try timestamp(name)
    }

    /// The one boolean form of every table: `true`/`false` as `CSVWriter` writes a Bool,
    /// also `1`/`0` and any letter case from other tools.
    public func bool(_ name: String) throws -> Bool {
        let i = try index(name)
        switch record.string(i).lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default:
            throw TableError(path: path, line: record.line, column: i + 1,
                             message: "'\(name)' is not true/false: '\(record.string(i))'")
        }
    }

    public func fail(_ name: String, _ message: String) -> TableError {
        TableError(path: path, line: record.line, column: (columns[name] ?? -1) + 1, message: message)
    }
}

extension HRSample: MeasurementRow {
    public static let fileName = "hr.csv"
    public static let header = ["subject", "timestamp", "bpm", "source"]
    public func write(to w: CSVWriter) {
        w.field(subject); w.field(timestampMs: timestampMs); w.field(bpm); w.field(source)
    }
    public init(_ r: CanonicalFieldReader) throws {
        self.init(subject: try r.string("subject"), timestampMs: try r.timestamp("timestamp"),
                  bpm: try r.double("bpm"), source: try r.string("source"))
    }
}

extension RRInterval: MeasurementRow {
    public static let fileName = "rr.csv"
    public static let header = ["subject", "timestamp", "rr_ms", "source"]
    public func write(to w: CSVWriter) {
        w.field(subject); w.field(timestampMs: timestampMs); w.field(rrMs); w.field(source)
    }
    public init(_ r: CanonicalFieldReader) throws {
        self.init(subject: try r.string("subject"), timestampMs: try r.timestamp("timestamp"),
                  rrMs: try r.double("rr_ms"), source: try r.string("source"))
    }
}

extension Play: CanonicalRow {
    public static let fileName = "plays.csv"
    /// Durations a play can have, seconds (up to a week: long mixes and podcasts fit).
    public static let durationRangeS: ClosedRange<Double> = 0...604_800
    public static let header = [
        "subject", "play_id", "song_id", "title", "artist", "album", "playlist", "started_at",
        "ended_at", "media_duration_s", "played_s", "end_reason", "skipped", "utc_offset_min",
    ]
    /// UTC offsets a place can have, minutes (UTC−12:00 … UTC+14:00).
    public static let utcOffsetRangeMin: ClosedRange<Double> = -720...840
    public func write(to w: CSVWriter) {
        w.field(subject)
        writeFieldsAfterSubject(to: w)
    }

    /// Every field after `subject`; the importer, which encodes subjects once, writes
    /// them after its own subject field.
    func writeFieldsAfterSubject(to w: CSVWriter) {
        w.field(playId); w.field(songId); w.field(title); w.field(artist)
        w.field(album); w.field(playlist); w.field(timestampMs: startedAtMs)
        w.field(timestampMs: endedAtMs); w.field(mediaDurationS); w.field(playedS)
        w.field(endReason); w.field(skipped); w.field(utcOffsetMin.map(Play.offsetText) ?? "")
    }

    /// Offset field text: whole minutes, e.g. `-480`.
    static func offsetText(_ minutes: Int) -> String { String(minutes) }
    public init(_ r: CanonicalFieldReader) throws {
        self.init(subject: try r.string("subject"), playId: try r.string("play_id"),
                  songId: try r.string("song_id"), title: try r.string("title"),
                  artist: try r.string("artist"), album: try r.string("album"),
                  playlist: try r.string("playlist"), startedAtMs: try r.timestamp("started_at"),
                  endedAtMs: try r.optionalTimestamp("ended_at"),
                  mediaDurationS: try r.optionalDouble("media_duration_s", in: Play.durationRangeS),
                  playedS: try r.optionalDouble("played_s", in: Play.durationRangeS), endReason: try r.string("end_reason"),
                  skipped: try r.bool("skipped"),
                  utcOffsetMin: try r.optionalDouble("utc_offset_min", in: Play.utcOffsetRangeMin).map { Int($0.rounded()) })
    }
}

extension LabelInterval: CanonicalRow {
    public static let fileName = "labels.csv"
    public static let header = ["subject", "start", "end", "label"]
    public func write(to w: CSVWriter) {
        w.field(subject); w.field(timestampMs: startMs); w.field(timestampMs: endMs); w.field(label)
    }
    public init(_ r: CanonicalFieldReader) throws {
        self.init(subject: try r.string("subject"), startMs: try r.timestamp("start"),
                  endMs: try r.timestamp("end"), label: try r.string("label"))
    }
}

extension SleepEpisode: CanonicalRow {
    public static let fileName = "sleep.csv"
    public static let header = ["subject", "start", "end", "stage", "source"]
    /// The header before sleep rows named their source; re-imported with the source `csv`.
    static let headerWithoutSource = ["subject", "start", "end", "stage"]
    public func write(to w: CSVWriter) {
        w.field(subject); w.field(timestampMs: startMs); w.field(timestampMs: endMs); w.field(stage.rawValue); w.field(source)
    }
    public init(_ r: CanonicalFieldReader) throws {
        let text = try r.string("stage")
        guard let stage = SleepStage(rawValue: text) else {
            throw r.fail("stage", "unknown sleep stage '\(text)'")
        }
        self.init(subject: try r.string("subject"), startMs: try r.timestamp("start"),
                  endMs: try r.timestamp("end"), stage: stage, source: r.columns["source"] == nil ? "csv" : try r.string("source"))
    }
}

extension Workout: CanonicalRow {
    public static let fileName = "workouts.csv"
    public static let header = ["subject", "start", "end", "activity"]
    public func write(to w: CSVWriter) {
        w.field(subject); w.field(timestampMs: startMs); w.field(timestampMs: endMs); w.field(activity)
    }
    public init(_ r: CanonicalFieldReader) throws {
        self.init(subject: try r.string("subject"), startMs: try r.timestamp("start"),
                  endMs: try r.timestamp("end"), activity: try r.string("activity"))
    }
}

extension Reject: CanonicalRow {
    public static let fileName = "rejects.csv"
    public static let header = ["source_file", "line", "column", "reason", "raw"]
    public func write(to w: CSVWriter) {
        w.field(sourceFile); w.field(line); w.field(column); w.field(reason); w.field(raw)
    }
    public init(_ r: CanonicalFieldReader) throws {
        self.init(sourceFile: try r.string("source_file"), line: try r.count("line"),
                  column: try r.count("column"), reason: try r.string("reason"),
                  raw: try r.string("raw"))
    }
}

extension HRVSample: MeasurementRow {
    public static let fileName = "hrv_samples.csv"
    public static let header = ["subject", "timestamp", "sdnn_ms", "rmssd_ms", "source"]
    public func write(to w: CSVWriter) {
        w.field(subject); w.field(timestampMs: timestampMs); w.field(sdnnMs); w.field(rmssdMs); w.field(source)
    }
    public init(_ r: CanonicalFieldReader) throws {
        self.init(subject: try r.string("subject"), timestampMs: try r.timestamp("timestamp"),
                  sdnnMs: try r.optionalDouble("sdnn_ms"), rmssdMs: try r.optionalDouble("rmssd_ms"),
                  source: try r.string("source"))
    }
}

/// The last text read from each column of a table, handed out again while the next rows
/// repeat it: a subject's rows read one after another then share one copy of its name and
/// source instead of allocating one per row.
final class RepeatedText {
    /// By column: the last text read and its bytes.
    private var last: [(bytes: [UInt8], text: String)?] = []

    func string(_ record: CSVRecord, _ i: Int) -> String {
        let bytes = record.bytes(i)
        if i < last.count, let hit = last[i], hit.bytes.elementsEqual(bytes) { return hit.text }
        let text = String(decoding: bytes, as: UTF8.self)
        if i >= last.count { last += Array(repeating: nil, count: i + 1 - last.count) }
        last[i] = (Array(bytes), text)
        return text
    }
}
