import ArgumentParser
import Foundation
import ResonanceLab

/// `resonance validate WS --report-dir DIR`: the validation report of a workspace.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the validation report (validation.md, validation.json) of a workspace.",
        discussion: """
            Sections: the data inventory (subjects, time spans, rows accepted and rejected per \
            file with the top rejection reasons, gaps longer than 5 min, label coverage), then \
            each stage's checks. The same workspace gives byte-identical reports.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Workspace folder (from `resonance import`).", valueName: "workspace"))
    var workspace: String

    @Option(help: ArgumentHelp("Report folder to write validation.md and validation.json into (created if missing).",
                               valueName: "dir"))
    var reportDir: String

    func validate() throws {
        try WorkspaceFolder.requireExisting(workspace)
    }

    func run() throws {
        try ValidateStage(reportDir: reportDir).run(Workspace(path: workspace), try global.context())
    }
}
