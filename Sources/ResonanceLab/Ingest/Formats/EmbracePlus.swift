import Foundation

/// Empatica EmbracePlus aggregated digital biomarkers (Care Portal / S3 export):
/// one CSV per participant, day and measure — `…_pulse-rate.csv`, `…_prv.csv` —
/// or one file with several measures, one row per minute:
/// `timestamp_unix` (ms, UTC), `timestamp_iso`, `participant_full_id`, the measure's
/// columns, and `missing_value_reason` when the minute has no value (device not
/// worn, not recording, …).
///
/// Read: `pulse_rate_bpm` → hr.csv and `prv_rmssd_ms` (pulse-rate variability, the
/// RMSSD of the minute's inter-beat intervals from the PPG) → hrv_samples.csv
/// `rmssd_ms`, both at the minute's start, source `embrace_plus`; the subject is
/// `participant_full_id`. The time is `timestamp_unix`, else `timestamp_iso`.
/// Minutes without a value of either measure are not rows read: the manifest
/// counts them per `missing_value_reason` (`unusedRecords`), as they would
/// otherwise fill rejects.csv with every hour the watch was off. Other columns
/// (EDA, temperature, activity counts, …) are not read.
enum EmbracePlus: FormatAdapter {
    static let source = "embrace_plus"
    static let measures = ["pulse_rate_bpm", "prv_rmssd_ms"]

    static func matches(columns names: Set<String>) -> Bool {
        names.contains("participant_full_id") && !names.isDisjoint(with: measures)
            && !names.isDisjoint(with: ["timestamp_unix", "timestamp_iso"])
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let file = input.file
        var col: (time: Int, unix: Bool, subject: Int, bpm: Int?, prv: Int?, reason: Int?) = (0, true, 0, nil, nil, nil)
        var missing: [String: Int] = [:]
        var lastID: [UInt8] = []
        var lastSubject = 0
        let rows = try input.forEachRow(headerLines: 1, header: { record, _ in
            let map = ColumnName.index(record)
            guard let time = map["timestamp_unix"] ?? map["timestamp_iso"], let subject = map["participant_full_id"],
                  map["pulse_rate_bpm"] != nil || map["prv_rmssd_ms"] != nil else {
                throw ImportError.unknownFormat(path: input.path, columns: record.strings)
            }
            col = (time, map["timestamp_unix"] != nil, subject, map["pulse_rate_bpm"], map["prv_rmssd_ms"],
                   map["missing_value_reason"])
        }, rejectingWiderRowsInto: sink) { record in
            let bpmText = col.bpm.map { $0 < record.count ? record.trimmed($0) : "" } ?? ""
            let prvText = col.prv.map { $0 < record.count ? record.trimmed($0) : "" } ?? ""
            if bpmText.isEmpty && prvText.isEmpty {
                let reason = col.reason.map { $0 < record.count ? record.trimmed($0) : "" } ?? ""
                missing["missing_value_reason=\(reason.isEmpty ? "(none)" : reason)", default: 0] += 1
                return
            }
            guard col.subject < record.count, !record.bytes(col.subject).isEmpty else {
                return try sink.reject(file, record, column: col.subject + 1, reason: "missing subject")
            }
            if !record.bytes(col.subject).elementsEqual(lastID) {
                lastID = Array(record.bytes(col.subject))
                let (id, latin1) = IdText.decode(record.bytes(col.subject))
                if latin1 { sink.note(file, IdText.latin1Note) }
                lastSubject = sink.subject(id, group: input.group)
            }
            guard let ms = input.times.parse(record, col.time, unix: col.unix ? .milliseconds : .byMagnitude) else {
                return try sink.reject(file, record, column: col.time + 1, reason: "unparsable time")
            }
            if try sink.rejectedAfterExport(file, record, column: col.time + 1, ms) { return }
            var bpm: Double?, rmssd: Double?
            if let c = col.bpm, !bpmText.isEmpty {
                guard let v = try sink.checkedBpm(record, c, file: file) else { return }
                bpm = v
            }
            if let c = col.prv, !prvText.isEmpty {
                guard let v = record.double(c), v > 0 else {
                    return try sink.reject(file, record, column: c + 1, reason: "prv_rmssd_ms not a positive number")
                }
                rmssd = v
            }
            if let bpm { try sink.heartRate(subject: lastSubject, ms: ms, bpm: bpm, source: source, file: file) }
            if let rmssd { try sink.hrvSample(subject: lastSubject, ms: ms, rmssdMs: rmssd, source: source, file: file) }
            sink.accept(file)
        }
        sink.setUnused(file, missing)
        sink.note(file, "per-minute values at the minute's start (\(col.unix ? "timestamp_unix, ms" : "timestamp_iso")); pulse_rate_bpm → hr, prv_rmssd_ms → hrv_samples.rmssd_ms; minutes without a value counted per missing_value_reason")
        try sink.endSource(input, rowsRead: rows - missing.values.reduce(0, +))
    }
}
