import ArgumentParser
import Foundation
import ResonanceLab

/// `resonance validate WS --report-dir DIR`: the validation report of a workspace.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the validation report (validation.md, validation.json) of a workspace.",
        discussion: """
            Sections: what the workspace can answer (each analysis answered or not, and why not: \
            the assessment `resonance run` prints at its end), the data inventory (subjects, time \
            spans, rows accepted and rejected per file with the top rejection reasons, gaps longer \
            than 5 min, label coverage), each stage's results, and last the tables' lineage. On a workspace whose labels.csv has `stress` and `baseline` \
            intervals, the stress section scores windows with the stress engine (of --constants \
            when given) and reports ROC AUC, Cohen's d of HR and HRV, the `elevated` level's \
            balanced accuracy and a per-task heart-rate test, with subject-level bootstrap CIs; \
            then one protocol on one window set: the engine's window methods, naive heart-rate \
            scores and the AI DJ's state, Stroop + interview primary, the method choice and a \
            learned reference by nested leave-one-subject-out. \
            The same workspace gives byte-identical reports.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Workspace folder (from `resonance import`).", valueName: "workspace"))
    var workspace: String

    @Option(help: ArgumentHelp("Report folder to write validation.md and validation.json into (created if missing).",
                               valueName: "dir"))
    var reportDir: String

    @Option(help: ArgumentHelp("Stress scoring window length, seconds.", valueName: "s"))
    var stressWindow: Double = 60

    @Option(help: ArgumentHelp("Stress scoring window step, seconds.", valueName: "s"))
    var stressStep: Double = 30

    func validate() throws {
        try WorkspaceFolder.requireExisting(workspace)
        guard stressWindow.isFinite, stressWindow >= 5, stressWindow <= 3600 else {
            throw ValidationError("--stress-window must be between 5 and 3600 seconds.")
        }
        guard stressStep.isFinite, stressStep >= 1, stressStep <= stressWindow else {
            throw ValidationError("--stress-step must be between 1 second and the window length.")
        }
    }

    var stressOptions: StressScoringOptions {
        var o = StressScoringOptions()
        o.windowSeconds = stressWindow
        o.stepSeconds = stressStep
        return o
    }

    func run() throws {
        try ValidateStage(reportDir: reportDir, stress: stressOptions).runCommitted(Workspace(path: workspace), try global.context())
    }
}
