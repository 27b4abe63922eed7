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

    public init(registry: ConstantsRegistry = .defaults, jobs: Int = 1, progress: ProgressLog = .silent, nn: NNCache? = nil) {
        self.registry = registry; self.jobs = jobs; self.progress = progress; self.nn = nn
    }
}
