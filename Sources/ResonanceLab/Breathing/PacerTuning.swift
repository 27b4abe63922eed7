/// The pacer engine's tuning problem: the closed-loop simulation of a `resonance
/// breathing simulate` workspace replayed with candidate constants. Each session of
/// `breathing_sim_sessions.csv` names its seed, persona and strategy; the person and
/// the noise are drawn again from them (and checked against the planted rate recorded),
/// so a candidate meets exactly the simulated world the defaults met — in the world
/// (`--world`) the lineage of the sessions names. Personas are the
/// cross-validation unit. Objective (`locked-rate-error`): the mean |error| of the locked
/// rate (`ResonanceWorld.error(locked:)`: locked − planted, 0 on a flat curve's plateau)
/// over the selected personas' sessions of every strategy in the table, breaths/min.
public struct PacerTuningData: TuningProblem {
    public static let engine = PacerConstants.spec.name
    public static let objectives: [TuningObjective] = [.lockedRateError]
    /// The exploration and lock rules' own constants (the product's durations, range and
    /// step stay fixed).
    public static let defaultNames = ["score_seconds", "hill_dwell_seconds", "hill_reversals", "sweep_step_per_min",
                                      "settle_seconds", "robust_fit_half_width_per_min"]
    /// Below a 0.25/min sweep step a 180 s exploration's dwells are shorter than the 10 s
    /// settling; the search keeps to sensible dwells and counts.
    public static let searchBounds: [String: ClosedRange<Double>] = [
        "score_seconds": 1...15, "hill_dwell_seconds": 5...60, "hill_reversals": 1...10,
        "sweep_step_per_min": 0.25...1.25, "settle_seconds": 0...20, "robust_fit_half_width_per_min": 0.5...2,
    ]
    public static let reads = [Manifest.fileName, SimulatedSessionRow.fileName]

    /// One simulated session to replay.
    struct Session: Sendable {
        var world: ResonanceWorld
        var noise: UInt64
        var strategy: PacerStrategy
    }

    /// Per unit, its sessions.
    var sessions: [[Session]] = []
    public private(set) var units: [String] = []
    public private(set) var inputs: [TuningInput] = []

    public init(workspaces: [(name: String, workspace: Workspace)]) throws {
        for (name, ws) in workspaces {
            guard ws.exists(SimulatedSessionRow.fileName) else {
                throw TuningError(message: "\(ws.file(SimulatedSessionRow.fileName)): missing; tuning the pacer engine needs "
                    + "a workspace from `resonance breathing simulate`")
            }
            let assumptions = try BreathingSimulation.world(of: ws).assumptions
            var byPersona: [String: [Session]] = [:], order: [String] = []
            for (line, row) in try ws.read(SimulatedSessionRow.self).enumerated() {
                let at = "\(ws.file(SimulatedSessionRow.fileName)):\(line + 2)"
                guard let profile = PersonaProfile.named(row.persona) else {
                    throw TuningError(message: "\(at): unknown persona '\(row.persona)'")
                }
                guard let strategy = PacerStrategy(rawValue: row.strategy) else {
                    throw TuningError(message: "\(at): unknown strategy '\(row.strategy)'")
                }
                let world = ResonanceWorld.draw(profile, seed: UInt64(row.seed), assumptions: assumptions)
                guard world.plantedRateBpm == row.plantedRateBpm else {
                    throw TuningError(message: "\(at): planted rate \(row.plantedRateBpm) is not what seed \(row.seed) draws "
                        + "(\(world.plantedRateBpm)); simulate again with this version")
                }
                if byPersona[row.persona] == nil { order.append(row.persona) }
                byPersona[row.persona, default: []].append(
                    Session(world: world, noise: BreathingSimulation.noiseSeed(profile, seed: row.seed), strategy: strategy))
            }
            for persona in order {
                units.append("\(name)/\(persona)")
                sessions.append(byPersona[persona] ?? [])
            }
            inputs.append(try TuningInput(workspace: name, ws, tables: Self.reads))
        }
    }

    public var unitNoun: String { "personas" }
    public var dataSummary: String {
        "\(sessions.reduce(0) { $0 + $1.count }) simulated sessions; objective: mean |locked − planted| resonance rate (0 on a flat curve's plateau)"
    }
    public var provenance: [String: JSONValue] {
        ["sessions": .int(sessions.reduce(0) { $0 + $1.count }),
         "locked_rate_error": .string("mean |locked - planted| rate (0 on a flat curve's plateau; breaths/min) of the closed-loop simulation replayed "
             + "with the candidate constants on the sessions of the selected personas")]
    }

    public func select(_ units: [Int]) -> [Int] { units.sorted() }

    public func value(_ objective: TuningObjective, _ registry: ConstantsRegistry, on selection: [Int]) -> Double {
        guard objective == .lockedRateError else { return .nan }
        let errors = selection.flatMap { sessions[$0] }.map { s in
            abs(s.world.error(locked: SimulatedSession.run(s.world, strategy: s.strategy, registry: registry, noise: s.noise).lockedRateBpm))
        }
        return errors.isEmpty ? .nan : Stats.mean(errors)
    }
}
