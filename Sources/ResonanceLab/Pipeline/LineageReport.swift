import Foundation

/// What `resonance lineage` prints (docs/workspace.md, Lineage): every table of a
/// workspace with the stage and constants that made it, or one table's chain back to
/// the source files, with the audit's findings (stale inputs, mixed constants).
public enum LineageReport {
    /// One line per table: name, rows, the stage and version that wrote it, the engines'
    /// constants, and `STALE` where the audit found it so; then the audit's findings.
    public static func summary(_ manifest: Manifest) -> String {
        let audit = LineageAudit(manifest)
        let stale = Set(audit.stale.map(\.table))
        var out = ""
        for t in manifest.tables {
            out += "\(t.name): \(plural(t.rows, "row"))"
            if let l = t.lineage {
                out += ", \(l.command) \(l.stageVersion)"
                if !l.engines.isEmpty { out += ", constants \(l.constantsText)" }
            } else {
                out += ", no lineage"
            }
            out += stale.contains(t.name) ? ", STALE\n" : "\n"
        }
        return out + findingsText(audit)
    }

    /// The chain of `table` back to the source files: each table once, with the stage,
    /// toolkit version, engines (version and digest), settings and inputs that made it,
    /// each input marked current or changed since.
    public static func chain(_ manifest: Manifest, table: String) throws -> String {
        guard manifest.table(table) != nil else {
            throw LineageError(message: "no table '\(table)' in this workspace (it has: "
                + manifest.tables.map(\.name).joined(separator: ", ") + ")")
        }
        var out = ""
        var shown: Set<String> = []
        // Source lists already printed (the tables of one import share theirs), by their lines.
        var sourceLists: [String: String] = [:]
        func show(_ name: String, depth: Int) {
            let pad = String(repeating: "  ", count: depth)
            guard let t = manifest.table(name) else {
                out += "\(pad)\(name): not in the workspace\n"
                return
            }
            if shown.contains(name) {
                out += "\(pad)\(name): shown above\n"
                return
            }
            shown.insert(name)
            out += "\(pad)\(name): \(plural(t.rows, "row")), SHA-256 \(t.sha256)\n"
            guard let l = t.lineage else {
                out += "\(pad)  no lineage recorded (written by an older version)\n"
                return
            }
            out += "\(pad)  made by `\(l.command)` \(l.stageVersion) with Resonance Lab \(l.toolkitVersion)\n"
            for e in l.engines {
                out += "\(pad)  constants \(e.name)@\(e.version), SHA-256 \(e.digest)\n"
            }
            for key in l.settings.keys.sorted() {
                out += "\(pad)  setting \(key) = \(l.settings[key] ?? "")\n"
            }
            let sources = l.inputs.compactMap { i in i.source.map { "\(pad)  from source file \($0), SHA-256 \(i.sha256)\n" } }
            let key = sources.map { $0.trimmingCharacters(in: .whitespaces) }.joined()
            if let first = sourceLists[key], !sources.isEmpty {
                out += "\(pad)  from the \(plural(sources.count, "source file")) listed under \(first)\n"
            } else {
                out += sources.joined()
                if !sources.isEmpty { sourceLists[key] = name }
            }
            for input in l.inputs {
                if let name = input.table {
                    let now = manifest.table(name)?.sha256
                    let state = now == input.sha256 ? "current" : now == nil ? "no longer in the workspace" : "CHANGED since"
                    out += "\(pad)  from \(name), SHA-256 \(input.sha256.prefix(12))… (\(state))\n"
                    show(name, depth: depth + 2)
                }
            }
        }
        show(table, depth: 0)
        let audit = LineageAudit(manifest)
        return out + findingsText(audit)
    }

    /// The workspace's lineage as JSON: each table's entry as in `manifest.json`, and
    /// the audit (`stale`, `mixed_constants`, `without_lineage`).
    public static func json(_ manifest: Manifest) -> JSONValue {
        var tables: [String: JSONValue] = [:]
        for t in manifest.tables {
            tables[t.name] = .object(["rows": .int(t.rows), "sha256": .string(t.sha256),
                                      "lineage": t.lineage?.json ?? .null])
        }
        return .object(["tables": .object(tables), "audit": auditJSON(LineageAudit(manifest))])
    }

    /// The audit as JSON, for reports.
    public static func auditJSON(_ audit: LineageAudit) -> JSONValue {
        .object([
            "stale": .array(audit.stale.map {
                .object(["table": .string($0.table), "input": .string($0.input), "reason": .string($0.reason)])
            }),
            "mixed_constants": .array(audit.mixed.map { m in
                .object(["engine": .string(m.engine), "variants": .array(m.variants.map {
                    .object(["version": .string($0.identity.version), "digest": .string($0.identity.digest),
                             "tables": .array($0.tables.map(JSONValue.string))])
                })])
            }),
            "without_lineage": .array(audit.withoutLineage.map(JSONValue.string)),
        ])
    }

    static func findingsText(_ audit: LineageAudit) -> String {
        audit.isClean ? "lineage: every table current, one set of constants per engine\n"
            : audit.findings.map { "lineage: \($0)\n" }.joined()
    }
}

/// A lineage request that cannot be answered (an unknown table).
public struct LineageError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
