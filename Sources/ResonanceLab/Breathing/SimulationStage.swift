import Foundation

/// One row of `breathing_sim_sessions.csv`: one strategy's session on one simulated person.
public struct SimulatedSessionRow: Sendable, Equatable {
    public var seed: Int
    public var persona: String
    public var strategy: String
    /// The planted resonance rate, breaths/min (the pacer never sees it).
    public var plantedRateBpm: Double
    public var lockedRateBpm: Double
    /// The locked rate's distance to the nearest rate of peak amplitude, breaths/min:
    /// locked − planted, 0 on a flat curve's plateau (`ResonanceWorld.error(locked:)`).
    public var errorBpm: Double
    /// s from the session start.
    public var lockSeconds: Double
    /// Mean product coherence over the locked part.
    public var coherenceReached: Double
    /// HR oscillation amplitude at the locked rate over that at the planted rate.
    public var amplitudeShare: Double
    /// The product's session record: its `peakCoherence` is the session's last score.
    public var recordedPeakCoherence: Double
    /// The session's highest score, what that name promises.
    public var maxCoherence: Double
}

extension SimulatedSessionRow: CanonicalRow {
    public static let fileName = "breathing_sim_sessions.csv"
    public static let header = ["seed", "persona", "strategy", "planted_rate_bpm", "locked_rate_bpm", "error_bpm",
                                "lock_s", "coherence_reached", "amplitude_share", "recorded_peak_coherence", "max_coherence"]

    public func write(to w: CSVWriter) {
        w.field(seed); w.field(persona); w.field(strategy); w.field(plantedRateBpm); w.field(lockedRateBpm)
        w.field(errorBpm); w.field(lockSeconds); w.field(coherenceReached); w.field(amplitudeShare)
        w.field(recordedPeakCoherence); w.field(maxCoherence)
    }

    public init(_ r: CanonicalFieldReader) throws {
        self.init(seed: try r.count("seed"), persona: try r.string("persona"), strategy: try r.string("strategy"),
                  plantedRateBpm: try r.double("planted_rate_bpm"), lockedRateBpm: try r.double("locked_rate_bpm"),
                  errorBpm: try r.double("error_bpm"), lockSeconds: try r.double("lock_s"),
                  coherenceReached: try r.doubleOrNaN("coherence_reached"), amplitudeShare: try r.double("amplitude_share"),
                  recordedPeakCoherence: try r.double("recorded_peak_coherence"), maxCoherence: try r.double("max_coherence"))
    }
}

/// One row of `breathing_sim_summary.csv`: a strategy's metric over all sessions, the
/// mean with a 95 % percentile-bootstrap interval over seeds (each seed's mean over personas).
public struct SimulationSummaryRow: Sendable, Equatable {
    public var strategy: String
    /// `error_bpm`, `abs_error_bpm`, `within_0_5` (share locked within ±0.5/min),
    /// `lock_s`, `coherence_reached`, `amplitude_share`, `recorded_peak_coherence`, `max_coherence`.
    public var metric: String
    public var sessions: Int
    public var seeds: Int
    public var mean: Double
    public var ciLow: Double
    public var ciHigh: Double
}

extension SimulationSummaryRow: CanonicalRow {
    public static let fileName = "breathing_sim_summary.csv"
    public static let header = ["strategy", "metric", "sessions", "seeds", "mean", "ci_low", "ci_high"]

    public func write(to w: CSVWriter) {
        w.field(strategy); w.field(metric); w.field(sessions); w.field(seeds); w.field(mean); w.field(ciLow); w.field(ciHigh)
    }

    public init(_ r: CanonicalFieldReader) throws {
        self.init(strategy: try r.string("strategy"), metric: try r.string("metric"), sessions: try r.count("sessions"),
                  seeds: try r.count("seeds"), mean: try r.doubleOrNaN("mean"), ciLow: try r.doubleOrNaN("ci_low"),
                  ciHigh: try r.doubleOrNaN("ci_high"))
    }
}

/// One row of `breathing_sim_wins.csv`: on one judged metric, the best strategy against
/// the runner-up (`BreathingSimulation.wins`).
public struct SimulationWinRow: Sendable, Equatable {
    /// `abs_error_bpm`, `within_0_5`, `lock_s`, `coherence_reached` or `amplitude_share`.
    public var metric: String
    public var best: String
    public var runnerUp: String
    /// Mean over seeds of best − runner-up, in the metric's unit.
    public var difference: Double
    public var ciLow: Double
    public var ciHigh: Double
    /// The interval excludes 0.
    public var wins: Bool
}

extension SimulationWinRow: CanonicalRow {
    public static let fileName = "breathing_sim_wins.csv"
    public static let header = ["metric", "best", "runner_up", "difference", "ci_low", "ci_high", "wins"]

    public func write(to w: CSVWriter) {
        w.field(metric); w.field(best); w.field(runnerUp); w.field(difference); w.field(ciLow); w.field(ciHigh)
        w.field(wins)
    }

    public init(_ r: CanonicalFieldReader) throws {
        self.init(metric: try r.string("metric"), best: try r.string("best"), runnerUp: try r.string("runner_up"),
                  difference: try r.doubleOrNaN("difference"), ciLow: try r.doubleOrNaN("ci_low"),
                  ciHigh: try r.doubleOrNaN("ci_high"), wins: try r.bool("wins"))
    }
}

/// One row of `breathing_sim_trace.csv`: the paced rate and coherence each second of
/// the first seed's sessions, for rate-against-time figures.
public struct SimulationTraceRow: Sendable, Equatable {
    public var persona: String
    public var strategy: String
    public var seconds: Double
    public var rateBpm: Double
    public var coherence: Double
}

extension SimulationTraceRow: CanonicalRow {
    public static let fileName = "breathing_sim_trace.csv"
    public static let header = ["persona", "strategy", "t_s", "rate_bpm", "coherence"]

    public func write(to w: CSVWriter) {
        w.field(persona); w.field(strategy); w.field(seconds); w.field(rateBpm); w.field(coherence)
    }

    public init(_ r: CanonicalFieldReader) throws {
        self.init(persona: try r.string("persona"), strategy: try r.string("strategy"), seconds: try r.double("t_s"),
                  rateBpm: try r.double("rate_bpm"), coherence: try r.double("coherence"))
    }
}

/// The closed-loop pacer simulation (docs/methods.md, Breathing, "Simulated pacer"):
/// every strategy on the same simulated people and the same noise, seeds `firstSeed`…
public struct BreathingSimulation: Sendable {
    public var personas: [PersonaProfile]
    public var seeds: Int
    public var firstSeed: Int
    public var strategies: [PacerStrategy]
    /// The simulated people's difficulties.
    public var world: BreathingWorld

    public init(personas: [PersonaProfile] = PersonaProfile.all, seeds: Int = 20, firstSeed: Int = 0,
                strategies: [PacerStrategy] = PacerStrategy.allCases, world: BreathingWorld = .standard) {
        self.personas = personas; self.seeds = seeds; self.firstSeed = firstSeed
        self.strategies = strategies; self.world = world
    }

    /// Sessions in (seed, persona, strategy) order, and the first seed's traces.
    public func run(registry: ConstantsRegistry, jobs: Int) throws -> ([SimulatedSessionRow], [SimulationTraceRow]) {
        let run = try runWithReceipts(registry: registry, jobs: jobs)
        return (run.sessions, run.trace)
    }

    /// The lock decision of one session as receipt rows: the locked rate, driven by the
    /// exploration's best dwells (rank 1 the highest score) — why the pacer locked there.
    static func receipts(_ s: SimulatedSession, seed: Int, persona: String, strategy: PacerStrategy) -> [ReceiptRow] {
        let head = ReceiptRow(engine: PacerConstants.spec.name, table: SimulatedSessionRow.fileName, subject: persona,
                              key: "\(seed)/\(strategy.rawValue)", decision: "lock", value: s.lockedRateBpm, confidence: nil)
        let best = s.dwells.indices.filter { s.dwells[$0].score.isFinite }
            .sorted { s.dwells[$0].score == s.dwells[$1].score ? $0 < $1 : s.dwells[$0].score > s.dwells[$1].score }
        guard !best.isEmpty else { return [head] }
        return best.prefix(ReceiptRow.driversPerDecision).enumerated().map { rank, i in
            var row = head
            row.rank = rank + 1
            row.factor = "dwell \(i + 1) at \(CSVWriter.format(s.dwells[i].rate))/min"
            row.rawValue = s.dwells[i].score
            row.unit = strategy == .amplitude || strategy == .robust ? "bpm peak-to-trough" : "coherence"
            row.comparedWith = "\(s.dwells.count) dwells"
            return row
        }
    }

    /// Everything one simulation writes: sessions, the first seed's traces, each lock's
    /// receipts and each session's record as the product stores it.
    public struct Outputs {
        public var sessions: [SimulatedSessionRow]
        public var trace: [SimulationTraceRow]
        public var receipts: [ReceiptRow]
        public var records: [SessionRecordRow]
    }

    /// `run`, with each session's lock receipts and record.
    public func runWithReceipts(registry: ConstantsRegistry, jobs: Int) throws -> Outputs {
        let worlds = (firstSeed..<(firstSeed + seeds)).flatMap { seed in personas.map { (seed, $0) } }
        let product = ProductCoherence(coherence: registry.coherence, pacer: registry.pacer)
        let results = try Parallel.map(worlds, jobs: jobs) { seed, persona -> Outputs in
            let world = ResonanceWorld.draw(persona, seed: UInt64(seed), assumptions: self.world.assumptions)
            let noise = Self.noiseSeed(persona, seed: seed)
            var rows: [SimulatedSessionRow] = [], trace: [SimulationTraceRow] = [], receipts: [ReceiptRow] = []
            var records: [SessionRecordRow] = []
            for strategy in strategies {
                let s = SimulatedSession.run(world, strategy: strategy, registry: registry, noise: noise)
                receipts += Self.receipts(s, seed: seed, persona: persona.name, strategy: strategy)
                records.append(SessionRecord.replay(s, world: world, seed: seed, strategy: strategy, product: product,
                                                    pacer: registry.pacer))
                rows.append(SimulatedSessionRow(seed: seed, persona: persona.name, strategy: strategy.rawValue,
                                                plantedRateBpm: world.plantedRateBpm, lockedRateBpm: s.lockedRateBpm,
                                                errorBpm: world.error(locked: s.lockedRateBpm), lockSeconds: s.lockSeconds,
                                                coherenceReached: s.coherenceReached,
                                                amplitudeShare: world.amplitude(at: s.lockedRateBpm) / world.peakAmplitudeBpm,
                                                recordedPeakCoherence: s.lastCoherence, maxCoherence: s.maxCoherence))
                if seed == firstSeed {
                    trace += s.trace.map { SimulationTraceRow(persona: persona.name, strategy: strategy.rawValue, seconds: $0.0,
                                                              rateBpm: $0.1, coherence: $0.2) }
                }
            }
            return Outputs(sessions: rows, trace: trace, receipts: receipts, records: records)
        }
        return Outputs(sessions: results.flatMap(\.sessions), trace: results.flatMap(\.trace),
                       receipts: results.flatMap(\.receipts), records: results.flatMap(\.records))
    }

    /// The lineage setting naming the world of a simulation's tables.
    public static let worldSetting = "world"

    /// The world a workspace's sessions were simulated in, from the lineage of
    /// `breathing_sim_sessions.csv` (the standard world when it names none).
    public static func world(of ws: Workspace) throws -> BreathingWorld {
        let manifest = ws.exists(Manifest.fileName) ? try Manifest.read(path: ws.file(Manifest.fileName)) : nil
        guard let text = manifest?.table(SimulatedSessionRow.fileName)?.lineage?.settings[worldSetting] else {
            return .standard
        }
        guard let world = BreathingWorld(rawValue: text) else {
            throw TuningError(message: "\(ws.file(SimulatedSessionRow.fileName)): unknown world '\(text)' in its lineage")
        }
        return world
    }

    /// The seed of the noise every strategy meets on `persona` for `seed`.
    public static func noiseSeed(_ persona: PersonaProfile, seed: Int) -> UInt64 {
        SeededRandom.djb2("breathing noise" + persona.name + String(persona.age)) ^ UInt64(seed) &* 0x9E37_79B9_7F4A_7C15
    }

    /// Per strategy and metric: the mean over sessions and the bootstrap interval of the
    /// per-seed means.
    static let metrics: [(String, (SimulatedSessionRow) -> Double)] = [
        ("error_bpm", \.errorBpm), ("abs_error_bpm", { abs($0.errorBpm) }),
        ("within_0_5", { abs($0.errorBpm) <= 0.5 + 1e-9 ? 1 : 0 }), ("lock_s", \.lockSeconds),
        ("coherence_reached", \.coherenceReached), ("amplitude_share", \.amplitudeShare),
        ("recorded_peak_coherence", \.recordedPeakCoherence), ("max_coherence", \.maxCoherence),
    ]

    /// The strategies of `rows` in order of first appearance.
    static func strategies(_ rows: [SimulatedSessionRow]) -> [String] {
        var out: [String] = []
        for r in rows where !out.contains(r.strategy) { out.append(r.strategy) }
        return out
    }

    /// Per seed in order, the mean of `value` over the sessions of `strategy`.
    static func perSeed(_ rows: [SimulatedSessionRow], strategy: String, _ value: (SimulatedSessionRow) -> Double) -> [Double] {
        Dictionary(grouping: rows.filter { $0.strategy == strategy }, by: \.seed).sorted { $0.key < $1.key }
            .map { Stats.mean($0.value.map(value)) }
    }

    public static func summary(_ rows: [SimulatedSessionRow]) -> [SimulationSummaryRow] {
        return strategies(rows).flatMap { strategy -> [SimulationSummaryRow] in
            let mine = rows.filter { $0.strategy == strategy }
            let bySeed = Dictionary(grouping: mine, by: \.seed).sorted { $0.key < $1.key }.map(\.value)
            return metrics.map { name, value in
                let perSeed = bySeed.map { Stats.mean($0.map(value)) }
                let (lo, hi) = GroupComparison.bootstrapMeanCI(perSeed)
                return SimulationSummaryRow(strategy: strategy, metric: name, sessions: mine.count, seeds: bySeed.count,
                                            mean: Stats.mean(mine.map(value)), ciLow: lo, ciHigh: hi)
            }
        }
    }

    /// The metrics a strategy can win on, and whether lower is better.
    static let judged: [(String, lowerIsBetter: Bool)] = [
        ("abs_error_bpm", true), ("within_0_5", false), ("lock_s", true), ("coherence_reached", false),
        ("amplitude_share", false),
    ]

    /// Per judged metric, the best strategy by its mean over sessions against the runner-up:
    /// the mean over seeds of the per-seed difference (best − runner-up, both on the same
    /// people and noise) with its 95 % percentile-bootstrap interval over seeds; the best
    /// wins when the interval excludes 0. Nothing with fewer than two strategies.
    public static func wins(_ rows: [SimulatedSessionRow]) -> [SimulationWinRow] {
        let names = strategies(rows)
        guard names.count > 1 else { return [] }
        return judged.compactMap { metric, lowerIsBetter -> SimulationWinRow? in
            guard let value = metrics.first(where: { $0.0 == metric })?.1 else { return nil }
            let means = names.map { name in Stats.mean(rows.filter { $0.strategy == name }.map(value)) }
            let order = names.indices.sorted { means[$0] == means[$1] ? $0 < $1 : (means[$0] < means[$1]) == lowerIsBetter }
            let best = names[order[0]], second = names[order[1]]
            let difference = zip(perSeed(rows, strategy: best, value), perSeed(rows, strategy: second, value)).map { $0 - $1 }
            let (lo, hi) = GroupComparison.bootstrapMeanCI(difference)
            return SimulationWinRow(metric: metric, best: best, runnerUp: second, difference: Stats.mean(difference),
                                    ciLow: lo, ciHigh: hi, wins: lo > 0 || hi < 0)
        }
    }
}

/// `resonance breathing simulate`: the closed-loop pacer simulation →
/// `breathing_sim_sessions.csv`, `breathing_sim_summary.csv`, `breathing_sim_trace.csv`,
/// each session's record as the product stores it in `breathing_sim_records.csv`
/// and each lock's receipt in `receipts.csv`.
public struct SimulationStage: Stage {
    public var simulation: BreathingSimulation

    public init(simulation: BreathingSimulation) {
        self.simulation = simulation
    }

    public var name: String { "breathing-simulate" }
    public var version: String { "1.3.0" }
    public var engines: [String] { ["coherence", "pacer"] }
    public var perSubject: Bool { false }
    public var reads: [String] { [] }
    public var writes: [String] {
        [SimulatedSessionRow.fileName, SimulationSummaryRow.fileName, SimulationWinRow.fileName, SimulationTraceRow.fileName,
         SessionRecordRow.fileName, ReceiptRow.fileName]
    }
    public var createsWorkspace: Bool { true }

    public func run(_ ws: Workspace, _ context: StageContext) throws {
        let s = simulation
        ws.session?.record(setting: "seeds", "\(s.firstSeed)…\(s.firstSeed + s.seeds - 1)")
        ws.session?.record(setting: "personas", s.personas.map(\.name).joined(separator: ","))
        ws.session?.record(setting: "strategies", s.strategies.map(\.rawValue).joined(separator: ","))
        ws.session?.record(setting: BreathingSimulation.worldSetting, s.world.rawValue)
        let out = try s.runWithReceipts(registry: context.registry, jobs: context.jobs)
        let rows = out.sessions
        try ws.write(rows)
        try ws.write(BreathingSimulation.summary(rows))
        try ws.write(BreathingSimulation.wins(rows))
        try ws.write(out.trace)
        try ws.write(out.records)
        try ws.write(out.receipts)
        if ws.session?.manifest == nil {
            ws.session?.replacement = Manifest(subjects: s.personas.map { SubjectInfo(subject: $0.name, group: "persona") })
        }
        context.progress.note("breathing simulate: \(plural(rows.count, "session"))")
    }
}
