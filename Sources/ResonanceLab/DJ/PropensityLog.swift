import Foundation

/// One row of `dj_propensity_log.csv` (docs/tables.md): one decision of the logging
/// behaviour policy (`dj simulate --log-propensities`) — its seed, listener and index
/// among the listener's decisions, the need, the song drawn and its propensity (the
/// behaviour policy's probability of it), the logged reward (the need's fulfilment of
/// the ΔHR measured over the play, bpm: `needFulfilment`), what each deterministic
/// policy would have picked there (`pick_<policy>`) and the candidates the random
/// policy draws from (song ids, space-separated).
public struct DJPropensityRow: Equatable, Sendable {
    public var seed: UInt64
    public var listener: String
    public var decision: Int
    public var need: String
    public var song: String
    public var propensity: Double
    public var rewardBpm: Double
    /// Song ids in `DJPolicy.deterministic` order.
    public var picks: [String]
    public var candidates: [String]

    /// The target policy's probability of the logged song: 1 or 0 for a deterministic
    /// policy, 1/candidates for `random` (0 when the song is no candidate).
    public func probability(of policy: DJPolicy) -> Double {
        guard let k = DJPolicy.deterministic.firstIndex(of: policy) else {
            return candidates.contains(song) ? 1 / Double(candidates.count) : 0
        }
        return picks.indices.contains(k) && picks[k] == song ? 1 : 0
    }

    /// The songs the target policy may pick here, each with its probability.
    public func choices(of policy: DJPolicy) -> [(song: String, probability: Double)] {
        guard let k = DJPolicy.deterministic.firstIndex(of: policy) else {
            return candidates.map { ($0, 1 / Double(candidates.count)) }
        }
        return picks.indices.contains(k) ? [(picks[k], 1)] : []
    }
}

extension DJPropensityRow: CanonicalRow {
    public static let fileName = "dj_propensity_log.csv"
    public static let header = ["seed", "listener", "decision", "need", "song", "propensity", "reward_bpm"]
        + DJPolicy.deterministic.map { "pick_" + $0.rawValue } + ["candidates"]

    public func write(to w: CSVWriter) {
        w.field(String(seed)); w.field(listener); w.field(decision); w.field(need); w.field(song); w.field(propensity)
        w.field(rewardBpm)
        for p in picks { w.field(p) }
        w.field(candidates.joined(separator: " "))
    }

    public init(_ r: CanonicalFieldReader) throws {
        guard let seed = UInt64(try r.string("seed")) else { throw r.fail("seed", "'seed' is not an unsigned integer") }
        let propensity = try r.double("propensity")
        guard propensity > 0, propensity <= 1 else { throw r.fail("propensity", "'propensity' must be in (0, 1]") }
        self.init(seed: seed, listener: try r.string("listener"), decision: try r.count("decision"), need: try r.string("need"),
                  song: try r.string("song"), propensity: propensity, rewardBpm: try r.double("reward_bpm"),
                  picks: try DJPolicy.deterministic.map { try r.string("pick_" + $0.rawValue) },
                  candidates: try r.string("candidates").split(separator: " ").map(String.init))
    }
}

/// One row of `dj_ope_truth.csv` (docs/tables.md): a policy's one-step value at the
/// logged decisions — the mean over them of the reward its song would have earned
/// there (the same heart, draws and measurement, another song; `random`: the mean over
/// its candidates), from the simulator alone. The estimators never read it.
public struct DJOPETruthRow: Equatable, Sendable {
    public var policy: String
    public var decisions: Int
    public var valueBpm: Double?
}

extension DJOPETruthRow: CanonicalRow {
    public static let fileName = "dj_ope_truth.csv"
    public static let header = ["policy", "decisions", "value_bpm"]

    public func write(to w: CSVWriter) {
        w.field(policy); w.field(decisions); w.field(valueBpm)
    }

    public init(_ r: CanonicalFieldReader) throws {
        self.init(policy: try r.string("policy"), decisions: try r.count("decisions"), valueBpm: try r.optionalDouble("value_bpm"))
    }
}

/// What the logging behaviour policy leaves of one listener: the log's rows and, per
/// policy (`DJPolicy.offPolicyTargets` order), the summed one-step truth at its decisions.
struct PropensityLog {
    var rows: [DJPropensityRow] = []
    var truth = [Double](repeating: 0, count: DJPolicy.offPolicyTargets.count)
}

/// One decision of the behaviour policy before its song is heard.
struct BehaviourDecision {
    let song: Int
    let propensity: Double
    let need: MusicNeed
    /// Library indices in `DJPolicy.deterministic` order, and the random policy's candidates.
    let picks: [Int]
    let candidates: [Int]
    /// Per policy (`DJPolicy.offPolicyTargets` order), the reward its song would earn here.
    let truth: [Double]
}

extension PolicyLoop {
    /// The behaviour policy at `d`: a song drawn with probability ∝ exp(adjusted score /
    /// `temperature`) over the library (the DJ's scores, transition factor included), the
    /// targets' picks, and each target's reward from a copy of the heart hearing its song.
    func behave(_ d: DecisionPoint, temperature: Double, _ s: inout SessionRun, skipDraw: Double, cutDraw: Double)
        -> BehaviourDecision {
        let ranker = rankers[0]
        let order = ranker.order(sounds, scores: scores(ranker, at: d), session: d.history)
        let top = order.map(\.adjusted).max() ?? 0
        var weight = [Double](repeating: 0, count: sounds.count)
        for o in order { weight[o.index] = exp((o.adjusted - top) / temperature) }
        let total = weight.reduce(0, +)
        var u = s.own.uniform() * total, song = order.first?.index ?? 0
        for i in weight.indices where weight[i] > 0 {
            song = i
            u -= weight[i]
            if u < 0 { break }
        }
        var unused = SeededRandom(seed: 0)
        let picks = DJPolicy.deterministic.map { pick($0, at: d, random: &unused) }
        var reward: [Int: Double] = [:]
        for i in Set(picks + d.pool) {
            var heart = s.heart
            let h = hearing(i, heart: &heart, at: s.t, skipDraw: skipDraw, cutDraw: cutDraw)
            reward[i] = needFulfilment(d.state.need, deltaHRBpm: h.measuredHR ?? 0)
        }
        let truth = DJPolicy.offPolicyTargets.map { p -> Double in
            guard let k = DJPolicy.deterministic.firstIndex(of: p) else {
                return d.pool.reduce(0) { $0 + (reward[$1] ?? 0) } / Double(max(1, d.pool.count))
            }
            return reward[picks[k]] ?? 0
        }
        return BehaviourDecision(song: song, propensity: weight[song] / total, need: d.state.need, picks: picks,
                                 candidates: d.pool, truth: truth)
    }

    /// The decision written to the log with the reward its play earned (a play of at
    /// least 30 s always has a measured ΔHR).
    mutating func record(_ b: BehaviourDecision, reward: Double) {
        func id(_ i: Int) -> String { sounds[i].songId }
        log.rows.append(DJPropensityRow(seed: world.seed, listener: "r\(world.seed).L\(listener.index)", decision: log.rows.count,
                                        need: b.need.rawValue, song: id(b.song), propensity: b.propensity, rewardBpm: reward,
                                        picks: b.picks.map(id), candidates: b.candidates.map(id)))
        for p in log.truth.indices { log.truth[p] += b.truth[p] }
    }
}

extension ClosedLoop {
    /// The logging behaviour policy on every seed's listeners (each its own closed loop,
    /// learning from its own plays): the log in seed and listener order, and each
    /// policy's one-step truth over all its decisions.
    public func propensityLog(jobs: Int) throws -> (rows: [DJPropensityRow], truth: [DJOPETruthRow]) {
        var rows: [DJPropensityRow] = []
        var truth = [Double](repeating: 0, count: DJPolicy.offPolicyTargets.count)
        for k in 0..<options.seeds {
            let seed = options.seed &+ UInt64(k)
            let world = SimulatedWorld(seed: seed, songs: options.songs, featureRelation: options.featureRelation, world: options.world)
            let logs = try Parallel.map(listeners(world), jobs: jobs) { l -> PropensityLog in
                var loop = PolicyLoop(self, listener: l, world: world, policy: .dj, behaviourTemperature: ope.behaviourTemperature)
                for day in 0..<options.days { loop.live(day: day) }
                return loop.log
            }
            for log in logs {
                rows += log.rows
                for p in truth.indices { truth[p] += log.truth[p] }
            }
        }
        let n = rows.count
        return (rows, DJPolicy.offPolicyTargets.enumerated().map { p, policy in
            DJOPETruthRow(policy: policy.rawValue, decisions: n, valueBpm: n > 0 ? truth[p] / Double(n) : nil)
        })
    }
}
