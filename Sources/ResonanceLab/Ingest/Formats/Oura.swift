import Foundation

/// Oura API v2 documents as the API returns them (<https://cloud.ouraring.com/v2/docs>):
/// `{"data": [...], "next_token": …}`, one page per file, the `data` array read object
/// by object (`JSONArrayReader`, bounded memory). One reader for the two collections, chosen per element of `data`:
/// - `/v2/usercollection/heartrate`: `{"bpm", "source", "timestamp"}`, `timestamp` ISO
///   8601 with `Z` or an offset → hr.csv, source `oura`. Some clients save
///   `timestamp_unix` beside it, in milliseconds or seconds: it is read only when
///   `timestamp` is absent, its unit decided per value by magnitude
///   (`TimeFieldParser.UnixUnit.byMagnitude`) and named in the manifest.
/// - `/v2/usercollection/sleep`: one document per sleep period. `heart_rate` and `hrv`
///   are `{interval: s, items: [...], timestamp: local ISO with offset}`: item *k* is at
///   `timestamp + k·interval`; a `null` keeps its slot and gives no row. `heart_rate`
///   items → hr.csv (source `oura`), `hrv` items → hrv_samples.csv `rmssd_ms` (Oura's
///   HRV is RMSSD). `sleep_phase_5_min` (`1` deep, `2` light → `core`, `3` rem, `4`
///   awake, one character per 5 minutes from `bedtime_start`) → one sleep.csv interval
///   per run of equal characters, the last one ending at `bedtime_end` at the latest.
///   `lowest_heart_rate` of the night's main period (`type` `long_sleep`, or a document
///   without `type`) is a nightly aggregate: daily_inputs.csv `resting_hr` on the local
///   date of `bedtime_end`, the morning Oura reports it for. `average_hrv`, scores and
///   stage totals are not read.
///
/// One row read per element of `data`: a heart rate item, or a sleep document (accepted
/// when its `bedtime_start` and `bedtime_end` parse, whatever samples it holds).
/// A time without an offset is read in `--tz`, or as UTC with a warning.
enum Oura: FormatAdapter {
    static let source = "oura"
    /// Seconds per character of `sleep_phase_5_min`.
    static let phaseSlotS: Int64 = 300

    /// Whether the first bytes of a JSON file look like an Oura v2 heart rate or sleep page.
    static func matches(fileName: String, head: String) -> Bool {
        guard head.contains("\"data\"") else { return false }
        if head.contains("\"bedtime_start\"") || head.contains("\"sleep_phase_5_min\"") { return true }
        let heartRate = head.contains("\"bpm\"") && (head.contains("\"timestamp\"") || head.contains("\"timestamp_unix\""))
        return heartRate && (fileName.contains("heartrate") || fileName.contains("oura") || head.contains("\"source\""))
    }

    /// The sleep stage of a `sleep_phase_5_min` character.
    static func stage(_ c: Character) -> SleepStage? {
        switch c {
        case "1": return .deep
        case "2": return .core
        case "3": return .rem
        case "4": return .awake
        default: return nil
        }
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let file = input.file
        let subject = sink.subject(input.subject, group: input.group)
        var rows = 0, zoneless = 0, implausible = 0, unknownPhases = 0
        var unixUnits: Set<String> = []
        var sawHR = false, sawSleep = false
        /// The UTC instant of an ISO time: with its offset, else in `--tz` (or UTC).
        func instant(_ text: String) -> Int64? {
            guard let (ms, hasZone) = Timestamp.parseISO(text) else { return nil }
            if hasZone { return ms }
            zoneless += 1
            return input.times.instant(fromNaive: ms)
        }
        try JSONArrayReader(path: input.path, member: "data").forEachObject { object, line in
            rows += 1
            func reject(_ reason: String) throws {
                try sink.reject(file, line: line, column: 0, reason: reason, raw: JSONText.compact(object))
            }
            if object["bedtime_start"] != nil || object["sleep_phase_5_min"] != nil {
                sawSleep = true
                guard let startText = object["bedtime_start"] as? String, let start = instant(startText),
                      let endText = object["bedtime_end"] as? String, let end = instant(endText) else {
                    return try reject("unparsable bedtime_start or bedtime_end")
                }
                guard end > start else { return try reject("bedtime_end not after bedtime_start") }
                if let late = sink.afterExport(start) { return try reject(late) }
                implausible += try samples(object["heart_rate"], instant: instant, plausible: sink.hrRange.isPlausible) {
                    try sink.heartRate(subject: subject, ms: $0, bpm: $1, source: source, file: file)
                }
                implausible += try samples(object["hrv"], instant: instant, plausible: { $0 > 0 && $0 < 1000 }) {
                    try sink.hrvSample(subject: subject, ms: $0, rmssdMs: $1, source: source, file: file)
                }
                unknownPhases += try hypnogram(object["sleep_phase_5_min"] as? String ?? "", start: start, end: end,
                                               subject: subject, sink: sink, file: file)
                let type = object["type"] as? String
                if type == nil || type == "long_sleep", let lowest = ListenBrainz.number(object["lowest_heart_rate"]),
                   lowest > 0, let offset = offsetMinutes(endText) {
                    if sink.hrRange.isPlausible(lowest) {
                        let localEnd = end + Int64(offset) * 60_000
                        sink.dailyInput(subject: subject, day: Timestamp.floorDivMod(localEnd, 86_400_000).0,
                                        metric: .restingHR, value: lowest, source: source, file: file)
                    } else {
                        implausible += 1
                    }
                }
                sink.accept(file)
            } else {
                sawHR = true
                guard let bpm = ListenBrainz.number(object["bpm"]) else { return try reject("no bpm") }
                guard sink.hrRange.isPlausible(bpm) else { return try reject(sink.hrRange.rejectReason) }
                let ms: Int64
                if let text = object["timestamp"] as? String {
                    guard let t = instant(text) else { return try reject("unparsable timestamp") }
                    ms = t
                } else if let unix = ListenBrainz.number(object["timestamp_unix"]) {
                    let inMs = unix.magnitude >= 1e11
                    unixUnits.insert(inMs ? "ms" : "s")
                    guard let t = Timestamp.instant(ms: inMs ? unix : unix * 1000) else {
                        return try reject("timestamp_unix outside years 0000–9999")
                    }
                    ms = t
                } else {
                    return try reject("no timestamp")
                }
                if let late = sink.afterExport(ms) { return try reject(late) }
                try sink.heartRate(subject: subject, ms: ms, bpm: bpm, source: source, file: file)
                sink.accept(file)
            }
        }
        if sawHR {
            sink.note(file, "heartrate: bpm → hr.csv at timestamp (UTC or its offset)"
                + (unixUnits.isEmpty ? "" : "; timestamp_unix read in \(unixUnits.sorted().joined(separator: " and ")) (by magnitude)"))
        }
        if sawSleep {
            sink.note(file, "sleep: heart_rate items → hr.csv, hrv items (RMSSD) → hrv_samples.rmssd_ms at timestamp + k·interval; "
                + "sleep_phase_5_min → one interval per run (1 deep, 2 core, 3 rem, 4 awake) from bedtime_start; "
                + "lowest_heart_rate of long_sleep → daily_inputs.csv resting_hr on bedtime_end's local date")
        }
        if implausible > 0 { sink.warn(file, "\(plural(implausible, "sleep value")) not read: heart rate \(sink.hrRange.rejectReason), or RMSSD not in (0, 1000) ms") }
        if unknownPhases > 0 { sink.warn(file, "\(plural(unknownPhases, "sleep_phase_5_min character")) other than 1–4: no interval") }
        if zoneless > 0, input.times.zone == nil {
            sink.warn(file, "\(zoneless) Oura times without an offset: read as UTC (give --tz)")
        }
        try sink.endSource(input, rowsRead: rows)
    }

    /// Writes the items of a `{interval, items, timestamp}` sample object; returns how many
    /// items were not plausible values (dropped). Nulls keep their slot.
    private static func samples(_ value: Any?, instant: (String) -> Int64?, plausible: (Double) -> Bool,
                                write: (Int64, Double) throws -> Void) throws -> Int {
        guard let object = value as? [String: Any], let items = object["items"] as? [Any],
              let text = object["timestamp"] as? String, let start = instant(text),
              let interval = ListenBrainz.number(object["interval"]), interval > 0, interval < 86_400 else { return 0 }
        var dropped = 0
        for (k, item) in items.enumerated() {
            guard let v = ListenBrainz.number(item) else { continue }
            guard plausible(v), let ms = Timestamp.instant(ms: Double(start) + Double(k) * interval * 1000) else {
                dropped += 1; continue
            }
            try write(ms, v)
        }
        return dropped
    }

    /// Writes one sleep.csv interval per run of equal stage characters; returns the
    /// characters that are no stage.
    private static func hypnogram(_ phases: String, start: Int64, end: Int64, subject: Int, sink: ImportSink,
                                  file: Int32) throws -> Int {
        var unknown = 0
        var runStart = 0, k = 0
        var current: Character?
        func flush() throws {
            guard let c = current, let stage = Oura.stage(c) else { return }
            let s = start + Int64(runStart) * phaseSlotS * 1000
            let e = min(start + Int64(k) * phaseSlotS * 1000, end)
            if e > s { try sink.sleep(subject: subject, startMs: s, endMs: e, stage: stage, source: source, file: file) }
        }
        for c in phases {
            if c != current {
                try flush()
                current = c; runStart = k
            }
            if stage(c) == nil { unknown += 1 }
            k += 1
        }
        try flush()
        return unknown
    }

    /// Minutes east of UTC of an ISO time's offset (`+01:00`, `Z`), nil without one.
    static func offsetMinutes(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.hasSuffix("Z") || t.hasSuffix("z") { return 0 }
        guard let tIndex = t.firstIndex(where: { $0 == "T" || $0 == " " }),
              let sign = t[tIndex...].lastIndex(where: { $0 == "+" || $0 == "-" }) else { return nil }
        return UTCOffset.minutes(String(t[sign...]))
    }
}
