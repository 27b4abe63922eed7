/// The report's lineage section (docs/workspace.md, Lineage): for every table of the
/// workspace, the stage and constants that made it, and the audit's findings — tables
/// made from inputs that changed since, engines whose constants differ between tables,
/// and where the tables' constants differ from those the report itself runs with.
public enum LineageAnalysis {
    public static func analysis(registry: ConstantsRegistry) -> ValidationAnalysis {
        { ws in
            guard ws.exists(Manifest.fileName) else { return nil }
            return section(try Manifest.read(from: ws), registry: registry)
        }
    }

    static func section(_ manifest: Manifest, registry: ConstantsRegistry) -> ReportSection {
        let audit = LineageAudit(manifest)
        let stale = Set(audit.stale.map(\.table))
        // Engines whose constants made a table but differ from those this report runs with.
        var differing: [String] = []
        for t in manifest.tables {
            for e in t.lineage?.engines ?? [] where e.digest != registry.digest(of: e.name) {
                differing.append("\(t.name) was made with \(e.name)@\(e.version) (\(e.digest.prefix(12))…), "
                    + "this report runs \(e.name)@\(registry.engines[e.name]?.version ?? "?") (\(registry.digest(of: e.name).prefix(12))…)")
            }
        }
        var md = audit.isClean && differing.isEmpty
            ? "Every table is current with its inputs, and each engine's constants are the same in every table and in this report.\n\n"
            : (audit.findings + differing).map { "- **\($0)**\n" }.joined() + "\n"
        md += markdownTable(["table", "rows", "made by", "constants", "settings", "status"], manifest.tables.map { t in
            guard let l = t.lineage else { return [t.name, String(t.rows), "–", "–", "–", "no lineage"] }
            let settings = l.settings.keys.sorted().map { "\($0)=\(l.settings[$0] ?? "")" }.joined(separator: "; ")
            return [t.name, String(t.rows), "\(l.command) \(l.stageVersion)", l.constantsText.isEmpty ? "–" : l.constantsText,
                    settings.isEmpty ? "–" : settings, stale.contains(t.name) ? "stale" : "current"]
        })
        guard case var .object(json) = LineageReport.json(manifest) else {
            return ReportSection(title: "Lineage", markdown: md, json: .null, key: "lineage")
        }
        json["differs_from_report"] = .array(differing.map(JSONValue.string))
        return ReportSection(title: "Lineage", markdown: md, json: .object(json), key: "lineage")
    }
}
