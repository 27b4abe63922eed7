import ArgumentParser
import Foundation
import ResonanceLab

/// `resonance sessions WS`: listening sessions and per-play physiology.
struct Sessions: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Reconstruct listening sessions and measure each play's HR and HRV.",
        discussion: """
            Contexts and time slots use the listener's local time: each play's utc_offset_min, else \
            --tz, else UTC. \
            Reads plays.csv, hr.csv, rr.csv, hrv_samples.csv, sleep.csv and workouts.csv of the \
            workspace (absent tables read as empty) and writes sessions.csv and session_plays.csv. \
            Gap, minimum session, windows and thresholds are the `sessions` engine constants \
            (see `resonance constants show --engine sessions`).
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Workspace folder.", valueName: "workspace"))
    var workspace: String

    @Option(help: ArgumentHelp(
        "IANA time zone of the listener for plays whose export carries no UTC offset, e.g. America/Los_Angeles (default: UTC).",
        valueName: "zone"))
    var tz: String?

    func validate() throws {
        try WorkspaceFolder.requireExisting(workspace)
        if let tz, TimeZone(identifier: tz) == nil {
            throw ValidationError("--tz: unknown IANA time zone '\(tz)'.")
        }
    }

    func run() throws {
        try SessionsStage(timeZone: tz.flatMap(TimeZone.init(identifier:))).runCommitted(Workspace(path: workspace), try global.context())
    }
}
