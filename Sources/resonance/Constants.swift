import ArgumentParser
import ResonanceLab

/// `resonance constants`: the engine constants registry.
struct Constants: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Inspect the versioned engine constants.",
        subcommands: [Show.self]
    )

    /// `resonance constants show [--engine NAME]`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the constants in force as JSON (the defaults, or --constants FILE validated).",
            discussion: "The output has the shape --constants accepts; edit a copy and pass it back to tune an engine."
        )

        @OptionGroup var global: GlobalOptions

        @Option(help: ArgumentHelp("Only this engine (\(ConstantsRegistry.specs.map(\.name).joined(separator: ", "))).", valueName: "name"))
        var engine: String?

        func validate() throws {
            try global.reject(jobs: true, verify: true, command: "constants show")
            if let engine, ConstantsRegistry.spec(engine) == nil {
                throw ValidationError("unknown engine '\(engine)' (known: \(ConstantsRegistry.specs.map(\.name).joined(separator: ", ")))")
            }
        }

        /// The registry JSON with its provenance (`constants_version`, `constants_digest` of
        /// the whole registry) beside `engines`; loading ignores those two keys.
        func run() throws {
            let registry = try global.registry()
            guard case var .object(fields) = registry.json(engine: engine),
                  case let .object(provenance) = registry.provenance else { return }
            fields.merge(provenance) { current, _ in current }
            print(JSONValue.object(fields).render(), terminator: "")
        }
    }
}
