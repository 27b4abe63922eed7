import Foundation

/// Report section for paced breathing (docs/methods.md, Breathing): the paced
/// intervals and each subject's assessed resonance rate by criterion when
/// `breathing.csv` has rows; the pacer strategies' results, and the session record the
/// product stores beside what its fields promise, when a simulation ran.
/// Nothing otherwise.
public enum BreathingAnalysis {
    public static let analysis: ValidationAnalysis = { ws in try section(ws) }

    /// The tables the section reads.
    public static let reads = [BreathingInterval.fileName, ResonanceChoiceRow.fileName, SimulationSummaryRow.fileName,
                               SimulationWinRow.fileName, SessionRecordRow.fileName]

    static func f(_ x: Double, _ digits: Int = 2) -> String {
        guard x.isFinite else { return "–" }
        return String(format: "%.\(digits)f", x)
    }

    static func section(_ ws: Workspace) throws -> ReportSection? {
        let paced = try ws.read(BreathingInterval.self), summary = try ws.read(SimulationSummaryRow.self)
        guard !paced.isEmpty || !summary.isEmpty else { return nil }
        var md = "", json: [String: JSONValue] = [:]
        if !paced.isEmpty {
            let subjects = Set(paced.map(\.subject))
            md += "Paced intervals: \(paced.count) for \(plural(subjects.count, "subject")), rates "
                + Set(paced.map(\.rateBpm)).sorted().map { f($0, 1) }.joined(separator: ", ") + " breaths/min.\n"
            json["paced_intervals"] = .int(paced.count)
            json["paced_subjects"] = .int(subjects.count)
            let choices = try ws.read(ResonanceChoiceRow.self)
            if !choices.isEmpty {
                md += "\nResonance rate chosen by each criterion (`breathing_resonance.csv`):\n\n"
                    + "| subject | criterion | rate (breaths/min) | runner-up | margin | at edge |\n|---|---|---|---|---|---|\n"
                for c in choices {
                    md += "| \(c.subject) | \(c.criterion) | \(f(c.rateBpm, 1)) | \(c.runnerUpRateBpm.map { f($0, 1) } ?? "–") "
                        + "| \(f(c.margin)) | \(c.atEdge ? "yes" : "no") |\n"
                }
                json["resonance"] = .array(choices.map {
                    .object(["subject": .string($0.subject), "criterion": .string($0.criterion), "rate_bpm": .num($0.rateBpm),
                             "runner_up_rate_bpm": .num($0.runnerUpRateBpm), "margin": .num($0.margin), "at_edge": .bool($0.atEdge)])
                })
            }
        }
        if !summary.isEmpty {
            let metrics = ["error_bpm", "abs_error_bpm", "within_0_5", "lock_s", "coherence_reached", "amplitude_share"]
            let world = try BreathingSimulation.world(of: ws)
            json["pacer_world"] = .string(world.rawValue)
            md += (md.isEmpty ? "" : "\n") + "Adaptive pacer, simulated closed loop in the `\(world.rawValue)` world "
                + "(`breathing_sim_summary.csv`; mean [95 % interval over seeds]; the truth is the planted resonance rate, a flat curve's plateau in its world):\n\n"
                + "| strategy | sessions | error (bpm) | abs error (bpm) | within ±0.5/min | lock (s) | coherence reached | amplitude share |\n"
                + "|---|---|---|---|---|---|---|---|\n"
            var strategies: [String] = []
            for r in summary where !strategies.contains(r.strategy) { strategies.append(r.strategy) }
            var rows: [JSONValue] = []
            for s in strategies {
                let mine = summary.filter { $0.strategy == s }
                let cells = metrics.map { m -> String in
                    guard let r = mine.first(where: { $0.metric == m }) else { return "–" }
                    return "\(f(r.mean)) [\(f(r.ciLow)), \(f(r.ciHigh))]"
                }
                md += "| \(s) | \(mine.first?.sessions ?? 0) | " + cells.joined(separator: " | ") + " |\n"
                var object: [String: JSONValue] = ["strategy": .string(s), "sessions": .int(mine.first?.sessions ?? 0),
                                                   "seeds": .int(mine.first?.seeds ?? 0)]
                for r in mine {
                    object[r.metric] = .object(["mean": .num(r.mean), "ci_low": .num(r.ciLow), "ci_high": .num(r.ciHigh)])
                }
                rows.append(.object(object))
            }
            json["pacer_simulation"] = .array(rows)
            let wins = try ws.read(SimulationWinRow.self)
            if !wins.isEmpty {
                md += "\nBest strategy against the runner-up per metric (`breathing_sim_wins.csv`; mean per-seed difference "
                    + "[95 % interval over seeds]; it wins when the interval excludes 0):\n\n"
                    + "| metric | best | runner-up | difference | wins |\n|---|---|---|---|---|\n"
                for w in wins {
                    md += "| \(w.metric) | \(w.best) | \(w.runnerUp) | \(f(w.difference, 3)) [\(f(w.ciLow, 3)), \(f(w.ciHigh, 3))] "
                        + "| \(w.wins ? "yes" : "no") |\n"
                }
                json["pacer_wins"] = .array(wins.map {
                    .object(["metric": .string($0.metric), "best": .string($0.best), "runner_up": .string($0.runnerUp),
                             "difference": .num($0.difference), "ci_low": .num($0.ciLow), "ci_high": .num($0.ciHigh),
                             "wins": .bool($0.wins)])
                })
            }
        }
        let records = try ws.read(SessionRecordRow.self)
        if !records.isEmpty {
            md += "\nThe session record as the product stores it, beside what its fields promise "
                + "(`breathing_sim_records.csv`; means over sessions):\n\n"
                + "| strategy | sessions | stored averageRMSSD (ms) | mean 30-s RMSSD (ms) | stored peakCoherence | "
                + "highest coherence | stored rate − resonance, abs (bpm) | watch − R-R coherence, abs |\n"
                + "|---|---|---|---|---|---|---|---|\n"
            var strategies: [String] = []
            for r in records where !strategies.contains(r.strategy) { strategies.append(r.strategy) }
            var rows: [JSONValue] = []
            for s in strategies {
                let mine = records.filter { $0.strategy == s }
                let means: [(String, Double)] = [
                    ("recorded_average_rmssd_ms", Stats.mean(mine.map(\.recordedAverageRMSSDMs))),
                    ("mean_rmssd_ms", Stats.mean(mine.map(\.meanRMSSDMs))),
                    ("recorded_peak_coherence", Stats.mean(mine.map(\.recordedPeakCoherence))),
                    ("peak_coherence", Stats.mean(mine.map(\.peakCoherence))),
                    ("recorded_rate_abs_error_bpm", Stats.mean(mine.map { abs($0.recordedResonanceRateBpm - $0.resonanceRateBpm) })),
                    ("coherence_mean_abs_diff", Stats.mean(mine.map(\.coherenceMeanAbsDifference))),
                ]
                md += "| \(s) | \(mine.count) | " + means.enumerated().map { i, m in f(m.1, i < 2 ? 1 : 3) }
                    .joined(separator: " | ") + " |\n"
                var object: [String: JSONValue] = ["strategy": .string(s), "sessions": .int(mine.count)]
                for (name, value) in means { object[name] = .num(value) }
                rows.append(.object(object))
            }
            json["session_record"] = .array(rows)
        }
        return ReportSection(title: "Breathing", markdown: md, json: .object(json), key: "breathing")
    }
}
