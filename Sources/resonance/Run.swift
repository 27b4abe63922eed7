import ArgumentParser
import Foundation
import ResonanceLab

/// `resonance run SOURCE... --out WS`: import, then every stage in pipeline order.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import raw exports and run every stage: the whole pipeline in one command.",
        discussion: """
            Runs import → beats → hrv → coherence → sessions → effects → daily, then validate when \
            --report-dir is given, each with its default settings and the constants in force. \
            At the end (on stderr, unless --quiet) it says what the workspace can answer: for \
            HRV, coherence, stress scoring, sessions with physiology, song and listener effects \
            and the daily heart-coach engines, whether the data support it and, if not, why \
            (the report's first section says the same; docs/workspace.md). \
            The outputs are byte-identical to running the commands one by one; each stage \
            reads its tables one subject at a time, and hrv and coherence read each subject's \
            R-R once for both. With --workspace \
            instead of sources, the stages after import run on an existing workspace (e.g. one \
            from `resonance personas generate`); of the import options only --tz applies there, \
            as the listeners' zone for sessions.

            --stages runs only the named stages (still in pipeline order), e.g. the per-subject \
            stages on each shard of a split (`resonance shard`): --stages beats,hrv,coherence,sessions,daily, \
            then --stages effects on the merged workspace (docs/sharding.md).
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Files or dataset folders to import.", valueName: "source"))
    var sources: [String] = []

    @Option(help: ArgumentHelp("Workspace folder to write (created if missing).", valueName: "dir"))
    var out: String?

    @Option(name: [.customShort("w"), .long],
            help: ArgumentHelp("Existing workspace to run the stages after import on (instead of sources and --out).",
                               valueName: "dir"))
    var workspace: String?

    @Option(help: ArgumentHelp("Report folder for validation.md and validation.json; without it, validate is skipped.",
                               valueName: "dir"))
    var reportDir: String?

    @Option(help: ArgumentHelp("Stages to run after import, comma-separated, in pipeline order whatever the order given: "
                               + "\(Run.stageNames.joined(separator: ", ")) (validate needs --report-dir). Default: all.",
                               valueName: "list"))
    var stages: String?

    @Flag(help: "Also write hrv_nn.csv and hrv_psd.csv (cleaned NN series, whole-recording PSD) for the notebooks.")
    var figureTables = false

    @OptionGroup var reading: ImportArguments

    func validate() throws {
        if let workspace {
            guard sources.isEmpty, out == nil else {
                throw ValidationError("give either sources with --out, or --workspace, not both.")
            }
            try WorkspaceFolder.requireExisting(workspace)
        } else {
            guard !sources.isEmpty, out != nil else { throw ValidationError("give sources with --out, or --workspace.") }
        }
        if let names = selectedStages {
            if let unknown = names.first(where: { !Run.stageNames.contains($0) }) {
                throw ValidationError("--stages: unknown stage '\(unknown)' (stages: \(Run.stageNames.joined(separator: ", "))).")
            }
            if names.contains("validate"), reportDir == nil {
                throw ValidationError("--stages: validate needs --report-dir.")
            }
            if !names.contains("validate"), reportDir != nil {
                throw ValidationError("--report-dir: only validate writes a report, and --stages leaves it out.")
            }
        }
    }

    /// Every stage after import, in pipeline order.
    static let stageNames = Pipeline.stages(reportDir: "").map(\.name)

    /// The names given with --stages; nil when all run.
    var selectedStages: Set<String>? {
        stages.map { Set($0.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }) }
    }

    func run() throws {
        let path = workspace ?? out ?? ""
        var stages = Pipeline.stages(reportDir: reportDir, timeZone: reading.tz.flatMap(TimeZone.init(identifier:)),
                                     figureTables: figureTables ? Workspace(path: path) : nil)
        if let names = selectedStages { stages.removeAll { !names.contains($0.name) } }
        if workspace == nil {
            stages.insert(reading.stage(sources: sources, quiet: global.quiet), at: 0)
        }
        try Pipeline.run(stages, on: Workspace(path: path), context: try global.context())
        // What the data can answer, from the tables just written: the report's first section says the same.
        if !global.quiet {
            let ws = try global.open(path, reads: WorkspaceAnswers.reads)
            let answers = try WorkspaceAnswers.of(ws, registry: try global.registry())
            FileHandle.standardError.write(Data(answers.stderrText.utf8))
        }
    }
}
