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

extension Workspace {
    /// Streams a measurement table (`hr.csv`, `rr.csv`, `hrv_samples.csv`) column-wise:
    /// `body(subjectIndex, time, value)` per row, subjects numbered in order of first
    /// appearance. The subject text is compared as bytes and only turned into a String
    /// when it changes, so millions of rows cost no allocation each. Returns the
    /// subjects; an absent table reads as empty. The header must be exactly the row
    /// type's.
    @discardableResult
    public func scanMeasurements<Row: MeasurementRow>(
        _ type: Row.Type, _ body: (_ subject: Int, _ timeMs: Int64, _ value: Double) throws -> Void
    ) throws -> [String] {
        guard let path = try readable(Row.fileName) else { return [] }
        let valueName = Row.header[2]
        var subjects: [String] = []
        var index: [String: Int] = [:]
        var current = -1
        var currentBytes: [UInt8] = []
        var header = true
        try CSVReader(path: path).forEachRecord { record in
            if header {
                try TableError.checkHeader(record, expected: Row.header, path: path)
                header = false
                return
            }
            guard record.count == Row.header.count else {
                throw TableError(path: path, line: record.line, column: min(record.count, Row.header.count) + 1,
                                 message: "row has \(record.count) fields, the header \(Row.header.count)")
            }
            let subjectBytes = record.bytes(0)
            if current < 0 || !subjectBytes.elementsEqual(currentBytes) {
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
                                 message: "'\(valueName)' is not a number: '\(record.string(2))'")
            }
            try body(current, t.ms, v)
        }
        if header { throw TableError(path: path, line: 1, column: 0, message: "empty file: no header") }
        return subjects
    }

    /// Reads a measurement table straight into per-subject columns, subjects in order of
    /// first appearance: millions of beats fit in 16 bytes each this way, where whole
    /// rows would hold two strings apiece.
    public func readSeries<Row: MeasurementRow>(_ type: Row.Type) throws -> [MeasurementSeries] {
        var times: [[Int64]] = [], values: [[Double]] = []
        let subjects = try scanMeasurements(Row.self) { s, t, v in
            if s == times.count { times.append([]); values.append([]) }
            times[s].append(t)
            values[s].append(v)
        }
        return subjects.indices.map { MeasurementSeries(subject: subjects[$0], timestampsMs: times[$0], values: values[$0]) }
    }
}
