import Foundation

extension Sharding {
    /// What `merge` wrote.
    public struct MergeSummary: Sendable {
        public var shards: Int
        public var tables: Int
        public var rows: Int
        public var subjects: Int
    }

    /// Joins the shard workspaces of one split (given in any order) into `out`: every
    /// table's rows with subjects in byte order, the rows of tables without a `subject`
    /// column in shard order, and the manifest with every shard's subjects and no `shard`
    /// record — which must then be byte for byte the split workspace's manifest.
    /// Fails, writing nothing, on a missing, duplicate or foreign shard, on shards whose
    /// tables differ in name or header, on a row in the wrong shard, and on an output of
    /// a stage that needs all subjects (those run after the merge).
    public static func merge(_ shards: [Workspace], into out: Workspace) throws -> MergeSummary {
        let ordered = try checkSplit(shards)
        let first = ordered[0]  // checkSplit returns every shard of the split, at least one
        let count = ordered.count
        var manifest = first.manifest
        manifest.shard = nil
        manifest.subjects = ordered.flatMap(\.manifest.subjects)
            .sorted { SubjectOrder.precedes($0.subject, $1.subject) }
        let names = try sharedTableNames(ordered.map(\.ws))
        try requireEmptyOutput(out.path)

        // Every table read and checked before anything is written.
        var tables: [[RawTable]] = []
        for name in names {
            let parts = try ordered.map { try RawTable(path: $0.ws.file(name)) }
            for (index, table) in parts.enumerated() {
                guard table.bytes[table.header] == parts[0].bytes[parts[0].header] else {
                    throw Failure("\(table.path): header differs from \(parts[0].path)'s")
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
            tables.append(parts)
        }
        let bytes = try manifest.encoded()
        var digest = SHA256()
        digest.update(bytes)
        let expected = first.info.parentManifestSHA256
        guard digest.finalizeHex() == expected else {
            throw Failure("\(first.ws.file(Manifest.fileName)): the shards' manifests do not add up to the split workspace's "
                + "(sha256 \(expected.prefix(12))…): a shard's manifest was changed")
        }

        var files: [AtomicFile] = []
        for (name, parts) in zip(names, tables) {
            let file = try AtomicFile(path: out.file(name))
            try copy(parts[0].header, of: parts[0], to: file)
            if parts[0].subjectColumn == nil {
                for table in parts {
                    for block in table.blocks { try copy(block.range, of: table, to: file) }
                }
            } else {
                // Each shard lists its subjects in byte order and no subject is in two
                // shards: repeatedly take the shard whose next subject is smallest.
                var next = [Int](repeating: 0, count: count)
                while true {
                    var best: Int?
                    for i in 0..<count where next[i] < parts[i].blocks.count {
                        guard let b = best else { best = i; continue }
                        if SubjectOrder.precedes(parts[i].blocks[next[i]].subject ?? [], parts[b].blocks[next[b]].subject ?? []) {
                            best = i
                        }
                    }
                    guard let i = best else { break }
                    try copy(parts[i].blocks[next[i]].range, of: parts[i], to: file)
                    next[i] += 1
                }
            }
            files.append(file)
        }
        let manifestFile = try AtomicFile(path: out.file(Manifest.fileName))
        try manifestFile.write(bytes)
        for file in files { try file.commit() }
        try manifestFile.commit()
        return MergeSummary(shards: count, tables: names.count, rows: tables.joined().reduce(0) { $0 + $1.rows }, subjects: manifest.subjects.count)
    }

    /// A shard workspace with its manifest and shard record.
    struct Part {
        var ws: Workspace
        var manifest: Manifest
        var info: ShardInfo
    }

    /// The shards in index order, after checking that they are all the shards of one
    /// split, each once, with the same manifest apart from their subjects.
    static func checkSplit(_ shards: [Workspace]) throws -> [Part] {
        var parts: [Part] = []
        for ws in shards {
            let manifest = try Manifest.read(from: ws)
            guard let info = manifest.shard else {
                throw Failure("\(ws.path): not a shard workspace (its manifest.json has no shard record)")
            }
            parts.append(Part(ws: ws, manifest: manifest, info: info))
        }
        guard let reference = parts.first else { throw Failure("no shard workspaces given") }
        func split(_ info: ShardInfo) -> String {
            "split \(info.parentManifestSHA256.prefix(12))… of \(info.count) shards"
        }
        var byIndex = [Part?](repeating: nil, count: reference.info.count)
        for part in parts {
            guard part.info.parentManifestSHA256 == reference.info.parentManifestSHA256,
                  part.info.count == reference.info.count, part.info.assignment == reference.info.assignment else {
                throw Failure("\(part.ws.path): shard of another split (\(split(part.info))) than \(reference.ws.path) (\(split(reference.info)))")
            }
            guard byIndex.indices.contains(part.info.index) else {
                throw Failure("\(part.ws.path): shard index \(part.info.index) is outside 0–\(part.info.count - 1)")
            }
            if let other = byIndex[part.info.index] {
                throw Failure("\(other.ws.path) and \(part.ws.path) are both shard \(part.info.index) of \(part.info.count)")
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
            m.shard = nil
            return m
        }
        for part in ordered {
            if common(part.manifest) != common(ordered[0].manifest) {
                throw Failure("\(part.ws.file(Manifest.fileName)): differs from \(ordered[0].ws.file(Manifest.fileName)) in more than its subjects")
            }
            for s in part.manifest.subjects where SubjectShard.index(of: s.subject, count: part.info.count) != part.info.index {
                throw Failure("\(part.ws.file(Manifest.fileName)): subject '\(s.subject)' belongs to shard "
                    + "\(SubjectShard.index(of: s.subject, count: part.info.count)), not \(part.info.index)")
            }
        }
        return ordered
    }

    /// The tables every shard has; fails when the shards differ in them, or hold an
    /// output of a stage that needs all subjects.
    static func sharedTableNames(_ shards: [Workspace]) throws -> [String] {
        let lists = try shards.map { try tableNames($0) }
        guard let names = lists.first else { return [] }
        for (ws, list) in zip(shards, lists) where list != names {
            if let absent = names.first(where: { !list.contains($0) }) {
                throw Failure("\(ws.path): has no \(absent), which \(shards[0].path) has; run the same stages on every shard")
            }
            if let extra = list.first(where: { !names.contains($0) }) {
                throw Failure("\(ws.path): has \(extra), which \(shards[0].path) has not; run the same stages on every shard")
            }
        }
        for stage in Pipeline.stages(reportDir: nil) where !Pipeline.perSubject.contains(stage.name) {
            if let name = stage.writes.first(where: names.contains) {
                throw Failure("\(shards[0].file(name)): `\(stage.name)` needs all subjects; run it on the merged workspace")
            }
        }
        return names
    }
}
