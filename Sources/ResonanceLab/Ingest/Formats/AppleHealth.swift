import Foundation

/// Apple Health records exported to CSV by the common conversion scripts, one row
/// per record with at least `type`, `start` (or `startDate`), `end` (or `endDate`)
/// and `value` — one file for all types or one per type (`HeartRate.csv`, …) — and
/// `Workout.csv` with `workoutActivityType`, `startDate`, `endDate`.
/// Heart rate → hr.csv (at start; a `device` column keeps the device in the source,
/// `heartRateSource`), HRV SDNN → hrv_samples.csv (at start), sleep analysis →
/// sleep.csv, workouts → workouts.csv. Rows of other types are counted per type in the
/// manifest (`unusedRecords`) and are not rows read.
enum AppleHealth: FormatAdapter {
    static let source = "apple_health"

    /// The source of heart rate recorded by `device`, the record's `device` attribute as
    /// HealthKit writes it (`<<HKDevice: 0x…>, name:Apple Watch, manufacturer:Apple Inc.,
    /// model:Watch, hardware:Watch6,2, software:10.1>`): `apple_health:<name>/<model>`
    /// (the model left out when it is the name or absent), so that two devices whose
    /// records share one source name (a watch and a chest strap through one app) are two
    /// sources of `hr.csv` and the rule for heart rate from several sources applies. A
    /// device without a name or model is `apple_health`.
    static func heartRateSource(device: String) -> String {
        var fields: [String: String] = [:]
        for part in device.components(separatedBy: ", ") {
            guard let colon = part.firstIndex(of: ":") else { continue }
            let key = part[..<colon].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "<>"))
            let value = part[part.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " <>"))
            if fields[key] == nil, !value.isEmpty { fields[key] = value }
        }
        let name = fields["name"] ?? "", model = fields["model"] ?? ""
        let label = [name, model == name ? "" : model].filter { !$0.isEmpty }.joined(separator: "/")
        return label.isEmpty ? source : source + ":" + label
    }

    /// HKCategoryValueSleepAnalysis values (iOS 16 stages and the older ones).
    static let sleepStages: [String: SleepStage] = [
        "hkcategoryvaluesleepanalysisasleepcore": .core, "hkcategoryvaluesleepanalysisasleepdeep": .deep,
        "hkcategoryvaluesleepanalysisasleeprem": .rem, "hkcategoryvaluesleepanalysisasleepunspecified": .asleep,
        "hkcategoryvaluesleepanalysisasleep": .asleep, "hkcategoryvaluesleepanalysisawake": .awake,
        "hkcategoryvaluesleepanalysisinbed": .inBed,
        "core": .core, "deep": .deep, "rem": .rem, "asleep": .asleep, "awake": .awake, "inbed": .inBed, "in_bed": .inBed,
    ]

    enum Kind { case heartRate, hrvSDNN, sleep, workout(String?) }

    /// A record type as people say it: `HKQuantityTypeIdentifierFlightsClimbed` is
    /// `flights climbed`, `HKQuantityTypeIdentifierUVExposure` `UV exposure`,
    /// `HKQuantityTypeIdentifierVO2Max` `VO2 max`; a name without HealthKit's prefix
    /// (another export's `podcast episode`) stays as it is.
    static func words(ofType type: String) -> String {
        var name = type
        for prefix in ["HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCorrelationTypeIdentifier", "HKDataType"]
        where name.hasPrefix(prefix) {
            name = String(name.dropFirst(prefix.count))
        }
        guard name != type, !name.isEmpty else { return type }
        // A word starts at a capital after a lower-case letter or digit, or at the last
        // capital of a run followed by a lower-case letter (`UVExposure`: `UV`, `Exposure`).
        var words: [String] = [], current = ""
        let chars = Array(name)
        for (i, c) in chars.enumerated() {
            let next = i + 1 < chars.count ? chars[i + 1] : nil
            if c.isUppercase, let last = current.last, !last.isUppercase || next?.isLowercase == true {
                words.append(current)
                current = ""
            }
            current.append(c)
        }
        words.append(current)
        // Acronyms (`UV`, `VO2`, `SDNN`) keep their capitals.
        return words.map { w in w.dropFirst().contains(where: \.isUppercase) ? w : w.lowercased() }.joined(separator: " ")
    }

    static func kind(of type: String) -> Kind? {
        let t = type.lowercased()
        if t.hasSuffix("heartratevariabilitysdnn") { return .hrvSDNN }
        if t == "hkquantitytypeidentifierheartrate" || t == "heartrate" || t == "heart_rate" { return .heartRate }
        if t.hasSuffix("sleepanalysis") { return .sleep }
        let prefix = "hkworkoutactivitytype"
        if t.hasPrefix(prefix) { return .workout(String(t.dropFirst(prefix.count))) }
        if t == "hkworkouttypeidentifier" || t == "workout" { return .workout(nil) }
        return nil
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let file = input.file
        let subject = sink.subject(input.subject, group: input.group)
        var col = (type: 0, start: 0, end: 0, value: 0)
        var sourceName: Int?, device: Int?
        var unused: [String: Int] = [:]
        let rows = try input.forEachRow(headerLines: 1, header: { record, _ in
            let map = ColumnName.index(record)
            // Workout.csv names the activity in workoutActivityType and has no value.
            guard let t = map["type"] ?? map["workoutactivitytype"], let s = map["start"] ?? map["startdate"],
                  let e = map["end"] ?? map["enddate"], let v = map["value"] ?? map["workoutactivitytype"] else {
                throw ImportError.unknownFormat(path: input.path, columns: record.strings)
            }
            col = (t, s, e, v)
            sourceName = map["sourcename"] ?? map["source"]
            device = map["device"]
        }, rejectingWiderRowsInto: sink) { record in
            let type = col.type < record.count ? record.trimmed(col.type) : ""
            guard let kind = kind(of: type) else {
                unused[type.isEmpty ? "(no type)" : type, default: 0] += 1
                return
            }
            guard let start = input.times.parse(record, col.start) else {
                return try sink.reject(file, record, column: col.start + 1, reason: "unparsable time")
            }
            guard let end = input.times.parse(record, col.end) else {
                return try sink.reject(file, record, column: col.end + 1, reason: "unparsable time")
            }
            guard end >= start else { return try sink.reject(file, record, column: col.end + 1, reason: "end before start") }
            if try sink.rejectedAfterExport(file, record, column: col.start + 1, start) { return }
            let value = col.value < record.count ? record.trimmed(col.value) : ""
            switch kind {
            case .heartRate:
                guard let bpm = try sink.checkedBpm(record, col.value, file: file) else { return }
                let named = device.flatMap { $0 < record.count ? record.trimmed($0) : nil } ?? ""
                try sink.heartRate(subject: subject, ms: start, bpm: bpm,
                                   source: named.isEmpty ? source : heartRateSource(device: named), file: file)
            case .hrvSDNN:
                guard let sdnn = record.double(col.value), sdnn > 0 else {
                    return try sink.reject(file, record, column: col.value + 1, reason: "unparsable sdnn")
                }
                try sink.hrvSample(subject: subject, ms: start, sdnnMs: sdnn, source: source, file: file)
            case .sleep:
                guard let stage = sleepStages[value.lowercased()] else {
                    return try sink.reject(file, record, column: col.value + 1, reason: "unknown sleep value")
                }
                let named = sourceName.flatMap { $0 < record.count ? record.trimmed($0) : nil } ?? ""
                try sink.sleep(subject: subject, startMs: start, endMs: end, stage: stage,
                               source: named.isEmpty ? source : named, file: file)
            case let .workout(fromType):
                let activity = fromType ?? value.lowercased().replacingOccurrences(of: "hkworkoutactivitytype", with: "")
                try sink.workout(subject: subject, startMs: start, endMs: end, activity: activity, file: file)
            }
            sink.accept(file)
        }
        sink.setUnused(file, unused)
        try sink.endSource(input, rowsRead: rows - unused.values.reduce(0, +))
    }
}
