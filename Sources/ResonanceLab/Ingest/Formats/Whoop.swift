import Foundation

/// WHOOP account data export (app → Settings → Data export): CSVs of wall-clock times
/// (`yyyy-MM-dd HH:mm:ss`) whose zone is a separate per-row column, `Cycle timezone`
/// (`UTC-05:00`, `UTC+01:00`, `UTCZ`), so a member who travels keeps each row in its own
/// zone; rows are newest first (the sink sorts) and the current cycle has an empty end.
/// One reader for the three files, chosen by their header:
/// - `physiological_cycles.csv`: `Heart rate variability (ms)` (the RMSSD of the cycle's
///   sleep) → hrv_samples.csv `rmssd_ms` at the cycle's `Sleep onset`, source `whoop`.
///   `Resting heart rate (bpm)` is a daily aggregate, not a sample: it goes to
///   daily_inputs.csv (`resting_hr`, source `whoop`) on the local date of the cycle's
///   `Wake onset` — the morning WHOOP reports it for — never to hr.csv. A cycle with
///   neither HRV (with its sleep onset) nor a resting heart rate (the current one, a day
///   without sleep) is counted in the manifest (`unusedRecords`), not a row read.
/// - `sleeps.csv`: `Sleep onset` → `Wake onset` → one sleep.csv `in_bed` interval, source
///   `whoop`, or `whoop_nap` when `Nap` is true. Stage durations have no place in time
///   and are not read.
/// - `workouts.csv`: `Workout start time` → `Workout end time`, `Activity name` →
///   workouts.csv. Strain, energy, HR zones and GPS fields are not read.
///
/// A time is converted with its row's zone; with an empty or unreadable zone it is read
/// in `--tz`, or as UTC with a warning.
enum Whoop: FormatAdapter {
    static let source = "whoop"

    static func matches(columns: Set<String>) -> Bool {
        columns.isSuperset(of: ["cycle_start_time", "cycle_timezone"]) && kind(columns) != nil
    }

    enum Kind { case cycles, sleeps, workouts }

    static func kind(_ columns: Set<String>) -> Kind? {
        if columns.isSuperset(of: ["workout_start_time", "workout_end_time"]) { return .workouts }
        if columns.isSuperset(of: ["sleep_onset", "wake_onset", "nap"]) { return .sleeps }
        if columns.isSuperset(of: ["sleep_onset", "heart_rate_variability_ms"]) { return .cycles }
        return nil
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let file = input.file
        let subject = sink.subject(input.subject, group: input.group)
        var map: [String: Int] = [:]
        var table = Kind.cycles
        var unused: [String: Int] = [:]
        var zoneless = 0, implausibleRHR = 0
        var rows = try input.forEachRow(headerLines: 1, header: { record, _ in
            map = ColumnName.index(record)
            guard map["cycle_timezone"] != nil, let k = kind(Set(map.keys)) else {
                throw ImportError.unknownFormat(path: input.path, columns: record.strings)
            }
            table = k
        }, rejectingWiderRowsInto: sink) { record in
            func text(_ name: String) -> String { map[name].flatMap { $0 < record.count ? record.trimmed($0) : nil } ?? "" }
            /// The UTC instant of a wall-clock column, in the row's zone; nil after rejecting the row.
            func instant(_ name: String) throws -> Int64? {
                let column = (map[name] ?? 0) + 1
                guard let (ms, hasZone) = Timestamp.parseISO(text(name)) else {
                    try sink.reject(file, record, column: column, reason: "unparsable \(name)")
                    return nil
                }
                if hasZone { return ms }
                if let minutes = UTCOffset.minutes(text("cycle_timezone")), !text("cycle_timezone").isEmpty {
                    guard let utc = Timestamp.instant(ms: Double(ms - Int64(minutes) * 60_000)) else {
                        try sink.reject(file, record, column: column, reason: "time outside years 0000–9999")
                        return nil
                    }
                    return utc
                }
                zoneless += 1
                guard let utc = input.times.instant(fromNaive: ms) else {
                    try sink.reject(file, record, column: column, reason: "time outside years 0000–9999")
                    return nil
                }
                return utc
            }
            switch table {
            case .cycles:
                // The morning's resting heart rate, on the wake onset's wall-clock date.
                var restingHRDay: Int64?, restingHR = 0.0
                if let rhr = NumberParsing.double(text("resting_heart_rate_bpm")), rhr > 0,
                   let (wake, hasZone) = Timestamp.parseISO(text("wake_onset")), !hasZone {
                    if sink.hrRange.isPlausible(rhr) {
                        restingHRDay = Timestamp.floorDivMod(wake, 86_400_000).0
                        restingHR = rhr
                    } else {
                        implausibleRHR += 1
                    }
                }
                let hrvText = text("heart_rate_variability_ms")
                var rmssd: Double?, onset: Int64?
                if !hrvText.isEmpty, !text("sleep_onset").isEmpty, NumberParsing.double(hrvText) != 0 {
                    guard let v = NumberParsing.double(hrvText), v > 0 else {
                        return try sink.reject(file, record, column: (map["heart_rate_variability_ms"] ?? 0) + 1,
                                               reason: "Heart rate variability (ms) not a positive number")
                    }
                    guard let t = try instant("sleep_onset") else { return }
                    if try sink.rejectedAfterExport(file, record, column: (map["sleep_onset"] ?? 0) + 1, t) { return }
                    (rmssd, onset) = (v, t)
                } else if restingHRDay == nil {
                    unused["cycle without Heart rate variability (ms), Sleep onset or Resting heart rate", default: 0] += 1
                    return
                }
                if let day = restingHRDay {
                    if try sink.rejectedAfterExport(file, record, column: (map["wake_onset"] ?? 0) + 1, day * 86_400_000) { return }
                    sink.dailyInput(subject: subject, day: day, metric: .restingHR, value: restingHR, source: source, file: file)
                }
                if let rmssd, let onset {
                    try sink.hrvSample(subject: subject, ms: onset, rmssdMs: rmssd, source: source, file: file)
                }
            case .sleeps:
                guard let onset = try instant("sleep_onset"), let wake = try instant("wake_onset") else { return }
                guard wake > onset else {
                    return try sink.reject(file, record, column: (map["wake_onset"] ?? 0) + 1, reason: "end before start")
                }
                if try sink.rejectedAfterExport(file, record, column: (map["sleep_onset"] ?? 0) + 1, onset) { return }
                let nap = text("nap").lowercased() == "true"
                try sink.sleep(subject: subject, startMs: onset, endMs: wake, stage: .inBed,
                               source: nap ? "whoop_nap" : source, file: file)
            case .workouts:
                guard let start = try instant("workout_start_time"), let end = try instant("workout_end_time") else { return }
                guard end >= start else {
                    return try sink.reject(file, record, column: (map["workout_end_time"] ?? 0) + 1, reason: "end before start")
                }
                if try sink.rejectedAfterExport(file, record, column: (map["workout_start_time"] ?? 0) + 1, start) { return }
                let activity = text("activity_name")
                try sink.workout(subject: subject, startMs: start, endMs: end,
                                 activity: activity.isEmpty ? "unknown" : activity, file: file)
            }
            sink.accept(file)
        }
        rows -= unused.values.reduce(0, +)
        sink.setUnused(file, unused)
        if zoneless > 0, input.times.zone == nil {
            sink.warn(file, "\(zoneless) WHOOP times without a Cycle timezone: read as UTC (give --tz)")
        }
        switch table {
        case .cycles:
            sink.note(file, "Heart rate variability (ms) (RMSSD) → hrv_samples.rmssd_ms at Sleep onset; Resting heart rate "
                + "(bpm), a daily aggregate → daily_inputs.csv resting_hr on the Wake onset's date; times in each row's Cycle timezone")
            if implausibleRHR > 0 {
                sink.warn(file, "\(plural(implausibleRHR, "resting heart rate")) not read: \(sink.hrRange.rejectReason)")
            }
        case .sleeps:
            sink.note(file, "Sleep onset → Wake onset as in_bed (source whoop_nap for naps); times in each row's Cycle timezone")
        case .workouts:
            sink.note(file, "Workout start → end time, Activity name → workouts; times in each row's Cycle timezone")
        }
        try sink.endSource(input, rowsRead: rows)
    }
}
