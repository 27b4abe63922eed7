import ArgumentParser
import ResonanceLab

/// `resonance sessions WS`: listening sessions and per-play physiology.
struct Sessions: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Reconstruct listening sessions and measure each play's HR and HRV.",
        discussion: """
            Reads plays.csv, hr.csv, rr.csv, hrv_samples.csv, sleep.csv and workouts.csv of the \
            workspace (absent tables read as empty) and writes sessions.csv and session_plays.csv. \
            Gap, minimum session, windows and thresholds are the `sessions` engine constants \
            (see `resonance constants show --engine sessions`).
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Workspace folder.", valueName: "workspace"))
    var workspace: String

    func validate() throws {
        try WorkspaceFolder.requireExisting(workspace)
    }

    func run() throws {
        try SessionsStage().run(Workspace(path: workspace), try global.context())
    }
}
