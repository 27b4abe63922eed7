/// One step of the pipeline: a function from workspace tables to workspace tables
/// (docs/workspace.md, Lineage). Every stage reads the tables it names from the
/// workspace, with the constants in force, and writes its outputs into it atomically.
///
/// This declaration is the one place a stage is described: the pipeline order
/// (`Pipeline.stages`), the per-subject set that sharding runs in each shard, the
/// lineage of every table it writes, the Snakemake rules and the tables page are
/// derived from it or checked against it by a test.
public protocol Stage {
    /// The command name (`hrv`, `sessions`, …).
    var name: String { get }
    /// The stage's version, recorded in the lineage of its tables: a minor bump when
    /// what it computes changes with the same inputs and constants, a major one when
    /// its tables change shape.
    var version: String { get }
    /// Tables read (file names); absent ones read as empty unless the stage says otherwise.
    var reads: [String] { get }
    /// Tables (or report files) written.
    var writes: [String] { get }
    /// The registry engines whose constants the stage uses (`resonance constants show`).
    var engines: [String] { get }
    /// Whether each subject's rows depend on that subject's rows alone, so that each
    /// shard of a split can run the stage by itself (docs/sharding.md).
    var perSubject: Bool { get }
    /// Whether the stage makes a new workspace (no manifest needed before it runs).
    var createsWorkspace: Bool { get }
    func run(_ ws: Workspace, _ context: StageContext) throws
}

/// What every stage runs with: the constants, worker threads and progress.
public struct StageContext: Sendable {
    public var registry: ConstantsRegistry
    /// Worker threads for per-subject work (outputs are identical for any value).
    public var jobs: Int
    public var progress: ProgressLog
    /// Check every table read against its SHA-256 in the manifest (`--no-verify` turns it off;
    /// headers are checked either way).
    public var verify: Bool
    /// Notes that are shown even without progress: locks waited for, leftovers of killed runs removed.
    public var warnings: ProgressLog

    public init(registry: ConstantsRegistry = .defaults, jobs: Int = 1, progress: ProgressLog = .silent,
                verify: Bool = true, warnings: ProgressLog = .silent) {
        self.registry = registry; self.jobs = jobs; self.progress = progress
        self.verify = verify; self.warnings = warnings
    }
}

/// An error a stage throws after its outputs are complete and correct (an import in
/// which some files failed, the rest imported): the outputs are committed, then the
/// error is reported.
public protocol OutputsComplete: Error {}

extension Stage {
    /// Runs the stage within a `WorkspaceSession` on `ws`: its reads locked and verified,
    /// its outputs staged, then committed together with the updated manifest.
    public func runCommitted(_ ws: Workspace, _ context: StageContext) throws {
        let session = try openSession(ws, context)
        do {
            try run(Workspace(path: ws.path, session: session), context)
        } catch let error as OutputsComplete {
            try session.commit()
            throw error
        }
        try session.commit()
    }

    /// A session on `ws` for the stage: its reads locked and verified, its lineage set.
    func openSession(_ ws: Workspace, _ context: StageContext) throws -> WorkspaceSession {
        let warnings = context.warnings
        let session = try WorkspaceSession(path: ws.path, reads: reads, writes: writes, creating: createsWorkspace,
                                           verify: context.verify, note: { warnings.note($0) })
        session.lineage = lineage(context.registry)
        return session
    }

    public var createsWorkspace: Bool { false }

    /// The lineage of the tables the stage writes with `registry` in force: its inputs
    /// are the tables it reads (the commit records their digests).
    public func lineage(_ registry: ConstantsRegistry) -> TableLineage {
        TableLineage(command: name, stageVersion: version, engines: EngineIdentity.of(engines, in: registry),
                     inputs: reads.filter { $0 != Manifest.fileName }.map { .table($0, sha256: "") })
    }
}
