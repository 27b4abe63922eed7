import ArgumentParser
import Foundation
import ResonanceLab

/// `resonance personas report WS --report-dir DIR`.
struct PersonasReport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write one Markdown report per persona and an index.",
        discussion: """
            Reads daily.csv (required), plays.csv, and hrv.csv, coherence.csv and truth.csv when \
            present. Each report shows the profile against the generated data, the daily stress, \
            readiness and trend series with the flags raised and their top drivers, heart-rate \
            zones, HRV, coherence and listening summaries. The engines are re-run with the \
            constants in force (--constants) to give the drivers; the report says when that \
            differs from daily.csv. Output is byte-identical between runs.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Persona workspace folder (from `resonance personas generate`).", valueName: "workspace"))
    var workspace: String

    @Option(help: ArgumentHelp("Report folder to write the reports into (created if missing), e.g. reports/personas.",
                               valueName: "dir"))
    var reportDir: String

    func validate() throws {
        try WorkspaceFolder.requireExisting(workspace)
    }

    func run() throws {
        let progress = global.reporter
        let paths = try PersonaReports.write(workspace: try global.open(workspace, reads: PersonaReportInputs.reads), to: reportDir,
                                             registry: try global.registry(), jobs: global.workers,
                                             progress: { progress.note($0) })
        progress.note("wrote \(paths.count - 1) persona reports and index.md to \(reportDir)")
    }
}
