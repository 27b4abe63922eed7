import Foundation

/// Splitting a workspace into shard workspaces by subject and merging them back
/// (docs/sharding.md). Rows move as raw bytes, so a merged table is byte for byte
/// the table one process would have written.
public enum Sharding {
    /// Whether a workspace file goes whole to every shard instead of being divided by
    /// subject: the waveforms' samples (`waveforms.bin`), which `waveforms.csv`'s rows
    /// point into by byte offset. Merge takes it back from the first shard.
    static func isWhole(_ name: String) -> Bool { name == WaveformSegment.samplesFileName }

    /// Copies the whole file `entry` of `source` into `target`'s staging, checks that its
    /// bytes still have the recorded SHA-256, and hands the session its recorded row count.
    static func copyWhole(_ entry: TableDigest, from source: Workspace, to target: Workspace) throws {
        let path = source.file(entry.name)
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw TableError(path: path, line: 0, column: 0, message: "cannot read: \(error.localizedDescription)")
        }
        let file = try AtomicFile(path: try target.output(entry.name))
        // A MiB at a time: the mapped file is never copied whole into memory.
        var at = bytes.startIndex
        while at < bytes.endIndex {
            let end = min(at + (1 << 20), bytes.endIndex)
            try file.write([UInt8](bytes[at..<end]))
            at = end
        }
        try file.commit()
        guard let sha256 = file.sha256, sha256 == entry.sha256 else {
            throw TableError(path: path, line: 0, column: 0, message: "does not match its manifest's SHA-256: changed since it was written")
        }
        target.session?.wrote(file: file.path, rows: entry.rows, sha256: sha256)
    }

    /// Why a split or merge cannot go ahead; one line naming the folder or file.
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The folder of shard `index` of `count`: `shard-000`, `shard-001`, …, zero-padded
    /// to at least three digits so that the folders list in index order.
    public static func folderName(index: Int, count: Int) -> String {
        let digits = max(3, String(max(count - 1, 0)).count)
        let number = String(index)
        return "shard-" + String(repeating: "0", count: max(0, digits - number.count)) + number
    }

    /// Fails unless `path` is absent or an empty folder.
    static func requireEmptyOutput(_ path: String) throws {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) { throw Failure("\(path): exists and is not a folder") }
            return
        }
        guard names.isEmpty else { throw Failure("\(path): already exists and is not empty; give a new folder") }
    }

    /// The subject of a block as text, for messages.
    static func text(_ subject: [UInt8]?) -> String {
        subject.map { "'" + String(decoding: $0, as: UTF8.self) + "'" } ?? "(none)"
    }

    /// Appends `range` of `table` to `file` in pieces of at most 1 MiB.
    static func copy(_ range: Range<Int>, of table: RawTable, to file: AtomicFile) throws {
        try table.bytes.withUnsafeBytes { raw in
            var at = range.lowerBound
            while at < range.upperBound {
                let end = min(range.upperBound, at + (1 << 20))
                try file.append { $0.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[at..<end])) }
                at = end
            }
        }
    }
}
