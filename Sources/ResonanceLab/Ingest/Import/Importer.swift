import Foundation

/// `resonance import`: reads raw exports into the canonical tables of a workspace
/// (docs/import.md, docs/tables.md), with `manifest.json` and `rejects.csv`.
public enum Importer {
    public struct Options {
        /// Forces one format for every file instead of detecting it.
        public var format: SourceFormat?
        /// Zone of naive local timestamps; nil reads them as UTC.
        public var timeZone: TimeZone?
        /// Subject of single-subject files (default: the containing folder's name).
        public var subject: String?
        /// Subject from the file name: a regular expression whose first capture group
        /// is the id (default `SubjectNaming.defaultPattern`).
        public var subjectFromName: String?
        /// Which beat R-R timestamps mark; `.auto` detects it per file.
        public var rrStamp: RRStamp = .auto
        /// Epoch ms where clockless R-R series begin (default: the epoch).
        public var startMs: Int64?
        /// Sample rate (Hz) of a waveform CSV read without its times (`--rate`).
        public var rateHz: Double?
        /// When the exports were made (`--exported-at`, epoch ms): records dated after it
        /// are rejected. An export that states its own time (Apple Health's `ExportDate`)
        /// is judged by that instead.
        public var exportedAtMs: Int64?
        public var columns = ColumnMapping()
        /// Stop at the first file that cannot be read (otherwise it is recorded as
        /// failed and the rest imports).
        public var strict = false
        /// Accept source files that give no accepted row (`--allow-empty`); otherwise the
        /// import stage ends with `ImportFailures` (exit code 3) after committing. Each
        /// such file is a warning either way.
        public var allowEmpty = false
        /// Distinct subjects the import may hold (`--max-subjects`); one more is an error
        /// naming the file. Each costs about 1 KB until the import ends: its name, time
        /// range, series spans and manifest entry.
        public var maxSubjects = Options.defaultMaxSubjects
        public static let defaultMaxSubjects = 100_000
        /// Workers for reading one large file in ranges (`--jobs`; the stage context's):
        /// the outputs are those of one worker, byte for byte.
        public var jobs = 1
        /// Bytes per range of a file read in parallel (`RecordRanges.rangeBytes`); files
        /// under two ranges are read in one pass. Tests and the fuzz targets force tiny ranges.
        public var rangeBytes = RecordRanges.rangeBytes
        /// Constants recorded in the manifest's provenance.
        public var registry: ConstantsRegistry
        public var progress: (String) -> Void
        /// One line per file that failed or gave no accepted row, and per subject with
        /// event markers outside its recording (the CLI prints it on stderr).
        public var warning: (String) -> Void = { _ in }
        /// The import's one-line summaries that are not progress (the count of files
        /// skipped): the CLI prints them on stderr unless `--quiet`.
        public var notice: (String) -> Void = { _ in }

        public init(format: SourceFormat? = nil, timeZone: TimeZone? = nil, subject: String? = nil,
                    registry: ConstantsRegistry = .defaults, progress: @escaping (String) -> Void = { _ in }) {
            self.format = format; self.timeZone = timeZone; self.subject = subject
            self.registry = registry; self.progress = progress
        }
    }

    /// Imports every source (files or dataset folders) into `workspace`; all tables
    /// are committed together with the manifest only after every source was read
    /// (within the workspace's session, or one opened here).
    @discardableResult
    public static func run(sources: [String], workspace: Workspace, options: Options = Options()) throws -> Manifest {
        guard let session = workspace.session else {
            let session = try WorkspaceSession(path: workspace.path, reads: [], writes: ImportStage.tables,
                                               creating: true, note: options.warning)
            let manifest = try run(sources: sources, workspace: Workspace(path: workspace.path, session: session),
                                   options: options)
            try session.commit()
            return manifest
        }
        var layout = DatasetLayout(forcedFormat: options.format, mapping: options.columns, subject: options.subject,
                                   naming: try SubjectNaming(pattern: options.subjectFromName),
                                   delimiter: options.columns.delimiter?.asciiValue, strict: options.strict,
                                   progress: options.progress)
        var planned: [PlannedFile] = []
        for source in sources { planned += try layout.plan(source) }
        let sink = try ImportSink(workspace: workspace, registry: options.registry)
        sink.maxSubjects = options.maxSubjects
        sink.exportedAtMs = options.exportedAtMs
        sink.aliases = try SubjectAliases.scan(planned)
        sink.matchesSongFeatures = planned.contains { $0.format == .songFeatures }
        for plan in planned {
            let warningsBefore = sink.warnings.count
            let file = sink.beginSource(path: plan.path, display: plan.display, format: plan.format?.rawValue ?? "unknown")
            guard let format = plan.format, plan.failure == nil else {
                sink.fail(file, reason: plan.failure ?? "unreadable")
                options.warning("\(plan.display): failed: \(plan.failure ?? "unreadable")")
                continue
            }
            do {
                try read(plan, format: format, file: file, into: sink, options: options)
            } catch let error where plan.inFolder && !options.strict && !stopsImport(error) {
                sink.fail(file, reason: "\(error)")
                options.warning("\(plan.display): failed: \(error)")
                continue
            }
            let s = sink.sources[Int(file)]
            options.progress("\(plan.display): \(format.rawValue), \(plural(s.rowsRead, "row")), \(s.rejected) rejected")
            if let empty = sink.noAcceptedRows(file) {
                sink.note(file, empty)
                options.warning("\(plan.display): \(empty)")
            }
            for warning in sink.warnings[warningsBefore...] { options.warning(warning) }
        }
        for (subject, countries) in sink.playCountries.sorted(by: { $0.key < $1.key }) {
            if let advice = CountryZones.advice(subject: subject, countries: countries, given: options.timeZone) {
                options.warning(advice)
            }
        }
        let warningsBefore = sink.warnings.count
        let manifest = try sink.finish(timezone: options.timeZone?.identifier ?? "UTC", registry: options.registry,
                                       skipped: layout.skipped, exportRoots: layout.exportRoots)
        for warning in sink.warnings[warningsBefore...] { options.warning(warning) }
        if let skipped = manifest.skipped {
            options.notice("import: \(plural(skipped.count, "file")) skipped (see manifest.json)")
        }
        if let unused = unusedNotice(manifest.sources) { options.notice(unused) }
        if let naive = naiveUTCNotice(manifest.sources) { options.notice(naive) }
        try sink.commit()
        session.replacement = manifest
        return manifest
    }

    /// Reads one planned file with its format's adapter. A file forced into a format
    /// (`--format`) whose header or layout it does not have stops with the layout that
    /// format expects and what the file holds (`ImportError.formatMismatch`).
    private static func read(_ plan: PlannedFile, format: SourceFormat, file: Int32, into sink: ImportSink,
                             options: Options) throws {
        guard options.format != nil else {
            return try adapter(format).read(input(plan, format: format, file: file, options: options), into: sink)
        }
        func mismatch(_ found: String) -> ImportError {
            .formatMismatch(path: plan.path, format: format.rawValue, expected: FormatLayout.expected(format), found: found)
        }
        if let found = try FormatLayout.mismatch(format, path: plan.path, delimiter: plan.delimiter) { throw mismatch(found) }
        do {
            try adapter(format).read(input(plan, format: format, file: file, options: options), into: sink)
        } catch ImportError.unknownFormat(_, _) {
            throw mismatch("found \(FormatLayout.firstLine(plan.path))")
        }
    }

    /// Whether a source file read to the end gave no accepted row: all its rows rejected,
    /// or none at all in a file that should hold some. A file holding only records of
    /// kinds the toolkit does not use (`unusedRecords`: podcast episodes, other record
    /// types), E4 tags without a button press and a canonical table without rows rightly
    /// give none. The import stage counts such files as a partial failure unless `allowEmpty`.
    public static func gaveNoRows(_ source: SourceFile) -> Bool {
        guard source.accepted == 0, source.failure == nil else { return false }
        if source.rowsRead > 0 { return true }
        return source.unusedRecords == nil
            && ![SourceFormat.e4Tags.rawValue, SourceFormat.canonical.rawValue].contains(source.format)
    }

    /// Kinds of unused records the import's stderr line names; the manifest counts all.
    static let unusedKindsShown = 5

    /// The one line counting the records of kinds the toolkit does not use, over every
    /// source (the manifest's `unusedRecords`, summed per kind), most frequent first; nil
    /// when there are none.
    static func unusedNotice(_ sources: [SourceFile]) -> String? {
        var byKind: [String: Int] = [:]
        for s in sources { for (kind, n) in s.unusedRecords ?? [:] { byKind[kind, default: 0] += n } }
        guard !byKind.isEmpty else { return nil }
        let total = byKind.values.reduce(0, +)
        let kinds = byKind.sorted { $0.value != $1.value ? $0.value > $1.value : Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
        let shown = kinds.prefix(unusedKindsShown).map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let more = kinds.count > unusedKindsShown ? ", \(plural(kinds.count - unusedKindsShown, "more kind"))" : ""
        return "import: \(plural(total, "record of a kind", "records of kinds")) the toolkit does not use, counted "
            + "and not read: \(shown)\(more) (see unusedRecords in manifest.json)"
    }

    /// The one line naming the files whose times without a zone were read as UTC for want
    /// of --tz (at most three, then how many more), those whose format warned of its UTC
    /// reading itself left out; nil when there are none.
    static func naiveUTCNotice(_ sources: [SourceFile]) -> String? {
        let utc = TimeFieldParser.utcNote
        let files = sources.filter { s in s.notes.contains(utc) && !s.notes.contains { $0 != utc && $0.contains("read as UTC") } }
            .map(\.path)
        guard !files.isEmpty else { return nil }
        let named = files.prefix(3).joined(separator: ", ") + (files.count > 3 ? " and \(files.count - 3) more" : "")
        return "import: times without a zone read as UTC (no --tz given) in \(named)"
    }

    /// How the adapter of `format` sees a planned file.
    private static func input(_ plan: PlannedFile, format: SourceFormat, file: Int32, options: Options) -> SourceInput {
        let times = TimeFieldParser(local: options.timeZone.map(LocalTime.init(zone:)),
                                    format: format == .genericCSV ? options.columns.timeFormat : nil)
        let settings = ReadSettings(rrStamp: options.rrStamp, startMs: options.startMs, rateHz: options.rateHz,
                                    mapping: options.columns)
        return SourceInput(path: plan.path, display: plan.display, subject: plan.subject ?? "", group: plan.group,
                           file: file, times: times, delimiter: plan.delimiter, format: format, settings: settings,
                           jobs: options.jobs, rangeBytes: options.rangeBytes)
    }

    /// Reads one file (format detected unless `options.format` forces one) through the
    /// import's checks into memory, writing nothing: its accounting and notes as the
    /// manifest would record them (without SHA-256). This is what the fuzz targets
    /// run, with no file system work beyond reading `path`.
    public static func readInMemory(_ path: String, options: Options = Options()) throws -> SourceFile {
        let delimiter = options.columns.delimiter?.asciiValue ?? SourceFormat.delimiter(path: path)
        let format = try options.format ?? SourceFormat.detect(path: path, delimiter: delimiter, naming: options.columns)
        let plan = PlannedFile(path: path, display: path, format: format, subject: options.subject ?? "subject",
                               group: nil, delimiter: delimiter)
        let sink = ImportSink.inMemory(registry: options.registry)
        sink.maxSubjects = options.maxSubjects
        let file = sink.beginSource(path: path, display: path, format: format.rawValue)
        try adapter(format).read(input(plan, format: format, file: file, options: options), into: sink)
        return sink.sources[Int(file)]
    }

    /// Errors that stop the whole import even in a folder: accounting errors are defects
    /// of the importer, and the subject limit holds for the import, not for one file.
    static func stopsImport(_ error: Error) -> Bool {
        switch error {
        case ImportError.accounting, ImportError.tooManySubjects: return true
        default: return false
        }
    }

    static func adapter(_ format: SourceFormat) -> FormatAdapter.Type {
        switch format {
        case .genericCSV, .polarSensorLogger, .hrvLogger, .kubiosRR: return GenericCSV.self
        case .e4HR: return E4.HR.self
        case .e4IBI: return E4.IBI.self
        case .e4Tags: return E4.Tags.self
        case .physionetRR, .rrText: return RRText.self
        case .eliteHRV: return EliteHRV.self
        case .appleMusic: return AppleMusic.self
        case .appleHealth: return AppleHealth.self
        case .stressPredictLabels: return StressPredictLabels.self
        case .canonical: return CanonicalTable.self
        case .spotifyExtended, .spotifyAccount: return Spotify.self
        case .lastfm: return LastFM.self
        case .appleHealthXML: return AppleHealthXML.self
        case .appleHealthZip: return AppleHealthZip.self
        case .fitbitHR: return Fitbit.HeartRate.self
        case .fitbitHRV: return Fitbit.HRVDetails.self
        case .embracePlus: return EmbracePlus.self
        case .songFeatures: return SongFeaturesCSV.self
        case .youtubeMusic: return YouTubeMusic.self
        case .listenbrainz: return ListenBrainz.self
        case .samsungHeartRate: return SamsungHealth.self
        case .withingsHR: return Withings.self
        case .polarFlow: return PolarFlow.self
        case .whoop: return Whoop.self
        case .healthAutoExport: return HealthAutoExport.self
        case .oura: return Oura.self
        case .garmin: return Garmin.self
        case .googleFit: return GoogleFit.self
        case .healthAutoExportCSV: return HealthAutoExportCSV.self
        case .fitbitRestingHR: return Fitbit.RestingHeartRate.self
        case .dailyMetrics: return DailyMetricsCSV.self
        case .e4Signal: return E4Signal.self
        case .wfdb: return WFDB.Signals.self
        case .wfdbAnnotations: return WFDB.Annotations.self
        case .bidmc: return BIDMC.self
        case .polarSignal: return PolarSignal.self
        case .appleHealthECG: return AppleHealthECG.self
        case .waveformCSV: return WaveformCSV.self
        }
    }
}

/// `resonance import` as the pipeline's first stage: raw exports → the canonical tables.
public struct ImportStage: Stage {
    public var sources: [String]
    /// How to read them; the constants and progress come from the stage context.
    public var options: Importer.Options

    public init(sources: [String], options: Importer.Options = Importer.Options()) {
        self.sources = sources; self.options = options
    }

    public var name: String { "import" }
    public var version: String { "1.0.0" }
    public var engines: [String] { ["hr", "rr"] }
    public var perSubject: Bool { true }
    public var reads: [String] { [] }
    public var writes: [String] { ImportStage.tables }
    public var createsWorkspace: Bool { true }

    /// The tables an import writes (it replaces the manifest too).
    static let tables = [HRSample.fileName, RRInterval.fileName, HRVSample.fileName, Play.fileName, LabelInterval.fileName,
                         SleepEpisode.fileName, Workout.fileName, DailyInputRow.fileName, SubjectRow.fileName, Reject.fileName,
                         SongFeatureRow.fileName, WaveformSegment.fileName, WaveformSink.fileName,
                         ReferenceAnnotation.fileName, Manifest.fileName]

    /// Throws `ImportFailures` after committing the workspace when some files could not be read.
    public func run(_ ws: Workspace, _ context: StageContext) throws {
        let progress = context.progress
        var options = self.options
        options.registry = context.registry
        options.jobs = context.jobs
        options.progress = { progress.note($0) }
        let manifest = try Importer.run(sources: sources, workspace: ws, options: options)
        ws.session?.lineage?.inputs = manifest.sources.map { .source($0.path, sha256: $0.sha256) }
        ws.session?.record(setting: "timezone", manifest.timezone)
        if let format = options.format { ws.session?.record(setting: "format", format.rawValue) }
        let rows = manifest.sources.reduce(0) { $0 + $1.rowsRead }
        let rejected = manifest.sources.reduce(0) { $0 + $1.rejected }
        progress.note("imported \(plural(manifest.sources.count, "file")), \(plural(manifest.subjects.count, "subject")), \(plural(rows, "row")) "
            + "(\(rejected) rejected) into \(ws.path)")
        let failed = manifest.sources.filter { $0.failure != nil }.count
        let empty = options.allowEmpty ? 0 : manifest.sources.filter(Importer.gaveNoRows).count
        if failed > 0 || empty > 0 {
            // The files that were read are imported: committed before the failure is reported.
            try ws.session?.commit()
            throw ImportFailures(failed: failed, files: manifest.sources.count, empty: empty)
        }
    }
}

/// Some source files could not be read, or gave no accepted row (the rest was imported;
/// `manifest.json` says which).
public struct ImportFailures: OutputsComplete, CustomStringConvertible {
    public let failed: Int
    public let files: Int
    /// Files read to the end that gave no accepted row (not counted unless `--allow-empty` is off).
    public let empty: Int

    public init(failed: Int, files: Int, empty: Int = 0) {
        self.failed = failed; self.files = files; self.empty = empty
    }

    public var description: String {
        switch (failed, empty) {
        case (_, 0): return "\(failed) of \(plural(files, "file")) failed (see manifest.json)"
        case (0, _): return "\(empty) of \(plural(files, "file")) gave no accepted row (see manifest.json; --allow-empty accepts them)"
        default: return "\(failed) of \(plural(files, "file")) failed and \(empty) gave no accepted row (see manifest.json)"
        }
    }
}
