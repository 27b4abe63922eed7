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
            each stage's checks. The same workspace gives byte-identical reports.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Workspace folder (from `resonance import`).", valueName: "workspace"))
    var workspace: String

    @Option(help: ArgumentHelp("Folder for validation.md and validation.json.", valueName: "dir"))
    var out: String

    func validate() throws {
        try WorkspaceFolder.requireExisting(workspace)
    }

    func run() throws {
        let ws = Workspace(path: workspace)
        let name = ((workspace as NSString).standardizingPath as NSString).lastPathComponent
        try CommandError.oneLine {
            let report = try ValidationReport.build(workspace: ws, name: name, analyses: ValidationReport.standardAnalyses)
            try AtomicFile.write(report.markdown, to: (out as NSString).appendingPathComponent("validation.md"))
            try AtomicFile.write(report.json, to: (out as NSString).appendingPathComponent("validation.json"))
        }
        global.progress("wrote \(out)/validation.md and validation.json")
    }
}
