/// One section of a dataset's validation report: Markdown for people, JSON for code.
public struct ReportSection: Sendable {
    public var title: String
    public var markdown: String
    public var json: JSONValue
    /// When set, `validation.json` also carries the section's data at this top-level key.
    public var key: String?

    public init(title: String, markdown: String, json: JSONValue, key: String? = nil) {
        self.title = title; self.markdown = markdown; self.json = json; self.key = key
    }
}

/// An analysis that contributes a section to `validation.md` / `validation.json`,
/// or nothing when the workspace lacks what it needs.
public typealias ValidationAnalysis = @Sendable (Workspace) throws -> ReportSection?

/// Assembles the validation report of a workspace from every analysis in order.
/// No wall-clock time goes in: the same workspace gives byte-identical reports.
public enum ValidationReport {
    public static func build(
        workspace: Workspace, name: String, analyses: [ValidationAnalysis], registry: ConstantsRegistry = .defaults
    ) throws -> (markdown: String, json: String) {
        var sections: [ReportSection] = []
        for analysis in analyses {
            if let section = try analysis(workspace) { sections.append(section) }
        }
        var md = "# Validation report: \(name)\n\nResonance Lab \(ResonanceLabInfo.version); the report's own computations use "
            + "constants \(registry.version) (SHA-256 \(registry.digest)); the constants each table was made with are under Lineage, the last section.\n"
        for section in sections {
            md += "\n## \(section.title)\n\n" + section.markdown
            if !md.hasSuffix("\n") { md += "\n" }
        }
        var object: [String: JSONValue] = [
            "dataset": .string(name), "toolkit_version": .string(ResonanceLabInfo.version),
            "constants_version": .string(registry.version), "constants_digest": .string(registry.digest),
        ]
        var list: [JSONValue] = []
        for section in sections {
            list.append(.object(["title": .string(section.title), "data": section.json]))
            if let key = section.key { object[key] = section.json }
        }
        object["sections"] = .array(list)
        return (md, JSONValue.object(object).render())
    }
}
