import Foundation

/// A generic daily-metrics CSV (docs/import.md, Daily metrics CSV): per-day values of the
/// `DailyMetric`s under their `daily_inputs.csv` names, in one of two layouts —
/// - long: `date`, `metric`, `value`, and optionally `subject` and `unit`, one value per
///   row (`2024-03-01,resting_hr,58,bpm`);
/// - wide: `date` and one column per metric named exactly as the metric (`resting_hr`,
///   `steps`, …), optionally `subject`, one day per row, each value in the metric's unit
///   of daily_inputs.csv.
/// `date` is the local calendar date `YYYY-MM-DD`. `subject` (when present and not empty)
/// names the row's subject, else `--subject`. A long row's `unit` (empty: the metric's
/// own) is converted as the exports' units are (`DailyMetric.factor`: `count/min`, `lb`,
/// `kJ`, `hr`, `in`, …). → daily_inputs.csv, source `daily_metrics`. An empty wide cell is
/// no value; a wide row without any value is counted in the manifest, not as a row read.
enum DailyMetricsCSV: FormatAdapter {
    static let source = "daily_metrics"

    enum Layout: Equatable { case long, wide }

    /// The layout of a header, or nil when it is neither.
    static func layout(header: [String]) -> Layout? {
        let names = header.map(ColumnName.normalized)
        guard names.contains("date") else { return nil }
        let rest = Set(names).subtracting(["date", "subject"])
        if rest == ["metric", "value"] || rest == ["metric", "value", "unit"] { return .long }
        return !rest.isEmpty && rest.allSatisfy { DailyMetric(rawValue: $0) != nil } ? .wide : nil
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let file = input.file
        var layout = Layout.long
        var map: [String: Int] = [:]
        var metrics: [(column: Int, metric: DailyMetric)] = []
        var empty = 0
        var rows = try input.forEachRow(headerLines: 1, header: { record, _ in
            let header = record.strings
            guard let found = Self.layout(header: header) else {
                // Name the first column that is neither a metric nor date / subject / metric / value / unit.
                let known: Set<String> = ["date", "subject", "metric", "value", "unit"]
                if let bad = header.firstIndex(where: { !known.contains(ColumnName.normalized($0)) && DailyMetric(rawValue: ColumnName.normalized($0)) == nil }) {
                    throw ImportError.badMetadata(path: input.path, line: 1, column: bad + 1, message: "'\(header[bad])' is not a daily metric ("
                        + DailyMetric.allCases.map(\.rawValue).joined(separator: ", ") + ") nor date, subject, metric, value or unit")
                }
                throw ImportError.unknownFormat(path: input.path, columns: header)
            }
            layout = found
            map = ColumnName.index(record)
            metrics = header.enumerated().compactMap { i, name in DailyMetric(rawValue: ColumnName.normalized(name)).map { (i, $0) } }
        }, rejectingWiderRowsInto: sink) { record in
            func cell(_ name: String) -> String { map[name].flatMap { $0 < record.count ? record.trimmed($0) : nil } ?? "" }
            func column(_ name: String) -> Int { (map[name] ?? 0) + 1 }
            guard let day = Timestamp.dayNumber(isoDate: cell("date")) else {
                return try sink.reject(file, record, column: column("date"), reason: "date is not a YYYY-MM-DD date")
            }
            if try sink.rejectedAfterExport(file, record, column: column("date"), Int64(day) * 86_400_000) { return }
            func checked(_ metric: DailyMetric, _ value: Double, column: Int) throws -> Double? {
                guard value.isFinite, value >= 0 else {
                    try sink.reject(file, record, column: column, reason: "\(metric.rawValue) not a number ≥ 0")
                    return nil
                }
                if metric.unit == "bpm", metric != .hrRecovery1m, !sink.hrRange.isPlausible(value) {
                    try sink.reject(file, record, column: column, reason: sink.hrRange.rejectReason)
                    return nil
                }
                return value
            }
            var values: [(DailyMetric, Double)] = []
            switch layout {
            case .long:
                guard let metric = DailyMetric(rawValue: cell("metric")) else {
                    return try sink.reject(file, record, column: column("metric"), reason: "unknown metric (one of "
                        + DailyMetric.allCases.map(\.rawValue).joined(separator: ", ") + ")")
                }
                let unit = cell("unit")
                guard let factor = unit.isEmpty ? 1 : metric.factor(fromUnit: unit) else {
                    return try sink.reject(file, record, column: column("unit"),
                                           reason: "unit '\(unit)' is not one \(metric.rawValue) is converted from")
                }
                guard let raw = NumberParsing.double(cell("value")) else {
                    return try sink.reject(file, record, column: column("value"), reason: "value is not a number")
                }
                guard let v = try checked(metric, raw * factor, column: column("value")) else { return }
                values.append((metric, v))
            case .wide:
                for (i, metric) in metrics where i < record.count && !record.trimmed(i).isEmpty {
                    guard let raw = NumberParsing.double(record.trimmed(i)) else {
                        return try sink.reject(file, record, column: i + 1, reason: "\(metric.rawValue) is not a number")
                    }
                    guard let v = try checked(metric, raw, column: i + 1) else { return }
                    values.append((metric, v))
                }
                guard !values.isEmpty else { empty += 1; return }
            }
            let named = cell("subject")
            let subject = sink.subject(named.isEmpty ? input.subject : named, group: input.group)
            for (metric, v) in values {
                sink.dailyInput(subject: subject, day: Int64(day), metric: metric, value: v, source: source, file: file)
            }
            sink.accept(file)
        }
        rows -= empty
        if empty > 0 { sink.setUnused(file, ["rows without a value": empty]) }
        sink.note(file, layout == .long
            ? "long layout: date, metric, value (unit converted) → daily_inputs.csv"
            : "wide layout: date and one column per metric (\(metrics.map(\.metric.rawValue).joined(separator: ", "))) → daily_inputs.csv")
        try sink.endSource(input, rowsRead: rows)
    }
}
