import Foundation

extension Sharding {
    /// What `split` wrote.
    public struct SplitSummary: Sendable {
        public var shards: [String]
        public var tables: Int
        public var rows: Int
        /// Subjects per shard, in shard order.
        public var subjects: [Int]
    }

    /// Splits the workspace at `path` into `count` shard workspaces `dir/shard-000`, …
    /// (always `count` folders; an empty shard has every table with its header only).
    /// A row goes to its subject's shard (`SubjectShard`); a table without a `subject`
    /// column (`rejects.csv`) goes whole to shard 0, and the others get its header. Each
    /// shard's manifest is the workspace's with the shard's subjects only, its own
    /// tables, and a `shard` record naming the split. Every table is read (verified
    /// against the manifest unless `verify` is off) and checked before anything is
    /// written; each shard is then committed as a workspace (docs/workspace.md).
    public static func split(_ path: String, count: Int, into dir: String, verify: Bool = true,
                             note: @escaping (String) -> Void = { _ in }) throws -> SplitSummary {
        guard count >= 1 else { throw Failure("the number of shards must be at least 1") }
        let listed = try Manifest.read(from: Workspace(path: path)).tables.map(\.name)
        let source = try WorkspaceSession(path: path, reads: listed, writes: [], verify: verify, note: note)
        let ws = Workspace(path: path, session: source)
        let manifest = try Manifest.read(from: ws)
        if let shard = manifest.shard {
            throw Failure("\(path): is already shard \(shard.index) of \(shard.count); merge the split first")
        }
        try requireEmptyOutput(dir)
        // Tables of rows are divided by subject; a file of samples goes whole to every shard.
        let whole = manifest.tables.filter { Sharding.isWhole($0.name) }
        let names = manifest.tables.map(\.name).filter { !Sharding.isWhole($0) }
        var tables: [RawTable] = []
        for name in names {
            let table = try RawTable(path: try ws.readable(name) ?? ws.file(name))
            try checkSubjectOrder(table)
            tables.append(table)
        }
        // parts[t][k]: the byte ranges of table t that go to shard k.
        let parts = tables.map { table in
            var ranges = [[Range<Int>]](repeating: [], count: count)
            for block in table.blocks {
                ranges[block.subject.map { SubjectShard.index(of: $0, count: count) } ?? 0].append(block.range)
            }
            return ranges
        }
        let identity = try ShardInfo.identity(of: manifest)
        var folders: [String] = [], subjects: [Int] = []
        for index in 0..<count {
            let folder = (dir as NSString).appendingPathComponent(folderName(index: index, count: count))
            let session = try WorkspaceSession(path: folder, reads: [], writes: names + whole.map(\.name), creating: true,
                                               verify: verify, note: note)
            var part = manifest
            part.tables = []
            part.subjects = manifest.subjects.filter { SubjectShard.index(of: $0.subject, count: count) == index }
            part.shard = ShardInfo(index: index, count: count, parentIdentity: identity)
            session.replacement = part
            session.tableLineage = manifest.lineageByTable
            let shard = Workspace(path: folder, session: session)
            for (name, (table, ranges)) in zip(names, zip(tables, parts)) {
                let file = try AtomicFile(path: try shard.output(name))
                try copy(table.header, of: table, to: file)
                for range in ranges[index] { try copy(range, of: table, to: file) }
                try file.commit()
            }
            for entry in whole { try Sharding.copyWhole(entry, from: ws, to: shard) }
            try session.commit()
            folders.append(folder)
            subjects.append(part.subjects.count)
        }
        return SplitSummary(shards: folders, tables: names.count, rows: tables.reduce(0) { $0 + $1.rows }, subjects: subjects)
    }

    /// Fails unless the table lists each subject in one run of rows, subjects in byte
    /// order: the order merge restores.
    static func checkSubjectOrder(_ table: RawTable) throws {
        for (previous, block) in zip(table.blocks, table.blocks.dropFirst()) {
            guard let a = previous.subject, let b = block.subject, !SubjectOrder.precedes(a, b) else { continue }
            throw TableError(path: table.path, line: block.line, column: (table.subjectColumn ?? 0) + 1,
                             message: "subject \(text(b)) after \(text(a)): rows must be grouped by subject in byte order")
        }
    }
}
