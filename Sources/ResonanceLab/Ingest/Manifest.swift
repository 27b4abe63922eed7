import Foundation

/// `manifest.json` of an imported workspace (docs/tables.md, manifest.json): what was read, from where,
/// how each file was interpreted, and the accounting of every row.
public struct Manifest: Codable, Equatable, Sendable {
    public var toolkitVersion: String
    /// Provenance: `engine@version` of every engine and the SHA-256 of the constants
    /// in force (`ConstantsRegistry.version`, `.digest`).
    public var constantsVersion: String?
    public var constantsDigest: String?
    /// IANA zone applied to naive local timestamps, or "UTC" when none was given.
    public var timezone: String
    public var sources: [SourceFile]
    public var subjects: [SubjectInfo]
    /// Present in a shard workspace only: which part of which split it is.
    public var shard: ShardInfo?

    public init(toolkitVersion: String = ResonanceLabInfo.version, registry: ConstantsRegistry = .defaults,
                timezone: String = "UTC", sources: [SourceFile] = [], subjects: [SubjectInfo] = []) {
        self.toolkitVersion = toolkitVersion; self.timezone = timezone
        constantsVersion = registry.version; constantsDigest = registry.digest
        self.sources = sources; self.subjects = subjects
    }

    public static let fileName = "manifest.json"

    /// Deterministic JSON text (sorted keys, pretty-printed, newline-terminated).
    public func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + [10]
    }

    public static func read(from ws: Workspace) throws -> Manifest {
        let path = ws.file(fileName)
        do {
            return try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw TableError(path: path, line: 0, column: 0, message: "cannot read manifest: \(error)")
        }
    }
}

/// Accounting and interpretation of one source file.
public struct SourceFile: Codable, Equatable, Sendable {
    public var path: String
    public var sha256: String
    public var format: String
    /// Data rows read (header and metadata lines excluded) = accepted + rejected.
    public var rowsRead: Int
    public var accepted: Int
    public var rejected: Int
    /// Exact duplicate rows, kept once (counted within `accepted`).
    public var duplicates: Int
    /// How values were interpreted, e.g. "rr unit: seconds (from values' magnitude)".
    public var notes: [String]
    /// R-R files: which beat the timestamps mark — `end` (the closing beat, as in
    /// rr.csv), `start` (moved to the closing beat on import) or `clock ignored`.
    public var rrStamp: String?
    /// Why the file could not be read; its rows before the failure stay imported
    /// and counted.
    public var failure: String?
    /// Records of types the importer does not use, counted per type (Apple Health);
    /// they are not rows read and do not go to rejects.csv.
    public var unusedRecords: [String: Int]?

    public init(path: String, sha256: String, format: String, rowsRead: Int = 0, accepted: Int = 0,
                rejected: Int = 0, duplicates: Int = 0, notes: [String] = []) {
        self.path = path; self.sha256 = sha256; self.format = format; self.rowsRead = rowsRead
        self.accepted = accepted; self.rejected = rejected; self.duplicates = duplicates; self.notes = notes
    }
}

/// A subject of the workspace, its group (e.g. `nsr2db`, `chf2db`) and time range.
public struct SubjectInfo: Codable, Equatable, Sendable {
    public var subject: String
    public var group: String?
    public var start: String?
    public var end: String?

    public init(subject: String, group: String? = nil, start: String? = nil, end: String? = nil) {
        self.subject = subject; self.group = group; self.start = start; self.end = end
    }
}
