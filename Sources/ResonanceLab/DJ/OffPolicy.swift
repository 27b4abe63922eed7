import Foundation

/// One logged decision as the estimators read it for one target policy π: its listener,
/// the logged reward r (bpm), the importance weight w = π(a|x)/μ(a|x) of the logged song
/// a (μ the behaviour policy's propensity), the reward model's q̂(x, a) and its value of
/// the target's choice Σₐ′ π(a′|x)·q̂(x, a′).
public struct OPEDecision: Sendable, Equatable {
    public var listener: String
    public var rewardBpm: Double
    public var weight: Double
    public var modelLogged: Double
    public var modelTarget: Double

    public init(listener: String, rewardBpm: Double, weight: Double, modelLogged: Double, modelTarget: Double) {
        self.listener = listener; self.rewardBpm = rewardBpm; self.weight = weight
        self.modelLogged = modelLogged; self.modelTarget = modelTarget
    }
}

/// The off-policy estimators of a target policy's one-step value (Saito et al. 2021,
/// "Open Bandit Dataset and Pipeline", NeurIPS Datasets and Benchmarks, as its
/// InverseProbabilityWeighting, SelfNormalizedInverseProbabilityWeighting and
/// DoublyRobust): with clipped weights w̃ = min(w, c),
/// IPS = Σ w̃·r / n (Horvitz & Thompson 1952), SNIPS = Σ w̃·r / Σ w̃ (Swaminathan &
/// Joachims 2015), DR = Σ [q̂π + w̃·(r − q̂(x, a))] / n (Dudík, Langford & Li 2011).
public enum OPEEstimator: String, CaseIterable, Sendable {
    case ips, snips, dr
}

/// Sums over decisions from which every estimator follows; they add over listeners, so
/// a bootstrap resample is a sum of its listeners' sums.
public struct OPESums: Sendable, Equatable {
    public var n = 0.0, weightedReward = 0.0, weight = 0.0, squaredWeight = 0.0, doublyRobust = 0.0

    public init() {}

    /// The sums of `decisions` with weights clipped at `clip`.
    public init(_ decisions: some Sequence<OPEDecision>, clip: Double) {
        for d in decisions {
            let w = min(d.weight, clip)
            n += 1; weightedReward += w * d.rewardBpm; weight += w; squaredWeight += w * w
            doublyRobust += d.modelTarget + w * (d.rewardBpm - d.modelLogged)
        }
    }

    mutating func add(_ o: OPESums) {
        n += o.n; weightedReward += o.weightedReward; weight += o.weight; squaredWeight += o.squaredWeight
        doublyRobust += o.doublyRobust
    }

    /// The estimate (bpm); nil without decisions, and SNIPS without a matching one.
    public func estimate(_ e: OPEEstimator) -> Double? {
        guard n > 0 else { return nil }
        switch e {
        case .ips: return weightedReward / n
        case .snips: return weight > 0 ? weightedReward / weight : nil
        case .dr: return doublyRobust / n
        }
    }

    /// Kish's effective sample size of the clipped weights, (Σw)²/Σw² (Kish 1965).
    public var effectiveSampleSize: Double { squaredWeight > 0 ? weight * weight / squaredWeight : 0 }
}

/// One row of `dj_ope.csv` (docs/tables.md): one target policy's one-step value (mean
/// reward per decision, bpm of need fulfilment) by one estimator from a propensity log,
/// with its 95 % bootstrap interval over listeners, the decisions and listeners read,
/// the decisions where the logged song is one the target may pick, the weights clipped
/// and the effective sample size (Kish).
public struct DJOPERow: Equatable, Sendable {
    public var policy: String
    public var estimator: String
    public var decisions: Int
    public var listeners: Int
    public var matched: Int
    public var clipped: Int
    public var effectiveSampleSize: Double
    public var valueBpm: Double?
    public var ciLow: Double?
    public var ciHigh: Double?
}

extension DJOPERow: CanonicalRow {
    public static let fileName = "dj_ope.csv"
    public static let header = ["policy", "estimator", "decisions", "listeners", "matched", "clipped", "effective_sample_size",
                                "value_bpm", "ci_low", "ci_high"]

    public func write(to w: CSVWriter) {
        w.field(policy); w.field(estimator); w.field(decisions); w.field(listeners); w.field(matched); w.field(clipped)
        w.field(effectiveSampleSize); w.field(valueBpm); w.field(ciLow); w.field(ciHigh)
    }

    public init(_ r: CanonicalFieldReader) throws {
        self.init(policy: try r.string("policy"), estimator: try r.string("estimator"), decisions: try r.count("decisions"),
                  listeners: try r.count("listeners"), matched: try r.count("matched"), clipped: try r.count("clipped"),
                  effectiveSampleSize: try r.double("effective_sample_size"), valueBpm: try r.optionalDouble("value_bpm"),
                  ciLow: try r.optionalDouble("ci_low"), ciHigh: try r.optionalDouble("ci_high"))
    }
}

/// Off-policy evaluation of the DJ's policies from a propensity log (docs/dj.md,
/// Off-policy evaluation).
public enum OffPolicy {
    /// The reward model, cross-fitted (Chernozhukov et al. 2018): listeners in two folds
    /// (alternating in sorted order); each row's q̂ comes from the other fold only — per
    /// (song, need) the mean reward shrunk toward the need's mean as if it had
    /// `priorPlays` more plays at that mean. Returns, per row, q̂ of a song id.
    static func rewardModel(_ log: [DJPropensityRow], priorPlays k: Double) -> [(String) -> Double] {
        let listeners = Array(Set(log.map(\.listener))).sorted()
        var fold: [String: Int] = [:]
        for (i, l) in listeners.enumerated() { fold[l] = i % 2 }
        var song = [[String: (sum: Double, n: Double)]](repeating: [:], count: 2)
        var need = song
        for r in log {
            let f = fold[r.listener] ?? 0
            song[f][r.song + "|" + r.need, default: (0, 0)].sum += r.rewardBpm; song[f][r.song + "|" + r.need, default: (0, 0)].n += 1
            need[f][r.need, default: (0, 0)].sum += r.rewardBpm; need[f][r.need, default: (0, 0)].n += 1
        }
        return log.map { r in
            let other = 1 - (fold[r.listener] ?? 0)
            let m = need[other][r.need].map { $0.sum / $0.n } ?? 0
            return { id in
                let s = song[other][id + "|" + r.need] ?? (0, 0)
                return s.n + k > 0 ? (s.sum + k * m) / (s.n + k) : m
            }
        }
    }

    /// The estimators' view of `log` for `policy`, with the cross-fitted reward model.
    public static func decisions(_ log: [DJPropensityRow], policy: DJPolicy, priorPlays: Double) -> [OPEDecision] {
        let model = rewardModel(log, priorPlays: priorPlays)
        return zip(log, model).map { r, q in
            OPEDecision(listener: r.listener, rewardBpm: r.rewardBpm, weight: r.probability(of: policy) / r.propensity,
                        modelLogged: q(r.song), modelTarget: r.choices(of: policy).reduce(0) { $0 + $1.probability * q($1.song) })
        }
    }

    /// Percentile 95 % intervals per estimator from `resamples` draws of the listeners
    /// with replacement (the listener is the unit: decisions of one listener share their
    /// heart and learner), on a fixed seed.
    static func bootstrap(_ byListener: [OPESums], resamples: Int) -> [OPEEstimator: (low: Double, high: Double)] {
        guard byListener.count >= 2 else { return [:] }
        var random = SeededRandom(seed: SeededRandom.djb2("dj ope bootstrap"))
        var draws: [OPEEstimator: [Double]] = [:]
        for _ in 0..<resamples {
            var s = OPESums()
            for _ in byListener.indices { s.add(byListener[random.int(in: 0...(byListener.count - 1))]) }
            for e in OPEEstimator.allCases { if let v = s.estimate(e) { draws[e, default: []].append(v) } }
        }
        return draws.mapValues { (Stats.quantile($0, 0.025), Stats.quantile($0, 0.975)) }
    }

    /// Every estimator's rows for `policy`.
    public static func rows(_ log: [DJPropensityRow], policy: DJPolicy, constants c: OPEConstants) -> [DJOPERow] {
        let ds = decisions(log, policy: policy, priorPlays: c.rewardModelPriorPlays)
        var groups: [String: [OPEDecision]] = [:]
        for d in ds { groups[d.listener, default: []].append(d) }
        let byListener = groups.keys.sorted().map { OPESums(groups[$0] ?? [], clip: c.weightClip) }
        let all = OPESums(ds, clip: c.weightClip)
        let intervals = bootstrap(byListener, resamples: Int(c.bootstrapResamples))
        return OPEEstimator.allCases.map { e in
            DJOPERow(policy: policy.rawValue, estimator: e.rawValue, decisions: ds.count, listeners: groups.count,
                     matched: ds.filter { $0.weight > 0 }.count, clipped: ds.filter { $0.weight > c.weightClip }.count,
                     effectiveSampleSize: all.effectiveSampleSize, valueBpm: all.estimate(e),
                     ciLow: intervals[e]?.low, ciHigh: intervals[e]?.high)
        }
    }
}

/// `resonance dj ope`: every policy's one-step value estimated from the workspace's
/// propensity log alone (docs/dj.md, Off-policy evaluation).
public struct DJOPEStage: Stage {
    public init() {}

    public var name: String { "dj ope" }
    public var version: String { "1.0.0" }
    public var reads: [String] { [DJPropensityRow.fileName] }
    public var writes: [String] { [DJOPERow.fileName] }
    public var engines: [String] { ["ope"] }
    public var perSubject: Bool { false }
    public var createsWorkspace: Bool { false }

    public func run(_ ws: Workspace, _ context: StageContext) throws {
        let log = try ws.read(DJPropensityRow.self)
        guard !log.isEmpty else {
            throw TableError(path: ws.file(DJPropensityRow.fileName), line: 0, column: 0,
                             message: "no logged decisions; `resonance dj simulate --log-propensities` writes them")
        }
        let c = OPEConstants(registry: context.registry)
        let rows = DJPolicy.offPolicyTargets.flatMap { OffPolicy.rows(log, policy: $0, constants: c) }
        try ws.write(rows)
        context.progress.note("dj ope: \(plural(log.count, "logged decision")), \(DJPolicy.offPolicyTargets.count) target policies")
    }
}
