import Foundation

/// Garmin Connect data export (Account → Data Management → Export Your Data), JSON arrays
/// read object by object (`JSONArrayReader`). One reader for two files, chosen by name
/// and content:
/// - `DI_CONNECT/DI-Connect-Wellness/*sleepData.json`: one object per night with
///   `sleepStartTimestampGMT` and `sleepEndTimestampGMT` (GMT without a zone suffix,
///   `2024-03-01T22:30:00.0`, or epoch ms) → one sleep.csv `in_bed` interval, source
///   `garmin`. The stage totals (`deepSleepSeconds`, `lightSleepSeconds`, …) have no
///   place in time and are not read. `avgOvernightHrv`, when present, is the night's
///   RMSSD (ms) → hrv_samples.csv `rmssd_ms` at the night's start.
/// - `DI_CONNECT/DI-Connect-Aggregator/UDSFile_*.json`: one daily summary per
///   `calendarDate` (the local date) → daily_inputs.csv `resting_hr` from
///   `restingHeartRate` and `steps` from `totalSteps`, source `garmin`. Garmin writes `0`
///   (or nothing) for a day the watch was not worn: missing, never 0 bpm or 0 steps. A
///   day with neither value is counted in the manifest (`unusedRecords`), not a row read.
/// - `DI_CONNECT/DI-Connect-Wellness/*healthStatusData.json`: Garmin's health status, one
///   object per `calendarDate` with `metrics` (`[{"type": "HRV", "value": 48, …}, {"type":
///   "HR", …}, …]`). The `HRV` value is the night's average overnight HRV (RMSSD, ms) but
///   carries no time of night: it is stamped at the start of that night's sleep window,
///   the `sleepStartTimestampGMT` of the night with the same `calendarDate` in the
///   `*sleepData.json` files beside it (the same export) → hrv_samples.csv `rmssd_ms`,
///   source `garmin`. A night without a sleep window, or whose sleep data already gave
///   its `avgOvernightHrv`, and a day without an HRV value are counted in
///   `unusedRecords`, not rows read; the other metrics are not read.
enum Garmin: FormatAdapter {
    static let source = "garmin"
    /// Plausible overnight RMSSD, ms: above 0 and below 1000.
    static let rmssdRangeMs = 0.0..<1000.0

    enum Kind { case sleep, dailySummary, healthStatus }

    /// The kind of a Garmin export file from its name and first bytes, or nil.
    static func kind(fileName: String, head: String) -> Kind? {
        if fileName.hasSuffix("healthstatusdata.json"), head.contains("\"calendarDate\""), head.contains("\"metrics\"") {
            return .healthStatus
        }
        if head.contains("\"sleepStartTimestampGMT\"")
            || fileName.hasSuffix("sleepdata.json") && head.contains("\"calendarDate\"") { return .sleep }
        if head.contains("\"calendarDate\""),
           fileName.hasPrefix("udsfile") || head.contains("\"totalSteps\"") && head.contains("\"restingHeartRate\"") {
            return .dailySummary
        }
        return nil
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let file = input.file
        let subject = sink.subject(input.subject, group: input.group)
        let name = (input.path as NSString).lastPathComponent.lowercased()
        guard let kind = kind(fileName: name, head: CSVPeek.headText(path: input.path)) else {
            throw ImportError.unknownFormat(path: input.path, columns: [])
        }
        var rows = 0
        var unused: [String: Int] = [:]
        var implausible = 0, hrvNights = 0
        let nights = kind == .healthStatus ? sleepWindows(besides: input.path) : [:]
        try JSONArrayReader(path: input.path).forEachObject { object, line in
            func reject(_ reason: String) throws {
                try sink.reject(file, line: line, column: 0, reason: reason, raw: JSONText.compact(object))
            }
            switch kind {
            case .sleep:
                rows += 1
                guard let start = gmt(object["sleepStartTimestampGMT"]), let end = gmt(object["sleepEndTimestampGMT"]) else {
                    return try reject("no or unparsable sleepStartTimestampGMT or sleepEndTimestampGMT")
                }
                guard end > start else { return try reject("sleep end not after its start") }
                if let late = sink.afterExport(start) { return try reject(late) }
                try sink.sleep(subject: subject, startMs: start, endMs: end, stage: .inBed, source: source, file: file)
                if let rmssd = ListenBrainz.number(object["avgOvernightHrv"]), rmssd > 0 {
                    if rmssdRangeMs.contains(rmssd) {
                        try sink.hrvSample(subject: subject, ms: start, rmssdMs: rmssd, source: source, file: file)
                        hrvNights += 1
                    } else {
                        implausible += 1
                    }
                }
            case .dailySummary:
                let rhr = ListenBrainz.number(object["restingHeartRate"]).flatMap { $0 > 0 ? $0 : nil }
                let steps = ListenBrainz.number(object["totalSteps"]).flatMap { $0 > 0 ? $0 : nil }
                guard rhr != nil || steps != nil else {
                    unused["day without restingHeartRate or totalSteps (0: not worn)", default: 0] += 1
                    return
                }
                rows += 1
                guard let day = calendarDay(object["calendarDate"]) else { return try reject("unparsable calendarDate") }
                if let late = sink.afterExport(day * 86_400_000) { return try reject(late) }
                if let rhr {
                    if sink.hrRange.isPlausible(rhr) {
                        sink.dailyInput(subject: subject, day: day, metric: .restingHR, value: rhr, source: source, file: file)
                    } else {
                        implausible += 1
                    }
                }
                if let steps { sink.dailyInput(subject: subject, day: day, metric: .steps, value: steps, source: source, file: file) }
            case .healthStatus:
                let metrics = object["metrics"] as? [[String: Any]] ?? []
                guard let hrv = metrics.first(where: { ($0["type"] as? String)?.uppercased() == "HRV" })
                        .flatMap({ ListenBrainz.number($0["value"]) }), hrv != 0 else {
                    unused["day without an HRV value", default: 0] += 1
                    return
                }
                let night = calendarDay(object["calendarDate"]).flatMap { nights[$0] }
                guard let night else {
                    // An unparsable calendarDate matches no night either: a row read, rejected.
                    guard calendarDay(object["calendarDate"]) != nil else {
                        rows += 1
                        return try reject("unparsable calendarDate")
                    }
                    unused["HRV of a night without a sleep window (*sleepData.json)", default: 0] += 1
                    return
                }
                guard !night.hasHRV else {
                    unused["HRV of a night whose sleep data gave avgOvernightHrv", default: 0] += 1
                    return
                }
                rows += 1
                guard rmssdRangeMs.contains(hrv) else { return try reject("HRV value not in (0, 1000) ms") }
                if let late = sink.afterExport(night.startMs) { return try reject(late) }
                try sink.hrvSample(subject: subject, ms: night.startMs, rmssdMs: hrv, source: source, file: file)
                hrvNights += 1
            }
            sink.accept(file)
        }
        sink.setUnused(file, unused)
        switch kind {
        case .sleep:
            sink.note(file, "sleepStartTimestampGMT → sleepEndTimestampGMT (GMT) as in_bed; stage totals not read; "
                + "avgOvernightHrv (RMSSD) → hrv_samples.rmssd_ms at the night's start (\(plural(hrvNights, "night")))")
        case .dailySummary:
            sink.note(file, "restingHeartRate → daily_inputs.csv resting_hr, totalSteps → steps, on calendarDate; 0 is not worn (missing)")
        case .healthStatus:
            sink.note(file, "metrics HRV (the night's RMSSD, ms) → hrv_samples.rmssd_ms at the start of the sleep window of the "
                + "same calendarDate in the *sleepData.json files beside it (\(plural(nights.count, "sleep window")), \(plural(hrvNights, "night")))")
        }
        if implausible > 0 { sink.warn(file, "\(plural(implausible, "implausible value")) not read (heart rate \(sink.hrRange.rejectReason))") }
        try sink.endSource(input, rowsRead: rows)
    }

    /// A night of the export's sleep data: when its sleep window starts, and whether the
    /// sleep data itself gave the night's HRV (`avgOvernightHrv`).
    struct Night {
        var startMs: Int64
        var hasHRV: Bool
    }

    /// The sleep windows of the `*sleepData.json` files in the folder of `path`, by
    /// `calendarDate` (days since 1970-01-01), the first night of a date kept. A file or
    /// night that does not read is left out (its own import reports it).
    static func sleepWindows(besides path: String) -> [Int64: Night] {
        let folder = (path as NSString).deletingLastPathComponent
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.lowercased().hasSuffix("sleepdata.json") && !$0.hasPrefix(".") }
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        var nights: [Int64: Night] = [:]
        for name in names {
            try? JSONArrayReader(path: (folder as NSString).appendingPathComponent(name)).forEachObject { object, _ in
                guard let day = calendarDay(object["calendarDate"]), nights[day] == nil,
                      let start = gmt(object["sleepStartTimestampGMT"]) else { return }
                let hrv = ListenBrainz.number(object["avgOvernightHrv"]).map { rmssdRangeMs.contains($0) && $0 > 0 } ?? false
                nights[day] = Night(startMs: start, hasHRV: hrv)
            }
        }
        return nights
    }

    /// An instant Garmin writes in GMT: ISO text without a zone (read as UTC, not in
    /// `--tz`), or epoch milliseconds.
    static func gmt(_ value: Any?) -> Int64? {
        if let text = value as? String { return Timestamp.parseISO(text)?.ms }
        if let n = value as? NSNumber { return Timestamp.instant(ms: n.doubleValue) }
        return nil
    }

    /// Days since 1970-01-01 of a `calendarDate` (`2024-03-01`, or `{"date": "2024-03-01…"}`).
    static func calendarDay(_ value: Any?) -> Int64? {
        let text = (value as? String) ?? ((value as? [String: Any])?["date"] as? String) ?? ""
        guard text.count >= 10, let (ms, _) = Timestamp.parseISO(String(text.prefix(10)) + "T00:00:00Z") else { return nil }
        return Timestamp.floorDivMod(ms, 86_400_000).0
    }
}
