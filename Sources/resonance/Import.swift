import ArgumentParser
import Foundation
import ResonanceLab

extension SourceFormat: ExpressibleByArgument {}

/// `resonance import SOURCE... --out WS` (docs/import.md, docs/tables.md).
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import raw exports into the canonical tables of a workspace.",
        discussion: """
            SOURCE is a file or a dataset folder. Formats are detected from the file name and header: \
            \(SourceFormat.allCases.map(\.rawValue).joined(separator: ", ")).

            A dataset folder holds one sub-folder per subject (E4 files, subject = folder name) plus an \
            optional Stress-Predict labels.csv, or PhysioNet RR files (subject = file stem, group = folder), \
            or folders of such RR files.

            Writes hr.csv, rr.csv, hrv_samples.csv, plays.csv, labels.csv, sleep.csv, workouts.csv, \
            rejects.csv and manifest.json, all renamed into place only when the whole import succeeds. \
            Heart rate outside 20–250 bpm and R-R outside 250–2500 ms go to rejects.csv with the reason.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Files or dataset folders to import.", valueName: "source"))
    var sources: [String]

    @Option(help: ArgumentHelp("Workspace folder to write (created if missing).", valueName: "dir"))
    var out: String

    @Option(help: "Read every file in this format instead of detecting it.")
    var format: SourceFormat?

    @Option(help: ArgumentHelp(
        "IANA time zone of timestamps without a zone, e.g. Europe/London (default: UTC).", valueName: "zone"))
    var tz: String?

    @Option(help: ArgumentHelp(
        "Subject id of single-person files (default: the containing folder's name).", valueName: "id"))
    var subject: String?

    func validate() throws {
        if let tz, TimeZone(identifier: tz) == nil {
            throw ValidationError("--tz: unknown IANA time zone '\(tz)'.")
        }
        if let subject, subject.isEmpty { throw ValidationError("--subject must not be empty.") }
    }

    func run() throws {
        let manifest = try CommandError.oneLine {
            let options = Importer.Options(format: format, timeZone: tz.flatMap(TimeZone.init(identifier:)),
                                           subject: subject, registry: try global.registry(), progress: global.progress)
            return try Importer.run(sources: sources, workspace: Workspace(path: out), options: options)
        }
        let rows = manifest.sources.reduce(0) { $0 + $1.rowsRead }
        let rejected = manifest.sources.reduce(0) { $0 + $1.rejected }
        global.progress("imported \(manifest.sources.count) files, \(manifest.subjects.count) subjects, \(rows) rows (\(rejected) rejected) into \(out)")
    }
}
