import Foundation

/// Classification of windows by a score against their stress labels.
public struct BinaryScores: Sendable {
    public var scores: [Double] = []
    public var isStress: [Bool] = []

    public init() {}

    public mutating func append(_ score: Double, stress: Bool) {
        scores.append(score); isStress.append(stress)
    }

    public var auc: Double { GroupComparison.auc(scores: scores, isPositive: isStress) }

    /// Sensitivity, specificity and their mean (balanced accuracy) of `score ≥ threshold`.
    public func confusion(threshold: Double) -> (sensitivity: Double, specificity: Double, balancedAccuracy: Double) {
        var tp = 0, fn = 0, tn = 0, fp = 0
        for (s, y) in zip(scores, isStress) {
            switch (y, s >= threshold) {
            case (true, true): tp += 1
            case (true, false): fn += 1
            case (false, true): fp += 1
            case (false, false): tn += 1
            }
        }
        let sens = tp + fn > 0 ? Double(tp) / Double(tp + fn) : .nan
        let spec = tn + fp > 0 ? Double(tn) / Double(tn + fp) : .nan
        return (sens, spec, (sens + spec) / 2)
    }

    /// Windows of the subjects `picks` (indices into `bySubject`, repeats allowed) pooled.
    static func pooled(_ bySubject: [BinaryScores], _ picks: [Int]) -> BinaryScores {
        var out = BinaryScores()
        for i in picks {
            out.scores += bySubject[i].scores
            out.isStress += bySubject[i].isStress
        }
        return out
    }
}

/// Pooled AUC of any multiset of subjects from per-pair Mann–Whitney counts: the U of
/// subject i's stress windows against subject j's baseline windows, computed once, so
/// that a bootstrap resample costs O(subjects²) instead of a sort of every window. The
/// result equals the AUC of the pooled windows exactly.
struct PooledAUC {
    let wins: [[Double]]
    let positives: [Double]
    let negatives: [Double]

    init(_ groups: [BinaryScores]) {
        let split = groups.map { g in
            (zip(g.scores, g.isStress).filter(\.1).map(\.0), zip(g.scores, g.isStress).filter { !$0.1 }.map(\.0))
        }
        wins = split.map { a in split.map { b in GroupComparison.mannWhitneyU(a.0, b.1) ?? 0 } }
        positives = split.map { Double($0.0.count) }
        negatives = split.map { Double($0.1.count) }
    }

    /// AUC of the subjects `picks` (repeats allowed) pooled.
    func auc(_ picks: [Int]) -> Double {
        var counts = [Double](repeating: 0, count: wins.count)
        for i in picks { counts[i] += 1 }
        var u = 0.0, p = 0.0, n = 0.0
        for i in counts.indices where counts[i] > 0 {
            p += counts[i] * positives[i]
            n += counts[i] * negatives[i]
            for j in counts.indices where counts[j] > 0 { u += counts[i] * counts[j] * wins[i][j] }
        }
        return p > 0 && n > 0 ? u / (p * n) : .nan
    }
}

/// The stress section of `resonance validate`: how well the stress engine, run in
/// window mode (`StressWindowMode`), tells labelled stress windows from baseline ones,
/// next to naive heart-rate scores on the same windows, the within-subject effect
/// sizes of HR and HRV, and a per-task test of the heart-rate response.
public enum StressAnalysis {
    /// The product specification's effect sizes (Cohen's d, stress vs rest), measured on
    /// an exam-stress dataset.
    static let claimedHRD = 2.10, claimedHRVD = 1.31
    /// The dataset paper's finding for the interview task (Iqbal et al. 2022, §3.1):
    /// heart rate changed significantly in 27 of 35 participants.
    static let paperInterview = (significant: 27, participants: 35)

    public static func analysis(registry: ConstantsRegistry, options: StressScoringOptions = .init(),
                                jobs: Int = 1) -> ValidationAnalysis {
        { ws in try section(ws, registry: registry, options: options, jobs: jobs) }
    }

    /// One subject's windows as the engine and the naive scores see them.
    struct Scored {
        var subject: String
        var engine = BinaryScores()
        var elevated = BinaryScores()
        var hr = BinaryScores()
        var windows: [StressWindow] = []
        var scoredWindows = 0
    }

    static func score(_ subjects: [StressSubject], engine: StressEngine) -> [Scored] {
        subjects.map { s in
            var out = Scored(subject: s.subject, windows: s.windows)
            for w in s.windows {
                // The engine's `window_method`: the product formula against the reference
                // period, or a rolling method against the window's own past.
                let score = engine.constants.method == .product
                    ? StressWindowMode.assess(engine, window: w.signals, reference: s.reference, subject: s.subject)?.score
                    : engine.windowScore(engine.components(w.measures, reference: w.rolling), method: engine.constants.method)
                if let score {
                    out.engine.append(score, stress: w.stress)
                    out.elevated.append(engine.level(score) == .elevated ? 1 : 0, stress: w.stress)
                    out.scoredWindows += 1
                }
                if let hr = w.signals.hrBpm { out.hr.append(hr, stress: w.stress) }
            }
            return out
        }
    }

    static func section(_ ws: Workspace, registry: ConstantsRegistry, options: StressScoringOptions,
                        jobs: Int) throws -> ReportSection? {
        var options = options
        options.rr = registry.rr
        options.maxArtifactPct = registry.hrv.maxArtifactPct
        let stressConstants = StressConstants(registry: registry)
        let subjects = try StressWindows.load(ws, options: options, stress: stressConstants, jobs: jobs)
        guard !subjects.isEmpty else { return nil }
        let engine = StressEngine(constants: stressConstants)
        let scored = score(subjects, engine: engine)
        let rules = Array(Set(subjects.map(\.referenceRule))).sorted()
        var md = introduction(options: options, registry: registry, stress: stressConstants, rules: rules)
        let (countsMD, countsJSON) = counts(scored)
        md += countsMD
        let (discriminationMD, aucJSON) = discrimination(scored)
        md += discriminationMD
        let (designMD, designJSON) = StressDesign.report(subjects, options: options, breathingTasks: StressProtocol.breathingTasks)
        md += designMD
        let series = try StateLabelScoring.series(ws, registry: registry).series
        let beats = try StateLabelScoring.series(ws, registry: registry.replacing(StateConstants.spec.name, with: ["hr_input": 1])).series
        let (protocolMD, protocolJSON) = try StressProtocol.report(
            try StressProtocol.windows(subjects, series: series, registry: registry),
            design: try StressProtocol.windows(subjects, series: series, beatSeries: beats, registry: registry, design: true),
            subjectNames: subjects.map(\.subject), stress: stressConstants, jobs: jobs)
        md += protocolMD
        let (elevatedMD, elevatedJSON) = elevatedLevel(scored)
        md += elevatedMD
        let (effectsMD, effectsJSON) = effectSizes(scored)
        md += effectsMD
        let (taskMD, taskJSON) = perTask(scored)
        md += taskMD
        var json = countsJSON
        json["window_s"] = .num(options.windowSeconds)
        json["step_s"] = .num(options.stepSeconds)
        json["reference_rules"] = .array(rules.map(JSONValue.string))
        json["auc"] = aucJSON
        json["design"] = designJSON
        json["protocol"] = protocolJSON
        json["score_distribution"] = scoreDistribution(pooled(scored, \.engine), relaxedBelow: engine.constants.relaxedBelow,
                                                       elevatedFrom: engine.constants.elevatedFrom)
        json["elevated"] = elevatedJSON
        json["cohens_d"] = effectsJSON
        json["tasks"] = taskJSON
        return ReportSection(title: "Stress scoring", markdown: md, json: .object(json), key: "stress")
    }

    /// The section's opening paragraph: the windows, the engine and its method, HRV's
    /// reliability rule, the reference periods used (`rules`) and the intervals.
    static func introduction(options: StressScoringOptions, registry: ConstantsRegistry, stress: StressConstants,
                             rules: [String]) -> String {
        """
            Windows of \(decimals(options.windowSeconds, 0)) s every \(decimals(options.stepSeconds, 0)) s inside `stress` and \
            `baseline` intervals of `labels.csv`, scored by the stress engine (\(StressConstants.spec.name)@\
            \(registry.engines[StressConstants.spec.name]?.version ?? StressConstants.spec.version), `window_method` \
            \(stress.method.name); the rows below are the product formula in window mode unless another method is \
            given) in window mode: the window's \
            mean HR is the engine's current heart rate, its SDNN the HRV (only when at most \
            \(decimals(options.maxArtifactPct, 0)) % of its beats are corrected or missing; otherwise HRV is missing and the \
            engine re-weights over the signals it has), and each subject's personal baseline is a reference period tiled into \
            windows of the same length. The reference period is the subject's first baseline interval, else the first \
            \(decimals(options.fallbackReferenceMinutes, 0)) min of the heart-rate recording; it is never scored \
            (used here: \(rules.joined(separator: "; "))). Confidence intervals are percentile bootstraps over subjects \
            (2000 resamples, seeded).


            """
    }

    /// The subjects' and windows' counts: Markdown table and JSON fields.
    static func counts(_ scored: [Scored]) -> (String, [String: JSONValue]) {
        let windows = scored.reduce(0) { $0 + $1.windows.count }
        let scoredCount = scored.reduce(0) { $0 + $1.scoredWindows }
        let stressWindows = scored.reduce(0) { $0 + $1.engine.isStress.filter { $0 }.count }
        let withHRV = scored.reduce(0) { $0 + $1.windows.filter { $0.signals.sdnnMs != nil }.count }
        let share: Double? = scoredCount > 0 ? Double(stressWindows) / Double(scoredCount) : nil
        let md = markdownTable(["subjects", "windows", "scored by the engine", "with reliable HRV", "stress share of scored"], [[
            String(scored.count), String(windows), String(scoredCount), String(withHRV), f(share ?? .nan),
        ]])
        return (md, ["subjects": .int(scored.count), "windows": .int(windows), "scored_windows": .int(scoredCount),
                     "windows_with_hrv": .int(withHRV), "stress_share": .num(share)])
    }

    /// Each subject's scores of `key`, less the subject's mean when `centred`.
    static func subjectScores(_ scored: [Scored], _ key: KeyPath<Scored, BinaryScores>, centred: Bool) -> [BinaryScores] {
        scored.map { s -> BinaryScores in
            var g = s[keyPath: key]
            if centred && !g.scores.isEmpty {
                let m = Stats.mean(g.scores)
                g.scores = g.scores.map { $0 - m }
            }
            return g
        }
    }

    /// Every subject's scores of `key` in one pool.
    static func pooled(_ scored: [Scored], _ key: KeyPath<Scored, BinaryScores>, centred: Bool = false) -> BinaryScores {
        BinaryScores.pooled(subjectScores(scored, key, centred: centred), Array(scored.indices))
    }

    /// The engine's and the naive scores' pooled and per-subject AUCs: Markdown and JSON.
    static func discrimination(_ scored: [Scored]) -> (String, JSONValue) {
        func pooledAUC(_ key: KeyPath<Scored, BinaryScores>, centred: Bool = false) -> (Double, (Double, Double)) {
            let groups = subjectScores(scored, key, centred: centred)
            let pairs = PooledAUC(groups)
            let ci = GroupComparison.bootstrapCI(clusters: groups.count) { pairs.auc($0) }
            return (pairs.auc(Array(groups.indices)), ci)
        }
        func subjectAUC(_ key: KeyPath<Scored, BinaryScores>) -> (Double, (Double, Double), Int) {
            let aucs = scored.map { $0[keyPath: key].auc }.filter(\.isFinite)
            let ci = GroupComparison.bootstrapCI(clusters: aucs.count) { picks in Stats.median(picks.map { aucs[$0] }) }
            return (aucs.isEmpty ? .nan : Stats.median(aucs), ci, aucs.count)
        }
        let enginePooled = pooledAUC(\.engine), engineSubject = subjectAUC(\.engine)
        let hrPooled = pooledAUC(\.hr), hrCentred = pooledAUC(\.hr, centred: true), hrSubject = subjectAUC(\.hr)
        var md = "\n### Discrimination (ROC AUC, stress vs baseline windows)\n\n"
        md += markdownTable(["score", "pooled AUC", "95 % CI", "median per-subject AUC", "95 % CI", "subjects"], [
            ["stress engine", f(enginePooled.0), ci(enginePooled.1), f(engineSubject.0), ci(engineSubject.1), String(engineSubject.2)],
            ["naive: window HR", f(hrPooled.0), ci(hrPooled.1), f(hrSubject.0), ci(hrSubject.1), String(hrSubject.2)],
            ["naive: HR centred on the subject mean", f(hrCentred.0), ci(hrCentred.1), f(hrSubject.0), ci(hrSubject.1), String(hrSubject.2)],
        ])
        md += "\nPer subject, centring does not change the order of a subject's windows, so both naive scores have the same per-subject AUC.\n"
        return (md, .object([
            "engine": aucJSON(enginePooled, engineSubject, roc: pooled(scored, \.engine)),
            "naive_hr": aucJSON(hrPooled, hrSubject, roc: pooled(scored, \.hr)),
            "naive_hr_centred": aucJSON(hrCentred, hrSubject, roc: pooled(scored, \.hr, centred: true)),
        ]))
    }

    /// The `elevated` level as a classifier of the pooled windows: Markdown and JSON.
    static func elevatedLevel(_ scored: [Scored]) -> (String, JSONValue) {
        let elevated = BinaryScores.pooled(scored.map(\.elevated), Array(scored.indices)).confusion(threshold: 1)
        var md = "\n### The `elevated` level as a stress detector (pooled windows)\n\n"
        md += markdownTable(["balanced accuracy", "sensitivity", "specificity"], [[
            f(elevated.balancedAccuracy), f(elevated.sensitivity), f(elevated.specificity),
        ]])
        return (md, .object(["balanced_accuracy": .num(elevated.balancedAccuracy), "sensitivity": .num(elevated.sensitivity),
                             "specificity": .num(elevated.specificity)]))
    }

    /// Cohen's d of HR, RMSSD and SDNN within subject (stress − baseline windows; Cohen
    /// 1988), summarised over subjects beside the specification's claims: Markdown and JSON.
    static func effectSizes(_ scored: [Scored]) -> (String, JSONValue) {
        var effects: [String: JSONValue] = [:]
        var effectRows: [[String]] = []
        for (name, value, claim) in [("HR", { (w: StressWindow) in w.signals.hrBpm }, claimedHRD),
                                     ("RMSSD", { (w: StressWindow) in w.rmssdMs }, -claimedHRVD),
                                     ("SDNN", { (w: StressWindow) in w.signals.sdnnMs }, -claimedHRVD)] {
            let ds = scored.map { s in
                GroupComparison.cohensD(s.windows.filter(\.stress).compactMap(value), s.windows.filter { !$0.stress }.compactMap(value))
            }.filter(\.isFinite)
            let median = ds.isEmpty ? Double.nan : Stats.median(ds)
            let interval = GroupComparison.bootstrapCI(clusters: ds.count) { picks in Stats.median(picks.map { ds[$0] }) }
            effectRows.append([name, String(ds.count), f(median), ci(interval), f(ds.isEmpty ? .nan : Stats.mean(ds)), f(claim)])
            effects[name] = .object(["subjects": .int(ds.count), "median_d": .num(median), "ci_low": .num(interval.0),
                                     "ci_high": .num(interval.1), "mean_d": .num(ds.isEmpty ? nil : Stats.mean(ds)),
                                     "claimed_d": .num(claim)])
        }
        var md = "\n### Effect sizes within subject (Cohen's d, stress − baseline windows)\n\n"
        md += "Per subject, d = (mean over stress windows − mean over baseline windows) / pooled SD of the windows "
            + "(Cohen 1988); summarised over subjects. HRV indices use windows with reliable R-R only. The product "
            + "specification claims HR d = 2.10 and HRV d = 1.31 (HRV lower under stress), measured on an exam-stress dataset.\n\n"
        md += markdownTable(["signal", "subjects", "median d", "95 % CI", "mean d", "claimed d"], effectRows)
        return (md, .object(effects))
    }

    /// Per task, the share of subjects whose window HR differs from their own baseline
    /// windows: two-sided Mann–Whitney U (normal approximation, tie and continuity
    /// corrections), α = 0.05, on non-overlapping windows only (overlapping windows are
    /// not independent).
    static func perTask(_ scored: [Scored]) -> (String, JSONValue) {
        var order: [String] = []
        for s in scored { for w in s.windows where w.stress && !order.contains(w.task) { order.append(w.task) } }
        var rows: [[String]] = []
        var json: [JSONValue] = []
        for task in order {
            var tested = 0, significant = 0, up = 0
            var deltas: [Double] = []
            for s in scored {
                let a = nonOverlapping(s.windows.filter { $0.task == task }).compactMap(\.signals.hrBpm)
                let b = nonOverlapping(s.windows.filter { !$0.stress }).compactMap(\.signals.hrBpm)
                guard !a.isEmpty, b.count >= 2 else { continue }
                tested += 1
                let p = GroupComparison.mannWhitneyP(a, b)
                if p < 0.05 { significant += 1 }
                let delta = Stats.mean(a) - Stats.mean(b)
                if delta > 0 { up += 1 }
                deltas.append(delta)
            }
            let share = tested > 0 ? Double(significant) / Double(tested) : .nan
            let paper = task == "interview"
                ? "\(paperInterview.significant) of \(paperInterview.participants) (\(f(Double(paperInterview.significant) / Double(paperInterview.participants) * 100, 0)) %)"
                : "–"
            rows.append([task, String(tested), String(significant), f(share * 100, 0), String(up),
                         f(deltas.isEmpty ? .nan : Stats.median(deltas), 1), paper])
            json.append(.object([
                "task": .string(task), "subjects_tested": .int(tested), "subjects_significant": .int(significant),
                "share_significant": .num(share), "subjects_hr_up": .int(up),
                "median_hr_change_bpm": .num(deltas.isEmpty ? nil : Stats.median(deltas)),
                "paper_significant": task == "interview" ? .int(paperInterview.significant) : .null,
                "paper_participants": task == "interview" ? .int(paperInterview.participants) : .null,
            ]))
        }
        var md = "\n### Heart-rate response per task\n\n"
        md += "Stress intervals are named by the protocol's task order when a subject has one stress interval per task "
            + "(Stress-Predict: Stroop, interview, hyperventilation; Iqbal et al. 2022), else numbered. Per subject and task, "
            + "the HR of the task's windows is compared with the HR of the subject's own baseline windows (the reference "
            + "period excluded) by a two-sided Mann–Whitney U test (normal approximation with tie and continuity "
            + "corrections), α = 0.05, on non-overlapping windows. The paper reports the interview changing HR "
            + "significantly in 27 of its 35 participants (its test on its data; this workspace holds "
            + "\(plural(scored.count, "labelled subject"))).\n\n"
        md += markdownTable(["task", "subjects tested", "significant", "% significant", "HR up", "median ΔHR (bpm)", "paper"], rows)
        return (md, .array(json))
    }

    /// Windows in time order, each starting at or after the end of the previous one kept.
    static func nonOverlapping(_ windows: [StressWindow]) -> [StressWindow] {
        var out: [StressWindow] = []
        for w in windows.sorted(by: { $0.startMs < $1.startMs }) where out.last.map({ w.startMs >= $0.endMs }) ?? true {
            out.append(w)
        }
        return out
    }

    /// The AUCs of one score, and the ROC curve of its pooled windows as `[[fpr, tpr], …]`
    /// (`GroupComparison.rocCurve`: one point per distinct score, from (0, 0) to (1, 1)).
    static func aucJSON(_ pooled: (Double, (Double, Double)), _ subject: (Double, (Double, Double), Int),
                        roc windows: BinaryScores) -> JSONValue {
        let curve = GroupComparison.rocCurve(positive: zip(windows.scores, windows.isStress).filter(\.1).map(\.0),
                                             negative: zip(windows.scores, windows.isStress).filter { !$0.1 }.map(\.0))
        return .object([
            "roc": .array(curve.map { .array([.num($0.fpr), .num($0.tpr)]) }),
            "pooled": .num(pooled.0), "pooled_ci_low": .num(pooled.1.0), "pooled_ci_high": .num(pooled.1.1),
            "subject_median": .num(subject.0), "subject_ci_low": .num(subject.1.0), "subject_ci_high": .num(subject.1.1),
            "subjects": .int(subject.2),
        ])
    }

    /// Width (score points) of the bins of `scoreDistribution`.
    static let scoreBinWidth = 5.0

    /// The engine score (0–100) of the pooled windows by label: counts per 5-point bin
    /// [lo, lo + 5) (the last bin also holds 100), and per label the count and the 5th,
    /// 25th, 50th, 75th and 95th percentiles (type 7), beside the engine's level thresholds.
    static func scoreDistribution(_ windows: BinaryScores, relaxedBelow: Double, elevatedFrom: Double) -> JSONValue {
        let bins = Int(100 / scoreBinWidth)
        func side(_ stress: Bool) -> (counts: JSONValue, quantiles: JSONValue) {
            let x = zip(windows.scores, windows.isStress).filter { $0.1 == stress }.map(\.0)
            var counts = [Int](repeating: 0, count: bins)
            for s in x where s.isFinite { counts[min(bins - 1, max(0, Int((s / scoreBinWidth).rounded(.down))))] += 1 }
            var q: [String: JSONValue] = ["n": .int(x.count)]
            for p in [5, 25, 50, 75, 95] { q["p\(p)"] = .num(x.isEmpty ? nil : Stats.quantile(x, Double(p) / 100)) }
            return (.array(counts.map(JSONValue.int)), .object(q))
        }
        let stress = side(true), baseline = side(false)
        return .object([
            "score": .string("engine"), "bin_width": .num(scoreBinWidth),
            "bin_low": .array((0..<bins).map { .num(Double($0) * scoreBinWidth) }),
            "counts": .object(["stress": stress.counts, "baseline": baseline.counts]),
            "quantiles": .object(["stress": stress.quantiles, "baseline": baseline.quantiles]),
            "relaxed_below": .num(relaxedBelow), "elevated_from": .num(elevatedFrom),
        ])
    }

    static func f(_ x: Double, _ digits: Int = 3) -> String {
        x.isFinite ? decimals(x, digits) : "–"
    }

    static func ci(_ c: (Double, Double)) -> String {
        c.0.isFinite && c.1.isFinite ? "\(decimals(c.0, 3))–\(decimals(c.1, 3))" : "–"
    }
}
