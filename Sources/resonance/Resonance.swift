import ArgumentParser
import ResonanceLab

@main
struct Resonance: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resonance",
        abstract: "Batch analytics for heart rate, R-R intervals and music listening.",
        discussion: """
            Each stage reads a workspace folder and writes its outputs into it:
              import → hrv / coherence → sessions → effects → validate
            Progress goes to stderr, data to files; the exit code is 0 only on success.
            """,
        version: ResonanceLabInfo.version,
        subcommands: [
            Import.self,
            HRV.self,
            CoherenceCommand.self,
            Sessions.self,
            Effects.self,
            Validate.self,
            Tune.self,
            Constants.self,
            Personas.self,
            ExportNotebook.self,
        ]
    )
}
