import ArgumentParser
import Foundation
import ResonanceLab

/// `resonance breathing …`: resonance-frequency assessment and the adaptive pacer.
extension BreathingWorld: ExpressibleByArgument {}

struct Breathing: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Resonance-frequency assessment from paced trials, and the adaptive pacer simulated closed loop.",
        subcommands: [BreathingPaced.self, BreathingAssess.self, BreathingSimulate.self]
    )
}

/// `resonance breathing paced WS --from FILE`.
struct BreathingPaced: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paced",
        abstract: "Write breathing.csv from a CSV of paced-breathing intervals.",
        discussion: """
            FILE has the header subject,started_at,ended_at,rate_bpm,source: ISO 8601 times \
            (empty started_at/ended_at reach to the start/end of the recording, so one row with \
            both empty gives a whole recording one rate), the paced rate in breaths per minute \
            (1–30) and where it comes from. It replaces the workspace's breathing.csv; a bad row \
            stops it with the file, line and column.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Workspace folder (writes breathing.csv).", valueName: "workspace"))
    var workspace: String

    @Option(help: ArgumentHelp("CSV of paced intervals.", valueName: "file"))
    var from: String

    func validate() throws {
        try WorkspaceFolder.requireExisting(workspace)
        try global.reject(constants: true, jobs: true, verify: true, command: "breathing paced")
    }

    func run() throws {
        try PacedIntervalsStage(path: from).runCommitted(Workspace(path: workspace), try global.context())
    }
}

/// `resonance breathing assess WS`.
struct BreathingAssess: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assess",
        abstract: "Score each paced trial of breathing.csv and pick the resonance rate per criterion.",
        discussion: """
            For each subject with rows in breathing.csv and R-R in rr.csv, each paced interval \
            (after its first pacer.settle_seconds) gets LF power, LF peak frequency and density, \
            HR peak-to-trough, both coherence scores at the paced rate, RMSSD and beats \
            (breathing_assessment.csv); breathing_resonance.csv gives the rate each criterion \
            (peak_to_trough, lf_power, lf_peak, combined) picks, its margin over the runner-up \
            and whether it is the lowest or highest rate tried.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Workspace folder (reads rr.csv and breathing.csv).", valueName: "workspace"))
    var workspace: String

    @Option(help: "Artifact detection for RR: lipponen, malik or none.")
    var artifacts: ArtifactMethod = .lipponen

    func validate() throws {
        try WorkspaceFolder.requireExisting(workspace)
    }

    func run() throws {
        try AssessmentStage(artifactMethod: artifacts).runCommitted(Workspace(path: workspace), try global.context())
    }
}

/// `resonance breathing simulate --out WS`.
struct BreathingSimulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run the adaptive pacer closed loop on simulated people with planted resonance rates.",
        discussion: """
            Each persona gets, per seed, a planted resonance rate (uniform 4.5–7/min) and a \
            Gaussian resonance curve of HR oscillation amplitude; --world adds a difficulty of \
            real breathing (docs/methods.md, Breathing). Every strategy (hill, sweep, \
            amplitude, robust) runs on the same people and the same noise. Writes \
            breathing_sim_sessions.csv, breathing_sim_summary.csv (means with 95 % bootstrap \
            intervals over seeds), breathing_sim_wins.csv (per metric the best strategy against \
            the runner-up, with the interval of the difference over seeds), \
            breathing_sim_trace.csv (first seed, every second), \
            breathing_sim_records.csv (each session's summary as the product stores it, beside \
            what its fields promise) and receipts.csv (each lock with the exploration's best dwells). The \
            same arguments give byte-identical files for any --jobs.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Workspace folder to write (created if missing).", valueName: "dir"))
    var out: String

    @Option(help: "Number of seeds (1–10000); sessions = seeds × personas per strategy. Default: 20.")
    var seeds: Int = 20

    @Option(help: "First seed. Default: 0.")
    var firstSeed: Int = 0

    @Option(help: ArgumentHelp("Comma-separated strategies: hill, sweep, amplitude, robust. Default: all four.", valueName: "names"))
    var strategies: String = PacerStrategy.allCases.map(\.rawValue).joined(separator: ",")

    @Option(help: ArgumentHelp("The simulated people's difficulty: standard (none), transient (20 s build-up after each rate "
                               + "change), adherence (breathing wanders around the pacer, SD 0.3/min), phase_lag (HR lags "
                               + "breathing by a rate-dependent phase), skewed, flat, double_peak (resonance curve shapes), "
                               + "drift_ectopic (slow 3 bpm drift, 0.5 ectopic beats/min), outside (resonance uniform in "
                               + "3.5–8/min) or all. Default: standard.", valueName: "name"))
    var world: BreathingWorld = .standard

    @Option(help: ArgumentHelp("'all' or a comma-separated list of persona names, e.g. NewMom,CardiacRehab. Default: all.",
                               valueName: "names"))
    var personas: String = "all"

    func validate() throws {
        try global.reject(verify: true, command: "breathing simulate")
        guard (1...10_000).contains(seeds) else { throw ValidationError("--seeds must be between 1 and 10000, got \(seeds).") }
        guard firstSeed >= 0 else { throw ValidationError("--first-seed must be 0 or more, got \(firstSeed).") }
        _ = try chosen()
        _ = try profiles()
    }

    func profiles() throws -> [PersonaProfile] {
        guard personas != "all" else { return PersonaProfile.all }
        var out: [PersonaProfile] = []
        for name in personas.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !out.contains(where: { $0.name == name }) {
            guard let p = PersonaProfile.named(name) else {
                throw ValidationError("--personas: unknown persona '\(name)' (known: \(PersonaProfile.all.map(\.name).joined(separator: ", "))).")
            }
            out.append(p)
        }
        guard !out.isEmpty else { throw ValidationError("--personas: no persona named.") }
        return out
    }

    func chosen() throws -> [PacerStrategy] {
        let names = strategies.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let out = try names.map { name -> PacerStrategy in
            guard let s = PacerStrategy(rawValue: name) else {
                throw ValidationError("--strategies: unknown strategy '\(name)' (known: \(PacerStrategy.allCases.map(\.rawValue).joined(separator: ", "))).")
            }
            return s
        }
        guard !out.isEmpty else { throw ValidationError("--strategies: no strategy named.") }
        return out
    }

    func run() throws {
        let simulation = BreathingSimulation(personas: try profiles(), seeds: seeds, firstSeed: firstSeed, strategies: try chosen(),
                                             world: world)
        try SimulationStage(simulation: simulation).runCommitted(Workspace(path: out), try global.context())
    }
}
