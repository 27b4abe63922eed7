import Foundation

/// Health Auto Export CSV (the iOS app's CSV export of Apple Health metrics): a `Date`
/// (or `Date/Time`) column, then one column per metric named with its unit,
/// `Resting Heart Rate (count/min)`, `VO2 Max (ml/(kg·min))`, one row per aggregation
/// period (a minute, an hour, a day). The date is local wall-clock time, with or without
/// its offset (`2024-03-01 00:00:00 -0500`, `2024-03-01 00:00:00`, `2024-03-01`).
/// - Per-day metrics → daily_inputs.csv on the date's own (local) calendar date, each
///   value brought to the metric's unit by the header's unit (`DailyMetric.factor`),
///   the rows of a day combined as every import combines them (counts summed, levels
///   averaged), source `health_auto_export`: `Resting Heart Rate` (`resting_hr`),
///   `Cardio Recovery` (`hr_recovery_1m`), `VO2 Max`, `Step Count`, `Apple Exercise Time`,
///   `Active Energy`, `Walking Heart Rate Average`, `Weight & Body Mass` / `Weight` /
///   `Body Mass` (`body_mass`), `Height`.
/// - `Heart Rate Variability (ms)` (Apple's SDNN) → hrv_samples.csv `sdnn_ms` at the
///   row's time (its offset, else `--tz`, else UTC with a warning).
/// - `Heart Rate [Avg] (count/min)`, the period's mean heart rate → hr.csv (source
///   `health_auto_export`) at the row's time, by the same time rule as its HRV; the
///   period's `Heart Rate [Min]` and `[Max]` are not extra samples.
/// Every other column (heart-rate min and max, sleep totals — hours without a place in
/// time —, nutrition, …) is not read: the manifest counts its non-empty cells per column
/// (`unusedRecords`). A row without any value read is counted there too, not as a row
/// read. An empty cell is no value; a cell that is not a number, a negative one or an
/// implausible heart rate rejects its row, naming the column.
enum HealthAutoExportCSV: FormatAdapter {
    /// The metric columns read, by the name before the unit.
    static let dailyColumns: [String: DailyMetric] = [
        "Resting Heart Rate": .restingHR, "Cardio Recovery": .hrRecovery1m, "VO2 Max": .vo2Max, "Step Count": .steps,
        "Apple Exercise Time": .exerciseMinutes, "Active Energy": .activeEnergy, "Walking Heart Rate Average": .walkingHR,
        "Weight & Body Mass": .bodyMass, "Weight": .bodyMass, "Body Mass": .bodyMass, "Height": .height,
    ]
    static let hrvColumn = "Heart Rate Variability"
    /// The period's mean heart rate (the app writes its `[Min]` and `[Max]` beside it).
    static let heartRateColumn = "Heart Rate [Avg]"
    /// The unit of a heart rate in the app's headers (beats per minute).
    static let bpmUnit = "count/min"

    /// A header cell split into its name and the unit in its last parentheses
    /// (`VO2 Max (ml/(kg·min))` → `VO2 Max`, `ml/(kg·min)`); nil without a unit.
    static func nameAndUnit(_ cell: String) -> (name: String, unit: String)? {
        let text = cell.trimmingCharacters(in: .whitespaces)
        guard text.hasSuffix(")"), let open = text.range(of: " (") else { return nil }
        let unit = text[open.upperBound..<text.index(before: text.endIndex)]
        return (String(text[..<open.lowerBound]), String(unit))
    }

    /// The first column is the date and another names a metric of the app with its unit
    /// (a per-day metric, HRV, or the heart rate alone).
    static func matches(header: [String]) -> Bool {
        guard let first = header.first, ["date", "date_time"].contains(ColumnName.normalized(first)) else { return false }
        return header.dropFirst().contains { cell in
            nameAndUnit(cell).map { dailyColumns[$0.name] != nil || $0.name == hrvColumn || $0.name == heartRateColumn } ?? false
        }
    }

    private enum Column { case daily(DailyMetric, factor: Double), hrv, heartRate, unread(String) }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let file = input.file
        let subject = sink.subject(input.subject, group: input.group)
        var columns: [Column] = []
        var unused: [String: Int] = [:]
        var zoneless = 0, empty = 0
        var rows = try input.forEachRow(headerLines: 1, header: { record, _ in
            let header = record.strings
            guard matches(header: header) else { throw ImportError.unknownFormat(path: input.path, columns: header) }
            columns = try header.enumerated().map { i, cell in
                guard i > 0 else { return .unread("") }
                guard let (name, unit) = nameAndUnit(cell) else { return .unread(cell) }
                if name == heartRateColumn {
                    guard unit == bpmUnit else {
                        throw ImportError.badMetadata(path: input.path, line: 1, column: i + 1,
                                                      message: "'\(cell)': Heart Rate is read in \(bpmUnit) only")
                    }
                    return .heartRate
                }
                if name == hrvColumn {
                    guard unit == "ms" else {
                        throw ImportError.badMetadata(path: input.path, line: 1, column: i + 1,
                                                      message: "'\(cell)': Heart Rate Variability is read in ms only")
                    }
                    return .hrv
                }
                guard let metric = dailyColumns[name] else { return .unread(cell) }
                guard let factor = metric.factor(fromUnit: unit) else {
                    throw ImportError.badMetadata(path: input.path, line: 1, column: i + 1,
                                                  message: "'\(cell)': unit '\(unit)' is not one \(metric.rawValue) is converted from")
                }
                return .daily(metric, factor: factor)
            }
        }, rejectingWiderRowsInto: sink) { record in
            let text = record.count > 0 ? record.trimmed(0) : ""
            guard let (stamp, hasZone) = Timestamp.parseISO(text),
                  let day = Timestamp.dayNumber(isoDate: String(text.prefix(10))) else {
                return try sink.reject(file, record, column: 1, reason: "unparsable Date (yyyy-MM-dd[ HH:mm:ss[ ±hhmm]])")
            }
            var daily: [(DailyMetric, Double)] = [], sdnn: Double?, bpm: Double?
            var unread: [String] = []
            for i in columns.indices.dropFirst() where i < record.count {
                let cell = record.trimmed(i)
                guard !cell.isEmpty else { continue }
                if case .unread(let name) = columns[i] { unread.append(name); continue }
                guard let value = NumberParsing.double(cell), value.isFinite, value >= 0 else {
                    return try sink.reject(file, record, column: i + 1, reason: "not a number ≥ 0")
                }
                switch columns[i] {
                case .daily(let metric, let factor):
                    let v = value * factor
                    if [.restingHR, .walkingHR].contains(metric), !sink.hrRange.isPlausible(v) {
                        return try sink.reject(file, record, column: i + 1, reason: sink.hrRange.rejectReason)
                    }
                    // A zero count adds nothing to the day's sum; alone it would state a day of none.
                    if metric.isCumulative && v == 0 { continue }
                    daily.append((metric, v))
                case .hrv:
                    guard value > 0 else { return try sink.reject(file, record, column: i + 1, reason: "Heart Rate Variability not > 0 ms") }
                    sdnn = value
                case .heartRate:
                    guard sink.hrRange.isPlausible(value) else {
                        return try sink.reject(file, record, column: i + 1, reason: sink.hrRange.rejectReason)
                    }
                    bpm = value
                case .unread: break
                }
            }
            for name in unread { unused["column \(name) (not read)", default: 0] += 1 }
            guard !daily.isEmpty || sdnn != nil || bpm != nil else { empty += 1; return }
            // Samples at the row's time; per-day values from the start of its date.
            var ms = Int64(day) * 86_400_000
            if sdnn != nil || bpm != nil {
                ms = stamp
                if !hasZone {
                    zoneless += 1
                    guard let utc = input.times.instant(fromNaive: stamp) else {
                        return try sink.reject(file, record, column: 1, reason: "time outside years 0000–9999")
                    }
                    ms = utc
                }
            }
            if try sink.rejectedAfterExport(file, record, column: 1, ms) { return }
            if let bpm { try sink.heartRate(subject: subject, ms: ms, bpm: bpm, source: HealthAutoExport.source, file: file) }
            if let sdnn { try sink.hrvSample(subject: subject, ms: ms, sdnnMs: sdnn, source: HealthAutoExport.source, file: file) }
            for (metric, value) in daily {
                sink.dailyInput(subject: subject, day: Int64(day), metric: metric, value: value, source: HealthAutoExport.source,
                                file: file)
            }
            sink.accept(file)
        }
        rows -= empty
        if empty > 0 { unused["rows without a value read", default: 0] += empty }
        sink.setUnused(file, unused)
        let read = columns.compactMap { c -> String? in
            if case .daily(let m, _) = c { return m.rawValue }
            return nil
        }
        sink.note(file, "Date's local calendar date → daily_inputs.csv (\(Set(read).sorted().joined(separator: ", "))), "
            + "units converted from the header; Heart Rate Variability (ms, SDNN) → hrv_samples.sdnn_ms at the Date"
            + (columns.contains { if case .heartRate = $0 { return true }; return false }
                ? "; Heart Rate [Avg] (count/min) → hr.csv at the Date (Min and Max not read)" : ""))
        if zoneless > 0, input.times.zone == nil {
            sink.warn(file, "\(plural(zoneless, "row")) of heart rate or Heart Rate Variability without an offset: read as UTC (give --tz)")
        }
        try sink.endSource(input, rowsRead: rows)
    }
}
