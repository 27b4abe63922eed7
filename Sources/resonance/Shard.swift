import ArgumentParser
import Foundation
import ResonanceLab

/// `resonance shard WS --shards N --out DIR` (docs/sharding.md).
struct Shard: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Split a workspace by subject into shard workspaces, for the per-subject stages on several machines.",
        discussion: """
            Writes DIR/shard-000 … one folder per shard (always N, an empty shard has every table \
            with its header only). Subject S goes to shard FNV-1a-64(UTF-8 bytes of S) mod N, the \
            same on every machine; rows with an empty subject and tables without a subject column \
            (rejects.csv) go to shard 000. Each shard is a workspace: its manifest is the \
            workspace's, with its own subjects and a record of which shard of which split it is.

            Run the per-subject stages on each shard (`resonance run -w DIR/shard-000 --stages \
            beats,hrv,coherence,sessions,daily`), join them with `resonance merge`, then run effects and \
            validate on the merged workspace: its files are byte-identical to those of one \
            `resonance run`. Tables are checked against the manifest's SHA-256 before they are \
            split (unless --no-verify). See docs/sharding.md.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Workspace to split (after import or `personas generate`).", valueName: "workspace"))
    var workspace: String

    @Option(help: ArgumentHelp("Number of shards, 1–\(Self.maxShards).", valueName: "n"))
    var shards: Int

    @Option(help: ArgumentHelp("Folder to write the shard folders into; must be new or empty.", valueName: "dir"))
    var out: String

    static let maxShards = 10_000

    func validate() throws {
        try global.reject(constants: true, jobs: true, command: "shard")
        guard (1...Self.maxShards).contains(shards) else {
            throw ValidationError("--shards must be between 1 and \(Self.maxShards).")
        }
        try WorkspaceFolder.requireExisting(workspace)
    }

    func run() throws {
        let warnings = global.warnings
        let split = try Sharding.split(workspace, count: shards, into: out, verify: !global.noVerify, note: { warnings.note($0) })
        global.reporter.note("shard: \(plural(split.tables, "table")), \(plural(split.rows, "row")) → \(plural(shards, "shard")) in \(out) "
            + "(subjects per shard: \(split.subjects.map(String.init).joined(separator: ", ")))")
    }
}

/// `resonance merge SHARD... --out WS` (docs/sharding.md).
struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Join the shard workspaces of one split back into one workspace.",
        discussion: """
            Give every shard folder of the split, in any order. Each table's rows are joined \
            with subjects in byte order (the order one process writes) and the manifests \
            combined; every shard table is first checked against its shard's manifest (SHA-256, \
            unless --no-verify) and the combined manifest against the split's identity. Refused \
            with one line on stderr, writing nothing: a missing, duplicate or foreign shard, a \
            changed table, shards with different tables (run the same stages on each), a row in \
            the wrong shard, and outputs of stages that need all subjects (effects: run it after \
            the merge, e.g. `resonance run -w WS --stages effects`). See docs/sharding.md.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Shard workspaces of one split (from `resonance shard`).", valueName: "shard"))
    var shards: [String]

    @Option(help: ArgumentHelp("Workspace folder to write; must be new or empty.", valueName: "dir"))
    var out: String

    func validate() throws {
        try global.reject(constants: true, jobs: true, command: "merge")
        for shard in shards { try WorkspaceFolder.requireExisting(shard) }
    }

    func run() throws {
        let warnings = global.warnings
        let merged = try Sharding.merge(shards, into: out, verify: !global.noVerify, note: { warnings.note($0) })
        global.reporter.note("merge: \(plural(merged.shards, "shard")), \(plural(merged.tables, "table")), \(plural(merged.rows, "row")), "
            + "\(plural(merged.subjects, "subject")) → \(out)")
    }
}
