import Foundation

/// The song-effect engine's tuning problem: the product's learning rule (docs/engines/toolkit.md,
/// Song effect) replayed over the plays of persona workspaces and scored against the
/// effects planted in `truth.csv`. Each play's measured ΔHR and ΔRMSSD (the sessions
/// stage's `session_plays.csv`) are read once into an `EMAReplay`; a candidate is one
/// replay of the EMA over those arrays. Listeners are the cross-validation unit.
///
/// Objective (`correlation`): for ΔHR and ΔRMSSD separately, the Pearson r between the
/// engine's learned effect of each (listener, song) pair — the EMA of the raw change,
/// confidence-weighted over the pair's contexts — and the planted effect, song effect ×
/// listener sensitivity (sensitivity 1 when `truth.csv` gives none; under a drifting
/// response law the song effect at the study's end, song_effect × (1 + a) with a from
/// the `song_effect_drift` rows, since that is what a learner should know by then), over the pairs of
/// the selected listeners pooled into one correlation, counting pairs with at least
/// `minPlays` plays that measured the metric; the objective is the mean of the two r.
/// `ema_start` (the start of the scores, not of the raw changes) and
/// `familiarity_full_plays` do not enter it and stay fixed.
public struct SongEffectTuningData: TuningProblem {
    public static let engine = SongEffectConstants.spec.name
    public static let objectives: [TuningObjective] = [.correlation]
    public static let defaultNames = ["alpha_early", "alpha_late", "early_plays", "confidence_full_plays",
                                      "no_biometrics_confidence_cap"]
    /// The registry allows up to 1000 early plays and 10 000 plays to full confidence;
    /// the search looks at 0–30 and 1–100 plays (a persona plays a song a few dozen times).
    public static let searchBounds: [String: ClosedRange<Double>] = ["early_plays": 0...30, "confidence_full_plays": 1...100]
    /// Fewest plays that measured a metric for a (listener, song) pair to count.
    public static let minPlays = 5
    public static let metrics: [EffectMetric] = [.deltaHR, .deltaRMSSD]

    /// One workspace: its plays as learner inputs and, per metric, the planted effect of
    /// each song (NaN where none is planted) and each listener's sensitivity.
    struct Part: Sendable {
        var replay: EMAReplay
        var songEffect: [[Double]]
        var sensitivity: [[Double]]

        /// The planted effect of song `i` on listener `j` for metric `m` (NaN when none).
        func planted(_ m: Int, listener j: Int, song i: Int) -> Double { songEffect[m][i] * sensitivity[m][j] }
    }

    var parts: [Part] = []
    /// Per unit: its workspace part and listener index there.
    var unitOf: [(part: Int, listener: Int)] = []
    public private(set) var units: [String] = []
    public private(set) var inputs: [TuningInput] = []
    public private(set) var plays = 0
    /// Per metric: the (listener, song) pairs of the units that count.
    public private(set) var pairs: [Int] = []

    /// The tables the plays and the truth come from.
    public static let reads = [Manifest.fileName, SessionPlayRow.fileName, PlantedEffect.fileName]

    /// From each workspace's `session_plays.csv` and `truth.csv` (one-line errors when
    /// either is missing).
    public init(workspaces: [(name: String, workspace: Workspace)], registry: ConstantsRegistry) throws {
        var data: [(name: String, plays: [SessionPlayRow], truth: [PlantedEffect])] = [], inputs: [TuningInput] = []
        for (name, ws) in workspaces {
            guard ws.exists(PlantedEffect.fileName) else {
                throw TuningError(message: "\(ws.file(PlantedEffect.fileName)): missing; tuning the song_effect engine needs "
                    + "planted effects (a persona workspace from `resonance personas generate`)")
            }
            guard ws.exists(SessionPlayRow.fileName) else {
                throw TuningError(message: "\(ws.file(SessionPlayRow.fileName)): missing; run `resonance sessions` first")
            }
            data.append((name, try ws.read(SessionPlayRow.self), try ws.read(PlantedEffect.self)))
            inputs.append(try TuningInput(workspace: name, ws, tables: Self.reads))
        }
        try self.init(data, registry: registry)
        self.inputs = inputs
        for (k, w) in workspaces.enumerated() where !unitOf.contains(where: { $0.part == k }) {
            throw TuningError(message: "\(w.workspace.path): no listener has 3 songs with a planted effect and ≥ \(Self.minPlays) "
                + "plays that measured ΔHR or ΔRMSSD")
        }
    }

    /// From plays and planted effects in memory, one entry per workspace. A listener is
    /// a unit when at least 3 of their songs count for some metric.
    init(_ data: [(name: String, plays: [SessionPlayRow], truth: [PlantedEffect])], registry: ConstantsRegistry) throws {
        let impact = ImpactConstants(registry: registry), learner = SongEffectConstants(registry: registry)
        pairs = [Int](repeating: 0, count: Self.metrics.count)
        for (name, rows, truth) in data {
            let index = PlayIndex(rows)
            let planted = Self.metrics.map { PlantedEffect.planted(truth, metric: $0.rawValue) }
            // Under a drifting response law the learner should hold a song's effect as it
            // is at the study's end, song_effect × (1 + a), not its study average.
            let drift = Self.metrics.map { m in
                Dictionary(truth.filter { $0.kind == .songEffectDrift && $0.metric == m.rawValue }.map { ($0.entity, $0.value) },
                           uniquingKeysWith: { a, _ in a })
            }
            let part = Part(replay: EMAReplay(index, impact: impact),
                            songEffect: zip(planted, drift).map { p, a in
                                index.songIds.map { id in p.songs[id].map { $0 * (1 + (a[id] ?? 0)) } ?? .nan }
                            },
                            sensitivity: planted.map { p in index.subjects.map { p.sensitivity[$0] ?? 1 } })
            // Which pairs count does not depend on the constants: count them once.
            var counted = [[Int]](repeating: [Int](repeating: 0, count: Self.metrics.count), count: index.subjects.count)
            part.replay.replay(learner) { j, i, state in
                for (m, metric) in Self.metrics.enumerated() where Self.counts(part, m, metric, j, i, state) { counted[j][m] += 1 }
            }
            for (j, subject) in index.subjects.enumerated() where counted[j].contains(where: { $0 >= 3 }) {
                unitOf.append((parts.count, j)); units.append("\(name)/\(subject)")
                for m in pairs.indices { pairs[m] += counted[j][m] }
            }
            parts.append(part)
            plays += rows.count
        }
    }

    /// The pair (listener `j`, song `i`) has a planted effect and enough measured plays.
    static func counts(_ part: Part, _ m: Int, _ metric: EffectMetric, _ j: Int, _ i: Int, _ state: EMAState) -> Bool {
        let measured = metric == .deltaHR ? state.hrPlays : state.rmssdPlays
        return measured >= minPlays && part.planted(m, listener: j, song: i).isFinite
    }

    public var unitNoun: String { "listeners" }
    public var dataSummary: String {
        "\(plural(plays, "play")); (listener, song) pairs with a planted effect and ≥ \(Self.minPlays) measured plays: "
            + zip(Self.metrics, pairs).map { "\($1) for \($0.rawValue)" }.joined(separator: ", ")
            + "; objective: Pearson r of learned vs planted pair effects, pooled over a fold's listeners, mean over "
            + Self.metrics.map(\.rawValue).joined(separator: " and ")
    }
    public var provenance: [String: JSONValue] {
        ["plays": .int(plays), "min_plays": .int(Self.minPlays),
         "pairs": .object(Dictionary(uniqueKeysWithValues: zip(Self.metrics, pairs).map { ($0.rawValue, JSONValue.int($1)) })),
         "correlation": .string("Pearson r of the learned (listener, song) effect (EMA of the raw change, confidence-weighted "
             + "over contexts) vs the planted effect (song effect x listener sensitivity), pairs with >= \(Self.minPlays) "
             + "plays measuring the metric, pooled over the fold's listeners; mean over "
             + Self.metrics.map(\.rawValue).joined(separator: " and "))]
    }

    /// Per workspace part, the listeners of the units `units`.
    public func select(_ units: [Int]) -> [[Int]] {
        var out = [[Int]](repeating: [], count: parts.count)
        for u in units.sorted() { out[unitOf[u].part].append(unitOf[u].listener) }
        return out
    }

    public func value(_ objective: TuningObjective, _ registry: ConstantsRegistry, on selection: [[Int]]) -> Double {
        guard objective == .correlation else { return .nan }
        let s = SongEffectConstants(registry: registry)
        var learned = [[Double]](repeating: [], count: Self.metrics.count), planted = learned
        for (k, listeners) in selection.enumerated() where !listeners.isEmpty {
            let part = parts[k]
            part.replay.replay(s, listeners: listeners) { j, i, state in
                for (m, metric) in Self.metrics.enumerated() where Self.counts(part, m, metric, j, i, state) {
                    guard let e = EMAEffects.value(state, metric) else { continue }
                    learned[m].append(e); planted[m].append(part.planted(m, listener: j, song: i))
                }
            }
        }
        let r = Self.metrics.indices.compactMap { m in learned[m].count >= 3 ? Stats.pearson(learned[m], planted[m]) : nil }
            .filter(\.isFinite)
        return r.isEmpty ? .nan : Stats.mean(r)
    }
}
