/// Range checks applied to every imported measurement (docs/import.md, Import rules),
/// with the registry's ranges (`HRConstants`, `RRConstants`).
extension ImportSink {
    /// The bpm in field `i`, or nil after rejecting the row as unparsable or out of range.
    func checkedBpm(_ record: CSVRecord, _ i: Int, file: Int32) throws -> Double? {
        try checked(record, i, MeasurementCheck.bpm(record.double(i), hrRange), file: file)
    }

    /// The R-R interval in ms of field `i` (its value × `scale`), or nil after
    /// rejecting the row as unparsable or out of range.
    func checkedRRMs(_ record: CSVRecord, _ i: Int, scale: Double, file: Int32) throws -> Double? {
        try checked(record, i, MeasurementCheck.rrMs(record.double(i), scale: scale, rrRange), file: file)
    }

    private func checked(_ record: CSVRecord, _ i: Int, _ verdict: MeasurementCheck.Verdict, file: Int32) throws -> Double? {
        switch verdict {
        case let .value(value): return value
        case let .rejected(reason):
            try reject(file, record, column: i + 1, reason: reason)
            return nil
        }
    }
}

/// The range checks themselves, decided without the sink (a worker reading a range of a
/// large file decides them too, `GenericCSV.readInRanges`).
enum MeasurementCheck {
    /// A measurement's value, or why its row is rejected.
    enum Verdict { case value(Double), rejected(String) }

    static func bpm(_ raw: Double?, _ range: HRConstants) -> Verdict {
        verdict(raw, scale: 1, range: range.rangeBpm, what: "bpm") { range.rejectReason }
    }

    static func rrMs(_ raw: Double?, scale: Double, _ range: RRConstants) -> Verdict {
        verdict(raw, scale: scale, range: range.rangeMs, what: "rr") { range.rejectReason }
    }

    /// The reason is built only for a rejected row (it is the same text for every row).
    private static func verdict(_ raw: Double?, scale: Double, range: ClosedRange<Double>, what: String,
                                reason: () -> String) -> Verdict {
        guard let raw else { return .rejected("unparsable \(what)") }
        let value = raw * scale
        return range.contains(value) ? .value(value) : .rejected(reason())
    }
}
