import Foundation

/// `manifest.json` of an imported workspace (docs/tables.md, manifest.json): what was read, from where,
/// how each file was interpreted, and the accounting of every row.
public struct Manifest: Codable, Equatable, Sendable {
    /// The version that created the workspace; each table's `lineage` names the version,
    /// stage and constants that wrote it.
    public var toolkitVersion: String
    /// IANA zone applied to naive local timestamps, or "UTC" when none was given.
    public var timezone: String
    public var sources: [SourceFile]
    /// Files a folder import saw and did not read, each with the reason (a device's notes,
    /// a hidden file, an unknown extension, …), in byte order of
    /// their paths; absent when there were none. With `sources` (read or failed) it
    /// accounts for every file of the imported folders.
    public var skipped: [SkippedFile]?
    /// The imported folders recognised as one person's export (`Takeout/`, `DI_CONNECT/`,
    /// …), each imported as one subject named after it; absent when there were none.
    public var exportRoots: [ExportRootInfo]?
    public var subjects: [SubjectInfo]
    /// Every table of the workspace as last committed: name, data rows and SHA-256, in
    /// byte order of the names. Stages read only the tables listed here, and refuse one
    /// whose bytes no longer match (docs/workspace.md).
    public var tables: [TableDigest]
    /// Present in a shard workspace only: which part of which split it is.
    public var shard: ShardInfo?
    /// Records of several sources covering the same time that a stage resolved, by stage
    /// name (`daily`, `sessions`); absent until such a stage has run.
    public var overlaps: [String: SourceOverlaps]?
    /// How imported song features matched the songs played (docs/import.md, Song
    /// features); absent when the import read no features file.
    public var songFeatures: SongFeatureMatchSummary?

    public init(toolkitVersion: String = ResonanceLabInfo.version,
                timezone: String = "UTC", sources: [SourceFile] = [], subjects: [SubjectInfo] = [],
                tables: [TableDigest] = []) {
        self.toolkitVersion = toolkitVersion; self.timezone = timezone
        self.sources = sources; self.subjects = subjects; self.tables = tables
    }

    /// The entry of table `name`, if the workspace has it.
    public func table(_ name: String) -> TableDigest? {
        tables.first { $0.name == name }
    }

    /// The lineage of every table that has one, by table name.
    public var lineageByTable: [String: TableLineage] {
        Dictionary(uniqueKeysWithValues: tables.compactMap { t in t.lineage.map { (t.name, $0) } })
    }

    /// Sets the entries of `updated` (replacing those of the same names), keeping the
    /// list in byte order of the names.
    mutating func record(_ updated: [TableDigest]) {
        let names = Set(updated.map(\.name))
        tables = (tables.filter { !names.contains($0.name) } + updated)
            .sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
    }

    public static let fileName = "manifest.json"

    /// Deterministic JSON text (sorted keys, pretty-printed, newline-terminated).
    public func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + [10]
    }

    /// The manifest of `ws`: the one its session checked when it opened, else read from disk.
    public static func read(from ws: Workspace) throws -> Manifest {
        if let manifest = ws.session?.manifest { return manifest }
        return try read(path: ws.file(fileName))
    }

    /// Reads and checks a manifest file: valid JSON of this shape, table names that are
    /// plain file names, digests of 64 hex digits.
    static func read(path: String) throws -> Manifest {
        guard FileManager.default.fileExists(atPath: path) else {
            throw TableError(path: (path as NSString).deletingLastPathComponent, line: 0, column: 0,
                             message: "not a workspace: no manifest.json (make one with `resonance import` or `resonance personas generate`)")
        }
        let manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch let DecodingError.keyNotFound(key, _) {
            throw TableError(path: path, line: 0, column: 0,
                             message: "not a valid workspace manifest: no '\(key.stringValue)' (written by an older version? import again)")
        } catch {
            throw TableError(path: path, line: 0, column: 0, message: "not a valid workspace manifest: \(error)")
        }
        for t in manifest.tables where !TableDigest.isPlainName(t.name) || !TableDigest.isDigest(t.sha256) || t.rows < 0 {
            throw TableError(path: path, line: 0, column: 0, message: "not a valid workspace manifest: bad table entry '\(t.name)'")
        }
        return manifest
    }
}

/// One table of a workspace: file name, data rows (records after the header), the
/// SHA-256 of its bytes, and how it was made.
public struct TableDigest: Codable, Equatable, Sendable {
    public var name: String
    public var rows: Int
    public var sha256: String
    /// The stage, constants, settings and inputs that made the table; nil in a
    /// workspace written before lineage was recorded.
    public var lineage: TableLineage?

    public init(name: String, rows: Int, sha256: String, lineage: TableLineage? = nil) {
        self.name = name; self.rows = rows; self.sha256 = sha256; self.lineage = lineage
    }

    /// Digest and row count of the CSV file at `path`, in one pass. A record ends at a
    /// line feed outside quotes (RFC 4180: inside a quoted field the quotes come in
    /// pairs), so quoted line breaks do not count as rows.
    static func of(file path: String, name: String) throws -> TableDigest {
        var records = 0
        var quoted = false
        let sha = try SHA256.hex(ofFile: path) { chunk in
            // A chunk outside quotes without a quote in it (most are) is a plain count of line
            // ends, which the compiler vectorises; others are walked byte by byte.
            if !quoted, let base = chunk.baseAddress, memchr(base, 34, chunk.count) == nil {
                var ends = 0
                for byte in chunk { ends &+= byte == 10 ? 1 : 0 }
                records += ends
                return
            }
            for byte in chunk {
                if byte == 34 { quoted.toggle() } else if byte == 10, !quoted { records += 1 }
            }
        }
        return TableDigest(name: name, rows: max(0, records - 1), sha256: sha)
    }

    /// A file name inside the workspace folder: no separators, not hidden, not `..`.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\0")
    }

    static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}

/// Overlapping records a stage resolved (docs/engines/toolkit.md, Sleep counted once; Heart
/// rate from several sources).
public struct SourceOverlaps: Codable, Equatable, Sendable {
    /// Sleep periods whose asleep rows overlapped (two sources, or an unspecified
    /// `asleep` row over staged ones), counted once.
    public var sleepNights: Int
    /// Asleep time those rows held more than once, not counted (ms, whole so that
    /// shards add up to the single run).
    public var sleepOverlapMs: Int64
    /// Subject-minutes with heart rate from more than one source.
    public var hrMinutes: Int
    /// Heart-rate samples of the other sources in those minutes, set aside.
    public var hrSamplesSetAside: Int

    public init(sleepNights: Int = 0, sleepOverlapMs: Int64 = 0, hrMinutes: Int = 0, hrSamplesSetAside: Int = 0) {
        self.sleepNights = sleepNights; self.sleepOverlapMs = sleepOverlapMs
        self.hrMinutes = hrMinutes; self.hrSamplesSetAside = hrSamplesSetAside
    }

    public static func + (a: SourceOverlaps, b: SourceOverlaps) -> SourceOverlaps {
        SourceOverlaps(sleepNights: a.sleepNights + b.sleepNights, sleepOverlapMs: a.sleepOverlapMs + b.sleepOverlapMs,
                       hrMinutes: a.hrMinutes + b.hrMinutes, hrSamplesSetAside: a.hrSamplesSetAside + b.hrSamplesSetAside)
    }

    /// Counts of `periods` and of the heart-rate rule's `hr` overlap.
    public init(periods: [SleepPeriod], hr: HeartRateSources.Overlap) {
        let overlapped = periods.filter { $0.overlapMs > 0 }
        self.init(sleepNights: overlapped.count,
                  sleepOverlapMs: overlapped.reduce(Int64(0)) { $0 + $1.overlapMs },
                  hrMinutes: hr.minutes, hrSamplesSetAside: hr.samplesSetAside)
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
    /// Valid records of kinds the importer does not use, counted per kind (Apple Health's
    /// other record types, podcast episodes and audiobooks in a Spotify history, videos
    /// in a YouTube history, a metric's cells not read, …): they are not rows read and do
    /// not go to rejects.csv, and a file holding only such records is no failure.
    public var unusedRecords: [String: Int]?

    public init(path: String, sha256: String, format: String, rowsRead: Int = 0, accepted: Int = 0,
                rejected: Int = 0, duplicates: Int = 0, notes: [String] = []) {
        self.path = path; self.sha256 = sha256; self.format = format; self.rowsRead = rowsRead
        self.accepted = accepted; self.rejected = rejected; self.duplicates = duplicates; self.notes = notes
    }
}

/// A file a folder import saw and did not read, and why.
public struct SkippedFile: Codable, Equatable, Sendable {
    /// Path as `sources[].path` names files (from the imported folder).
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path; self.reason = reason
    }
}

/// A subject of the workspace, its group (e.g. `nsr2db`, `chf2db`) and time range.
public struct SubjectInfo: Codable, Equatable, Sendable {
    public var subject: String
    public var group: String?
    /// First and last time of its rows, event markers outside its recording excluded.
    public var start: String?
    public var end: String?
    /// Event markers (`labels.csv` rows from E4 tags) that lie outside the subject's
    /// recording: kept in `labels.csv`, never used; absent when there are none.
    public var markersOutsideRecording: OutsideMarkers?
    /// The other ids under which the import found this person's rows (a `subjects.csv`
    /// row's `aliases`), merged into this subject, in byte order; absent when none.
    public var mergedAliases: [String]?

    public init(subject: String, group: String? = nil, start: String? = nil, end: String? = nil) {
        self.subject = subject; self.group = group; self.start = start; self.end = end
    }
}

/// Event markers of one subject that lie outside its recording (docs/import.md, Event
/// markers): the first to last time of its heart rate, R-R and HRV rows, from the E4
/// session start when there is one.
public struct OutsideMarkers: Codable, Equatable, Sendable {
    /// Markers outside the recording, and all markers of the subject.
    public var count: Int
    public var markers: Int
    /// Their times (ISO 8601 UTC), in file order.
    public var times: [String]
    public var recordingStart: String
    public var recordingEnd: String
    /// The one fixed offset (hours) that puts every one of them inside the recording and in
    /// sequence with the subject's other markers (+12 or −12: an AM/PM slip), if one does.
    /// Reported as the probable repair; never applied.
    public var probableOffsetHours: Int?
    /// The same in one sentence (also printed on stderr).
    public var note: String

    public init(count: Int, markers: Int, times: [String], recordingStart: String, recordingEnd: String,
                probableOffsetHours: Int?, note: String) {
        self.count = count; self.markers = markers; self.times = times; self.recordingStart = recordingStart
        self.recordingEnd = recordingEnd; self.probableOffsetHours = probableOffsetHours; self.note = note
    }
}
