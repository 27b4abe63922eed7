import Foundation

/// Report section for the AI DJ (docs/dj.md): the replay's hit rates and direct-method
/// value when `dj replay` ran, the closed-loop simulation's policies when `dj simulate`
/// ran. Nothing otherwise. (The 30-s state on labelled stress is in the stress section,
/// beside the stress engine's window score.)
public enum DJAnalysis {
    public static let analysis: ValidationAnalysis = { ws in try section(ws) }

    /// The tables the section reads.
    public static let reads = [DJReplaySummaryRow.fileName, DJSummaryRow.fileName]

    static func f(_ x: Double?, _ digits: Int = 2) -> String {
        guard let x, x.isFinite else { return "–" }
        return String(format: "%.\(digits)f", x)
    }

    static func interval(_ r: DJSummaryRow?, _ digits: Int = 2) -> String {
        guard let r, r.mean != nil else { return "–" }
        return r.ciLow == nil ? f(r.mean, digits) : "\(f(r.mean, digits)) [\(f(r.ciLow, digits)), \(f(r.ciHigh, digits))]"
    }

    static func section(_ ws: Workspace) throws -> ReportSection? {
        let replay = try ws.read(DJReplaySummaryRow.self), simulation = try ws.read(DJSummaryRow.self)
        guard !replay.isEmpty || !simulation.isEmpty else { return nil }
        var md = "", json: [String: JSONValue] = [:]
        if !replay.isEmpty {
            md += replaySection(replay)
            var byNeed: [String: [String: JSONValue]] = [:]
            for r in replay { byNeed[r.need, default: [:]][r.metric] = .num(r.value) }
            json["replay"] = .object(byNeed.mapValues { .object($0) })
        }
        if !simulation.isEmpty {
            md += (md.isEmpty ? "" : "\n") + simulationSection(simulation)
            json["simulation"] = .array(simulation.map {
                .object(["policy": .string($0.policy), "need": .string($0.need), "metric": .string($0.metric), "seeds": .int($0.seeds),
                         "mean": .num($0.mean), "ci_low": .num($0.ciLow), "ci_high": .num($0.ciHigh)])
            })
        }
        return ReportSection(title: "AI DJ", markdown: md, json: .object(json), key: "dj")
    }

    static func replaySection(_ rows: [DJReplaySummaryRow]) -> String {
        func value(_ need: String, _ metric: String) -> Double? { rows.first { $0.need == need && $0.metric == metric }?.value }
        var needs: [String] = []
        for r in rows where !needs.contains(r.need) { needs.append(r.need) }
        let table = needs.filter { (value($0, "decisions") ?? 0) > 0 }.map { need -> [String] in
            [need, f(value(need, "decisions"), 0), f(value(need, "top1_rate"), 3), f(value(need, "top5_rate"), 3),
             f(value(need, "top10_rate"), 3), f(value(need, "dm_delta_hr_bpm")) + " (\(f(value(need, "dm_decisions_hr"), 0)))",
             f(value(need, "dm_delta_rmssd_ms")) + " (\(f(value(need, "dm_decisions_rmssd"), 0)))"]
        }
        return "Replay on logged listening (`dj_decisions.csv`, `dj_replay_summary.csv`): at every play, the DJ's ranking "
            + "of the listener's earlier songs from what was known before it. Hit rates measure agreement with the listener's "
            + "own choices, not quality. The direct-method value is the learned ΔHR (ΔRMSSD) of the DJ's pick minus that of "
            + "the played song, over the decisions where both have one (count in brackets); without logged propensities it "
            + "cannot be importance-weighted and is optimistic (the DJ ranks by the same noisy estimates).\n\n"
            + markdownTable(["need", "decisions", "top 1", "top 5", "top 10", "DM ΔHR (bpm)", "DM ΔRMSSD (ms)"], table)
    }

    /// helps / hurts / does nothing for a difference where lower is better.
    static func verdict(_ r: DJSummaryRow?) -> String {
        guard let lo = r?.ciLow, let hi = r?.ciHigh else { return "–" }
        return hi < 0 ? "helps" : lo > 0 ? "hurts" : "does nothing"
    }

    static func simulationSection(_ rows: [DJSummaryRow]) -> String {
        func row(_ policy: String, _ need: String, _ metric: String) -> DJSummaryRow? {
            rows.first { $0.policy == policy && $0.need == need && $0.metric == metric }
        }
        let seeds = rows.map(\.seeds).max() ?? 0
        var md = "Closed-loop simulation (`dj_simulation_summary.csv`, docs/dj.md): every policy on the same simulated "
            + "listeners, days and noise; mean over \(plural(seeds, "seed")) [95 % Student-t interval, seed = unit]. Realised ΔHR "
            + "(bpm per play, measured as the sessions stage measures it): calm should lower it, energize raise it.\n\n"
        let needs = MusicNeed.allCases.map(\.rawValue).filter { row("dj", $0, "mean_delta_hr_bpm")?.mean != nil }
        md += markdownTable(["need", "DJ", "random", "most-played", "learned effect", "oracle", "bayes", "thompson", "hybrid", "DJ − random",
                             "DJ − most-played"], needs.map { n in
            [n] + DJPolicy.allCases.map { interval(row($0.rawValue, n, "mean_delta_hr_bpm")) }
                + ["dj_minus_random", "dj_minus_most_played"].map { interval(row($0, n, "mean_delta_hr_bpm")) }
        })
        let shared = DJSimulationTables.pairs.filter { $0.1 == .random }.map { "\($0.0.rawValue)_minus_random" }
        if shared.contains(where: { row($0, "all", "shared_mean_regret_bpm")?.mean != nil }) {
            md += "\nLike for like: every policy's pick at the shared decision points (the random policy's decisions: the same "
                + "listener, time, state, need and history), policy − random; a policy helps where the interval excludes 0 on the "
                + "good side (lower regret, lower calm ΔHR), hurts on the other:\n\n"
            md += markdownTable(["policy − random", "regret, all needs (bpm)", "verdict", "calm: planted ΔHR (bpm)", "verdict"], shared.map { p in
                let regret = row(p, "all", "shared_mean_regret_bpm"), calm = row(p, "calm", "shared_mean_planted_delta_hr_bpm")
                return [p, interval(regret), verdict(regret), interval(calm), verdict(calm)]
            })
        }
        md += "\nRegret against the best song of the library (planted need fulfilment, bpm), skip rate and BPM step between songs, per policy and need:\n\n"
        var table: [[String]] = []
        for policy in DJPolicy.allCases.map(\.rawValue) {
            for n in needs {
                table.append([policy, n, interval(row(policy, n, "mean_regret_bpm")), interval(row(policy, n, "skip_rate"), 3),
                              interval(row(policy, n, "mean_bpm_step"), 1)])
            }
        }
        md += markdownTable(["policy", "need", "regret (bpm)", "skip rate", "BPM step"], table)
        md += "\nSlope of daily regret over the simulated days (bpm/day; negative: the policy learns):\n\n"
        md += markdownTable(["policy", "regret slope"], (DJPolicy.allCases.map(\.rawValue) + DJSimulationTables.pairs.map { "\($0.0.rawValue)_minus_\($0.1.rawValue)" })
            .compactMap { p in row(p, "all", "regret_slope_bpm_per_day").map { [p, interval($0, 3)] } })
        return md
    }
}
