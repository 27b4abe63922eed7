import ArgumentParser
import Foundation
import ResonanceLab

/// `resonance validate WS --out DIR`: the validation report of a workspace.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the validation report (validation.md, validation.json) of a workspace.",
        discussion: """
            Sections: the data inventory (subjects, time spans, rows accepted and rejected per \
            file with the top rejection reasons, gaps longer than 5 min, label coverage), then \
            each stage's checks. On a workspace whose labels.csv has `stress` and `baseline` \
            intervals, the stress section scores windows with the stress engine (of --constants \
            when given) and reports ROC AUC, Cohen's d of HR and HRV, the `elevated` level's \
            balanced accuracy and a per-task heart-rate test, with subject-level bootstrap CIs. \
            The same workspace gives byte-identical reports.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Workspace folder (from `resonance import`).", valueName: "workspace"))
    var workspace: String

    @Option(help: ArgumentHelp("Folder for validation.md and validation.json.", valueName: "dir"))
    var out: String

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
        let ws = Workspace(path: workspace)
        let name = ((workspace as NSString).standardizingPath as NSString).lastPathComponent
        try CommandError.oneLine {
            let registry = try global.registry()
            let analyses = ValidationReport.standardAnalyses(registry: registry, stress: stressOptions, jobs: global.jobs)
            let report = try ValidationReport.build(workspace: ws, name: name, analyses: analyses, registry: registry)
            try AtomicFile.write(report.markdown, to: (out as NSString).appendingPathComponent("validation.md"))
            try AtomicFile.write(report.json, to: (out as NSString).appendingPathComponent("validation.json"))
        }
        global.progress("wrote \(out)/validation.md and validation.json")
    }
}
