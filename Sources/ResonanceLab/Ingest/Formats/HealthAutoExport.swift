import Foundation

/// Health Auto Export JSON (the iOS app's export of Apple Health,
/// `{"data": {"metrics": [{"name", "units", "data": [point, …]}, …], "workouts": […]}}`),
/// read in one streaming pass (`HealthAutoExportReader`). Every date is local with its
/// offset, `yyyy-MM-dd HH:mm:ss ±hhmm`, so instants stay right across a DST change.
/// - `heart_rate` points (`Min`, `Avg`, `Max`, or `qty`): one hr.csv row per point at its
///   `date`, bpm = `Avg` (else `qty`), source `health_auto_export`.
/// - `heart_rate_variability` (`qty`, ms): Apple's HRV is SDNN → hrv_samples.csv `sdnn_ms`.
/// - `resting_heart_rate` (`qty`, bpm) and `step_count` (`qty`, count): per-day values →
///   daily_inputs.csv (`resting_hr`, `steps` summed per day and source) on the point's
///   local date, source the point's `source`, else `health_auto_export`.
/// - `sleep_analysis` in its aggregated form: `inBedStart`–`inBedEnd` → sleep.csv
///   `in_bed` and `sleepStart`–`sleepEnd` → `asleep`. The stage totals (`core`, `deep`,
///   `rem`, `awake`, hours) have no place in time and are not read. The unaggregated
///   form (`startDate`, `endDate`, `value` = stage) gives one interval per point.
/// - `workouts` (version 2: `name`, `start`, `end`) → workouts.csv.
/// Other metrics are counted in the manifest (`unusedRecords`), not read. A `null` or
/// missing value is a rejected point, never a zero.
enum HealthAutoExport: FormatAdapter {
    static let source = "health_auto_export"

    static func matches(head: String) -> Bool {
        head.contains("\"data\"") && head.contains("\"metrics\"")
    }

    /// The metrics read.
    enum Metric: String { case heartRate = "heart_rate", hrv = "heart_rate_variability",
                                restingHR = "resting_heart_rate", steps = "step_count", sleep = "sleep_analysis" }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let file = input.file
        var reading = Reading(sink: sink, subject: sink.subject(input.subject, group: input.group), file: file)
        try HealthAutoExportReader(path: input.path).forEachItem { item, bytes, line in
            try reading.item(item, bytes, line: line)
        }
        sink.setUnused(file, reading.unused)
        sink.note(file, "dates local with their offset; heart_rate Avg → hr.csv; heart_rate_variability (SDNN, ms) → "
            + "hrv_samples.sdnn_ms; resting_heart_rate and step_count → daily_inputs.csv on the local date; sleep_analysis "
            + "inBedStart–inBedEnd → in_bed, sleepStart–sleepEnd → asleep (stage totals not read); workouts start–end")
        try sink.endSource(input, rowsRead: reading.rows)
    }

    /// The state of one file's reading (a struct, so that the per-point work runs without
    /// dynamic exclusivity checks).
    private struct Reading {
        let sink: ImportSink
        let subject: Int
        let file: Int32
        var rows = 0
        var unused: [String: Int] = [:]
        /// The metric of the points before.
        var lastName: String?, lastMetric: Metric?
        var fields = PointFields()
        /// The last point source read, as bytes and as text.
        var sourceBytes: [UInt8] = [], sourceName = HealthAutoExport.source

        init(sink: ImportSink, subject: Int, file: Int32) {
            self.sink = sink; self.subject = subject; self.file = file
        }

        mutating func item(_ item: HealthAutoExportReader.Item, _ bytes: UnsafeBufferPointer<UInt8>, line: Int) throws {
            let sink = sink, subject = subject, file = file
            func reject(_ reason: String) throws {
                try sink.reject(file, line: line, column: 0, reason: reason, raw: String(decoding: bytes, as: UTF8.self))
            }
            guard case let .point(name) = item else {
                rows += 1
                return try workout(bytes, subject: subject, sink: sink, file: file, reject: reject)
            }
            if name != lastName { lastName = name; lastMetric = Metric(rawValue: name) }
            guard let metric = lastMetric else {
                unused["points of metric \(name.isEmpty ? "(no name)" : name) (not read)", default: 0] += 1
                return
            }
            rows += 1
            guard fields.parse(bytes) else { return try reject("data point is not a flat JSON object") }
            let fields = fields
            func date(_ r: Range<Int>?) -> (ms: Int64, offsetMin: Int)? {
                r.flatMap { AppleHealthXML.date(UnsafeBufferPointer(rebasing: bytes[$0])) }
            }
            func number(_ r: Range<Int>?) -> Double? {
                r.flatMap { AppleHealthXML.number(UnsafeBufferPointer(rebasing: bytes[$0])) }
            }
            if metric == .sleep {
                return try sleep(fields, bytes, subject: subject, source: pointSource(bytes), sink: sink, file: file,
                                 reject: reject)
            }
            guard let at = date(fields.date) else { return try reject("unparsable or missing date") }
            if let late = sink.afterExport(at.ms) { return try reject(late) }
            switch metric {
            case .heartRate:
                guard let bpm = number(fields.avg) ?? number(fields.qty) else { return try reject("heart_rate point without Avg") }
                guard sink.hrRange.isPlausible(bpm) else { return try reject(sink.hrRange.rejectReason) }
                try sink.heartRate(subject: subject, ms: at.ms, bpm: bpm, source: source, file: file)
            case .hrv:
                guard let sdnn = number(fields.qty), sdnn > 0 else { return try reject("heart_rate_variability qty not a positive number") }
                try sink.hrvSample(subject: subject, ms: at.ms, sdnnMs: sdnn, source: source, file: file)
            case .restingHR, .steps:
                guard let value = number(fields.qty), value >= 0 else { return try reject("\(name) qty not a number ≥ 0") }
                let day = Timestamp.floorDivMod(at.ms + Int64(at.offsetMin) * 60_000, 86_400_000).0
                if metric == .restingHR {
                    guard sink.hrRange.isPlausible(value) else { return try reject(sink.hrRange.rejectReason) }
                    sink.dailyInput(subject: subject, day: day, metric: .restingHR, value: value, source: pointSource(bytes), file: file)
                } else if value > 0 {
                    // A zero count adds nothing to the day's sum; alone it would state a day of 0 steps.
                    sink.dailyInput(subject: subject, day: day, metric: .steps, value: value, source: pointSource(bytes), file: file)
                }
            case .sleep:
                break
            }
            sink.accept(file)
        }

        /// The point's source, else `health_auto_export`; decoded again only when it changes.
        mutating func pointSource(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
            guard let r = fields.source, fields.sourceIsString else { return HealthAutoExport.source }
            let text = UnsafeBufferPointer(rebasing: bytes[r])
            if !text.elementsEqual(sourceBytes) {
                sourceBytes = Array(text)
                sourceName = fields.sourceEscaped ? PointFields.unescape(text) : String(decoding: text, as: UTF8.self)
                if sourceName.isEmpty { sourceName = HealthAutoExport.source }
            }
            return sourceName
        }
    }

    /// A sleep_analysis point: its aggregated in-bed and asleep intervals, or one stage interval.
    private static func sleep(_ f: PointFields, _ bytes: UnsafeBufferPointer<UInt8>, subject: Int, source: String,
                              sink: ImportSink, file: Int32, reject: (String) throws -> Void) throws {
        func date(_ r: Range<Int>?) -> Int64? {
            r.flatMap { AppleHealthXML.date(UnsafeBufferPointer(rebasing: bytes[$0]))?.ms }
        }
        var intervals: [(Int64, Int64, SleepStage)] = []
        if let s = date(f.inBedStart), let e = date(f.inBedEnd), e > s { intervals.append((s, e, .inBed)) }
        if let s = date(f.sleepStart), let e = date(f.sleepEnd), e > s { intervals.append((s, e, .asleep)) }
        if intervals.isEmpty, let s = date(f.startDate), let e = date(f.endDate), e > s, let v = f.value {
            let stage: SleepStage? = switch String(decoding: UnsafeBufferPointer(rebasing: bytes[v]), as: UTF8.self) {
            case "In Bed", "InBed": .inBed
            case "Asleep", "Unspecified": .asleep
            case "Core": .core
            case "Deep": .deep
            case "REM": .rem
            case "Awake": .awake
            default: nil
            }
            if let stage { intervals.append((s, e, stage)) }
        }
        guard !intervals.isEmpty else {
            return try reject("sleep_analysis point without an in-bed or asleep interval (start before end)")
        }
        if let late = intervals.lazy.compactMap({ sink.afterExport($0.0) }).first { return try reject(late) }
        for (s, e, stage) in intervals {
            try sink.sleep(subject: subject, startMs: s, endMs: e, stage: stage, source: source, file: file)
        }
        sink.accept(file)
    }

    /// A workout (version 2 layout: `name`, `start`, `end`; nested objects not read).
    private static func workout(_ bytes: UnsafeBufferPointer<UInt8>, subject: Int, sink: ImportSink, file: Int32,
                                reject: (String) throws -> Void) throws {
        guard let object = try? JSONSerialization.jsonObject(with: Data(buffer: bytes)) as? [String: Any] else {
            return try reject("workout is not a JSON object")
        }
        guard let start = (object["start"] as? String).flatMap(AppleHealthXML.date),
              let end = (object["end"] as? String).flatMap(AppleHealthXML.date) else {
            return try reject("workout without a readable start and end")
        }
        guard end.ms >= start.ms else { return try reject("workout ends before it starts") }
        if let late = sink.afterExport(start.ms) { return try reject(late) }
        let name = object["name"] as? String ?? ""
        try sink.workout(subject: subject, startMs: start.ms, endMs: end.ms, activity: name.isEmpty ? "unknown" : name, file: file)
        sink.accept(file)
    }
}

/// The members of one flat data point that the reader uses, as byte ranges of their
/// values (strings without their quotes). `null` leaves a member unset.
struct PointFields {
    var date, avg, qty, source, inBedStart, inBedEnd, sleepStart, sleepEnd, startDate, endDate, value: Range<Int>?
    var sourceIsString = false, sourceEscaped = false

    /// Reads the object in `b` (already checked to be JSON); false when a member value is an
    /// object or array, or the bytes are not an object.
    mutating func parse(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        self = PointFields()
        let n = b.count
        var i = 0
        func skipSpace() { while i < n, b[i] == 32 || b[i] == 10 || b[i] == 13 || b[i] == 9 { i += 1 } }
        /// A string from the opening quote at `i`: its contents and whether it has escapes.
        func string() -> (Range<Int>, Bool)? {
            guard i < n, b[i] == 34 else { return nil }
            i += 1
            let start = i
            var escaped = false
            while i < n, b[i] != 34 {
                if b[i] == 92 { escaped = true; i += 1 }
                i += 1
            }
            guard i < n else { return nil }
            defer { i += 1 }
            return (start..<i, escaped)
        }
        skipSpace()
        guard i < n, b[i] == 123 else { return false }
        i += 1
        skipSpace()
        if i < n, b[i] == 125 { return true }
        while i < n {
            skipSpace()
            guard let (key, _) = string() else { return false }
            skipSpace()
            guard i < n, b[i] == 58 else { return false }
            i += 1
            skipSpace()
            guard i < n else { return false }
            var range: Range<Int>?
            var isString = false, escaped = false
            if b[i] == 34 {
                guard let (r, e) = string() else { return false }
                range = r; isString = true; escaped = e
            } else if b[i] == 123 || b[i] == 91 {
                return false
            } else {
                let start = i
                while i < n, b[i] != 44, b[i] != 125, b[i] != 32, b[i] != 10, b[i] != 13, b[i] != 9 { i += 1 }
                if !(i - start == 4 && b[start] == 110) { range = start..<i }  // not null
            }
            assign(key, range, b, isString: isString, escaped: escaped)
            skipSpace()
            guard i < n else { return false }
            if b[i] == 125 { return true }
            guard b[i] == 44 else { return false }
            i += 1
        }
        return false
    }

    private mutating func assign(_ key: Range<Int>, _ value: Range<Int>?, _ b: UnsafeBufferPointer<UInt8>,
                                 isString: Bool, escaped: Bool) {
        func is_(_ s: StaticString) -> Bool {
            key.count == s.utf8CodeUnitCount && memcmp(b.baseAddress! + key.lowerBound, s.utf8Start, key.count) == 0
        }
        // Dates and numbers are never escaped; a date written with escapes is unreadable.
        switch key.count {
        case 3: if is_("Avg") { avg = value } else if is_("qty") { qty = value }
        case 4: if is_("date") { date = escaped ? nil : value }
        case 5: if is_("value") { self.value = value }
        case 6: if is_("source") { source = value; sourceIsString = isString; sourceEscaped = escaped }
        case 7: if is_("endDate") { endDate = value }
        case 8: if is_("inBedEnd") { inBedEnd = value } else if is_("sleepEnd") { sleepEnd = value }
        case 9: if is_("startDate") { startDate = value }
        case 10: if is_("inBedStart") { inBedStart = value } else if is_("sleepStart") { sleepStart = value }
        default: break
        }
    }

    /// A JSON string's contents with escapes resolved (invalid escapes keep their bytes).
    static func unescape(_ contents: UnsafeBufferPointer<UInt8>) -> String {
        let quoted = Data([34]) + Data(buffer: contents) + Data([34])
        return (try? JSONSerialization.jsonObject(with: quoted, options: .fragmentsAllowed) as? String)
            ?? String(decoding: contents, as: UTF8.self)
    }
}
