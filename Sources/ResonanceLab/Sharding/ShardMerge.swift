import Foundation

extension Sharding {
    /// What `merge` wrote.
    public struct MergeSummary: Sendable {
        public var shards: Int
        public var tables: Int
        public var rows: Int
        public var subjects: Int
    }

    /// Joins the shard workspaces of one split (given in any order) into a new workspace
    /// at `out`: every table's rows with subjects in byte order, the rows of tables
    /// without a `subject` column in shard order, and the manifest with every shard's
    /// subjects, no `shard` record and the joined tables — the manifest one process
    /// would have written. Every shard table is verified against its shard's manifest
    /// (unless `verify` is off) and checked before anything is written. Fails on a
    /// missing, duplicate or foreign shard, on shards whose tables differ in name or
    /// header, on a row in the wrong shard, on manifests that do not add up to the split
    /// workspace's, and on an output of a stage that needs all subjects (those run
    /// after the merge).
    public static func merge(_ paths: [String], into out: String, verify: Bool = true,
                             note: @escaping (String) -> Void = { _ in }) throws -> MergeSummary {
        var parts: [Part] = []
        for path in paths {
            // Each shard's tables are verified and mapped under its session's locks; a
            // mapped table keeps the bytes that were verified.
            let listed = try Manifest.read(from: Workspace(path: path)).tables.map(\.name)
            let session = try WorkspaceSession(path: path, reads: listed, writes: [], verify: verify, note: note)
            let ws = Workspace(path: path, session: session)
            let manifest = try Manifest.read(from: ws)
            guard let info = manifest.shard else {
                throw Failure("\(path): not a shard workspace (its manifest.json has no shard record)")
            }
            parts.append(Part(path: path, manifest: manifest, info: info, tables: [:]))
            for entry in manifest.tables where !Sharding.isWhole(entry.name) {
                parts[parts.count - 1].tables[entry.name] = try RawTable(path: try ws.readable(entry.name) ?? ws.file(entry.name))
            }
        }
        let ordered = try checkSplit(parts)
        let first = ordered[0]  // checkSplit returns every shard of the split, at least one
        let count = ordered.count
        var manifest = first.manifest
        manifest.shard = nil
        manifest.tables = []
        // Overlaps a stage resolved, summed over the shards (each counted its own subjects).
        let stages = Set(ordered.flatMap { ($0.manifest.overlaps ?? [:]).keys })
        manifest.overlaps = stages.isEmpty ? nil : Dictionary(uniqueKeysWithValues: stages.map { stage in
            (stage, ordered.reduce(SourceOverlaps()) { $0 + ($1.manifest.overlaps?[stage] ?? SourceOverlaps()) })
        })
        manifest.subjects = ordered.flatMap(\.manifest.subjects).sorted { SubjectOrder.precedes($0.subject, $1.subject) }
        guard try ShardInfo.identity(of: manifest) == first.info.parentIdentity else {
            throw Failure("\(first.path)/\(Manifest.fileName): the shards' manifests do not add up to the split workspace's: "
                + "a subject was added or removed")
        }
        let names = try sharedTableNames(ordered).filter { !Sharding.isWhole($0) }
        // A file of samples is the same whole file in every shard.
        let whole = first.manifest.tables.filter { Sharding.isWhole($0.name) }
        for entry in whole {
            for part in ordered where part.manifest.table(entry.name)?.sha256 != entry.sha256 {
                throw Failure("\(part.path)/\(entry.name): differs from \(first.path)'s; every shard holds the split workspace's whole file")
            }
        }
        var tables: [[RawTable]] = []
        for name in names {
            let shards = ordered.compactMap { $0.tables[name] }
            for (index, table) in shards.enumerated() {
                guard table.bytes[table.header] == shards[0].bytes[shards[0].header] else {
                    throw Failure("\(table.path): header differs from \(shards[0].path)'s")
                }
                for block in table.blocks {
                    guard let subject = block.subject else { continue }
                    let owner = SubjectShard.index(of: subject, count: count)
                    guard owner == index else {
                        throw TableError(path: table.path, line: block.line, column: (table.subjectColumn ?? 0) + 1,
                                         message: "subject \(text(subject)) belongs to shard \(owner) of \(count), not \(index)")
                    }
                }
                try checkSubjectOrder(table)
            }
            tables.append(shards)
        }

        try requireEmptyOutput(out)
        let session = try WorkspaceSession(path: out, reads: [], writes: names + whole.map(\.name), creating: true,
                                           verify: verify, note: note)
        session.replacement = manifest
        // Each table made as one run would have made it: the inputs' digests are those
        // of the merged tables.
        session.tableLineage = first.manifest.lineageByTable
        let merged = Workspace(path: out, session: session)
        for (name, shards) in zip(names, tables) {
            let file = try AtomicFile(path: try merged.output(name))
            try copy(shards[0].header, of: shards[0], to: file)
            if shards[0].subjectColumn == nil {
                for table in shards {
                    for block in table.blocks { try copy(block.range, of: table, to: file) }
                }
            } else {
                // Each shard lists its subjects in byte order and no subject is in two
                // shards: repeatedly take the shard whose next subject is smallest.
                var next = [Int](repeating: 0, count: count)
                while true {
                    var best: Int?
                    for i in 0..<count where next[i] < shards[i].blocks.count {
                        guard let b = best else { best = i; continue }
                        if SubjectOrder.precedes(shards[i].blocks[next[i]].subject ?? [], shards[b].blocks[next[b]].subject ?? []) {
                            best = i
                        }
                    }
                    guard let i = best else { break }
                    try copy(shards[i].blocks[next[i]].range, of: shards[i], to: file)
                    next[i] += 1
                }
            }
            try file.commit()
        }
        for entry in whole { try Sharding.copyWhole(entry, from: Workspace(path: first.path), to: merged) }
        try session.commit()
        return MergeSummary(shards: count, tables: names.count, rows: tables.joined().reduce(0) { $0 + $1.rows },
                            subjects: manifest.subjects.count)
    }

    /// A shard workspace: its manifest, shard record and tables (by name).
    struct Part {
        var path: String
        var manifest: Manifest
        var info: ShardInfo
        var tables: [String: RawTable]
    }

    /// The shards in index order, after checking that they are all the shards of one
    /// split, each once, with the same manifest apart from their subjects and tables.
    static func checkSplit(_ parts: [Part]) throws -> [Part] {
        guard let reference = parts.first else { throw Failure("no shard workspaces given") }
        func split(_ info: ShardInfo) -> String {
            "split \(info.parentIdentity.prefix(12))… of \(info.count) shards"
        }
        var byIndex = [Part?](repeating: nil, count: reference.info.count)
        for part in parts {
            guard part.info.parentIdentity == reference.info.parentIdentity,
                  part.info.count == reference.info.count, part.info.assignment == reference.info.assignment else {
                throw Failure("\(part.path): shard of another split (\(split(part.info))) than \(reference.path) (\(split(reference.info)))")
            }
            guard byIndex.indices.contains(part.info.index) else {
                throw Failure("\(part.path): shard index \(part.info.index) is outside 0–\(part.info.count - 1)")
            }
            if let other = byIndex[part.info.index] {
                throw Failure("\(other.path) and \(part.path) are both shard \(part.info.index) of \(part.info.count)")
            }
            byIndex[part.info.index] = part
        }
        let missing = byIndex.indices.filter { byIndex[$0] == nil }
        guard missing.isEmpty else {
            throw Failure("shard\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")) of "
                + "\(reference.info.count) missing (\(split(reference.info)))")
        }
        let ordered = byIndex.compactMap { $0 }
        func common(_ m: Manifest) -> Manifest {
            var m = m
            m.subjects = []
            m.tables = []
            m.overlaps = nil
            m.shard = nil
            return m
        }
        for part in ordered {
            let manifest = (part.path as NSString).appendingPathComponent(Manifest.fileName)
            if common(part.manifest) != common(ordered[0].manifest) {
                throw Failure("\(manifest): differs from \(ordered[0].path)'s in more than its subjects and tables")
            }
            for s in part.manifest.subjects where SubjectShard.index(of: s.subject, count: part.info.count) != part.info.index {
                throw Failure("\(manifest): subject '\(s.subject)' belongs to shard "
                    + "\(SubjectShard.index(of: s.subject, count: part.info.count)), not \(part.info.index)")
            }
        }
        return ordered
    }

    /// The tables every shard has, in byte order of the names; fails when the shards
    /// differ in them, or hold an output of a stage that needs all subjects.
    static func sharedTableNames(_ parts: [Part]) throws -> [String] {
        let lists = parts.map { $0.manifest.tables.map(\.name) }
        guard let names = lists.first else { return [] }
        for (part, list) in zip(parts, lists) where list != names {
            if let absent = names.first(where: { !list.contains($0) }) {
                throw Failure("\(part.path): has no \(absent), which \(parts[0].path) has; run the same stages on every shard")
            }
            if let extra = list.first(where: { !names.contains($0) }) {
                throw Failure("\(part.path): has \(extra), which \(parts[0].path) has not; run the same stages on every shard")
            }
        }
        for stage in Pipeline.stages(reportDir: nil) where !stage.perSubject {
            if let name = stage.writes.first(where: names.contains) {
                throw Failure("\(parts[0].path)/\(name): `\(stage.name)` needs all subjects; run it on the merged workspace")
            }
        }
        return names
    }
}
