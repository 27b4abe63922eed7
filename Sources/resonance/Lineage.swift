import ArgumentParser
import ResonanceLab

/// `resonance lineage WS [TABLE]`: how the tables of a workspace were made.
struct LineageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lineage",
        abstract: "Show how a workspace's tables were made: stage, constants, settings and inputs.",
        discussion: """
            Without a table: one line per table (rows, the stage and version that wrote it, \
            the version of each engine's constants it used) and the audit: tables made from \
            inputs that have changed since (stale), and engines whose constants differ \
            between tables. With a table: its chain back to the source files, each table \
            once, with the SHA-256 of every input and whether it is still current. \
            With --check the exit code is 4 when the audit finds anything.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Workspace folder.", valueName: "workspace"))
    var workspace: String

    @Argument(help: ArgumentHelp("A table of the workspace (e.g. daily.csv); without it, every table.", valueName: "table"))
    var table: String?

    @Flag(help: "Print JSON (every table's lineage and the audit) instead of text.")
    var json = false

    @Flag(help: "Exit with code 4 when a table is stale, an engine's constants differ between tables, or a table has no lineage.")
    var check = false

    func validate() throws {
        try global.reject(constants: true, jobs: true, verify: true, command: "lineage")
        try WorkspaceFolder.requireExisting(workspace)
        if json, table != nil { throw ValidationError("--json prints every table; leave out the table name.") }
    }

    func run() throws {
        let manifest = try Manifest.read(from: try global.open(workspace, reads: [Manifest.fileName]))
        if json {
            print(LineageReport.json(manifest).render(), terminator: "")
        } else if let table {
            print(try LineageReport.chain(manifest, table: table), terminator: "")
        } else {
            print(LineageReport.summary(manifest), terminator: "")
        }
        if check, !LineageAudit(manifest).isClean { throw ExitCode(4) }
    }
}
