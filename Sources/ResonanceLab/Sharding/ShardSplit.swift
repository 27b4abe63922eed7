import Foundation

extension Sharding {
    /// What `split` wrote.
    public struct SplitSummary: Sendable {
        public var shards: [Workspace]
        public var tables: Int
        public var rows: Int
        /// Subjects per shard, in shard order.
        public var subjects: [Int]
    }

    /// Splits workspace `ws` into `count` shard workspaces `dir/shard-000`, … (always
    /// `count` folders; an empty shard has every table with its header only). A row goes
    /// to its subject's shard (`SubjectShard`); a table without a `subject` column
    /// (`rejects.csv`) goes whole to shard 0, and the others get its header. Each shard's
    /// manifest is the workspace's with the shard's subjects only and a `shard` record
    /// naming the split; it is written after the shard's tables.
    public static func split(_ ws: Workspace, count: Int, into dir: String) throws -> SplitSummary {
        guard count >= 1 else { throw Failure("the number of shards must be at least 1") }
        let manifest = try Manifest.read(from: ws)
        if let shard = manifest.shard {
            throw Failure("\(ws.path): is already shard \(shard.index) of \(shard.count); merge the split first")
        }
        let parentDigest = try SHA256.hex(ofFile: ws.file(Manifest.fileName))
        try requireEmptyOutput(dir)
        let shards = (0..<count).map { Workspace(path: (dir as NSString).appendingPathComponent(folderName(index: $0, count: count))) }
        let names = try tableNames(ws)
        // Every table read and checked before anything is written.
        let tables = try names.map { try RawTable(path: ws.file($0)) }
        for table in tables { try checkSubjectOrder(table) }
        for (name, table) in zip(names, tables) {
            var parts = [[Range<Int>]](repeating: [], count: count)
            for block in table.blocks {
                parts[block.subject.map { SubjectShard.index(of: $0, count: count) } ?? 0].append(block.range)
            }
            for (shard, ranges) in zip(shards, parts) {
                let file = try AtomicFile(path: shard.file(name))
                try copy(table.header, of: table, to: file)
                for range in ranges { try copy(range, of: table, to: file) }
                try file.commit()
            }
        }
        var subjects: [Int] = []
        for (index, shard) in shards.enumerated() {
            var part = manifest
            part.subjects = manifest.subjects.filter { SubjectShard.index(of: $0.subject, count: count) == index }
            part.shard = ShardInfo(index: index, count: count, parentManifestSHA256: parentDigest)
            try write(part, to: shard)
            subjects.append(part.subjects.count)
        }
        return SplitSummary(shards: shards, tables: names.count, rows: tables.reduce(0) { $0 + $1.rows }, subjects: subjects)
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
