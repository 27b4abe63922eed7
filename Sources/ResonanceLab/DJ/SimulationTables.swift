import Foundation

/// One row of `dj_simulation.csv` (docs/tables.md): one seed's decisions of one policy
/// under one need (or `all`), scored on the policy's own closed loop (`closed_loop`) or
/// at the shared decision points (`shared`: planted ΔHR and regret only) — how many, the realised mean ΔHR (bpm, measured as the sessions
/// stage measures a play), the mean planted ΔHR of the songs picked, the mean regret
/// against the oracle (planted need fulfilment, bpm), the skip rate and the mean BPM
/// step between consecutive songs of a session.
public struct DJSimulationRow: Equatable, Sendable {
    public var seed: UInt64
    public var scoring: String
    public var policy: String
    public var need: String
    public var decisions: Int
    public var meanDeltaHRBpm: Double?
    public var meanPlantedDeltaHRBpm: Double?
    public var meanRegretBpm: Double?
    public var skipRate: Double?
    public var meanBPMStep: Double?
}

extension DJSimulationRow: CanonicalRow {
    public static let fileName = "dj_simulation.csv"
    public static let header = ["seed", "scoring", "policy", "need", "decisions", "mean_delta_hr_bpm", "mean_planted_delta_hr_bpm",
                                "mean_regret_bpm", "skip_rate", "mean_bpm_step"]

    public func write(to w: CSVWriter) {
        w.field(String(seed)); w.field(scoring); w.field(policy); w.field(need); w.field(decisions); w.field(meanDeltaHRBpm)
        w.field(meanPlantedDeltaHRBpm); w.field(meanRegretBpm); w.field(skipRate); w.field(meanBPMStep)
    }

    public init(_ r: CanonicalFieldReader) throws {
        guard let seed = UInt64(try r.string("seed")) else { throw r.fail("seed", "'seed' is not an unsigned integer") }
        self.init(seed: seed, scoring: try r.string("scoring"), policy: try r.string("policy"), need: try r.string("need"),
                  decisions: try r.count("decisions"),
                  meanDeltaHRBpm: try r.optionalDouble("mean_delta_hr_bpm"),
                  meanPlantedDeltaHRBpm: try r.optionalDouble("mean_planted_delta_hr_bpm"),
                  meanRegretBpm: try r.optionalDouble("mean_regret_bpm"), skipRate: try r.optionalDouble("skip_rate"),
                  meanBPMStep: try r.optionalDouble("mean_bpm_step"))
    }
}

/// One row of `dj_learning_curve.csv` (docs/tables.md): one seed's decisions of one
/// policy on one simulated day and their mean regret against the oracle (bpm).
public struct DJLearningCurveRow: Equatable, Sendable {
    public var seed: UInt64
    public var policy: String
    public var day: Int
    public var decisions: Int
    public var meanRegretBpm: Double?
}

extension DJLearningCurveRow: CanonicalRow {
    public static let fileName = "dj_learning_curve.csv"
    public static let header = ["seed", "policy", "day", "decisions", "mean_regret_bpm"]

    public func write(to w: CSVWriter) {
        w.field(String(seed)); w.field(policy); w.field(day); w.field(decisions); w.field(meanRegretBpm)
    }

    public init(_ r: CanonicalFieldReader) throws {
        guard let seed = UInt64(try r.string("seed")) else { throw r.fail("seed", "'seed' is not an unsigned integer") }
        self.init(seed: seed, policy: try r.string("policy"), day: try r.count("day"), decisions: try r.count("decisions"),
                  meanRegretBpm: try r.optionalDouble("mean_regret_bpm"))
    }
}

/// One row of `dj_simulation_summary.csv` (docs/tables.md): a metric's mean over seeds
/// with its 95 % Student-t interval (seed = unit). `policy` is a policy, or a paired
/// difference `<a>_minus_<b>` (per seed, a − b, `DJSimulationTables.pairs`); `need`
/// is a need or `all`.
public struct DJSummaryRow: Equatable, Sendable {
    public var policy: String
    public var need: String
    public var metric: String
    public var seeds: Int
    public var mean: Double?
    public var ciLow: Double?
    public var ciHigh: Double?
}

extension DJSummaryRow: CanonicalRow {
    public static let fileName = "dj_simulation_summary.csv"
    public static let header = ["policy", "need", "metric", "seeds", "mean", "ci_low", "ci_high"]

    public func write(to w: CSVWriter) {
        w.field(policy); w.field(need); w.field(metric); w.field(seeds); w.field(mean); w.field(ciLow); w.field(ciHigh)
    }

    public init(_ r: CanonicalFieldReader) throws {
        self.init(policy: try r.string("policy"), need: try r.string("need"), metric: try r.string("metric"),
                  seeds: try r.count("seeds"), mean: try r.optionalDouble("mean"), ciLow: try r.optionalDouble("ci_low"),
                  ciHigh: try r.optionalDouble("ci_high"))
    }
}

/// Mean with a 95 % Student-t interval over independent replicates (seeds).
public enum SeedInterval {
    /// Two-sided 97.5 % quantiles of Student's t for 1–30 degrees of freedom (standard
    /// tables); 1.96 beyond.
    static let t975: [Double] = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]

    /// (mean, low, high) of `x`; no interval for fewer than 2 values, nothing for none.
    public static func of(_ x: [Double]) -> (mean: Double?, low: Double?, high: Double?) {
        guard !x.isEmpty else { return (nil, nil, nil) }
        let m = Stats.mean(x)
        guard x.count >= 2 else { return (m, nil, nil) }
        let t = x.count - 1 <= t975.count ? t975[x.count - 2] : 1.96
        let half = t * Stats.sd(x) / Double(x.count).squareRoot()
        return (m, m - half, m + half)
    }
}

/// The simulation's tables from the per-seed tallies.
public enum DJSimulationTables {
    static func rows(_ runs: [(seed: UInt64, tally: ClosedLoopTally)]) -> [DJSimulationRow] {
        var out: [DJSimulationRow] = []
        for run in runs {
            for (scoring, tallies) in [("closed_loop", run.tally.needs), ("shared", run.tally.shared)] {
                for (p, policy) in DJPolicy.allCases.enumerated() {
                    let all = tallies[p].reduce(into: NeedTally()) { $0.add($1) }
                    for (need, t) in zip(MusicNeed.allCases.map(\.rawValue) + ["all"], tallies[p] + [all]) {
                        let d = Double(t.decisions)
                        out.append(DJSimulationRow(
                            seed: run.seed, scoring: scoring, policy: policy.rawValue, need: need, decisions: t.decisions,
                            meanDeltaHRBpm: t.realisedCount > 0 ? t.realised / Double(t.realisedCount) : nil,
                            meanPlantedDeltaHRBpm: t.decisions > 0 ? t.planted / d : nil,
                            meanRegretBpm: t.decisions > 0 ? t.regret / d : nil,
                            skipRate: t.decisions > 0 && scoring == "closed_loop" ? Double(t.skips) / d : nil,
                            meanBPMStep: t.bpmStepCount > 0 ? t.bpmStep / Double(t.bpmStepCount) : nil))
                    }
                }
            }
        }
        return out
    }

    static func learningCurve(_ runs: [(seed: UInt64, tally: ClosedLoopTally)]) -> [DJLearningCurveRow] {
        var out: [DJLearningCurveRow] = []
        for run in runs {
            for (p, policy) in DJPolicy.allCases.enumerated() {
                for (day, t) in run.tally.days[p].enumerated() {
                    out.append(DJLearningCurveRow(seed: run.seed, policy: policy.rawValue, day: day, decisions: t.decisions,
                                                  meanRegretBpm: t.decisions > 0 ? t.regret / Double(t.decisions) : nil))
                }
            }
        }
        return out
    }

    /// The paired differences the summary reports (per seed, first − second).
    static let pairs: [(DJPolicy, DJPolicy)] = [(.dj, .random), (.dj, .mostPlayed), (.mostPlayed, .random), (.learnedEffect, .random),
                                                 (.oracle, .random)]

    /// Per policy and need (and `all`), each metric over seeds, on the closed loops and
    /// (metrics `shared_…`) at the shared decision points; the paired differences
    /// `pairs`; per policy the slope of daily regret over days (bpm/day, least squares
    /// per seed), negative when regret falls.
    static func summary(_ rows: [DJSimulationRow], curve: [DJLearningCurveRow]) -> [DJSummaryRow] {
        let metrics: [(String, KeyPath<DJSimulationRow, Double?>)] = [
            ("mean_delta_hr_bpm", \.meanDeltaHRBpm), ("mean_planted_delta_hr_bpm", \.meanPlantedDeltaHRBpm),
            ("mean_regret_bpm", \.meanRegretBpm), ("skip_rate", \.skipRate), ("mean_bpm_step", \.meanBPMStep),
        ]
        func row(_ policy: String, _ need: String, _ metric: String, _ x: [Double]) -> DJSummaryRow {
            let i = SeedInterval.of(x)
            return DJSummaryRow(policy: policy, need: need, metric: metric, seeds: x.count, mean: i.mean, ciLow: i.low, ciHigh: i.high)
        }
        var out: [DJSummaryRow] = []
        let needs = MusicNeed.allCases.map(\.rawValue) + ["all"]
        for (scoring, prefix) in [("closed_loop", ""), ("shared", "shared_")] {
            let mine = rows.filter { $0.scoring == scoring }
            let used = scoring == "shared" ? metrics.filter { $0.0 == "mean_planted_delta_hr_bpm" || $0.0 == "mean_regret_bpm" } : metrics
            for policy in DJPolicy.allCases {
                for need in needs {
                    let these = mine.filter { $0.policy == policy.rawValue && $0.need == need }
                    for (name, key) in used { out.append(row(policy.rawValue, need, prefix + name, these.compactMap { $0[keyPath: key] })) }
                }
            }
            for (a, b) in pairs {
                for need in needs {
                    for (name, key) in used {
                        let first = mine.filter { $0.policy == a.rawValue && $0.need == need }
                        let diffs = first.compactMap { x -> Double? in
                            guard let y = mine.first(where: { $0.seed == x.seed && $0.policy == b.rawValue && $0.need == need }),
                                  let u = x[keyPath: key], let v = y[keyPath: key] else { return nil }
                            return u - v
                        }
                        out.append(row("\(a.rawValue)_minus_\(b.rawValue)", need, prefix + name, diffs))
                    }
                }
            }
        }
        // Daily regret by seed and policy; the slope of a difference removes what every
        // policy shares (the days' mix of needs and states).
        let seeds = Array(Set(curve.map(\.seed))).sorted()
        func daily(_ seed: UInt64, _ policy: DJPolicy) -> [Int: Double] {
            var out: [Int: Double] = [:]
            for r in curve where r.seed == seed && r.policy == policy.rawValue { out[r.day] = r.meanRegretBpm }
            return out
        }
        func slope(_ byDay: [Int: Double]) -> Double? {
            let points = byDay.keys.sorted().compactMap { d in byDay[d].map { TimedSample(tMs: Int64(d) * 60_000, value: $0) } }
            return points.count >= 2 ? DJStateEngine.slopePerMinute(points[...]) : nil
        }
        for policy in DJPolicy.allCases {
            out.append(row(policy.rawValue, "all", "regret_slope_bpm_per_day", seeds.compactMap { slope(daily($0, policy)) }))
        }
        for (a, b) in pairs {
            let slopes = seeds.compactMap { seed -> Double? in
                let dj = daily(seed, a), them = daily(seed, b)
                var gap: [Int: Double] = [:]
                for (day, value) in dj { if let w = them[day] { gap[day] = value - w } }
                return slope(gap)
            }
            out.append(row("\(a.rawValue)_minus_\(b.rawValue)", "all", "regret_slope_bpm_per_day", slopes))
        }
        return out
    }
}

/// `resonance dj simulate`: the closed-loop simulation written as a new workspace —
/// per-seed results, learning curves, the summary over seeds, the planted truth and
/// the planted song features (docs/dj.md, Simulation).
public struct DJSimulateStage: Stage {
    public var options: DJSimulationOptions

    public init(options: DJSimulationOptions) {
        self.options = options
    }

    public var name: String { "dj simulate" }
    public var version: String { "1.0.0" }
    public var reads: [String] { [] }
    public var writes: [String] {
        [DJSimulationRow.fileName, DJLearningCurveRow.fileName, DJSummaryRow.fileName, PlantedEffect.fileName, SongFeatureRow.fileName]
            + (options.logPropensities ? [DJPropensityRow.fileName, DJOPETruthRow.fileName] : [])
    }
    public var engines: [String] { ["state", "ranking", "impact", "song_effect", "sessions", "dj_learning"] + (options.logPropensities ? ["ope"] : []) }
    public var perSubject: Bool { false }
    public var createsWorkspace: Bool { true }

    public func run(_ ws: Workspace, _ context: StageContext) throws {
        let o = options
        for (key, value) in [("seed", "\(o.seed)"), ("seeds", "\(o.seeds)"), ("replicas", "\(o.replicas)"), ("days", "\(o.days)"),
                             ("songs", "\(o.songs)"), ("library_cap", "\(o.libraryCap)"), ("songs_per_session", "\(o.songsPerSession)"),
                             ("feature_relation", "\(o.featureRelation)"), ("world", o.world.rawValue),
                             ("state_variant", o.variant.rawValue)] {
            ws.session?.record(setting: key, value)
        }
        let runs = try ClosedLoop(options: o, registry: context.registry).run(jobs: context.jobs)
        let rows = DJSimulationTables.rows(runs), curve = DJSimulationTables.learningCurve(runs)
        try ws.write(rows)
        try ws.write(curve)
        try ws.write(DJSimulationTables.summary(rows, curve: curve))
        let worlds = (0..<o.seeds).map {
            SimulatedWorld(seed: o.seed &+ UInt64($0), songs: o.songs, featureRelation: o.featureRelation, world: o.world)
        }
        try ws.write(worlds.flatMap { $0.truth() })
        try ws.write(worlds.flatMap { $0.featureRows() })
        if o.logPropensities {
            ws.session?.record(setting: "log_propensities", "true")
            let logged = try ClosedLoop(options: o, registry: context.registry).propensityLog(jobs: context.jobs)
            try ws.write(logged.rows)
            try ws.write(logged.truth)
        }
        // A new workspace: its manifest names each generated table as a source.
        let note = "dj simulate --seed \(o.seed) --seeds \(o.seeds) --replicas \(o.replicas) --days \(o.days) --songs \(o.songs) --world \(o.world.rawValue)"
            + (o.logPropensities ? " --log-propensities" : "")
        ws.session?.replacement = Manifest(sources: try writes.map { name in
            SourceFile(path: name, sha256: try SHA256.hex(ofFile: try ws.output(name)), format: "dj simulate", notes: [note])
        })
        context.progress.note("dj simulate: \(o.seeds) seeds × \(PersonaProfile.all.count * o.replicas) listeners × \(o.days) days")
    }
}
