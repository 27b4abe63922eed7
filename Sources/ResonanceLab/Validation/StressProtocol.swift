import Foundation

/// The stress section's one scoring protocol (docs/methods.md, Stress scoring protocol):
/// every score — the stress engine's product formula and rolling methods, naive heart-rate
/// scores, the AI DJ's state with either input method, the latest raw heart rate — on the
/// same windows; Stroop + interview against baseline as the primary result, all tasks
/// secondary; the rolling method chosen, and the learned reference fitted, inside the
/// training subjects of each leave-one-subject-out fold (nested LOSO; Varma & Simon 2006),
/// so that the held-out subject's score never took part in a choice.
enum StressProtocol {
    /// Stress tasks left out of the primary result: hyperventilation is a breathing task
    /// that any respiration feature detects trivially.
    static let breathingTasks: Set<String> = ["hyperventilation"]
    /// The learned reference's ridge penalties λ, chosen per outer fold by inner LOSO.
    static let penalties = [0.001, 0.01, 0.1, 1, 10, 100]
    /// Inner folds of the penalty choice: the training subjects dealt round-robin (by
    /// their order) into this many groups, each held out in turn.
    static let innerFolds = 5

    /// The scores every window carries, in table order: key and label.
    static let scores: [(key: String, label: String)] = [
        ("engine", "stress engine, product formula (reference = first baseline interval)"),
        ("adaptive_range", "stress engine, method 1: personal adaptive reference range"),
        ("onset", "stress engine, method 2: HR onset"),
        ("beat_hrv", "stress engine, method 3: beat HRV with coverage confidence"),
        ("respiration", "stress engine, method 4: RSA respiration rate"),
        ("naive_hr", "naive: window HR"),
        ("naive_hr_centred", "naive: window HR centred on the subject's mean"),
        ("dj_stress", "DJ state: stress (specification inputs)"),
        ("dj_arousal", "DJ state: arousal (specification inputs)"),
        ("dj_personal_stress", "DJ state: stress (input_method 1, personal reference)"),
        ("dj_personal_arousal", "DJ state: arousal (input_method 1, personal reference)"),
        ("raw_hr", "naive: latest raw HR"),
    ]
    /// The held-out scores of the nested protocol.
    static let nestedScores: [(key: String, label: String)] = [
        ("nested_choice", "nested LOSO: rolling method chosen on the training subjects"),
        ("learned_reference", "nested LOSO: learned reference (ridge logistic, λ by inner CV)"),
    ]
    static let candidates = StressWindowMethod.rolling
    /// Paired per-subject AUC differences reported: (score, minus score).
    static let paired = [("dj_personal_stress", "raw_hr"), ("dj_stress", "raw_hr"), ("dj_personal_stress", "dj_stress"),
                         ("nested_choice", "naive_hr"),
                         ("learned_reference", "naive_hr"), ("adaptive_range", "naive_hr"), ("onset", "naive_hr")]

    /// One window of the protocol: its label and task, every score, the learned reference's features.
    struct Window {
        var stress: Bool
        var task: String
        var scores: [Double]
        var features: [Double]
    }

    /// The learned reference's features of one window: its HR (bpm) and HR − the mean HR
    /// of its rolling reference windows (bpm), the HR percentile (0–1), onset ΔHR (bpm),
    /// and the beat terms weighted by their presence — confidence × (½ − RMSSD
    /// percentile), respiration percentile − ½, ½ − SDNN percentile (0 when absent).
    static func features(_ p: StressWindowComponents, window w: StressWindowMeasures, reference r: StressReference) -> [Double] {
        let hr = w.hrBpm ?? 0, past = r.windows.compactMap(\.hrBpm)
        return [hr, past.isEmpty ? 0 : hr - Stats.mean(past), (p.hrPercentile ?? 50) / 100, p.onsetBpm ?? 0,
         p.hrvConfidence * (0.5 - (p.rmssdPercentile ?? 50) / 100),
         (p.respirationPercentile ?? 50) / 100 - 0.5,
         0.5 - (p.sdnnPercentile ?? 50) / 100]
    }

    /// The windows of every subject on which every score is defined; subjects in input order.
    static func windows(_ subjects: [StressSubject], series: [String: StateLabelScoring.Series],
                        registry: ConstantsRegistry) throws -> [[Window]] {
        let stress = StressConstants(registry: registry)
        let product = StressEngine(constants: stress)
        let state = StateConstants(registry: registry)
        let djSpec = DJStateEngine(constants: state)
        let djPersonal = DJStateEngine(constants: try StateConstants(registry: registry.replacing(StateConstants.spec.name, with: ["input_method": 1])))
        return subjects.map { s in
            let x = series[s.subject] ?? StateLabelScoring.Series()
            var out: [Window] = []
            for w in s.windows {
                guard let hr = w.signals.hrBpm,
                      let engine = StressWindowMode.assess(product, window: w.signals, reference: s.reference, subject: s.subject)
                else { continue }
                let parts = product.components(w.measures, reference: w.rolling)
                let rolling = candidates.compactMap { product.windowScore(parts, method: $0) }
                guard rolling.count == candidates.count,
                      let spec = StateLabelScoring.state(at: w.endMs, x, engine: djSpec),
                      let personal = StateLabelScoring.state(at: w.endMs, x, engine: djPersonal) else { continue }
                out.append(Window(stress: w.stress, task: w.task,
                                  scores: [engine.score] + rolling + [hr, hr, spec.state.stress, spec.state.arousal,
                                                                       personal.state.stress, personal.state.arousal, spec.latestHR],
                                  features: features(parts, window: w.measures, reference: w.rolling)))
            }
            // Centred HR: the window HR less the subject's mean over its windows.
            let k = scores.firstIndex { $0.key == "naive_hr_centred" } ?? 0
            if !out.isEmpty {
                let mean = out.reduce(0) { $0 + $1.scores[k] } / Double(out.count)
                for i in out.indices { out[i].scores[k] -= mean }
            }
            return out
        }
    }

    /// One score's per-subject windows (only subjects with both classes).
    static func groups(_ subjects: [[Window]], _ k: Int) -> [BinaryScores] {
        subjects.map { ws in
            var g = BinaryScores()
            for w in ws { g.append(w.scores[k], stress: w.stress) }
            return g
        }
    }

    /// Median over `subjects` (indices) of the per-subject AUC of score `k`.
    static func medianAUC(_ subjects: [[Window]], _ picks: [Int], score k: Int) -> Double {
        let aucs = picks.map { i in GroupComparison.auc(scores: subjects[i].map { $0.scores[k] }, isPositive: subjects[i].map(\.stress)) }
            .filter(\.isFinite)
        return aucs.isEmpty ? .nan : Stats.median(aucs)
    }

    /// The learned reference fitted on `train` with penalty λ.
    static func fit(_ subjects: [[Window]], _ train: [Int], lambda: Double) -> PenalisedLogistic {
        let rows = train.flatMap { subjects[$0] }
        return PenalisedLogistic(x: rows.map(\.features), y: rows.map(\.stress), lambda: lambda)
    }

    /// Nested LOSO over `subjects` (each with both classes): per outer fold, the rolling
    /// method with the highest median per-subject AUC on the training subjects (ties: the
    /// earlier method), and the learned reference with the λ whose inner cross-validated
    /// median per-subject AUC on the training subjects is highest (`innerFolds` folds of
    /// whole subjects; ties: the larger λ), both applied to the
    /// held-out subject. Returns per subject the held-out scores of both, the method and λ.
    static func nested(_ subjects: [[Window]], jobs: Int) throws
        -> [(choice: BinaryScores, learned: BinaryScores, method: StressWindowMethod, lambda: Double)] {
        let methodIndex = candidates.map { m in scores.firstIndex { $0.key == m.name } ?? 0 }
        return try Parallel.map(Array(subjects.indices), jobs: jobs) { i in
            let train = subjects.indices.filter { $0 != i }
            var best = 0, bestAUC = -Double.infinity
            for (c, k) in methodIndex.enumerated() {
                let a = medianAUC(subjects, train, score: k)
                if a > bestAUC { best = c; bestAUC = a }
            }
            var lambda = penalties[0], lambdaAUC = -Double.infinity
            let folds = min(innerFolds, train.count)
            for l in penalties {
                let inner = (0..<folds).flatMap { f -> [Double] in
                    let held = train.indices.filter { $0 % folds == f }.map { train[$0] }
                    let model = fit(subjects, train.filter { !held.contains($0) }, lambda: l)
                    return held.map { j in
                        GroupComparison.auc(scores: subjects[j].map { model.probability($0.features) }, isPositive: subjects[j].map(\.stress))
                    }
                }.filter(\.isFinite)
                let a = inner.isEmpty ? -Double.infinity : Stats.median(inner)
                if a >= lambdaAUC { lambda = l; lambdaAUC = a }
            }
            let model = fit(subjects, train, lambda: lambda)
            var choice = BinaryScores(), learned = BinaryScores()
            for w in subjects[i] {
                choice.append(w.scores[methodIndex[best]], stress: w.stress)
                learned.append(model.probability(w.features), stress: w.stress)
            }
            return (choice, learned, candidates[best], lambda)
        }
    }

    /// One score's AUCs: pooled and median per subject, each with its subject-bootstrap
    /// interval, and the per-subject AUCs.
    struct Summary {
        var pooled: Double, pooledCI: (Double, Double)
        var median: Double, medianCI: (Double, Double)
        var perSubject: [Double]
        var groups: [BinaryScores]

        init(_ groups: [BinaryScores]) {
            self.groups = groups
            let pairs = PooledAUC(groups)
            pooled = pairs.auc(Array(groups.indices))
            pooledCI = GroupComparison.bootstrapCI(clusters: groups.count) { pairs.auc($0) }
            perSubject = groups.map(\.auc)
            let finite = perSubject.filter(\.isFinite)
            median = finite.isEmpty ? .nan : Stats.median(finite)
            medianCI = GroupComparison.bootstrapCI(clusters: finite.count) { picks in Stats.median(picks.map { finite[$0] }) }
        }

        func json(label: String) -> JSONValue {
            let windows = BinaryScores.pooled(groups, Array(groups.indices))
            var o = StressAnalysis.aucJSON((pooled, pooledCI), (median, medianCI, perSubject.filter(\.isFinite).count), roc: windows)
            if case .object(var fields) = o {
                fields["label"] = .string(label)
                fields["per_subject"] = .array(perSubject.map { .num($0.isFinite ? $0 : nil) })
                o = .object(fields)
            }
            return o
        }
    }

    /// Mean paired difference of per-subject AUC (a − b) with its subject-bootstrap interval.
    static func pairedDifference(_ a: Summary, _ b: Summary) -> (mean: Double, ci: (Double, Double), subjects: Int, above: Int) {
        let d = zip(a.perSubject, b.perSubject).map { $0 - $1 }.filter(\.isFinite)
        let ci = GroupComparison.bootstrapCI(clusters: d.count) { picks in Stats.mean(picks.map { d[$0] }) }
        return (d.isEmpty ? .nan : Stats.mean(d), ci, d.count, d.filter { $0 > 0 }.count)
    }

    /// Paired difference of pooled AUC (a − b) over the same subjects' windows, with its
    /// subject-bootstrap interval: each resample draws subjects once and scores both on
    /// them. Pooled AUC ranks windows across people, as one threshold for everyone does
    /// (the DJ's need rules compare the state with fixed thresholds).
    static func pairedPooledDifference(_ a: Summary, _ b: Summary) -> (difference: Double, ci: (Double, Double)) {
        let x = PooledAUC(a.groups), y = PooledAUC(b.groups)
        let n = min(a.groups.count, b.groups.count)
        return (x.auc(Array(0..<n)) - y.auc(Array(0..<n)),
                GroupComparison.bootstrapCI(clusters: n) { picks in x.auc(picks) - y.auc(picks) })
    }

    /// The section's Markdown and JSON for the subjects' windows.
    static func report(_ all: [[Window]], subjectNames: [String], stress c: StressConstants, jobs: Int) throws -> (String, JSONValue) {
        var md = "\n### One protocol: every score on the same windows\n\n"
        let total = all.reduce(0) { $0 + $1.count }
        md += "The windows above on which every score below is defined (\(plural(total, "window"))): an HR, the engine's product score, "
            + "at least \(decimals(c.referenceMinWindows, 0)) windows of rolling reference (the \(decimals(c.referenceMinutes, 0)) min "
            + "before the window) and \(decimals(c.onsetMinutes, 0)) min of HR before it, and a DJ state at the window's end. "
            + "The rolling methods (`window_method` 1–4) and the DJ state use only the recording before each window and no label; "
            + "the product formula uses the labelled first baseline interval as its reference period, and centred HR the "
            + "subject's mean over all its windows. Primary: Stroop + interview against baseline (hyperventilation is a "
            + "breathing task); secondary: all tasks. *Nested* rows are held out: for each subject, the rolling method with "
            + "the highest median per-subject AUC on the other subjects, and a ridge logistic over the window's HR and the "
            + "rolling components (HR above the reference mean, HR percentile, onset ΔHR, beat RMSSD, respiration and SDNN terms) with λ ∈ {\(penalties.map { decimals($0, 3) }.joined(separator: ", "))} "
            + "chosen by \(innerFolds)-fold cross-validation over whole subjects inside the other subjects, then scored on the held-out subject. Intervals: "
            + "subject bootstrap, 2000 resamples, seeded.\n"
        var json: [String: JSONValue] = ["windows": .int(total), "subjects": .array(subjectNames.map(JSONValue.string))]
        // The primary's windows and JSON: the secondary keeps every window, so when it keeps
        // no more (no breathing-task windows) it is the same result, shown once.
        var primary: (windows: Int, json: JSONValue)?
        for (name, title, keep) in [("primary", "Primary: Stroop + interview vs baseline", { (w: Window) in !breathingTasks.contains(w.task) }),
                                    ("secondary", "Secondary: all tasks vs baseline", { (_: Window) in true })] {
            let kept = all.map { $0.filter(keep) }
            let usable = kept.indices.filter { i in kept[i].contains { $0.stress } && kept[i].contains { !$0.stress } }
            let subjects = usable.map { kept[$0] }
            if let primary, kept.reduce(0, { $0 + $1.count }) == primary.windows {
                md += "\n#### \(title)\n\nThe same windows as the primary result (none of a breathing task here), "
                    + "so the same scores and differences: the tables above.\n"
                json[name] = primary.json
                continue
            }
            var summaries: [String: Summary] = [:]
            for (k, s) in scores.enumerated() { summaries[s.key] = Summary(groups(subjects, k)) }
            let nested = try nested(subjects, jobs: jobs)
            summaries["nested_choice"] = Summary(nested.map(\.choice))
            summaries["learned_reference"] = Summary(nested.map(\.learned))
            let windows = subjects.reduce(0) { $0 + $1.count }
            md += "\n#### \(title) (\(plural(usable.count, "subject")), \(plural(windows, "window")))\n\n"
            var rows: [[String]] = []
            var scoreJSON: [String: JSONValue] = [:]
            for s in scores + nestedScores {
                guard let x = summaries[s.key] else { continue }
                rows.append([s.label, StressAnalysis.f(x.pooled), StressAnalysis.ci(x.pooledCI), StressAnalysis.f(x.median),
                             StressAnalysis.ci(x.medianCI), String(x.perSubject.filter(\.isFinite).count)])
                scoreJSON[s.key] = x.json(label: s.label)
            }
            md += markdownTable(["score", "pooled AUC", "95 % CI", "median per-subject AUC", "95 % CI", "subjects"], rows)
            var chosen: [String: Int] = [:], lambdas: [String: Int] = [:]
            for n in nested {
                chosen[n.method.name, default: 0] += 1
                lambdas[decimals(n.lambda, 3), default: 0] += 1
            }
            md += "\nMethod chosen in the \(plural(nested.count, "outer fold")): "
                + chosen.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "`\($0.key)` \($0.value)" }.joined(separator: ", ")
                + "; learned reference λ: " + lambdas.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ") + ".\n"
            md += "\nPaired differences (subject bootstrap): the mean of per-subject AUC differences, and the difference of pooled AUCs:\n\n"
            var pairRows: [[String]] = [], pairJSON: [JSONValue] = []
            for (a, b) in paired {
                guard let x = summaries[a], let y = summaries[b] else { continue }
                let d = pairedDifference(x, y), p = pairedPooledDifference(x, y)
                pairRows.append(["\(a) − \(b)", StressAnalysis.f(d.mean), StressAnalysis.ci(d.ci), "\(d.above) / \(d.subjects)",
                                 StressAnalysis.f(p.difference), StressAnalysis.ci(p.ci)])
                pairJSON.append(.object(["score": .string(a), "minus": .string(b), "mean_difference": .num(d.mean.isFinite ? d.mean : nil),
                                         "ci_low": .num(d.ci.0.isFinite ? d.ci.0 : nil), "ci_high": .num(d.ci.1.isFinite ? d.ci.1 : nil),
                                         "subjects": .int(d.subjects), "subjects_above": .int(d.above),
                                         "pooled_difference": .num(p.difference.isFinite ? p.difference : nil),
                                         "pooled_ci_low": .num(p.ci.0.isFinite ? p.ci.0 : nil),
                                         "pooled_ci_high": .num(p.ci.1.isFinite ? p.ci.1 : nil)]))
            }
            md += markdownTable(["difference", "mean ΔAUC per subject", "95 % CI", "subjects with Δ > 0", "Δ pooled AUC", "95 % CI"], pairRows)
            json[name] = .object([
                "subjects": .array(usable.map { .string(subjectNames[$0]) }), "windows": .int(windows),
                "scores": .object(scoreJSON), "paired": .array(pairJSON),
                "chosen_methods": .array(nested.map { .string($0.method.name) }),
                "learned_lambdas": .array(nested.map { .num($0.lambda) }),
            ])
            primary = (kept.reduce(0) { $0 + $1.count }, json[name] ?? .null)
        }
        return (md, .object(json))
    }
}
