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
    /// Reads a measurement table (`subject,timestamp,<value>,…`: hr.csv, rr.csv,
    /// hrv_samples.csv) straight into per-subject columns, subjects in order of first
    /// appearance. Millions of beats fit in 16 bytes each this way, where whole rows
    /// would hold two strings apiece; the subject text is compared as bytes and only
    /// turned into a String when it changes. An absent table reads as empty.
    public func readSeries<Row: CanonicalRow>(_ type: Row.Type, value column: String) throws -> [MeasurementSeries] {
        guard exists(Row.fileName) else { return [] }
        let path = file(Row.fileName)
        var series: [MeasurementSeries] = []
        var index: [String: Int] = [:]
        var current = -1
        var currentBytes: [UInt8] = []
        var columns: (subject: Int, time: Int, value: Int)?
        try CSVReader(path: path).forEachRecord { record in
            guard let c = columns else {
                let names = (0..<record.count).map { record.trimmed($0) }
                guard let s = names.firstIndex(of: "subject"), let t = names.firstIndex(of: "timestamp"),
                      let v = names.firstIndex(of: column) else {
                    throw TableError(path: path, line: record.line, column: 0,
                                     message: "header lacks subject, timestamp or \(column)")
                }
                columns = (s, t, v)
                return
            }
            guard record.count > max(c.subject, c.time, c.value) else {
                throw TableError(path: path, line: record.line, column: record.count + 1, message: "missing fields")
            }
            let subjectBytes = record.bytes(c.subject)
            if current < 0 || !subjectBytes.elementsEqual(currentBytes) {
                currentBytes = Array(subjectBytes)
                let name = String(decoding: subjectBytes, as: UTF8.self)
                if let i = index[name] {
                    current = i
                } else {
                    current = series.count
                    index[name] = current
                    series.append(MeasurementSeries(subject: name))
                }
            }
            guard let t = Timestamp.parseISO(bytes: record.bytes(c.time)) else {
                throw TableError(path: path, line: record.line, column: c.time + 1,
                                 message: "'timestamp' is not an ISO 8601 time: '\(record.string(c.time))'")
            }
            guard let v = record.double(c.value) else {
                throw TableError(path: path, line: record.line, column: c.value + 1,
                                 message: "'\(column)' is not a number: '\(record.string(c.value))'")
            }
            series[current].timestampsMs.append(t.ms)
            series[current].values.append(v)
        }
        return series
    }
}
