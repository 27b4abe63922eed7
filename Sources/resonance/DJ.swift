import ArgumentParser
import Foundation
import ResonanceLab

/// `resonance dj …`: the AI DJ's decision loop, simulated in closed loop.
struct DJ: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dj",
        abstract: "Judge the AI DJ's decisions (state, need, ranking, transitions) against listeners' hearts.",
        subcommands: [DJReplayCommand.self, DJSimulate.self, DJOPECommand.self, DJStateCommand.self]
    )
}

/// `resonance dj simulate --out WS`.
struct DJSimulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Closed-loop simulation: persona listeners hear what each policy picks.",
        discussion: """
            Every policy (dj, random, most_played, learned_effect, oracle) lives the same \
            simulated days of the same listeners (the ten persona profiles × --replicas) in \
            each seed, and every policy also picks at the random policy's decisions (the \
            shared decision points, scored like for like). --world chooses how song features \
            relate to effects. Writes dj_simulation.csv (per seed, scoring, policy and need), \
            dj_learning_curve.csv (regret by day), dj_simulation_summary.csv (means with 95 % \
            intervals over seeds, paired differences between policies, regret slopes), truth.csv \
            (planted song effects and features) and song_features.csv. The same arguments \
            give byte-identical files for any --jobs. Ranking and state constants are the \
            `ranking` and `state` engines (`resonance constants show`).
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Workspace folder to write (created if missing).", valueName: "dir"))
    var out: String

    @Option(help: "First seed (unsigned 64-bit); seeds run seed, seed + 1, … (default 0).")
    var seed: UInt64 = 0

    @Option(help: "Number of seeds, each a new world, 1–1000 (default 5; intervals need ≥ 2).")
    var seeds: Int = 5

    @Option(help: "Listeners per persona profile in each seed, 1–1000 (default 3; 100 gives 1,000 listeners).")
    var replicas: Int = 3

    @Option(help: "Simulated days per listener, 1–366 (default 14).")
    var days: Int = 14

    @Option(help: "Catalogue songs per seed, 10–100000 (default 300).")
    var songs: Int = 300

    @Option(help: "Largest library per listener in songs, 5–10000 (default 120).")
    var libraryCap: Int = 120

    @Option(help: "Songs per listening session, 1–100 (default 6).")
    var songsPerSession: Int = 6

    @Option(help: "Correlation of a song's planted calmness with its BPM and energy, 0–1 (default 0.5; 0 = features say nothing).")
    var featureRelation: Double = 0.5

    @Option(help: "How song features relate to effects: planted, genre, nonlinear, taste or none (default planted; docs/dj.md, Worlds).")
    var world: String = "planted"

    @Option(help: "State calculation: specification or reference (default specification).")
    var stateVariant: String = "specification"

    @Flag(help: """
        Also run the logging behaviour policy (a softmax of the DJ's scores, temperature `ope` behaviour_temperature)         and write dj_propensity_log.csv and dj_ope_truth.csv (default off; the other tables are unchanged).
        """)
    var logPropensities = false

    func validate() throws {
        try global.reject(verify: true, command: "dj simulate")
        guard (1...1000).contains(seeds) else { throw ValidationError("--seeds must be between 1 and 1000.") }
        guard (1...1000).contains(replicas) else { throw ValidationError("--replicas must be between 1 and 1000.") }
        guard (1...366).contains(days) else { throw ValidationError("--days must be between 1 and 366.") }
        guard (10...100_000).contains(songs) else { throw ValidationError("--songs must be between 10 and 100000.") }
        guard (5...10_000).contains(libraryCap) else { throw ValidationError("--library-cap must be between 5 and 10000.") }
        guard (1...100).contains(songsPerSession) else { throw ValidationError("--songs-per-session must be between 1 and 100.") }
        guard (0...1).contains(featureRelation) else { throw ValidationError("--feature-relation must be between 0 and 1.") }
        guard StateVariant(rawValue: stateVariant) != nil else {
            throw ValidationError("--state-variant must be one of: \(StateVariant.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        guard DJWorld(rawValue: world) != nil else {
            throw ValidationError("--world must be one of: \(DJWorld.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
    }

    func run() throws {
        var o = DJSimulationOptions()
        o.world = DJWorld(rawValue: world) ?? .planted
        o.seed = seed; o.seeds = seeds; o.replicas = replicas; o.days = days; o.songs = songs; o.libraryCap = libraryCap
        o.songsPerSession = songsPerSession; o.featureRelation = featureRelation
        o.variant = StateVariant(rawValue: stateVariant) ?? .specification
        o.logPropensities = logPropensities
        try DJSimulateStage(options: o).runCommitted(Workspace(path: out), try global.context())
    }
}

/// `resonance dj ope WS`.
struct DJOPECommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ope",
        abstract: "Estimate each policy's one-step value from a propensity log alone (off-policy evaluation).",
        discussion: """
            Reads dj_propensity_log.csv (`resonance dj simulate --log-propensities`) and writes \
            dj_ope.csv: per target policy (dj, random, most_played, learned_effect, oracle) and \
            estimator (ips, snips, dr), its mean reward per logged decision (bpm of need \
            fulfilment) with a 95 % bootstrap interval over listeners, the decisions matched, \
            the weights clipped and the effective sample size. A one-step value: what the \
            policy would earn at the logged decisions, not what it would earn in its own \
            closed loop. Constants: the `ope` engine (`resonance constants show --engine ope`).
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Workspace folder holding dj_propensity_log.csv.", valueName: "workspace"))
    var workspace: String

    func validate() throws {
        try WorkspaceFolder.requireExisting(workspace)
    }

    func run() throws {
        try DJOPEStage().runCommitted(Workspace(path: workspace), try global.context())
    }
}

/// `resonance dj replay WS`.
struct DJReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay the DJ's decision at every logged play, from what was known before it.",
        discussion: """
            Reads session_plays.csv (run `resonance sessions` first), plays.csv, hr.csv, \
            hrv_samples.csv, workouts.csv and song_features.csv when present; writes \
            dj_decisions.csv (state, need, rank of the played song, the DJ's top pick, every \
            score component), dj_replay_summary.csv (top-1/5/10 hit rates and the \
            direct-method value estimate, per need) and dj_receipts.csv (the DJ's pick at each \
            play with its three strongest score terms). Effects are learned from earlier plays \
            of kept sessions only, as the `ema` model learns them; candidates are \
            earlier-played songs (of the play's playlist when it has one) and the song played; \
            hit rates are given with and without the played song added. Reads subjects.csv, \
            when present, for each listener's age. Contexts and the usual energy's hours use the \
            listener's local time: each play's utc_offset_min, else --tz, else UTC (as sessions).
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Workspace folder.", valueName: "workspace"))
    var workspace: String

    @Option(help: "State calculation: specification or reference (default specification).")
    var stateVariant: String = "specification"

    @Option(help: ArgumentHelp(
        "IANA time zone of the listener for plays whose export carries no UTC offset, the zone given to `sessions` (default: UTC).",
        valueName: "zone"))
    var tz: String?

    func validate() throws {
        try WorkspaceFolder.requireExisting(workspace)
        if let tz, TimeZone(identifier: tz) == nil {
            throw ValidationError("--tz: unknown IANA time zone '\(tz)'.")
        }
        guard StateVariant(rawValue: stateVariant) != nil else {
            throw ValidationError("--state-variant must be one of: \(StateVariant.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
    }

    func run() throws {
        try DJReplayStage(variant: StateVariant(rawValue: stateVariant) ?? .specification, timeZone: tz.flatMap(TimeZone.init(identifier:)))
            .runCommitted(Workspace(path: workspace), try global.context())
    }
}

/// `resonance dj state WS`.
struct DJStateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Judge the 30-s state engine against the workspace's stress labels.",
        discussion: """
            At every 30-s tick inside a `stress` or `baseline` interval of labels.csv, the \
            state from the HR (hr.csv) and the SDNN of the beats (rr.csv) or hrv_samples.csv \
            before it, with the fallback baselines (resting HR 60 bpm, SDNN 50 ms, age 30). \
            Writes dj_state_auc.csv: ROC AUC of the state's stress and arousal, of the \
            reference variant's, and of the raw HR, pooled and as the per-subject median, \
            with 95 % intervals (subjects resampled).
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Workspace folder.", valueName: "workspace"))
    var workspace: String

    func validate() throws {
        try WorkspaceFolder.requireExisting(workspace)
    }

    func run() throws {
        try DJStateStage().runCommitted(Workspace(path: workspace), try global.context())
    }
}
