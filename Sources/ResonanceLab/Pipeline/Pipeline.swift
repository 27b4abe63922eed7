import Foundation

/// The pipeline order, in one place: import, then each stage reading what the
/// earlier ones wrote. `resonance run` executes it; `make validate` calls `run`.
public enum Pipeline {
    /// Every stage after import, in order, with its default settings (the constants in
    /// force decide the rest). `timeZone` is the listener's for sessions (plays without a UTC
    /// offset); `reportDir` adds `validate` at the end.
    /// `figureTables` has hrv also write `hrv_nn.csv` and `hrv_psd.csv` into `ws` (the
    /// notebooks' inputs), as `make validate` does.
    public static func stages(reportDir: String?, datasetName: String? = nil, timeZone: TimeZone? = nil,
                              figureTables ws: Workspace? = nil) -> [any Stage] {
        var stages: [any Stage] = [BeatsStage(), ws.map(HRVStage.withFigureTables) ?? HRVStage(), CoherenceStage(), SessionsStage(timeZone: timeZone), EffectsStage(), DailyStage(timeZone: timeZone)]
        if let reportDir { stages.append(ValidateStage(reportDir: reportDir, datasetName: datasetName)) }
        return stages
    }

    /// The stages that need no other subject's rows, so that each shard of a split runs
    /// them alone (docs/sharding.md), from each stage's declaration (`Stage.perSubject`);
    /// the others (effects, validate) need all subjects.
    public static var perSubject: Set<String> {
        Set(stages(reportDir: "").filter(\.perSubject).map(\.name))
    }

    /// The command names in pipeline order, import first and validate last.
    public static var order: [String] {
        ["import"] + stages(reportDir: "").map(\.name)
    }

    /// Runs `stages` in order on `ws`, each committed on its own (`Stage.runCommitted`);
    /// hrv and a windowed coherence right after it read each subject's R-R once for both
    /// (`HRVCoherencePass`).
    public static func run(_ stages: [any Stage], on ws: Workspace, context: StageContext) throws {
        var next = 0
        while next < stages.count {
            let stage = stages[next]
            if next + 1 < stages.count, let pass = HRVCoherencePass(stage, stages[next + 1], registry: context.registry) {
                context.progress.note("== \(stage.name) + \(stages[next + 1].name) (R-R read once for both)")
                try pass.runCommitted(ws, context)
                next += 2
                continue
            }
            context.progress.note("== \(stage.name)")
            try stage.runCommitted(ws, context)
            next += 1
        }
    }
}
