/// Range checks applied to every imported measurement (docs/import.md, Import rules),
/// with the registry's ranges (`HRConstants`, `RRConstants`).
extension ImportSink {
    /// The bpm in field `i`, or nil after rejecting the row as unparsable or out of range.
    func checkedBpm(_ record: CSVRecord, _ i: Int, file: Int32) throws -> Double? {
        try checked(record, i, scale: 1, range: hrRange.rangeBpm, what: "bpm", reason: hrRange.rejectReason, file: file)
    }

    /// The R-R interval in ms of field `i` (its value × `scale`), or nil after
    /// rejecting the row as unparsable or out of range.
    func checkedRRMs(_ record: CSVRecord, _ i: Int, scale: Double, file: Int32) throws -> Double? {
        try checked(record, i, scale: scale, range: rrRange.rangeMs, what: "rr", reason: rrRange.rejectReason, file: file)
    }

    private func checked(_ record: CSVRecord, _ i: Int, scale: Double, range: ClosedRange<Double>, what: String,
                         reason: String, file: Int32) throws -> Double? {
        guard let raw = record.double(i) else {
            try reject(file, record, column: i + 1, reason: "unparsable \(what)")
            return nil
        }
        let value = raw * scale
        guard range.contains(value) else {
            try reject(file, record, column: i + 1, reason: reason)
            return nil
        }
        return value
    }
}
