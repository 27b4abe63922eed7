/// One step of the pipeline: a function from workspace tables to workspace tables
/// (docs/pipeline.md). Every stage reads the tables it names from the workspace,
/// with the constants in force, and writes its outputs into it atomically.
public protocol Stage {
    /// The command name (`hrv`, `sessions`, …).
    var name: String { get }
    /// Tables read (file names); absent ones read as empty unless the stage says otherwise.
    var reads: [String] { get }
    /// Tables (or report files) written.
    var writes: [String] { get }
    /// Whether the stage makes a new workspace (no manifest needed before it runs).
    var createsWorkspace: Bool { get }
    func run(_ ws: Workspace, _ context: StageContext) throws
}

/// What every stage runs with: the constants, worker threads, progress, and the
/// cleaned R-R of each subject when several stages share it in one process.
public struct StageContext: Sendable {
    public var registry: ConstantsRegistry
    /// Worker threads for per-subject work (outputs are identical for any value).
    public var jobs: Int
    public var progress: ProgressLog
    /// Cleaned NN series shared by the stages of one `resonance run`; nil cleans per stage.
    public var nn: NNCache?
    /// Check every table read against its SHA-256 in the manifest (`--no-verify` turns it off;
    /// headers are checked either way).
    public var verify: Bool
    /// Notes that are shown even without progress: locks waited for, leftovers of killed runs removed.
    public var warnings: ProgressLog

    public init(registry: ConstantsRegistry = .defaults, jobs: Int = 1, progress: ProgressLog = .silent, nn: NNCache? = nil,
                verify: Bool = true, warnings: ProgressLog = .silent) {
        self.registry = registry; self.jobs = jobs; self.progress = progress; self.nn = nn
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
        let warnings = context.warnings
        let session = try WorkspaceSession(path: ws.path, reads: reads, writes: writes, creating: createsWorkspace,
                                           verify: context.verify, note: { warnings.note($0) })
        do {
            try run(Workspace(path: ws.path, session: session), context)
        } catch let error as OutputsComplete {
            try session.commit()
            throw error
        }
        try session.commit()
    }

    public var createsWorkspace: Bool { false }
}
