import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Apple Health `export.xml` (Health app → profile → Export All Health Data), read
/// with Foundation's streaming `XMLParser` (libxml2 on Linux) from a file stream,
/// so memory stays bounded whatever the export's size.
///
/// Read: `Record` elements of type heart rate (→ hr.csv, source `apple_health`),
/// resting heart rate (→ hr.csv, source `apple_health_resting`), HRV SDNN (→
/// hrv_samples.csv) and sleep analysis (→ sleep.csv, with its stages), and
/// `Workout` elements (→ workouts.csv, `workoutActivityType` without its
/// `HKWorkoutActivityType` prefix). The `InstantaneousBeatsPerMinute` list of an
/// HRV record (`bpm`, `time` as a local time of day such as `6:00:01.23 AM`)
/// becomes R-R intervals (source `apple_health_ibi`): the interval closing beat k is
/// the step between the times of beats k−1 and k, kept when it agrees with
/// 60000 / bpm within `beatAgreement` (the times have 10 ms resolution, the bpm
/// is rounded). Times carry their offset (`2024-03-01 06:00:00 -0800`).
///
/// Rows read are the records and workouts of these types; every other record type
/// is counted per type in the manifest (`unusedRecords`), not rejected row by row.
enum AppleHealthXML: FormatAdapter {
    static let beatAgreement = 0.1

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        try read(input, xmlPath: input.path, into: sink)
    }

    /// Reads the export from `xmlPath` (the file itself, or an archive's entry
    /// decompressed to a temporary file); errors name `input.path`.
    static func read(_ input: SourceInput, xmlPath: String, into sink: ImportSink) throws {
        guard let stream = ExportStream(path: xmlPath) else {
            throw CSVError.cannotOpen(path: input.path, reason: "cannot open")
        }
        let handler = Handler(input: input, sink: sink)
        let parser = XMLParser(stream: stream)
        parser.shouldResolveExternalEntities = false
        parser.delegate = handler
        handler.parser = parser
        let ok = parser.parse()
        if let error = handler.failure { throw error }
        if !ok {
            throw ImportError.badMetadata(path: input.path, line: parser.lineNumber, column: parser.columnNumber,
                                          message: "malformed XML (libxml2 error \((parser.parserError as NSError?)?.code ?? 0))")
        }
        sink.setUnused(input.file, handler.unused)
        sink.note(input.file, "Record types read: heart rate, resting heart rate, HRV SDNN (with its beat-to-beat list), sleep analysis; Workout elements")
        try sink.endSource(input, rowsRead: handler.rows)
    }

    /// Instant and UTC offset (minutes) of an Apple Health date `2024-03-01 06:00:00 -0800`.
    static func date(_ text: String) -> (ms: Int64, offsetMin: Int)? {
        guard let (ms, hasZone) = Timestamp.parseISO(text), hasZone,
              let (local, _) = Timestamp.parseISO(String(text.prefix(19))) else { return nil }
        return (ms, Int((local - ms) / 60_000))
    }

    /// Milliseconds since local midnight of `6:00:01.23 AM` (12-hour clock) or `18:00:01.23`.
    static func timeOfDay(_ text: String) -> Int64? {
        let parts = text.split(separator: " ")
        guard let clock = parts.first else { return nil }
        let hms = clock.split(separator: ":")
        guard hms.count == 3, var h = Int(hms[0]), let m = Int(hms[1]), let s = Double(hms[2]),
              (0..<60).contains(m), s >= 0, s < 61 else { return nil }
        if parts.count == 2 {
            let half = parts[1].uppercased()
            guard (1...12).contains(h), half == "AM" || half == "PM" else { return nil }
            h = h % 12 + (half == "PM" ? 12 : 0)
        }
        guard (0..<24).contains(h) else { return nil }
        return Int64(h) * 3_600_000 + Int64(m) * 60_000 + Int64((s * 1000).rounded())
    }

    final class Handler: NSObject, XMLParserDelegate {
        let input: SourceInput
        let sink: ImportSink
        weak var parser: XMLParser?
        let subject: Int
        var rows = 0
        var unused: [String: Int] = [:]
        var failure: Error?
        /// The HRV record whose beat list is being read: its local midnight (as
        /// an instant) and the previous beat's instant.
        private var beats: (midnightMs: Int64, previousMs: Int64?, line: Int)?

        init(input: SourceInput, sink: ImportSink) {
            self.input = input
            self.sink = sink
            subject = sink.subject(input.subject, group: input.group)
        }

        private var file: Int32 { input.file }
        private var line: Int { parser?.lineNumber ?? 0 }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            do {
                switch name {
                case "Record": try record(attributes)
                case "Workout": try workout(attributes)
                case "InstantaneousBeatsPerMinute": try beat(attributes)
                default: break
                }
            } catch {
                failure = error
                parser.abortParsing()
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "Record" { beats = nil }
        }

        private func raw(_ a: [String: String]) -> String {
            a.keys.sorted().map { "\($0)=\(a[$0] ?? "")" }.joined(separator: " ")
        }

        private func reject(_ a: [String: String], _ reason: String) throws {
            try sink.reject(file, line: line, column: 0, reason: reason, raw: raw(a))
        }

        private func record(_ a: [String: String]) throws {
            let type = a["type"] ?? ""
            let kind: AppleHealth.Kind
            var resting = false
            if type == "HKQuantityTypeIdentifierRestingHeartRate" {
                kind = .heartRate
                resting = true
            } else if let k = AppleHealth.kind(of: type), type.hasPrefix("HK") {
                kind = k
            } else {
                unused[type.isEmpty ? "(no type)" : type, default: 0] += 1
                return
            }
            rows += 1
            guard let start = a["startDate"].flatMap(AppleHealthXML.date) else { return try reject(a, "unparsable startDate") }
            guard let end = a["endDate"].flatMap(AppleHealthXML.date) else { return try reject(a, "unparsable endDate") }
            guard end.ms >= start.ms else { return try reject(a, "end before start") }
            let value = a["value"] ?? ""
            switch kind {
            case .heartRate:
                guard let bpm = Double(value) else { return try reject(a, "unparsable bpm") }
                guard PlausibleRange.bpm.contains(bpm) else { return try reject(a, PlausibleRange.bpmReason) }
                try sink.heartRate(subject: subject, ms: start.ms, bpm: bpm,
                                   source: resting ? "apple_health_resting" : AppleHealth.source, file: file)
            case .hrvSDNN:
                guard let sdnn = Double(value), sdnn > 0 else { return try reject(a, "unparsable sdnn") }
                try sink.hrvSample(subject: subject, ms: start.ms, sdnnMs: sdnn, source: AppleHealth.source, file: file)
                let localMidnight = Timestamp.floorDivMod(start.ms + Int64(start.offsetMin) * 60_000, 86_400_000).0 * 86_400_000
                beats = (localMidnight - Int64(start.offsetMin) * 60_000, nil, line)
            case .sleep:
                guard let stage = AppleHealth.sleepStages[value.lowercased()] else { return try reject(a, "unknown sleep value") }
                try sink.sleep(subject: subject, startMs: start.ms, endMs: end.ms, stage: stage, file: file)
            case .workout:
                unused[type, default: 0] += 1
                rows -= 1
                return
            }
            sink.accept(file)
        }

        private func workout(_ a: [String: String]) throws {
            rows += 1
            guard let start = a["startDate"].flatMap(AppleHealthXML.date) else { return try reject(a, "unparsable startDate") }
            guard let end = a["endDate"].flatMap(AppleHealthXML.date) else { return try reject(a, "unparsable endDate") }
            guard end.ms >= start.ms else { return try reject(a, "end before start") }
            let type = a["workoutActivityType"] ?? ""
            let prefix = "HKWorkoutActivityType"
            let activity = (type.hasPrefix(prefix) ? String(type.dropFirst(prefix.count)) : type).lowercased()
            try sink.workout(subject: subject, startMs: start.ms, endMs: end.ms, activity: activity, file: file)
            sink.accept(file)
        }

        /// One beat of an HRV record's list: an R-R interval when the step from the
        /// previous beat agrees with its bpm. Beats are not rows of their own.
        private func beat(_ a: [String: String]) throws {
            guard var b = beats, let bpm = a["bpm"].flatMap(Double.init), bpm > 0,
                  let tod = a["time"].flatMap(AppleHealthXML.timeOfDay) else { return }
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

/// The export file as a stream for `XMLParser`, with its `<!DOCTYPE …]>` block
/// replaced by as many line breaks (line numbers stay right). swift-corelibs-
/// foundation's `XMLParser` crashes on the attribute declarations of the export's
/// internal DTD (`#REQUIRED` / `#IMPLIED` have no default value); nothing in the
/// DTD is needed to read the records.
final class ExportStream: InputStream {
    private let handle: FileHandle
    private var head: [UInt8] = []
    private var headOffset = 0
    private var atEnd = false
    private var status: Stream.Status = .notOpen
    /// Bytes read before looking for the DOCTYPE block.
    static let headBytes = 1 << 16

    init?(path: String) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        self.handle = handle
        super.init(data: Data())
    }

    override func open() {
        let bytes = [UInt8]((try? handle.read(upToCount: ExportStream.headBytes)) ?? Data())
        head = ExportStream.blankDoctype(bytes)
        status = .open
    }

    override func close() {
        try? handle.close()
        status = .closed
    }

    override var streamStatus: Stream.Status { status }
    override var streamError: Error? { nil }
    override var hasBytesAvailable: Bool { !atEnd }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        if headOffset < head.count {
            let n = min(len, head.count - headOffset)
            head.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + headOffset, count: n) }
            headOffset += n
            return n
        }
        let data = (try? handle.read(upToCount: len)) ?? Data()
        if data.isEmpty {
            atEnd = true
            status = .atEnd
            return 0
        }
        data.copyBytes(to: buffer, count: data.count)
        return data.count
    }

    /// `bytes` with the first `<!DOCTYPE … ]>` (or `<!DOCTYPE …>`) replaced by the
    /// line breaks it contained.
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
}
