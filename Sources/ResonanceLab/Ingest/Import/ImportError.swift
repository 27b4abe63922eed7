/// Why an import cannot proceed. Each message is one line naming the file (and the
/// line and column when there is one); the CLI prints it and exits non-zero.
public enum ImportError: Error, CustomStringConvertible, Equatable {
    case missing(path: String)
    case emptyFile(path: String)
    case unknownFormat(path: String, columns: [String])
    case badMetadata(path: String, line: Int, column: Int, message: String)
    /// A folder without a file in a known format, and what it held (seen and not read).
    case nothingToImport(path: String, seen: [SkippedFile])
    case accounting(path: String, read: Int, accepted: Int, rejected: Int)
    case badOption(message: String)
    /// Two files hold series of one subject that overlap in time (and are not
    /// exact duplicates of each other).
    case overlap(subject: String, table: String, first: String, second: String)
    /// A source named more distinct subjects than an import may hold (`--max-subjects`).
    case tooManySubjects(path: String, limit: Int)
    /// A file forced into a format (`--format`) whose header or layout it does not have.
    case formatMismatch(path: String, format: String, expected: String, found: String)
    /// A file whose bytes are not text the import reads (`TextEncoding`): what was found.
    case unreadableText(path: String, line: Int, found: String)
    /// A folder holding more files and folders than one import walks (`DatasetLayout.maxEntries`).
    case tooManyEntries(path: String, limit: Int)

    public var description: String {
        switch self {
        case let .missing(path): return "\(path): no such file or folder"
        case let .emptyFile(path): return "\(path): file is empty"
        case let .unknownFormat(path, columns):
            let found = columns.isEmpty ? "none" : columns.map { "'\($0)'" }.joined(separator: ", ")
            let known = SourceFormat.allCases.map(\.rawValue).joined(separator: ", ")
            return "\(path): unknown format (columns found: \(found); formats known: \(known); or name the columns with --time-column and --bpm-column or --rr-column)"
        case let .badMetadata(path, line, column, message): return "\(path):\(line):\(column): \(message)"
        case let .nothingToImport(path, seen):
            guard !seen.isEmpty else { return "\(path): no file in a known format" }
            let shown = seen.prefix(DatasetLayout.unreadShown).map { "\($0.path) (\($0.reason))" }.joined(separator: "; ")
            let more = seen.count > DatasetLayout.unreadShown ? "; and \(seen.count - DatasetLayout.unreadShown) more (--progress lists them)" : ""
            return "\(path): no file in a known format; seen and not read: \(shown)\(more)"
        case let .unreadableText(path, line, found): return "\(path):\(line):1: cannot read the text: \(found)"
        case let .tooManyEntries(path, limit):
            return "\(path): more than \(limit) files and folders, the most one import walks; import its sub-folders on their own"
        case let .accounting(path, read, accepted, rejected):
            return "\(path): internal accounting error: \(read) rows read != \(accepted) accepted + \(rejected) rejected"
        case let .badOption(message): return message
        case let .overlap(subject, table, first, second):
            return "\(second): \(table) of subject '\(subject)' overlaps in time with \(first); give each file its subject (--subject-from-name, a subject column) or import them separately"
        case let .formatMismatch(path, format, expected, found):
            return "\(path): not in --format \(format), which expects \(expected); \(found)"
        case let .tooManySubjects(path, limit):
            return "\(path): more than \(limit) distinct subjects, each held in memory until the import ends (about 1 KB); if its subject column is a row id, name the right one with --subject-column, else raise --max-subjects"
        }
    }
}
