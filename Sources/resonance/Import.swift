import ArgumentParser
import Foundation
import ResonanceLab

extension SourceFormat: ExpressibleByArgument {}
extension RRStamp: ExpressibleByArgument {}

/// `resonance import SOURCE... --out WS` (docs/import.md, docs/tables.md).
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import raw exports into the canonical tables of a workspace.",
        discussion: """
            SOURCE is a file or a folder, read at any depth (at most \(DatasetLayout.maxFolderDepth) folder levels and \
            \(DatasetLayout.maxEntries) files and folders). Formats are detected from the file name and header: \
            \(SourceFormat.allCases.map(\.rawValue).joined(separator: ", ")).

            A folder that is one person's export as downloaded (Takeout, DI_CONNECT, apple_health_export, a \
            Spotify or ListenBrainz export) is one subject named after the folder. A dataset folder holds one \
            sub-folder per subject (subject = folder name, with the files nested under it) plus an optional \
            Stress-Predict labels.csv, or PhysioNet RR files (subject = file stem, group = folder), or folders of \
            such RR files. --subject makes every file one subject.

            Writes hr.csv, rr.csv, hrv_samples.csv, plays.csv, labels.csv, sleep.csv, workouts.csv, \
            rejects.csv and manifest.json, all renamed into place only when the whole import succeeds. \
            Heart rate outside 20–250 bpm and R-R outside 250–2500 ms go to rejects.csv with the reason.

            A file in a folder that cannot be read is recorded as failed (manifest and stderr), the rest \
            imports, and the exit code is 3; --strict stops at the first such file instead. A file that \
            gives no accepted row (every row rejected, or none) is a warning naming the rows read and the \
            top rejection reason, and the exit code is 3 too unless --allow-empty. Files in a folder that \
            hold nothing the toolkit reads (info.txt, a WFDB header read with its record, hidden files, \
            other extensions) are listed in manifest.json with the reason, and counted in one line on \
            stderr unless --quiet.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Files or dataset folders to import.", valueName: "source"))
    var sources: [String]

    @Option(help: ArgumentHelp("Workspace folder to write (created if missing).", valueName: "dir"))
    var out: String

    @OptionGroup var reading: ImportArguments

    func validate() throws {
        try global.reject(verify: true, command: "import")
    }

    func run() throws {
        try reading.stage(sources: sources, quiet: global.quiet).runCommitted(Workspace(path: out), try global.context())
    }
}

/// How `import` (and `run`) read raw exports.
struct ImportArguments: ParsableArguments {
    @Option(help: "Read every file in this format instead of detecting it.")
    var format: SourceFormat?

    @Option(help: ArgumentHelp(
        "IANA time zone of timestamps without a zone, e.g. Europe/London (default: UTC).", valueName: "zone"))
    var tz: String?

    @Option(help: ArgumentHelp(
        "Subject id of single-person files (default: the containing folder's name).", valueName: "id"))
    var subject: String?

    @Option(help: ArgumentHelp(
        "Subject from the file name: a regular expression whose first group is the id, matched on the name without extension (default: '\(SubjectNaming.defaultPattern)').",
        valueName: "regex"))
    var subjectFromName: String?

    @Option(help: ArgumentHelp(
        "Which beat R-R timestamps mark: start, end, or auto (detected per file from the timestamp steps; default).",
        valueName: "start|end|auto"))
    var rrStamp: RRStamp = .auto

    @Option(help: ArgumentHelp(
        "Start of clockless R-R series (PhysioNet, Kubios, Polar Flow text; Elite HRV files take theirs from the name) and waveforms (BIDMC, a waveform CSV at --rate or with numeric times), ISO 8601 with zone, e.g. 2024-03-01T08:00:00Z (default: the epoch).",
        valueName: "time"))
    var start: String?

    @Option(help: ArgumentHelp(
        "Sample rate of a waveform CSV without a time column, in Hz (samples per second), e.g. 250: sample k at --start + k / rate.",
        valueName: "hz"))
    var rate: Double?

    @Option(help: ArgumentHelp(
        "When the exports were made, ISO 8601 with zone, e.g. 2024-03-01T08:00:00Z: records dated after it are rejected (an Apple Health export.xml is judged by its own ExportDate).",
        valueName: "time"))
    var exportedAt: String?

    @Option(help: ArgumentHelp("Field separator of CSV files (default: sniffed from the first line: , ; or tab).",
                               valueName: "char"))
    var delimiter: String?

    @Option(help: ArgumentHelp("Header of the time column of a CSV file read by column.", valueName: "name"))
    var timeColumn: String?

    @Option(help: ArgumentHelp("Header of the heart-rate column (bpm).", valueName: "name"))
    var bpmColumn: String?

    @Option(help: ArgumentHelp("Header of the R-R column (ms or s, from its unit or its values).", valueName: "name"))
    var rrColumn: String?

    @Option(help: ArgumentHelp("Header of the subject column.", valueName: "name"))
    var subjectColumn: String?

    @Option(help: ArgumentHelp(
        "Pattern of the time column, Unicode date format, e.g. 'dd/MM/yyyy HH:mm:ss' (read in --tz, default UTC).",
        valueName: "pattern"))
    var timeFormat: String?

    @Flag(help: "Stop at the first file that cannot be read (default: record it as failed and go on).")
    var strict = false

    @Flag(help: "Exit 0 when a file gives no accepted row (default: a warning and exit code 3).")
    var allowEmpty = false

    @Option(help: ArgumentHelp(
        "Most distinct subjects one import holds; each takes about 1 KB of memory until the import ends, and one more is an error.",
        valueName: "count"))
    var maxSubjects = Importer.Options.defaultMaxSubjects

    func validate() throws {
        if let tz, TimeZone(identifier: tz) == nil {
            throw ValidationError("--tz: unknown IANA time zone '\(tz)'.")
        }
        if let subject, subject.isEmpty { throw ValidationError("--subject must not be empty.") }
        if let start, Timestamp.parseISO(start)?.hasZone != true {
            throw ValidationError("--start: '\(start)' is not an ISO 8601 time with a zone (e.g. 2024-03-01T08:00:00Z).")
        }
        if let exportedAt, Timestamp.parseISO(exportedAt)?.hasZone != true {
            throw ValidationError("--exported-at: '\(exportedAt)' is not an ISO 8601 time with a zone (e.g. 2024-03-01T08:00:00Z).")
        }
        if let rate, !WaveformSegment.rateRangeHz.contains(rate) {
            throw ValidationError("--rate: a sample rate in Hz within \(WaveformSegment.rateRangeText), got \(rate).")
        }
        if maxSubjects < 1 { throw ValidationError("--max-subjects: at least 1, got \(maxSubjects).") }
        if let delimiter {
            let allowed = delimiter == "\\t" ? true : delimiter.count == 1 && delimiter.first?.asciiValue != nil
            if !allowed { throw ValidationError("--delimiter: one ASCII character (or \\t), got '\(delimiter)'.") }
        }
    }

    /// The import stage with these settings; `quiet` (`--quiet`) silences the summary lines
    /// (files skipped), not the warnings.
    func stage(sources: [String], quiet: Bool = false) -> ImportStage {
        var options = Importer.Options(format: format, timeZone: tz.flatMap(TimeZone.init(identifier:)), subject: subject)
        options.subjectFromName = subjectFromName
        options.rrStamp = rrStamp
        options.startMs = start.flatMap { Timestamp.parseISO($0)?.ms }
        options.rateHz = rate
        options.exportedAtMs = exportedAt.flatMap { Timestamp.parseISO($0)?.ms }
        options.columns = ColumnMapping(delimiter: delimiter.map { $0 == "\\t" ? "\t" : Character($0) },
                                        time: timeColumn, bpm: bpmColumn, rr: rrColumn,
                                        subject: subjectColumn, timeFormat: timeFormat)
        options.strict = strict
        options.allowEmpty = allowEmpty
        options.maxSubjects = maxSubjects
        options.warning = { FileHandle.standardError.write(Data("warning: \($0)\n".utf8)) }
        if !quiet { options.notice = { FileHandle.standardError.write(Data("\($0)\n".utf8)) } }
        return ImportStage(sources: sources, options: options)
    }
}
