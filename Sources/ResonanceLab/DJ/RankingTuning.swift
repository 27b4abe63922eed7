import Foundation

/// The ranking engine's tuning problem (`resonance tune --engine ranking`): the
/// closed-loop simulation of a `resonance dj simulate` workspace, re-run with the
/// options its manifest records, the DJ policy only, scored by the mean regret of its
/// picks against the oracle (bpm of planted need fulfilment; lower is better). The
/// persona profiles are the cross-validation unit: a fold's listeners are the replicas
/// of its personas in every seed.
public struct RankingTuningData: TuningProblem {
    public static let engine = RankingConstants.spec.name
    public static let objectives: [TuningObjective] = [.regret]
    public static let defaultNames = ["bpm_weight", "energy_weight", "familiarity_weight", "historical_weight", "context_weight",
                                      "recency_weight", "context_prior_plays"]
    public static let searchBounds: [String: ClosedRange<Double>] = ["context_prior_plays": 0...20]
    public static let reads = [Manifest.fileName, DJSimulationRow.fileName]

    var simulations: [DJSimulationOptions] = []
    public private(set) var units: [String] = []
    public private(set) var inputs: [TuningInput] = []

    /// The simulation options of each workspace, from the lineage of its
    /// `dj_simulation.csv` (one-line error when a workspace has none).
    public init(workspaces: [(name: String, workspace: Workspace)]) throws {
        for (name, ws) in workspaces {
            let manifest = try Manifest.read(from: ws)
            guard let settings = manifest.lineageByTable[DJSimulationRow.fileName]?.settings else {
                throw TuningError(message: "\(ws.file(DJSimulationRow.fileName)): missing; tuning the ranking engine needs a "
                    + "workspace from `resonance dj simulate`")
            }
            var o = DJSimulationOptions()
            func int(_ key: String) -> Int? { settings[key].flatMap { Int($0) } }
            o.seed = settings["seed"].flatMap { UInt64($0) } ?? o.seed
            o.seeds = int("seeds") ?? o.seeds; o.replicas = int("replicas") ?? o.replicas; o.days = int("days") ?? o.days
            o.songs = int("songs") ?? o.songs; o.libraryCap = int("library_cap") ?? o.libraryCap
            o.songsPerSession = int("songs_per_session") ?? o.songsPerSession
            o.featureRelation = settings["feature_relation"].flatMap { Double($0) } ?? o.featureRelation
            o.world = settings["world"].flatMap { DJWorld(rawValue: $0) } ?? o.world
            o.variant = settings["state_variant"].flatMap { StateVariant(rawValue: $0) } ?? o.variant
            simulations.append(o)
            units += PersonaProfile.all.map { "\(name)/\($0.name)" }
            inputs.append(try TuningInput(workspace: name, ws, tables: Self.reads))
        }
    }

    public var unitNoun: String { "personas" }
    public var dataSummary: String {
        "\(simulations.count) simulated workspaces (" + simulations.map { "\($0.seeds) seeds × \($0.replicas) replicas × \($0.days) days" }
            .joined(separator: "; ") + "); objective: mean regret of the DJ's picks against the oracle (bpm, lower is better)"
    }
    public var provenance: [String: JSONValue] {
        ["regret": .string("mean over the DJ's decisions of the oracle's planted need fulfilment minus that of the song picked, bpm")]
    }

    /// Per workspace, the persona indices of the units `units`.
    public func select(_ units: [Int]) -> [[Int]] {
        var out = [[Int]](repeating: [], count: simulations.count)
        let n = PersonaProfile.all.count
        for u in units.sorted() { out[u / n].append(u % n) }
        return out
    }

    public func value(_ objective: TuningObjective, _ registry: ConstantsRegistry, on selection: [[Int]]) -> Double {
        guard objective == .regret else { return .nan }
        var regret = 0.0, decisions = 0
        for (k, personas) in selection.enumerated() where !personas.isEmpty {
            let loop = ClosedLoop(options: simulations[k], registry: registry)
            for s in 0..<simulations[k].seeds {
                let world = SimulatedWorld(seed: simulations[k].seed &+ UInt64(s), songs: simulations[k].songs,
                                           featureRelation: simulations[k].featureRelation, world: simulations[k].world)
                for l in loop.listeners(world) where personas.contains(l.index % PersonaProfile.all.count) {
                    for t in loop.run(l, world: world, policy: .dj).needs[0] { regret += t.regret; decisions += t.decisions }
                }
            }
        }
        return decisions > 0 ? regret / Double(decisions) : .nan
    }
}
