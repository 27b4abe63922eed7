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
        let ws = Workspace(path: workspace)
        let (plays, out) = try CommandError.oneLine {
            let constants = SessionConstants(registry: try global.registry())
            global.progress("sessions: reading \(ws.path)")
            let plays = try ws.read(Play.self)
            let out = try SessionsStage.run(
                plays: plays, hr: try ws.read(HRSample.self), rr: try ws.read(RRInterval.self),
                sdnn: try ws.read(HRVSample.self), sleep: try ws.read(SleepEpisode.self),
                workouts: try ws.read(Workout.self), constants: constants,
                clock: LocalClock(zone: tz.flatMap(TimeZone.init(identifier:))), jobs: global.jobs)
            try ws.write(out.sessions)
            try ws.write(out.plays)
            return (plays, out)
        }
        let c = out.cleaning
        global.progress("sessions: \(plays.count) plays → \(out.plays.count) kept (\(c.zeroDuration) zero-duration dropped, "
            + "\(c.mergedDuplicates) duplicates merged, \(c.endBeforeStart) ends before start ignored); "
            + "\(out.sessions.count) sessions, \(out.droppedShortSessions) shorter than the minimum dropped")
    }
}
