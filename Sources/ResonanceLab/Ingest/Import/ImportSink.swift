import Foundation

/// Receives the rows every format adapter produces, keeps the accounting of each
/// source file (rows read = accepted + rejected), and writes all canonical tables
/// of docs/tables.md plus `rejects.csv` into the workspace's staging folder; the
/// manifest it returns is committed with them by the workspace session.
final class ImportSink {
    /// An interned subject: its name, group, CSV field text (a range of
    /// `subjectFields`) and the time range of its rows.
    struct Subject {
        var name: String
        var group: String?
        var field: Range<Int>
        var firstMs: Int64?
        var lastMs: Int64?
        /// The recording: first and last time of its heart rate, R-R and HRV rows, from
        /// the E4 session start when there is one.
        var recordingFirstMs: Int64?
        var recordingLastMs: Int64?
        /// The first and last time of its waveform samples: its range when it has no rows.
        var waveformFirstMs: Int64?
        var waveformLastMs: Int64?
    }

    /// An event marker (a zero-length label from E4 tags), judged against its subject's
    /// recording when the import ends.
    struct Marker {
        var subject: Int
        var ms: Int64
        var label: String
        var file: Int32
    }

    /// Nil for a sink that keeps its tables in memory (`inMemory(registry:)`).
    let workspace: Workspace?
    /// The plausible heart rates and R-R intervals (the registry's `hr` and `rr`
    /// constants in force).
    let hrRange: HRConstants
    let rrRange: RRConstants
    private let hr, rr, hrv, plays, labels, sleep, workouts: SortedTableWriter
    private let rejects: CSVWriter?
    /// Raw signals (`waveforms.bin`, `waveforms.csv`) and reference annotations
    /// (`annotations.csv`), written only by an import that read some.
    let waveforms: WaveformSink
    private var annotations: [ReferenceAnnotation] = []
    /// The exports' own per-day values (`daily_inputs.csv`) and facts about each subject
    /// (`subjects.csv`), written whole when the import commits.
    private var dailyInputs = DailyInputAccumulator()
    private var subjectFacts: [Int: SubjectRow] = [:]
    private(set) var sources: [SourceFile] = []
    private var subjects: [Subject] = []
    private var subjectIndex: [String: Int] = [:]
    /// Encoded subject fields, back to back: rows copy from here without retaining.
    private var subjectFields: [UInt8] = []
    private var line: [UInt8] = []
    /// Encodes play rows (`Play.writeFieldsAfterSubject`).
    private let playRow = CSVWriter()
    private var spans = SeriesSpans()
    private var timestamps = LineEncoder.TimestampCache()
    private let digests = FileDigests()
    /// Subjects known when the current source began.
    private var subjectsBefore = 0
    /// A source that brings at least this many new subjects, more than one for every
    /// two of its rows, is warned about: such a column is a row id, not a subject.
    static let rowIDSubjects = 1000
    /// Warnings for stderr, one line each (also among the source's manifest notes).
    private(set) var warnings: [String] = []
    /// Distinct subjects this import may hold (`Importer.Options.maxSubjects`).
    var maxSubjects = Importer.Options.defaultMaxSubjects
    /// Every event marker, in file order.
    private var markers: [Marker] = []
    /// Rejected rows per source and reason (for the warning on a file without accepted rows).
    private var rejectReasons: [[String: Int]] = []
    /// Per source file, its first rejected row: line and the raw excerpt `rejects.csv` holds.
    private var firstRejects: [(line: Int, raw: String)?] = []
    /// Song features and the songs played, matched when the import ends; the songs
    /// played are collected only when `matchesSongFeatures` (the import has a features file).
    private var features = SongFeatureImport()
    var matchesSongFeatures = false
    /// The source that named a subject past `maxSubjects`. `subject(_:)` does not throw,
    /// so the next row or the end of that source fails the import.
    private var overflow: Int?
    /// Other ids of subjects (`subjects.csv` aliases): rows of an alias go to its subject.
    var aliases = SubjectAliases()
    /// The aliases whose rows were merged, by subject index.
    private var merged: [Int: Set<String>] = [:]
    /// When the exports were made, as the user states it (`--exported-at`, epoch ms).
    var exportedAtMs: Int64?
    /// When the export of the file being read was made, and how that is known (its own
    /// statement, Apple Health's `ExportDate`, else `--exported-at`): records dated after
    /// it are rejected (`afterExport`).
    private var exportMade: (ms: Int64, how: String)?

    init(workspace: Workspace, registry: ConstantsRegistry) throws {
        self.workspace = workspace
        hrRange = registry.hr
        rrRange = registry.rr
        func table<Row: CanonicalRow>(_ type: Row.Type) throws -> SortedTableWriter {
            try SortedTableWriter(path: try workspace.output(Row.fileName), header: Row.header)
        }
        hr = try table(HRSample.self)
        rr = try table(RRInterval.self)
        hrv = try table(HRVSample.self)
        plays = try table(Play.self)
        labels = try table(LabelInterval.self)
        sleep = try table(SleepEpisode.self)
        workouts = try table(Workout.self)
        rejects = try CSVWriter(path: try workspace.output(Reject.fileName), header: Reject.header)
        waveforms = WaveformSink(path: try workspace.output(WaveformSink.fileName))
        line.reserveCapacity(256)
    }

    /// A sink that checks, accounts and encodes rows exactly as an import does but keeps
    /// them in memory and opens no file, for running adapters on in-memory input
    /// (the fuzz targets). It cannot `finish` or `commit`.
    private init(registry: ConstantsRegistry) {
        workspace = nil
        hrRange = registry.hr
        rrRange = registry.rr
        func table<Row: CanonicalRow>(_ type: Row.Type) -> SortedTableWriter { SortedTableWriter(inMemory: Row.header) }
        hr = table(HRSample.self)
        rr = table(RRInterval.self)
        hrv = table(HRVSample.self)
        plays = table(Play.self)
        labels = table(LabelInterval.self)
        sleep = table(SleepEpisode.self)
        workouts = table(Workout.self)
        rejects = nil
        waveforms = WaveformSink(path: nil)
    }

    static func inMemory(registry: ConstantsRegistry) -> ImportSink { ImportSink(registry: registry) }

    /// Folder for an adapter's temporary files (an archive entry being extracted): the
    /// workspace, or the system's temporary folder for an in-memory sink.
    var scratchFolder: String { workspace?.path ?? NSTemporaryDirectory() }

    private var tables: [SortedTableWriter] { [hr, rr, hrv, plays, labels, sleep, workouts] }

    // MARK: - Sources and subjects

    /// Registers a source file (its SHA-256 is computed in the background) and
    /// returns its index.
    func beginSource(path: String, display: String, format: String) -> Int32 {
        subjectsBefore = subjects.count
        exportMade = exportedAtMs.map { ($0, "--exported-at") }
        sources.append(SourceFile(path: display, sha256: "", format: format))
        rejectReasons.append([:])
        firstRejects.append(nil)
        if workspace != nil { digests.start(sources.count - 1, path: path) }
        return Int32(sources.count - 1)
    }

    /// The countries of each subject's plays where the export names them (Spotify's
    /// `conn_country`), for `CountryZones.advice`.
    private(set) var playCountries: [String: [String: CountryPlays]] = [:]

    func playCountry(_ country: String, subject: String, startMs: Int64) {
        playCountries[subject, default: [:]][country, default: CountryPlays()].add(startMs)
    }

    /// A note that is also a warning on stderr (prefixed with the file's path).
    func warn(_ file: Int32, _ text: String) {
        note(file, text)
        warnings.append("\(sources[Int(file)].path): \(text)")
    }

    func note(_ file: Int32, _ text: String) {
        if !sources[Int(file)].notes.contains(text) { sources[Int(file)].notes.append(text) }
    }

    /// The export's own statement of when it was made (Apple Health's `ExportDate`): for
    /// the file being read it replaces `--exported-at`.
    func exportMade(_ file: Int32, ms: Int64, how: String) {
        exportMade = (ms, how)
        note(file, "export made \(Timestamp.iso(ms)) (\(how)): records dated after it rejected")
    }

    /// The reject reason of a record dated `ms` (its start; a per-day value, the start of
    /// its day) when it lies after the export of the file being read was made, else nil.
    func afterExport(_ ms: Int64) -> String? {
        guard let made = exportMade, ms > made.ms else { return nil }
        return afterExportReason
    }

    /// When the export of the file being read was made (epoch ms) and the reject reason
    /// of records dated after it (`afterExport`), for deciding it away from the sink.
    var exportCutoff: (ms: Int64, reason: String)? {
        guard let made = exportMade, let reason = afterExportReason else { return nil }
        return (made.ms, reason)
    }

    /// The reject reason of records dated after the export of the file being read.
    private var afterExportReason: String? {
        exportMade.map { "dated after the export was made (\(Timestamp.iso($0.ms)), \($0.how))" }
    }

    /// Rejects `record` (`column`: its time) when `ms` lies after the export was made
    /// (`afterExport`); true when it did.
    func rejectedAfterExport(_ file: Int32, _ record: CSVRecord, column: Int, _ ms: Int64) throws -> Bool {
        guard let late = afterExport(ms) else { return false }
        try reject(file, record, column: column, reason: late)
        return true
    }

    /// Closes a source: `rowsRead` (counted by the adapter) must equal accepted +
    /// rejected; notes how zone-less times were read, if there were any, and warns of
    /// records dated after the export.
    func endSource(_ input: SourceInput, rowsRead: Int) throws {
        try checkSubjectLimit()
        let file = input.file
        if let zone = input.times.zoneNote() { note(file, zone) }
        if let reason = afterExportReason, let late = rejectReasons[Int(file)][reason] {
            warn(file, "\(plural(late, "record")) \(reason): rejected (see rejects.csv)")
        }
        let newSubjects = subjects[subjectsBefore...].lazy.filter { $0.firstMs != nil }.count
        if newSubjects >= ImportSink.rowIDSubjects, newSubjects * 2 > rowsRead {
            let warning = "\(newSubjects) subjects in \(rowsRead) rows: the subject column looks like a row id "
                + "(each subject holds about 1 KB of memory until the import ends, at most --max-subjects \(maxSubjects))"
            warn(file, warning)
        }
        let s = sources[Int(file)]
        guard rowsRead == s.accepted + s.rejected else {
            throw ImportError.accounting(path: s.path, read: rowsRead, accepted: s.accepted, rejected: s.rejected)
        }
        sources[Int(file)].rowsRead = rowsRead
    }

    /// Records a file that could not be read: its rows so far stay counted, so
    /// rows read = accepted + rejected still holds.
    func fail(_ file: Int32, reason: String) {
        let i = Int(file)
        sources[i].failure = reason
        sources[i].rowsRead = sources[i].accepted + sources[i].rejected
    }

    func setUnused(_ file: Int32, _ counts: [String: Int]) {
        if !counts.isEmpty { sources[Int(file)].unusedRecords = counts }
    }

    func setRRStamp(_ file: Int32, _ clock: RRClock) {
        sources[Int(file)].rrStamp = clock.convention.rawValue
        note(file, clock.note)
    }

    func subject(_ given: String, group: String? = nil) -> Int {
        let name = aliases.subjectOf.isEmpty ? given : aliases.subjectOf[given] ?? given
        let i = interned(name, group: group)
        if name != given { merged[i, default: []].insert(given) }
        return i
    }

    private func interned(_ name: String, group: String?) -> Int {
        if let i = subjectIndex[name] {
            if subjects[i].group == nil { subjects[i].group = group }
            return i
        }
        if subjects.count >= maxSubjects, !subjects.isEmpty {
            if overflow == nil { overflow = sources.count - 1 }
            return subjects.count - 1
        }
        let start = subjectFields.count
        LineEncoder.appendField(name, to: &subjectFields)
        subjects.append(Subject(name: name, group: group, field: start..<subjectFields.count))
        subjectIndex[name] = subjects.count - 1
        return subjects.count - 1
    }

    // MARK: - Rows

    /// Counts one input row as accepted. Adapters call it once per accepted row,
    /// whatever number of table rows it produced (none for one second of a label
    /// merged into an interval, two for a CSV row with both bpm and RR).
    func accept(_ file: Int32, count: Int = 1) {
        sources[Int(file)].accepted += count
    }

    /// Rejects `count` input rows with one `rejects.csv` row (a run of unreadable
    /// waveform samples is one row; `line` is its first line, `reason` says how many).
    func reject(_ file: Int32, line: Int, column: Int, reason: String, raw: String, count: Int = 1) throws {
        try checkSubjectLimit()
        sources[Int(file)].rejected += count
        rejectReasons[Int(file)][reason, default: 0] += count
        let excerpt = ImportSink.excerpt(raw)
        if firstRejects[Int(file)] == nil { firstRejects[Int(file)] = (line, excerpt) }
        guard let rejects else { return }
        rejects.field(sources[Int(file)].path); rejects.field(line); rejects.field(column)
        rejects.field(reason); rejects.field(excerpt)
        try rejects.endRow()
    }

    /// Fails the import once a source named more distinct subjects than `maxSubjects`.
    private func checkSubjectLimit() throws {
        guard let overflow else { return }
        throw ImportError.tooManySubjects(path: sources[overflow].path, limit: maxSubjects)
    }

    /// Longest raw text copied into `rejects.csv`, in bytes.
    static let rejectExcerptBytes = 200

    /// `raw` itself when short; else its first `rejectExcerptBytes` bytes (cut back to a
    /// whole UTF-8 character) and the original length, so that a huge bad field cannot
    /// blow up `rejects.csv`: `ab… [123456 bytes]`.
    static func excerpt(_ raw: String) -> String {
        let utf8 = Array(raw.utf8)
        guard utf8.count > rejectExcerptBytes else { return raw }
        var end = rejectExcerptBytes
        while end > 0, utf8[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: utf8[..<end], as: UTF8.self) + "… [\(utf8.count) bytes]"
    }

    func reject(_ file: Int32, _ record: CSVRecord, column: Int, reason: String) throws {
        try reject(file, line: record.line, column: column, reason: reason, raw: record.raw)
    }

    func heartRate(subject: Int, ms: Int64, bpm: Double, source: String, file: Int32) throws {
        try measurement(hr, subject: subject, ms: ms, value: bpm, source: source, file: file)
    }

    func rrInterval(subject: Int, ms: Int64, rrMs: Double, source: String, file: Int32) throws {
        try measurement(rr, subject: subject, ms: ms, value: rrMs, source: source, file: file)
    }

    /// An `hrv_samples.csv` row: SDNN and/or RMSSD (ms) of a device's window.
    func hrvSample(subject: Int, ms: Int64, sdnnMs: Double? = nil, rmssdMs: Double? = nil, source: String,
                   file: Int32) throws {
        spans.add(table: ObjectIdentifier(hrv), subject: subject, file: file, ms: ms)
        try startRow(subject, ms)
        touchRecording(subject, ms)
        line.append(44); timestamps.append(ms, to: &line)
        line.append(44); if let sdnnMs { LineEncoder.appendNumber(sdnnMs, to: &line) }
        line.append(44); if let rmssdMs { LineEncoder.appendNumber(rmssdMs, to: &line) }
        line.append(44); LineEncoder.appendField(source, to: &line)
        try hrv.add(line, file: file)
    }

    func label(subject: Int, startMs: Int64, endMs: Int64, label text: String, file: Int32) throws {
        try interval(labels, subject: subject, startMs: startMs, endMs: endMs, text: text, file: file)
    }

    /// An event marker: a zero-length `labels.csv` row at `ms`. It widens the subject's
    /// time range only if it lies inside the recording (decided in `finish`).
    func marker(subject: Int, ms: Int64, label text: String, file: Int32) throws {
        try interval(labels, subject: subject, startMs: ms, endMs: ms, text: text, file: file, touching: false)
        markers.append(Marker(subject: subject, ms: ms, label: text, file: file))
    }

    /// The start of a recording that its metadata states (the E4 session start), before
    /// its first sample.
    /// The name of an interned subject.
    func subjectName(_ subject: Int) -> String { subjects[subject].name }

    /// Widens a subject's waveform time range (its range in the manifest when it has no rows).
    func waveformSpan(subject: Int, firstMs: Int64, lastMs: Int64) {
        subjects[subject].waveformFirstMs = min(subjects[subject].waveformFirstMs ?? firstMs, firstMs)
        subjects[subject].waveformLastMs = max(subjects[subject].waveformLastMs ?? lastMs, lastMs)
    }

    /// A reference annotation (`annotations.csv`), in file order.
    func annotation(_ row: ReferenceAnnotation) {
        annotations.append(row)
    }

    func recordingStart(subject: Int, ms: Int64) {
        touchRecording(subject, ms)
    }

    func sleep(subject: Int, startMs: Int64, endMs: Int64, stage: SleepStage, source: String, file: Int32) throws {
        try interval(sleep, subject: subject, startMs: startMs, endMs: endMs, text: stage.rawValue, then: source, file: file)
    }

    func workout(subject: Int, startMs: Int64, endMs: Int64, activity: String, file: Int32) throws {
        try interval(workouts, subject: subject, startMs: startMs, endMs: endMs, text: activity, file: file)
    }

    /// A value the export states for a whole local day (`day`: days since 1970-01-01 of
    /// the record's local date); the day's records are combined when the import commits.
    func dailyInput(subject: Int, day: Int64, metric: DailyMetric, value: Double, source: String, file: Int32) {
        touch(subject, day * 86_400_000)
        dailyInputs.add(subject: subject, day: day, metric: metric, value: value, source: source)
    }

    /// What an export says of the person (Apple Health's `Me`, a `subjects.csv`): merged
    /// into the subject's `subjects.csv` row, a later non-empty value replacing an earlier one.
    func subjectFacts(subject: Int, _ facts: SubjectRow) {
        var row = subjectFacts[subject] ?? SubjectRow(subject: subjects[subject].name, source: facts.source)
        if let v = facts.birthYear { row.birthYear = v }
        if !facts.sex.isEmpty { row.sex = facts.sex }
        if let v = facts.heightCm { row.heightCm = v }
        if let v = facts.weightKg { row.weightKg = v }
        if !facts.timeZone.isEmpty { row.timeZone = facts.timeZone }
        if !facts.aliases.isEmpty { row.aliases = SubjectRow.aliases((row.aliases + facts.aliases).joined(separator: ";")) }
        row.source = facts.source
        subjectFacts[subject] = row
    }

    /// A play row: the interned subject field, then `Play`'s own fields.
    func play(_ play: Play, subject: Int, file: Int32) throws {
        try startRow(subject, play.startedAtMs)
        touch(subject, play.endedAtMs ?? play.startedAtMs)
        line.withUnsafeBufferPointer { playRow.beginRow(after: $0) }
        play.writeFieldsAfterSubject(to: playRow)
        try plays.add(playRow.bytes, file: file)
        if matchesSongFeatures { features.played(play) }
    }

    /// A `song_features.csv` row, matched to the plays when the import ends; `hasId`
    /// when its file has a track id column.
    func songFeature(_ row: SongFeatureRow, hasId: Bool, file: Int32) {
        features.add(row, hasId: hasId, file: file)
    }

    /// `subject,timestamp,value,source` rows (hr, rr).
    private func measurement(_ table: SortedTableWriter, subject: Int, ms: Int64, value: Double,
                             source: String, file: Int32) throws {
        spans.add(table: ObjectIdentifier(table), subject: subject, file: file, ms: ms)
        try startRow(subject, ms)
        touchRecording(subject, ms)
        ImportSink.appendMeasurementFields(ms: ms, value: value, source: source, timestamps: &timestamps, to: &line)
        try table.add(line, file: file)
    }

    /// The fields of a measurement row after its subject: `,timestamp,value,source`.
    static func appendMeasurementFields(ms: Int64, value: Double, source: String,
                                        timestamps: inout LineEncoder.TimestampCache, to line: inout [UInt8]) {
        line.append(44); timestamps.append(ms, to: &line)
        line.append(44); LineEncoder.appendNumber(value, to: &line)
        line.append(44); LineEncoder.appendField(source, to: &line)
    }

    /// A heart-rate row whose fields after the subject were encoded beforehand
    /// (`appendMeasurementFields`, by a worker reading a range of a large file).
    func heartRate(subject: Int, ms: Int64, fields: UnsafeBufferPointer<UInt8>, file: Int32) throws {
        spans.add(table: ObjectIdentifier(hr), subject: subject, file: file, ms: ms)
        try startRow(subject, ms)
        touchRecording(subject, ms)
        line.append(contentsOf: fields)
        try hr.add(line, file: file)
    }

    /// `subject,start,end,text` rows (labels, sleep, workouts).
    private func interval(_ table: SortedTableWriter, subject: Int, startMs: Int64, endMs: Int64,
                          text: String, then last: String? = nil, file: Int32, touching: Bool = true) throws {
        try startRow(subject, startMs, touching: touching)
        if touching { touch(subject, endMs) }
        line.append(44); LineEncoder.appendTimestamp(startMs, to: &line)
        line.append(44); LineEncoder.appendTimestamp(endMs, to: &line)
        line.append(44); LineEncoder.appendField(text, to: &line)
        if let last { line.append(44); LineEncoder.appendField(last, to: &line) }
        try table.add(line, file: file)
    }

    /// Starts a table line with the subject field.
    private func startRow(_ subject: Int, _ ms: Int64, touching: Bool = true) throws {
        try checkSubjectLimit()
        if touching { touch(subject, ms) }
        line.removeAll(keepingCapacity: true)
        let field = subjects[subject].field
        subjectFields.withUnsafeBufferPointer { line.append(contentsOf: UnsafeBufferPointer(rebasing: $0[field])) }
    }

    private func touchRecording(_ subject: Int, _ ms: Int64) {
        subjects[subject].recordingFirstMs = min(subjects[subject].recordingFirstMs ?? ms, ms)
        subjects[subject].recordingLastMs = max(subjects[subject].recordingLastMs ?? ms, ms)
    }

    private func touch(_ subject: Int, _ ms: Int64) {
        if let first = subjects[subject].firstMs {
            if ms < first { subjects[subject].firstMs = ms }
            if ms > subjects[subject].lastMs! { subjects[subject].lastMs = ms }
        } else {
            subjects[subject].firstMs = ms
            subjects[subject].lastMs = ms
        }
    }

    // MARK: - Completion

    /// Sorts and merges every table into temporary files and returns the manifest
    /// (subjects with rows, in byte order of their names; `skipped`, the files the
    /// import saw and did not read, in byte order of their paths).
    func finish(timezone: String, registry: ConstantsRegistry, skipped: [SkippedFile] = [],
                exportRoots: [ExportRootInfo] = []) throws -> Manifest {
        guard workspace != nil else { throw ImportError.badOption(message: "an in-memory import has no tables to finish") }
        try checkSubjectLimit()
        for (i, digest) in try digests.wait() { sources[i].sha256 = digest }
        for table in tables {
            try table.finish()
            for (file, count) in table.duplicates { sources[Int(file)].duplicates += count }
        }
        for (name, table) in [("heart rate", hr), ("R-R intervals", rr)] {
            if let clash = spans.firstOverlap(table: ObjectIdentifier(table), duplicates: table.duplicates) {
                throw ImportError.overlap(subject: subjects[clash.subject].name, table: name,
                                          first: sources[Int(clash.first)].path, second: sources[Int(clash.second)].path)
            }
        }
        let outside = judgeMarkers()
        let used = subjects.indices.filter { subjects[$0].firstMs != nil || subjects[$0].waveformFirstMs != nil }
            .sorted { subjectFields[subjects[$0].field].lexicographicallyPrecedes(subjectFields[subjects[$1].field]) }
        let info = used.map { i -> SubjectInfo in
            let s = subjects[i]
            var info = SubjectInfo(subject: s.name, group: s.group, start: (s.firstMs ?? s.waveformFirstMs).map(Timestamp.iso),
                                   end: (s.lastMs ?? s.waveformLastMs).map(Timestamp.iso))
            info.markersOutsideRecording = outside[i]
            info.mergedAliases = merged[i].map { $0.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) } }
            return info
        }
        for i in used { if let o = outside[i] { warnings.append("\(subjects[i].name): \(o.note)") } }
        var manifest = Manifest(timezone: timezone, sources: sources, subjects: info)
        if let workspace, !features.isEmpty {
            let matched = features.match()
            for (file, count) in matched.duplicates { manifest.sources[Int(file)].duplicates += count }
            manifest.songFeatures = matched.summary
            try workspace.write(matched.rows)
        }
        if !skipped.isEmpty {
            manifest.skipped = skipped.sorted { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }
        }
        if !exportRoots.isEmpty { manifest.exportRoots = exportRoots }
        return manifest
    }

    /// Offsets (hours) tried as the repair of markers outside the recording: an AM/PM slip.
    static let markerRepairHours = [12, -12]

    /// Judges every event marker against its subject's recording: those inside (or of a
    /// subject without a recording) widen the subject's time range; those outside are
    /// counted per subject, with the one offset of `markerRepairHours` that puts all of
    /// them inside the recording and in sequence with the other markers of their file,
    /// when exactly one does. Nothing is moved.
    private func judgeMarkers() -> [Int: OutsideMarkers] {
        var bySubject: [Int: [Marker]] = [:]
        for m in markers { bySubject[m.subject, default: []].append(m) }
        var out: [Int: OutsideMarkers] = [:]
        for (subject, list) in bySubject {
            guard let first = subjects[subject].recordingFirstMs, let last = subjects[subject].recordingLastMs else {
                for m in list { touch(subject, m.ms) }
                continue
            }
            func inside(_ ms: Int64) -> Bool { ms >= first && ms <= last }
            for m in list where inside(m.ms) { touch(subject, m.ms) }
            let outside = list.filter { !inside($0.ms) }
            guard !outside.isEmpty else { continue }
            let fitting = ImportSink.markerRepairHours.filter { hours in
                let shifted = list.map { (file: $0.file, ms: inside($0.ms) ? $0.ms : $0.ms + Int64(hours) * 3_600_000) }
                guard shifted.allSatisfy({ inside($0.ms) }) else { return false }
                return zip(shifted, shifted.dropFirst()).allSatisfy { $0.file != $1.file || $0.ms <= $1.ms }
            }
            let offset = fitting.count == 1 ? fitting[0] : nil
            let times = outside.map { Timestamp.iso($0.ms) }
            let shown = times.prefix(5).joined(separator: ", ") + (times.count > 5 ? ", …" : "")
            let repair = offset.map {
                "\($0 > 0 ? "+" : "-")\(abs($0)) h puts \(outside.count == 1 ? "it" : "every one of them") inside the recording in sequence with the other "
                    + "markers (probable AM/PM slip), not applied"
            } ?? "no offset of ±12 h puts them inside the recording in sequence with the other markers"
            let note = "\(outside.count) of \(list.count) event markers (\(outside[0].label)) "
                + "\(outside.count == 1 ? "lies" : "lie") outside the recording "
                + "\(Timestamp.iso(first))–\(Timestamp.iso(last)) (at \(shown)): kept in labels.csv, never used; \(repair)"
            out[subject] = OutsideMarkers(count: outside.count, markers: list.count, times: times,
                                          recordingStart: Timestamp.iso(first), recordingEnd: Timestamp.iso(last),
                                          probableOffsetHours: offset, note: note)
        }
        return out
    }

    /// The one-line account of a source file that gave no accepted row (`Importer.gaveNoRows`),
    /// naming the rows read and the most frequent rejection reason; nil for other files.
    func noAcceptedRows(_ file: Int32) -> String? {
        let s = sources[Int(file)]
        guard Importer.gaveNoRows(s) else { return nil }
        guard s.rowsRead > 0 else { return "no rows accepted: 0 rows read" }
        let top = rejectReasons[Int(file)].sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.first
        let first = firstRejects[Int(file)].map { "; the first, line \($0.line): \($0.raw)" } ?? ""
        // A time the generic reader cannot read may be in a layout --time-format names.
        let hint = top?.key == "unparsable time" && s.format == SourceFormat.genericCSV.rawValue
            ? "; give the time column's layout with --time-format, e.g. --time-format 'dd/MM/yyyy HH:mm:ss'" : ""
        return "no rows accepted: \(plural(s.rowsRead, "row")) read, all rejected (top reason: \(top?.key ?? "none"), "
            + "\(plural(top?.value ?? 0, "row"))\(first)\(hint); see rejects.csv)"
    }

    /// Renames every finished table to its name in the staging folder.
    func commit() throws {
        guard let rejects else { throw ImportError.badOption(message: "an in-memory import has no tables to commit") }
        for table in tables {
            if let made = try table.commit() { workspace?.session?.wrote(file: table.path, rows: made.rows, sha256: made.sha256) }
        }
        try rejects.commit()
        guard let workspace else { return }
        // Grouped by subject in byte order, as every table (files are read in path order,
        // which need not be their subjects' order); each subject's rows keep their order.
        func bySubject<Row>(_ rows: [Row], _ subject: (Row) -> String) -> [Row] {
            rows.enumerated().sorted {
                let a = subject($0.element), b = subject($1.element)
                return a == b ? $0.offset < $1.offset : SubjectOrder.precedes(a, b)
            }.map(\.element)
        }
        if !waveforms.segments.isEmpty {
            try waveforms.commit(workspace: workspace)
            try workspace.write(bySubject(waveforms.segments, \.subject))
        }
        if !annotations.isEmpty { try workspace.write(bySubject(annotations, \.subject)) }
        // Subjects with rows, and those only described (a subjects.csv of people without data yet).
        let order = subjects.indices.filter {
            subjects[$0].firstMs != nil || subjects[$0].waveformFirstMs != nil || subjectFacts[$0] != nil
        }
            .sorted { subjectFields[subjects[$0].field].lexicographicallyPrecedes(subjectFields[subjects[$1].field]) }
        try workspace.write(dailyInputs.rows(subjectOrder: order) { self.subjects[$0].name })
        try workspace.write(order.compactMap { subjectFacts[$0] })
    }
}

extension ImportSink {
    /// Ends a waveform recording: its segments go to `waveforms.bin`, and the time from
    /// its first to its last frame widens the subject's waveform range.
    func endRecording(_ recording: WaveformSink.Recording, subject: Int) throws {
        let before = waveforms.segments.count
        try waveforms.end(recording)
        guard waveforms.segments.count > before else { return }
        let end = Double(recording.startMs) + Double(recording.frames - 1) * 1000 / recording.rateHz
        guard let lastMs = Timestamp.instant(ms: end.rounded(.down)) else {
            throw ImportError.badMetadata(path: recording.file, line: 0, column: 0,
                                          message: "\(recording.frames) samples at \(recording.rateHz) Hz run past the years 0000–9999")
        }
        waveformSpan(subject: subject, firstMs: recording.startMs, lastMs: lastMs)
    }
}
