import CLibXML2
import Foundation

/// Apple Health `export.xml` (Health app → profile → Export All Health Data), read
/// with libxml2's SAX2 push parser from 64 KB chunks of the file, so memory stays
/// bounded whatever the export's size. The element callbacks see attribute values
/// as byte ranges in libxml2's buffer: types, dates and numbers are matched and
/// parsed from those bytes, and Swift strings are made only for what is rare
/// (a workout's activity, a record type seen for the first time, a rejected row).
///
/// Read: `Record` elements of type heart rate (→ hr.csv, source `apple_health`),
/// HRV SDNN (→ hrv_samples.csv) and sleep analysis (→ sleep.csv, with its stages);
/// the per-day types of `DailyMetric.appleHealthTypes` (resting heart rate, heart-rate
/// recovery, VO2 max, steps, exercise minutes, active energy, walking heart rate,
/// body mass, height → daily_inputs.csv, on the local date of the record's start);
/// `Workout` elements (→ workouts.csv, `workoutActivityType` without its
/// `HKWorkoutActivityType` prefix); and the `Me` element's date of birth and
/// biological sex (→ subjects.csv). The `InstantaneousBeatsPerMinute` list of an
/// HRV record (`bpm`, `time` as a local time of day such as `6:00:01.23 AM`)
/// becomes R-R intervals (source `apple_health_ibi`): the interval closing beat k is
/// the step between the times of beats k−1 and k, kept when it agrees with
/// 60000 / bpm within `beatAgreement` (the times have 10 ms resolution, the bpm
/// is rounded). Times carry their offset (`2024-03-01 06:00:00 -0800`).
///
/// Rows read are the records and workouts of these types; every other record type
/// is counted per type in the manifest (`unusedRecords`), not rejected row by row. The
/// manifest's note lists the kinds the file held, each with its count (`foundNote`).
/// Heart rate recorded by a named `device` keeps it in its source
/// (`AppleHealth.heartRateSource`), so that two devices writing under one source name
/// stay two sources. The `ExportDate` element states when the export was made: a record
/// or workout that starts after it is rejected (`ImportSink.afterExport`).
///
/// The export's internal DTD (`<!DOCTYPE HealthData [ … ]>`) is blanked out before
/// parsing (`blankDoctype`): nothing in it is needed, and a document without one
/// cannot declare entities, so no entity is ever expanded.
enum AppleHealthXML: FormatAdapter {
    static let beatAgreement = 0.1
    /// Bytes handed to the parser at a time (also the head searched for the DTD).
    static let chunkBytes = 1 << 16

    /// Whether `path` is an Apple Health `export.xml`: an `.xml` file whose first bytes hold `<HealthData`.
    static func matches(path: String) -> Bool {
        (path as NSString).pathExtension.lowercased() == "xml" && CSVPeek.headText(path: path).contains("<HealthData")
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        try sink.endSource(input, rowsRead: try readRows(input, xmlPath: input.path, into: sink))
    }

    /// Reads the export from `xmlPath` (the file itself, or an archive's entry
    /// decompressed to a temporary file); errors name `input.path`. Returns the rows
    /// read; the caller ends the source.
    static func readRows(_ input: SourceInput, xmlPath: String, into sink: ImportSink) throws -> Int {
        let text = try TextFile(path: xmlPath, name: input.path)
        let handler = Handler(input: input, sink: sink)
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        sax.startElementNs = { context, name, _, _, _, _, count, _, attributes in
            guard let context, let name else { return }
            Unmanaged<Handler>.fromOpaque(context).takeUnretainedValue().start(name, Int(count), attributes)
        }
        sax.endElementNs = { context, name, _, _ in
            guard let context, let name else { return }
            Unmanaged<Handler>.fromOpaque(context).takeUnretainedValue().end(name)
        }
        // Errors are read from the context after a failed chunk, not printed.
        sax.serror = { _, _ in }
        guard let parser = xmlCreatePushParserCtxt(&sax, Unmanaged.passUnretained(handler).toOpaque(), nil, 0, xmlPath)
        else { throw CSVError.outOfMemory(path: input.path, line: 0) }
        defer { xmlFreeParserCtxt(parser) }
        // The parser is handed UTF-8 (`TextFile`), whatever the declaration says.
        _ = xmlCtxtUseOptions(parser, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_IGNORE_ENC.rawValue))
        handler.parser = parser

        var buffer = [UInt8](repeating: 0, count: chunkBytes)
        var first = true
        while true {
            let n = try buffer.withUnsafeMutableBufferPointer { try text.read(into: $0.baseAddress!, count: chunkBytes) }
            func feed(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
                bytes.withMemoryRebound(to: CChar.self) { xmlParseChunk(parser, $0.baseAddress, Int32($0.count), n == 0 ? 1 : 0) }
            }
            let status: Int32
            if first {
                first = false
                let head = blankDoctype(Array(buffer[0..<n]))
                // A second DOCTYPE would be read in place of the blanked one, entities and all.
                if let line = doctypeLine(head) {
                    throw ImportError.badMetadata(path: input.path, line: line, column: 0,
                                                  message: "malformed XML: a second DOCTYPE (a document has one)")
                }
                status = head.withUnsafeBufferPointer(feed)
            } else {
                status = buffer.withUnsafeBufferPointer { feed(UnsafeBufferPointer(rebasing: $0[0..<n])) }
            }
            if let failure = handler.failure { throw failure }
            if status != 0 { throw malformed(input.path, parser) }
            if n == 0 { break }
        }
        let unused = handler.unusedCounts()
        sink.setUnused(input.file, unused)
        sink.note(input.file, foundNote(read: handler.readCounts, unused: unused))
        return handler.rows
    }

    /// The manifest's note on what the export holds: the record kinds found, each with
    /// its count, those read first and then those counted and not read (`unusedRecords`),
    /// most first; and, when the export has none, that it holds no heart rate or HRV.
    static func foundNote(read: [String: Int], unused: [String: Int]) -> String {
        func list(_ counts: [String: Int]) -> String {
            // Most first; ties in the kinds' alphabetical order, whatever their case.
            counts.sorted { ($0.value, $1.key.lowercased()) > ($1.value, $0.key.lowercased()) }
                .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
        var parts: [String] = []
        parts.append(read.isEmpty ? "Records found: none of the kinds read" : "Records found: " + list(read))
        if !unused.isEmpty {
            var words: [String: Int] = [:]
            for (type, count) in unused { words[AppleHealth.words(ofType: type), default: 0] += count }
            parts.append("counted and not read (unusedRecords): " + list(words))
        }
        if read[Handler.heartRateName] == nil && read[Handler.hrvName] == nil { parts.append("no heart rate or HRV records") }
        return parts.joined(separator: "; ")
    }

    /// The parser's error as one line naming file, line and column.
    static func malformed(_ path: String, _ parser: xmlParserCtxtPtr) -> ImportError {
        guard let error = xmlCtxtGetLastError(parser) else {
            return .badMetadata(path: path, line: Int(xmlSAX2GetLineNumber(parser)), column: 0, message: "malformed XML")
        }
        let message = error.pointee.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        return .badMetadata(path: path, line: Int(error.pointee.line), column: Int(error.pointee.int2),
                            message: "malformed XML (libxml2 error \(error.pointee.code)): \(message)")
    }

    /// Instant and UTC offset (minutes) of an Apple Health date `2024-03-01 06:00:00 -0800`.
    static func date(_ text: String) -> (ms: Int64, offsetMin: Int)? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { date(UnsafeBufferPointer($0)) }
    }

    /// `date` from bytes: the export's fixed `YYYY-MM-DD hh:mm:ss ±hhmm` layout
    /// directly, any other ISO 8601 shape with a zone through `Timestamp.parseISO`.
    static func date(_ b: UnsafeBufferPointer<UInt8>) -> (ms: Int64, offsetMin: Int)? {
        if b.count == 25, b[4] == 45, b[7] == 45, b[10] == 32, b[13] == 58, b[16] == 58, b[19] == 32,
           b[20] == 43 || b[20] == 45 {
            func two(_ at: Int) -> Int? {
                let x = Int(b[at]) &- 48, y = Int(b[at + 1]) &- 48
                guard x >= 0, x <= 9, y >= 0, y <= 9 else { return nil }
                return x * 10 + y
            }
            guard let c = two(0), let yy = two(2), let mo = two(5), let d = two(8), let h = two(11), let mi = two(14),
                  let s = two(17), let oh = two(21), let om = two(23), (1...12).contains(mo), h < 24, mi < 60, s < 60,
                  oh <= 14, om < 60 else { return nil }
            let year = c * 100 + yy
            guard d >= 1, d <= Timestamp.daysInMonth(year, mo) else { return nil }
            let offset = (b[20] == 45 ? -1 : 1) * (oh * 60 + om)
            let local = (Int64(Timestamp.daysFromCivil(year, mo, d)) * 86_400 + Int64(h * 3600 + mi * 60 + s)) * 1000
            let ms = local - Int64(offset) * 60_000
            guard Timestamp.representable.contains(ms) else { return nil }
            return (ms, offset)
        }
        guard let (ms, hasZone) = Timestamp.parseISO(bytes: b), hasZone, b.count >= 19,
              let (local, _) = Timestamp.parseISO(bytes: UnsafeBufferPointer(rebasing: b[0..<19])) else { return nil }
        return (ms, Int((local - ms) / 60_000))
    }

    /// Milliseconds since local midnight of `6:00:01.23 AM` (12-hour clock) or `18:00:01.23`.
    static func timeOfDay(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        let n = b.count
        func integer() -> Int? {
            var v = 0, k = 0
            while i < n, k < 2, b[i] >= 48, b[i] <= 57 { v = v * 10 + Int(b[i] - 48); i += 1; k += 1 }
            return k == 0 ? nil : v
        }
        guard var h = integer(), i < n, b[i] == 58 else { return nil }
        i += 1
        guard let m = integer(), m < 60, i < n, b[i] == 58 else { return nil }
        i += 1
        let secondsStart = i
        while i < n, (b[i] >= 48 && b[i] <= 57) || b[i] == 46 { i += 1 }
        guard let s = number(UnsafeBufferPointer(rebasing: b[secondsStart..<i])), s >= 0, s < 61 else { return nil }
        if i < n {
            guard n - i == 3, b[i] == 32 else { return nil }
            let half = b[i + 1] | 0x20, mark = b[i + 2] | 0x20  // a/p, m in either case
            guard mark == 109, half == 97 || half == 112, (1...12).contains(h) else { return nil }
            h = h % 12 + (half == 112 ? 12 : 0)
        }
        guard h < 24 else { return nil }
        return Int64(h) * 3_600_000 + Int64(m) * 60_000 + Int64((s * 1000).rounded())
    }

    /// A number from an attribute's bytes (the rules of `NumberParsing.double`).
    static func number(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let base = b.baseAddress, b.count > 0, b.count < 64 else { return nil }
        if let v = base.withMemoryRebound(to: CChar.self, capacity: b.count, { NumberParsing.plainDecimal($0, length: b.count) }) {
            return v
        }
        var text = [CChar](repeating: 0, count: b.count + 1)
        for i in 0..<b.count { text[i] = CChar(bitPattern: b[i]) }
        return NumberParsing.double(text, length: b.count)
    }

    /// `bytes` with the first `<!DOCTYPE … ]>` (or `<!DOCTYPE …>`) replaced by the
    /// line breaks it contained, so line numbers stay right.
    /// The line of the first `<!DOCTYPE` in `bytes`, if any.
    static func doctypeLine(_ bytes: [UInt8]) -> Int? {
        let marker = Array("<!DOCTYPE".utf8)
        guard bytes.count >= marker.count,
              let at = (0...(bytes.count - marker.count)).first(where: { bytes[$0..<($0 + marker.count)].elementsEqual(marker) })
        else { return nil }
        return 1 + bytes[..<at].filter { $0 == 10 }.count
    }

    static func blankDoctype(_ bytes: [UInt8]) -> [UInt8] {
        let marker = Array("<!DOCTYPE".utf8)
        guard let start = (0...max(0, bytes.count - marker.count)).first(where: { bytes[$0..<min(bytes.count, $0 + marker.count)].elementsEqual(marker) })
        else { return bytes }
        var i = start + marker.count, bracket = false
        while i < bytes.count {
            if bytes[i] == 91 { bracket = true }
            if bytes[i] == 62, !bracket || (i > 0 && bytes[i - 1] == 93) { break }
            i += 1
        }
        guard i < bytes.count else { return bytes }
        let breaks = bytes[start...i].filter { $0 == 10 }
        return Array(bytes[..<start]) + breaks + Array(bytes[(i + 1)...])
    }

    /// The SAX2 callbacks' state: the sink, the row count, unused types and the
    /// HRV record whose beat list is being read.
    final class Handler {
        typealias Bytes = UnsafeBufferPointer<UInt8>
        let input: SourceInput
        let sink: ImportSink
        var parser: xmlParserCtxtPtr?
        let subject: Int
        var rows = 0
        var failure: Error?
        /// Unused record types, each with its count; `unusedIndex` finds one by the
        /// FNV-1a hash of its bytes without making a string.
        private var unused: [(type: [UInt8], count: Int)] = []
        private var unusedIndex: [UInt64: Int] = [:]
        /// Records (and workouts) of each kind read, by the kind's name, rejected ones too.
        private(set) var readCounts: [String: Int] = [:]
        static let heartRateName = "heart rate", hrvName = "HRV SDNN"
        /// The HRV record whose beat list is being read: its local midnight (as
        /// an instant) and the previous beat's instant.
        private var beats: (midnightMs: Int64, previousMs: Int64?)?
        private var attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
        private var attributeCount = 0

        init(input: SourceInput, sink: ImportSink) {
            self.input = input
            self.sink = sink
            subject = sink.subject(input.subject, group: input.group)
        }

        private var file: Int32 { input.file }

        func unusedCounts() -> [String: Int] {
            var out: [String: Int] = [:]
            for u in unused { out[u.type.isEmpty ? "(no type)" : String(decoding: u.type, as: UTF8.self), default: 0] += u.count }
            return out
        }

        private static func named(_ p: UnsafePointer<xmlChar>, _ name: StaticString) -> Bool {
            strcmp(UnsafeRawPointer(p).assumingMemoryBound(to: CChar.self),
                   UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
        }

        private static func equal(_ b: Bytes, _ text: StaticString) -> Bool {
            guard b.count == text.utf8CodeUnitCount else { return false }
            guard let base = b.baseAddress else { return b.count == 0 }
            return memcmp(base, text.utf8Start, b.count) == 0
        }

        /// The value of attribute `name` of the element being read (empty when absent).
        private func value(_ name: StaticString) -> Bytes {
            guard let a = attributes else { return Bytes(start: nil, count: 0) }
            for i in 0..<attributeCount {
                guard let key = a[5 * i], Handler.named(key, name), let start = a[5 * i + 3], let end = a[5 * i + 4] else { continue }
                return Bytes(start: start, count: end - start)
            }
            return Bytes(start: nil, count: 0)
        }

        func start(_ name: UnsafePointer<xmlChar>, _ count: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
            guard failure == nil else { return }
            self.attributes = attributes
            attributeCount = count
            defer { self.attributes = nil }
            do {
                if Handler.named(name, "Record") { try record() }
                else if Handler.named(name, "InstantaneousBeatsPerMinute") { try beat() }
                else if Handler.named(name, "Workout") { try workout() }
                else if Handler.named(name, "Me") { me() }
                else if Handler.named(name, "ExportDate") { try exportDate() }
            } catch {
                failure = error
                if let parser { xmlStopParser(parser) }
            }
        }

        func end(_ name: UnsafePointer<xmlChar>) {
            if Handler.named(name, "Record") { beats = nil }
        }

        /// Every attribute as `key=value`, sorted by key (the raw text of a reject).
        private func raw() -> String {
            guard let a = attributes else { return "" }
            var pairs: [(String, String)] = []
            for i in 0..<attributeCount {
                guard let key = a[5 * i], let start = a[5 * i + 3], let end = a[5 * i + 4] else { continue }
                pairs.append((String(cString: key), String(decoding: Bytes(start: start, count: end - start), as: UTF8.self)))
            }
            return pairs.sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
        }

        /// The line of the element being read.
        private var line: Int { parser.map { Int(xmlSAX2GetLineNumber($0)) } ?? 0 }

        private func reject(_ reason: String) throws {
            try sink.reject(file, line: line, column: 0, reason: reason, raw: raw())
        }

        private enum Kind { case heartRate, hrvSDNN, sleep, daily(DailyMetric) }

        /// The per-day record types by the FNV-1a hash of their name.
        private static let dailyTypes: [UInt64: (type: [UInt8], metric: DailyMetric)] = {
            var out: [UInt64: (type: [UInt8], metric: DailyMetric)] = [:]
            for (name, metric) in DailyMetric.appleHealthTypes { out[hash(Array(name.utf8))] = (Array(name.utf8), metric) }
            return out
        }()

        private static func hash<C: Collection>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return hash
        }

        /// The kind of a record type, or nil for a type that is not read (counted).
        private func kind(_ type: Bytes) -> Kind? {
            if Handler.equal(type, "HKQuantityTypeIdentifierHeartRate") { return .heartRate }
            if Handler.equal(type, "HKQuantityTypeIdentifierHeartRateVariabilitySDNN") { return .hrvSDNN }
            if Handler.equal(type, "HKCategoryTypeIdentifierSleepAnalysis") { return .sleep }
            let hash = Handler.hash(type)
            if let d = Handler.dailyTypes[hash], d.type.elementsEqual(type) { return .daily(d.metric) }
            if let i = unusedIndex[hash], unused[i].type.elementsEqual(type) {
                unused[i].count += 1
                return nil
            }
            // First sight of this type: the rules of the per-type CSVs decide.
            let text = String(decoding: type, as: UTF8.self)
            if text.hasPrefix("HK"), let k = AppleHealth.kind(of: text) {
                switch k {
                case .heartRate: return .heartRate
                case .hrvSDNN: return .hrvSDNN
                case .sleep: return .sleep
                case .workout: break  // a workout is a Workout element, not a Record
                }
            }
            if let i = unused.firstIndex(where: { $0.type.elementsEqual(type) }) {
                unused[i].count += 1
            } else {
                unused.append((Array(type), 1))
                if unusedIndex[hash] == nil { unusedIndex[hash] = unused.count - 1 }
            }
            return nil
        }

        /// The `ExportDate` element: when the export was made; records dated after it are rejected.
        private func exportDate() throws {
            guard let made = AppleHealthXML.date(value("value")) else {
                throw ImportError.badMetadata(path: input.path, line: line, column: 0, message: "unparsable ExportDate value")
            }
            sink.exportMade(file, ms: made.ms, how: "ExportDate")
        }

        /// The heart-rate source of a record's `device` attribute, made once per distinct device.
        private var deviceSources: [[UInt8]: String] = [:]

        private func record() throws {
            guard let kind = kind(value("type")) else { return }
            rows += 1
            switch kind {
            case .heartRate: readCounts[Handler.heartRateName, default: 0] += 1
            case .hrvSDNN: readCounts[Handler.hrvName, default: 0] += 1
            case .sleep: readCounts["sleep analysis", default: 0] += 1
            case .daily(let metric): readCounts[metric.words, default: 0] += 1
            }
            guard let start = AppleHealthXML.date(value("startDate")) else { return try reject("unparsable startDate") }
            guard let end = AppleHealthXML.date(value("endDate")) else { return try reject("unparsable endDate") }
            guard end.ms >= start.ms else { return try reject("end before start") }
            if let late = sink.afterExport(start.ms) { return try reject(late) }
            let text = value("value")
            switch kind {
            case .heartRate:
                guard let bpm = AppleHealthXML.number(text) else { return try reject("unparsable bpm") }
                guard sink.hrRange.isPlausible(bpm) else { return try reject(sink.hrRange.rejectReason) }
                var source = AppleHealth.source
                let device = value("device")
                if !device.isEmpty {
                    let key = Array(device)
                    source = deviceSources[key] ?? AppleHealth.heartRateSource(device: String(decoding: device, as: UTF8.self))
                    deviceSources[key] = source
                }
                try sink.heartRate(subject: subject, ms: start.ms, bpm: bpm, source: source, file: file)
            case .daily(let metric):
                guard let raw = AppleHealthXML.number(text), raw.isFinite, raw >= 0 else {
                    return try reject("unparsable or negative \(metric.rawValue)")
                }
                let v = metric.unitVaries ? raw * metric.factor(appleHealthUnit: String(decoding: value("unit"), as: UTF8.self)) : raw
                if metric == .restingHR || metric == .walkingHR, !sink.hrRange.isPlausible(v) {
                    return try reject(sink.hrRange.rejectReason)
                }
                let source = String(decoding: value("sourceName"), as: UTF8.self)
                let localDay = Timestamp.floorDivMod(start.ms + Int64(start.offsetMin) * 60_000, 86_400_000).0
                sink.dailyInput(subject: subject, day: localDay, metric: metric, value: v,
                                source: source.isEmpty ? AppleHealth.source : source, file: file)
            case .hrvSDNN:
                guard let sdnn = AppleHealthXML.number(text), sdnn > 0 else { return try reject("unparsable sdnn") }
                try sink.hrvSample(subject: subject, ms: start.ms, sdnnMs: sdnn, source: AppleHealth.source, file: file)
                let offsetMs = Int64(start.offsetMin) * 60_000
                let localMidnight = Timestamp.floorDivMod(start.ms + offsetMs, 86_400_000).0 * 86_400_000
                beats = (localMidnight - offsetMs, nil)
            case .sleep:
                let stage = String(decoding: text, as: UTF8.self).lowercased()
                guard let stage = AppleHealth.sleepStages[stage] else { return try reject("unknown sleep value") }
                let source = String(decoding: value("sourceName"), as: UTF8.self)
                try sink.sleep(subject: subject, startMs: start.ms, endMs: end.ms, stage: stage,
                               source: source.isEmpty ? AppleHealth.source : source, file: file)
            }
            sink.accept(file)
        }

        /// The `Me` element: date of birth (its year) and biological sex, for `subjects.csv`.
        private func me() {
            let birth = String(decoding: value("HKCharacteristicTypeIdentifierDateOfBirth"), as: UTF8.self)
            let year = Timestamp.dayNumber(isoDate: birth).map { Timestamp.civil(fromDays: Int64($0)).year }
            let sex = SubjectRow.sex(appleHealth: String(decoding: value("HKCharacteristicTypeIdentifierBiologicalSex"), as: UTF8.self))
            guard year != nil || !sex.isEmpty else { return }
            sink.subjectFacts(subject: subject, SubjectRow(subject: "", birthYear: year, sex: sex, source: AppleHealth.source))
        }

        private func workout() throws {
            rows += 1
            readCounts["workouts", default: 0] += 1
            guard let start = AppleHealthXML.date(value("startDate")) else { return try reject("unparsable startDate") }
            guard let end = AppleHealthXML.date(value("endDate")) else { return try reject("unparsable endDate") }
            guard end.ms >= start.ms else { return try reject("end before start") }
            if let late = sink.afterExport(start.ms) { return try reject(late) }
            let type = String(decoding: value("workoutActivityType"), as: UTF8.self)
            let prefix = "HKWorkoutActivityType"
            let activity = (type.hasPrefix(prefix) ? String(type.dropFirst(prefix.count)) : type).lowercased()
            try sink.workout(subject: subject, startMs: start.ms, endMs: end.ms, activity: activity, file: file)
            sink.accept(file)
        }

        /// One beat of an HRV record's list: an R-R interval when the step from the
        /// previous beat agrees with its bpm. Beats are not rows of their own.
        private func beat() throws {
            guard var b = beats, let bpm = AppleHealthXML.number(value("bpm")), bpm > 0,
                  let tod = AppleHealthXML.timeOfDay(value("time")) else { return }
            var t = b.midnightMs + tod
            if let previous = b.previousMs, t < previous { t += 86_400_000 }  // past midnight
            if let previous = b.previousMs {
                let rr = Double(t - previous)
                if abs(rr - 60_000 / bpm) <= AppleHealthXML.beatAgreement * rr, sink.rrRange.isPlausible(rr) {
                    try sink.rrInterval(subject: subject, ms: t, rrMs: rr, source: "apple_health_ibi", file: file)
                }
            }
            b.previousMs = t
            beats = b
        }
    }
}
