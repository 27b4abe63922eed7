import ArgumentParser
import Foundation
import ResonanceLab

@main
struct Resonance: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resonance",
        abstract: "Batch analytics for heart rate, R-R intervals and music listening.",
        discussion: """
            Each stage reads a workspace folder and writes its outputs into it, in this order:
              \(Pipeline.order.joined(separator: " → "))
            `resonance run` runs them all; `resonance lineage` shows how each table was made. Progress goes to stderr (when it is a terminal, or \
            with --progress), data to files; errors are one line `error: …` on stderr, and the \
            exit code is 0 only on success.
            """,
        version: ResonanceLabInfo.version,
        subcommands: [
            Run.self,
            Import.self,
            Waveforms.self,
            Beats.self,
            HRV.self,
            CoherenceCommand.self,
            Breathing.self,
            Sessions.self,
            Effects.self,
            Daily.self,
            Validate.self,
            LineageCommand.self,
            Shard.self,
            Merge.self,
            Tune.self,
            Constants.self,
            Personas.self,
            DJ.self,
            ExportNotebook.self,
        ]
    )

    /// Every failure, whether a bad argument or a bad input, is one line on stderr
    /// (`error: …`) and a non-zero exit code; help and version go to stdout.
    static func main() {
        Allocator.tuneForBatchWork()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            // Files that failed to import (the rest is in the workspace): exit code 3.
            let code = error is ImportFailures ? ExitCode(3) : exitCode(for: error)
            if code == .success { exit(withError: error) }
            if !(error is ExitCode) {
                let text = message(for: error).split(whereSeparator: \.isNewline).joined(separator: " ")
                FileHandle.standardError.write(Data("error: \(text)\n".utf8))
            }
            Foundation.exit(code.rawValue)
        }
    }
}
