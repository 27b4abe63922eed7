import Foundation

/// A file to import and what its rows belong to. Its display path (in the
/// manifest and `rejects.csv`) starts at the imported folder, or at the folder
/// holding an imported file, so outputs do not depend on where the data lives.
struct PlannedFile: Equatable {
    var path: String
    var display: String
    /// Nil when the file could not be read far enough to tell (see `failure`).
    var format: SourceFormat?
    /// Subject id, or nil for files that name their subjects (e.g. labels.csv).
    var subject: String?
    var group: String?
    var delimiter: UInt8 = UInt8(ascii: ",")
    /// Why a file in a folder could not be planned (recorded as failed).
    var failure: String?
    /// Found in a folder (a file that fails is recorded and the import goes on),
    /// rather than named on the command line (a failure stops the import).
    var inFolder = false
}

/// Expands import arguments into files, in a deterministic order (names sorted by
/// byte order; a folder's files before its sub-folders'). Folders are walked at any depth
/// down to `maxFolderDepth` levels, at most `maxEntries` files and folders in all. A
/// folder is one of:
/// - one person's export as downloaded (`ExportRoot`: `Takeout/`, `DI_CONNECT/`,
///   `apple_health_export/`, a Spotify or ListenBrainz export): every file under it is
///   one subject named after the folder (`--subject` names it instead);
/// - a dataset folder: one sub-folder per subject (subject id = folder name), with the
///   files nested under it, plus optional files at the root such as Stress-Predict's
///   `labels.csv`;
/// - a PhysioNet database folder of RR files (subject id = file stem without
///   `_rr_secs`/`_rr_ms`, group = folder name, e.g. `nsr2db`);
/// - a folder of such database folders (group = each sub-folder's name).
/// `--subject` makes every file of a folder that subject. Files in a folder that are in
/// no known format (licences, device notes such as the E4's `info.txt`, a WFDB header,
/// other products of an export) hold no measurements and are
/// skipped with a progress line; every file and folder skipped is listed in `skipped`
/// with its reason (the manifest's `skipped`), so that a folder import accounts for
/// everything it saw.
public struct DatasetLayout {
    /// Deepest folder level read below an imported folder: the exports seen nest their
    /// files at most 2 levels below their root (Takeout's `YouTube and YouTube
    /// Music/history/`, ListenBrainz's `listens/<year>/`), so 8 leaves room for a dataset
    /// folder of such exports and more. A deeper folder is skipped, with its reason.
    public static let maxFolderDepth = 8
    /// Most files and folders one import walks (each is accounted for in the manifest,
    /// read, failed or skipped); one more stops the import with an error naming the folder.
    public static let maxEntries = 100_000
    /// Files and folders seen and not read that a "no file in a known format" error names.
    static let unreadShown = 10

    var forcedFormat: SourceFormat?
    /// The columns named on the command line (`SourceFormat.detect(path:delimiter:naming:)`).
    var mapping: ColumnMapping
    var subject: String?
    var naming: SubjectNaming
    /// `--delimiter`, else sniffed per file.
    var delimiter: UInt8?
    /// Stop at the first unreadable file in a folder instead of recording it as failed.
    var strict: Bool
    var progress: (String) -> Void
    /// What the plans so far saw and will not read, in the order seen.
    private(set) var skipped: [SkippedFile] = []
    /// The imported folders recognised as one person's export, in the order planned.
    private(set) var exportRoots: [ExportRootInfo] = []
    /// Files and folders this layout walks at most (`maxEntries`), and those listed so far.
    var entryLimit = DatasetLayout.maxEntries
    private var entriesSeen = 0

    init(forcedFormat: SourceFormat?, mapping: ColumnMapping, subject: String?, naming: SubjectNaming, delimiter: UInt8?,
         strict: Bool, progress: @escaping (String) -> Void) {
        self.forcedFormat = forcedFormat; self.mapping = mapping; self.subject = subject; self.naming = naming
        self.delimiter = delimiter; self.strict = strict; self.progress = progress
    }

    /// Who the files of one folder tree belong to: the subject they take when nothing
    /// more specific names one (`folderSubject`), their group, and the subject that
    /// overrides every rule but a subject column (`--subject`, or the export's own).
    private struct Owner {
        var folderSubject: String?
        var group: String?
        var subject: String?
    }

    mutating func plan(_ argument: String) throws -> [PlannedFile] {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDir) else {
            throw ImportError.missing(path: argument)
        }
        let name = (argument as NSString).lastPathComponent
        guard isDir.boolValue else {
            var info = stat()
            guard stat(argument, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                throw CSVError.cannotOpen(path: argument, reason: "not a regular file")
            }
            let parent = parentName(argument)
            guard let file = try planFile(argument, display: join(parent, name),
                                          owner: Owner(folderSubject: parent, subject: subject), inFolder: false) else { return [] }
            return [file]
        }
        let skippedBefore = skipped.count
        var export: String?
        if subject == nil, let kind = ExportRoot.kind(folder: argument) {
            export = name
            exportRoots.append(ExportRootInfo(path: name, export: kind, subject: name))
        }
        let (files, folders) = try entries(argument, display: name)
        var out = try files.compactMap {
            try planFile(join(argument, $0), display: join(name, $0),
                         owner: Owner(group: name, subject: subject ?? export), inFolder: true)
        }
        for folder in folders {
            let owner = export.map { Owner(folderSubject: $0, group: $0, subject: $0) }
                ?? Owner(folderSubject: folder, group: folder, subject: subject)
            out += try planTree(join(argument, folder), display: join(name, folder), level: 1, owner: owner)
        }
        guard !out.isEmpty else { throw ImportError.nothingToImport(path: argument, seen: Array(skipped[skippedBefore...])) }
        return out
    }

    /// The files of `dir` (`level` folders below the imported one) and of the folders
    /// under it down to `maxFolderDepth`, all belonging to `owner`.
    private mutating func planTree(_ dir: String, display: String, level: Int, owner: Owner) throws -> [PlannedFile] {
        let (files, folders) = try entries(dir, display: display)
        var out = try files.compactMap { try planFile(join(dir, $0), display: join(display, $0), owner: owner, inFolder: true) }
        for folder in folders {
            guard level < DatasetLayout.maxFolderDepth else {
                skip(join(display, folder), "folder more than \(DatasetLayout.maxFolderDepth) levels below the imported folder: "
                    + "not read (import it on its own)")
                continue
            }
            out += try planTree(join(dir, folder), display: join(display, folder), level: level + 1, owner: owner)
        }
        return out
    }

    /// Plans one file; nil for an unknown format inside a folder. Subjects, first
    /// that applies: the rows' own subject column (read by the adapter); `--subject`, or
    /// the export the file is part of; the file-name pattern (`--subject-from-name`,
    /// default `SubjectNaming`); for PhysioNet files their stem (grouped by folder); the
    /// subject folder holding it; the containing folder.
    private mutating func planFile(_ path: String, display: String, owner: Owner, inFolder: Bool) throws -> PlannedFile? {
        let format: SourceFormat
        let separator = delimiter ?? SourceFormat.delimiter(path: path)
        do {
            format = try forcedFormat ?? SourceFormat.detect(path: path, delimiter: separator, naming: mapping)
        } catch let ImportError.unknownFormat(_, columns) where inFolder {
            skip(display, SkipReason.unknown(path: path, columns: columns))
            return nil
        } catch ImportError.emptyFile(_) where inFolder {
            skip(display, "empty file")
            return nil
        } catch where inFolder && forcedFormat == nil && !SkipReason.isDataExtension(path) {
            // A binary file of another kind (`notes.docx`) is not a file that failed.
            skip(display, SkipReason.unknown(path: path, columns: []))
            return nil
        } catch where inFolder && !strict {
            return PlannedFile(path: path, display: display, format: nil, subject: nil, group: nil,
                               failure: "\(error)", inFolder: true)
        }
        let fileName = (path as NSString).lastPathComponent
        let named = naming.subject(fileName: fileName)
        var plan = PlannedFile(path: path, display: display, format: format, subject: nil, group: nil,
                               delimiter: separator, inFolder: inFolder)
        switch format {
        case .physionetRR, .wfdb, .wfdbAnnotations, .bidmc:
            // A database's files name their record: the subject, grouped by folder.
            let stem = format == .bidmc ? BIDMC.subject(fileName: fileName)
                : format == .physionetRR ? PhysioNetRR.subject(fileName: fileName) : (fileName as NSString).deletingPathExtension
            plan.subject = owner.subject ?? (naming.explicit ? named : nil) ?? stem
            plan.group = owner.group
        case .stressPredictLabels, .canonical:
            break
        default:
            plan.subject = owner.subject ?? named ?? owner.folderSubject ?? parentName(path)
        }
        return plan
    }

    /// Records a file or folder seen and not read, with a progress line.
    private mutating func skip(_ display: String, _ reason: String) {
        progress("skipped \(display): \(reason)")
        skipped.append(SkippedFile(path: display, reason: reason))
    }

    /// Visible regular files and folders of `dir` (shown as `display`), each sorted by
    /// byte order. Hidden files and folders (`.DS_Store`, `.git`) are not read; a
    /// temporary file (`*.tmp`, e.g. a table an interrupted run was writing) is never
    /// data, and a FIFO, socket or device is never read: all are skipped with a
    /// progress line and listed in `skipped`.
    private mutating func entries(_ dir: String, display: String) throws -> (files: [String], folders: [String]) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: dir)
        } catch {
            throw CSVError.cannotOpen(path: dir, reason: "cannot list folder")
        }
        let byBytes: (String, String) -> Bool = { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        entriesSeen += names.count
        guard entriesSeen <= entryLimit else { throw ImportError.tooManyEntries(path: display, limit: entryLimit) }
        var files: [String] = [], folders: [String] = []
        for n in names.sorted(by: byBytes) {
            var info = stat()
            guard lstat(join(dir, n), &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFLNK {
                // A link is read as what it points to.
                guard stat(join(dir, n), &info) == 0 else {
                    skip(join(display, n), "broken symbolic link")
                    continue
                }
            }
            let isFolder = info.st_mode & S_IFMT == S_IFDIR
            if n.hasPrefix(".") {
                skip(join(display, n), isFolder ? "hidden folder" : "hidden file")
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: folders.append(n)
            case S_IFREG where n.hasSuffix(".tmp"):
                progress("skipped \(join(dir, n)): temporary file, not data")
                skipped.append(SkippedFile(path: join(display, n), reason: "temporary file (*.tmp), not data"))
            case S_IFREG: files.append(n)
            default:
                progress("skipped \(join(dir, n)): not a regular file")
                skipped.append(SkippedFile(path: join(display, n), reason: "not a regular file (FIFO, socket or device)"))
            }
        }
        return (files, folders)
    }

    /// Name of the folder holding `path` (relative paths resolved against the
    /// current folder).
    private func parentName(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : join(FileManager.default.currentDirectoryPath, path)
        let parent = ((absolute as NSString).standardizingPath as NSString).deletingLastPathComponent
        let name = (parent as NSString).lastPathComponent
        return name.isEmpty || name == "/" ? "subject" : name
    }

    private func join(_ parts: String...) -> String {
        parts.dropFirst().reduce(parts[0]) { ($0 as NSString).appendingPathComponent($1) }
    }
}

/// Why a file in a folder holds nothing the toolkit reads (the manifest's `skipped`).
enum SkipReason {
    /// Extensions of files whose content decides their format; any other extension
    /// (`.docx`, `.pdf`, `.png`, `.md`) is not data the toolkit reads.
    static let dataExtensions: Set<String> = ["csv", "txt", "tsv", "json", "jsonl", "xml", "zip", "rr", "dat", ""]

    static func isDataExtension(_ path: String) -> Bool {
        dataExtensions.contains(((path as NSString).lastPathComponent.lowercased() as NSString).pathExtension)
    }

    /// The reason for a file in no known format (`columns`: its first record, if read).
    static func unknown(path: String, columns: [String]) -> String {
        let name = (path as NSString).lastPathComponent.lowercased()
        let ext = (name as NSString).pathExtension
        if name == GoogleFit.summaryFileName, columns.contains(where: { ColumnName.normalized($0) == "date" }) {
            return "Google Fit all-days summary (Daily activity metrics.csv): daily totals, no samples"
        }
        if name == "info.txt", CSVPeek.headText(path: path, count: 2048).contains("IBI.csv") {
            return "Empatica E4 session description (info.txt): no measurements"
        }
        switch ext {
        case "hea": return "WFDB header: read with its record's signal and annotation files"
        case "zip": return "archive without apple_health_export/export.xml: nothing the toolkit reads"
        case "xml" where name == "export_cda.xml":
            return "Apple Health clinical records (export_cda.xml, HL7 CDA documents): not read"
        case "xml": return "XML without <HealthData> (not an Apple Health export.xml): nothing the toolkit reads"
        case "json" where name == YouTubeMusic.activityLogName:
            return "Google My Activity log: not read (YouTube Music plays are read from watch-history.json)"
        case "json" where ListenBrainz.isUserFile(path: path):
            return "ListenBrainz user.json: the account, no listens"
        case "json", "jsonl": return "JSON in no known format (Spotify, Fitbit, YouTube Music, ListenBrainz, Oura, Garmin)"
        case _ where !dataExtensions.contains(ext): return "unknown extension .\(ext)"
        default:
            let found = columns.isEmpty ? "" : " (first line: \(FormatLayout.excerpt(columns.joined(separator: ","))))"
            return "not in a known format\(found)"
        }
    }
}
