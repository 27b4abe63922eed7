import Foundation

/// How one table of a workspace was made (docs/workspace.md, Lineage): the command and
/// stage version that wrote it, the toolkit version, the version and digest of the
/// constants of each engine that stage used, the settings in force, and the digests of
/// the tables (or source files) it read. The derived-metric provenance of the product
/// specification — value, version, input digest — kept per table.
public struct TableLineage: Codable, Equatable, Sendable {
    /// The stage that wrote the table (`import`, `hrv`, `personas generate`, …).
    public var command: String
    /// The stage's own version: a change of what it computes is a new version.
    public var stageVersion: String
    public var toolkitVersion: String
    /// The engines whose constants the stage used, in byte order of their names.
    public var engines: [EngineIdentity]
    /// Choices in force that decide the table besides the constants (options, and
    /// choices taken over from the tables read, e.g. `artifacts`), by name.
    public var settings: [String: String]
    /// What the stage read: tables of the workspace, or source files for an import.
    public var inputs: [LineageInput]

    public init(command: String, stageVersion: String, toolkitVersion: String = ResonanceLabInfo.version,
                engines: [EngineIdentity] = [], settings: [String: String] = [:], inputs: [LineageInput] = []) {
        self.command = command; self.stageVersion = stageVersion; self.toolkitVersion = toolkitVersion
        self.engines = engines; self.settings = settings; self.inputs = inputs
    }

    /// `engine@version` of each engine used, space-separated (empty when none).
    public var constantsText: String {
        engines.map { "\($0.name)@\($0.version)" }.joined(separator: " ")
    }

    /// The lineage as JSON, with the field names of `manifest.json`.
    public var json: JSONValue {
        .object([
            "command": .string(command), "stageVersion": .string(stageVersion), "toolkitVersion": .string(toolkitVersion),
            "engines": .array(engines.map { .object(["name": .string($0.name), "version": .string($0.version),
                                                     "digest": .string($0.digest)]) }),
            "settings": .object(settings.mapValues(JSONValue.string)),
            "inputs": .array(inputs.map { input in
                var o: [String: JSONValue] = ["sha256": .string(input.sha256)]
                if let t = input.table { o["table"] = .string(t) }
                if let s = input.source { o["source"] = .string(s) }
                return .object(o)
            }),
        ])
    }
}

/// One engine's constants as a table was made with them: name, version and the SHA-256
/// of that engine's version and values (`ConstantsRegistry.digest(of:)`).
public struct EngineIdentity: Codable, Equatable, Hashable, Sendable {
    public var name: String
    public var version: String
    public var digest: String

    public init(name: String, version: String, digest: String) {
        self.name = name; self.version = version; self.digest = digest
    }

    /// The identities of `engines` in `registry`, in byte order of the names.
    public static func of(_ engines: [String], in registry: ConstantsRegistry) -> [EngineIdentity] {
        Set(engines).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }.map {
            EngineIdentity(name: $0, version: registry.engines[$0]?.version ?? "", digest: registry.digest(of: $0))
        }
    }
}

/// One input of a table: a workspace table (`table`) or a source file (`source`), with
/// the SHA-256 it had when it was read.
public struct LineageInput: Codable, Equatable, Sendable {
    public var table: String?
    public var source: String?
    public var sha256: String

    public static func table(_ name: String, sha256: String) -> LineageInput {
        LineageInput(table: name, source: nil, sha256: sha256)
    }

    public static func source(_ path: String, sha256: String) -> LineageInput {
        LineageInput(table: nil, source: path, sha256: sha256)
    }
}

/// Where a workspace's tables disagree about how they were made (docs/workspace.md,
/// Lineage): tables made from inputs that have changed since (stale), tables without a
/// lineage, and engines whose constants differ between tables.
public struct LineageAudit: Equatable, Sendable {
    /// A table whose recorded input no longer matches the workspace (the input's digest
    /// changed, or it is no longer listed), or that was made from such a table.
    public struct Stale: Equatable, Sendable {
        public var table: String
        public var input: String
        public var reason: String
    }

    /// An engine used with more than one set of constants, and which tables used which.
    public struct Mixed: Equatable, Sendable {
        public var engine: String
        public var variants: [(identity: EngineIdentity, tables: [String])]

        public static func == (a: Mixed, b: Mixed) -> Bool {
            a.engine == b.engine && a.variants.map(\.identity) == b.variants.map(\.identity)
                && a.variants.map(\.tables) == b.variants.map(\.tables)
        }
    }

    public var stale: [Stale]
    public var withoutLineage: [String]
    public var mixed: [Mixed]

    public var isClean: Bool { stale.isEmpty && withoutLineage.isEmpty && mixed.isEmpty }

    /// Audits the tables of `manifest`: a table is stale when an input it read has a
    /// different digest now (or is gone), or when a table it read is stale itself.
    public init(_ manifest: Manifest) {
        var direct: [String: Stale] = [:]
        var without: [String] = []
        for t in manifest.tables {
            guard let lineage = t.lineage else { without.append(t.name); continue }
            for input in lineage.inputs {
                guard let name = input.table else { continue }
                if let now = manifest.table(name) {
                    if now.sha256 != input.sha256 {
                        direct[t.name] = direct[t.name] ?? Stale(table: t.name, input: name, reason:
                            "\(name) changed since (read \(input.sha256.prefix(12))…, now \(now.sha256.prefix(12))…)")
                    }
                } else {
                    direct[t.name] = direct[t.name] ?? Stale(table: t.name, input: name, reason: "\(name) is no longer in the workspace")
                }
            }
        }
        // Staleness flows downstream: a table made from a stale table is stale too.
        var stale = direct
        var changed = true
        while changed {
            changed = false
            for t in manifest.tables where stale[t.name] == nil {
                if let upstream = t.lineage?.inputs.compactMap(\.table).first(where: { stale[$0] != nil }) {
                    stale[t.name] = Stale(table: t.name, input: upstream, reason: "made from \(upstream), which is stale")
                    changed = true
                }
            }
        }
        self.stale = manifest.tables.compactMap { stale[$0.name] }
        withoutLineage = without
        var uses: [String: [EngineIdentity: [String]]] = [:]
        for t in manifest.tables {
            for e in t.lineage?.engines ?? [] { uses[e.name, default: [:]][e, default: []].append(t.name) }
        }
        mixed = uses.keys.sorted().compactMap { engine in
            guard let byIdentity = uses[engine], byIdentity.count > 1 else { return nil }
            let variants = byIdentity.map { (identity: $0.key, tables: $0.value) }
                .sorted { ($0.identity.version, $0.identity.digest) < ($1.identity.version, $1.identity.digest) }
            return Mixed(engine: engine, variants: variants)
        }
    }

    /// One line per finding, for reports and stderr.
    public var findings: [String] {
        stale.map { "\($0.table) is stale: \($0.reason)" }
            + mixed.map { m in
                "engine \(m.engine) differs between tables: " + m.variants.map {
                    "\($0.identity.version) (\($0.identity.digest.prefix(12))…) in \($0.tables.joined(separator: ", "))"
                }.joined(separator: "; ")
            }
            + (withoutLineage.isEmpty ? [] : ["no lineage recorded for \(withoutLineage.joined(separator: ", ")) (written by an older version)"])
    }
}
