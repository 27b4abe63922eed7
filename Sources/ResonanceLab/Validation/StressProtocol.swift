import Foundation

/// The stress section's one scoring protocol (docs/methods.md, Stress scoring protocol):
/// every score — the stress engine's product formula and rolling methods, naive heart-rate
/// scores, the AI DJ's state with either input method, the latest raw heart rate — on the
/// same windows; the transition design (`StressDesign.primary`) as the primary result, every
/// window of Stroop + interview and of all tasks against baseline beside it, each score with
/// the time-only controls and after a label-blind detrend; the rolling method chosen, and
/// the learned reference fitted, inside the
/// training subjects of each leave-one-subject-out fold (nested LOSO; Varma & Simon 2006),
/// so that the held-out subject's score never took part in a choice.
enum StressProtocol {
    /// Stress tasks left out of every Stroop + interview window set: hyperventilation is a
    /// breathing task that any respiration feature detects trivially.
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
        ("pulse_hr", "stress engine, method 5: pulse-wave HR"),
        ("pulse_hrv", "stress engine, method 6: pulse-wave HR and RMSSD"),
        ("scl", "stress engine, method 7: skin conductance level"),
        ("scr", "stress engine, method 8: phasic responses"),
        ("skin_temp", "stress engine, method 9: skin temperature change"),
        ("pulse_scl", "stress engine, method 10: pulse-wave HR and skin conductance level"),
    ]
    /// The held-out scores of the nested protocol.
    static let nestedScores: [(key: String, label: String)] = [
        ("nested_choice", "nested LOSO: rolling method chosen on the training subjects"),
        ("learned_reference", "nested LOSO: learned reference (ridge logistic, λ by inner CV)"),
        ("ppg_choice", "PPG wristband, nested LOSO: method chosen on the training subjects"),
        ("ppg_learned", "PPG wristband, nested LOSO: learned reference"),
        ("ppg_eda_choice", "PPG + EDA wristband, nested LOSO: method chosen on the training subjects"),
        ("ppg_eda_learned", "PPG + EDA wristband, nested LOSO: learned reference"),
    ]
    static let candidates = StressWindowMethod.rolling
    /// The rolling methods every window carries: the HR methods, then the channel methods.
    static let allMethods = candidates + StressWindowMethod.pulseWave + StressWindowMethod.skin
    /// A device's channels: the key of its nested scores, its candidate methods and the
    /// learned reference's features (a prefix of `features`).
    struct Profile: Sendable {
        var key: String, label: String
        var methods: [StressWindowMethod]
        var features: Int
    }
    /// The nested scores' profiles: the heart-rate methods alone (the E4's HR.csv and the
    /// beats of rr_combined.csv), a PPG wristband (pulse wave + accelerometer) and a PPG + EDA
    /// wristband (pulse wave, accelerometer, skin conductance and temperature).
    static let profiles = [
        Profile(key: "nested", label: "heart rate", methods: candidates, features: 7),
        Profile(key: "ppg", label: "PPG wristband", methods: candidates + StressWindowMethod.pulseWave, features: 10),
        Profile(key: "ppg_eda", label: "PPG + EDA wristband", methods: allMethods, features: 15),
    ]
    /// The time-only controls reported beside every score (`StressDesign`): two label-blind
    /// clocks and the clock fitted on the other subjects' labels.
    static let controlScores: [(key: String, label: String)] = [
        ("control_elapsed", "control: elapsed time (label-blind)"),
        ("control_middle", "control: closeness to the session's middle (label-blind)"),
        ("control_clock", "control: clock fitted on the other subjects' labels (LOSO)"),
    ]
    /// Paired per-subject AUC differences reported: (score, minus score).
    static let paired = [("dj_personal_stress", "raw_hr"), ("dj_stress", "raw_hr"), ("dj_personal_stress", "dj_stress"),
                         ("nested_choice", "naive_hr"),
                         ("learned_reference", "naive_hr"), ("adaptive_range", "naive_hr"), ("onset", "naive_hr"),
                         ("raw_hr", "control_clock"), ("naive_hr", "control_clock"),
                         ("ppg_choice", "raw_hr"), ("ppg_eda_choice", "ppg_choice"),
                         ("ppg_learned", "raw_hr"), ("ppg_eda_learned", "ppg_learned")]

    /// The product engines fed the detected beats (`window_input` 1, `hr_input` 1; on
    /// Stress-Predict the pulse wave's reliable beats), each window's values in this order.
    static let beatInputScores: [(key: String, label: String)] = [
        ("engine_beats", "stress engine, product formula, HR and SDNN from the pulse wave's beats (window_input 1)"),
        ("dj_beats_stress", "DJ state: stress, HR and HRV from the pulse wave's beats (hr_input 1)"),
        ("dj_beats_personal_stress", "DJ state: stress (input_method 1), HR from the pulse wave's beats (hr_input 1)"),
        ("beats_raw_hr", "naive: latest HR of the pulse wave's beats"),
    ]
    /// The input comparison's scores in table order: the device-input scores it is paired
    /// with (keys of `scores`), then `beatInputScores`.
    static let inputComparison = ["raw_hr", "engine", "dj_stress", "dj_personal_stress"]
    /// The input comparison's paired differences: each engine on the beats against raw HR
    /// and against itself on the device's inputs.
    static let inputPaired = [("engine_beats", "raw_hr"), ("dj_beats_stress", "raw_hr"), ("dj_beats_personal_stress", "raw_hr"),
                              ("beats_raw_hr", "raw_hr"), ("engine_beats", "engine"), ("dj_beats_stress", "dj_stress"),
                              ("dj_beats_personal_stress", "dj_personal_stress")]

    /// One window of the protocol: its label and task, every score, the learned reference's
    /// features, and its time-only controls (`StressDesign`: seconds from the session's start
    /// to its middle; minus its middle's distance in seconds from the session's middle).
    struct Window {
        var stress: Bool
        var task: String
        var scores: [Double]
        var features: [Double]
        var elapsedSeconds = 0.0
        var middleCloseness = 0.0
        /// The window's channels: pulse-wave HR present, skin conductance present, the
        /// phasic responses in it, dominated by movement.
        var pulse = false, eda = false, responses = 0.0, moving = false
        /// The `beatInputScores` of a primary-design window, nil where any is undefined.
        var beatInputs: [Double]?

        /// The value of score `key` (of `scores` or `beatInputScores`); nil when absent.
        func value(_ key: String) -> Double? {
            if let k = StressProtocol.scores.firstIndex(where: { $0.key == key }) { return scores[k] }
            guard let k = StressProtocol.beatInputScores.firstIndex(where: { $0.key == key }) else { return nil }
            return beatInputs?[k]
        }
    }

    /// The learned reference's features of one window: its HR (bpm) and HR − the mean HR
    /// of its rolling reference windows (bpm), the HR percentile (0–1), onset ΔHR (bpm),
    /// and the beat terms weighted by their presence — confidence × (½ − RMSSD
    /// percentile), respiration percentile − ½, ½ − SDNN percentile (0 when absent); then
    /// the pulse wave's and accelerometer's: pulse HR percentile − ½, ½ − pulse RMSSD
    /// percentile, motion (g); then the skin's: SCL percentile − ½, phasic rate and
    /// amplitude percentiles − ½, ½ − temperature change percentile, SCL − the reference
    /// windows' mean SCL (µS).
    static func features(_ p: StressWindowComponents, window w: StressWindowMeasures, reference r: StressReference) -> [Double] {
        let hr = w.hrBpm ?? 0, past = r.windows.compactMap(\.hrBpm)
        func centred(_ x: Double?) -> Double { ((x ?? 50) - 50) / 100 }
        let scl = r.windows.compactMap(\.channels.sclMicroS)
        return [hr, past.isEmpty ? 0 : hr - Stats.mean(past), (p.hrPercentile ?? 50) / 100, p.onsetBpm ?? 0,
         p.hrvConfidence * (0.5 - (p.rmssdPercentile ?? 50) / 100),
         (p.respirationPercentile ?? 50) / 100 - 0.5,
         0.5 - (p.sdnnPercentile ?? 50) / 100,
         centred(p.pulseHRPercentile), -centred(p.pulseRMSSDPercentile), w.channels.motionG ?? 0,
         centred(p.sclPercentile), centred(p.scrPercentile), centred(p.scrAmplitudePercentile), -centred(p.tempChangePercentile),
         scl.isEmpty ? 0 : (w.channels.sclMicroS ?? Stats.mean(scl)) - Stats.mean(scl)]
    }

    /// The windows of every subject on which every score is defined, of every labelled
    /// interval or (`design`) of the primary design; subjects in input order.
    static func windows(_ subjects: [StressSubject], series: [String: StateLabelScoring.Series],
                        beatSeries: [String: StateLabelScoring.Series] = [:],
                        registry: ConstantsRegistry, design: Bool = false) throws -> [[Window]] {
        let stress = StressConstants(registry: registry)
        let product = StressEngine(constants: stress)
        let state = StateConstants(registry: registry)
        let djSpec = DJStateEngine(constants: state)
        let djPersonal = DJStateEngine(constants: try StateConstants(registry: registry.replacing(StateConstants.spec.name, with: ["input_method": 1])))
        return subjects.map { s in
            let x = series[s.subject] ?? StateLabelScoring.Series()
            let session = (start: s.sessionStartMs, end: s.sessionEndMs)
            var out: [Window] = []
            for w in design ? s.design : s.windows {
                guard let hr = w.signals.hrBpm,
                      let engine = StressWindowMode.assess(product, window: w.signals, reference: design ? s.designReference : s.reference,
                                                           subject: s.subject)
                else { continue }
                let parts = product.components(w.measures, reference: w.rolling)
                let rolling = allMethods.compactMap { product.windowScore(parts, method: $0) }
                guard rolling.count == allMethods.count,
                      let spec = StateLabelScoring.state(at: w.endMs, x, engine: djSpec),
                      let personal = StateLabelScoring.state(at: w.endMs, x, engine: djPersonal) else { continue }
                out.append(Window(stress: w.stress, task: w.task,
                                  scores: scoreRow(engine: engine.score, rolling: rolling, hr: hr, spec: spec, personal: personal),
                                  features: features(parts, window: w.measures, reference: w.rolling),
                                  elapsedSeconds: StressDesign.elapsedSeconds(w.startMs, w.endMs, session: session),
                                  middleCloseness: StressDesign.middleCloseness(w.startMs, w.endMs, session: session),
                                  pulse: w.measures.channels.pulseHRBpm != nil, eda: w.measures.channels.sclMicroS != nil,
                                  responses: (w.measures.channels.scrPerMin ?? 0) * Double(w.endMs - w.startMs) / 60_000,
                                  moving: parts.moving,
                                  beatInputs: design ? beatInputs(w, s, beatSeries[s.subject], product: product, spec: djSpec,
                                                                  personal: djPersonal) : nil))
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

    /// A primary-design window's `beatInputScores`: the product formula on the detected
    /// beats' HR and SDNN against the design's reference tiles measured the same way, the DJ
    /// state from the beats' series with either input method, and the beats' latest HR; nil
    /// where any is undefined (no reliable beats in the window or the state's HR window).
    static func beatInputs(_ w: StressWindow, _ s: StressSubject, _ beats: StateLabelScoring.Series?, product: StressEngine,
                           spec: DJStateEngine, personal: DJStateEngine) -> [Double]? {
        guard let beats, w.beatSignals.hrBpm != nil,
              let engine = StressWindowMode.assess(product, window: w.beatSignals, reference: s.designBeatReference, subject: s.subject),
              let a = StateLabelScoring.state(at: w.endMs, beats, engine: spec),
              let b = StateLabelScoring.state(at: w.endMs, beats, engine: personal) else { return nil }
        return [engine.score, a.state.stress, b.state.stress, a.latestHR]
    }

    /// A window's scores in `scores` order: the product formula, the HR methods, the naive
    /// scores and the DJ states, then the channel methods (`rolling` in `allMethods` order).
    static func scoreRow(engine: Double, rolling: [Double], hr: Double, spec: (state: DJState, latestHR: Double),
                         personal: (state: DJState, latestHR: Double)) -> [Double] {
        let naive: [Double] = [hr, hr, spec.state.stress, spec.state.arousal, personal.state.stress, personal.state.arousal, spec.latestHR]
        return [engine] + Array(rolling.prefix(candidates.count)) + naive + Array(rolling.dropFirst(candidates.count))
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

    /// The learned reference fitted on `train` with penalty λ over the first `features` features.
    static func fit(_ subjects: [[Window]], _ train: [Int], lambda: Double, features: Int) -> PenalisedLogistic {
        let rows = train.flatMap { subjects[$0] }
        return PenalisedLogistic(x: rows.map { Array($0.features.prefix(features)) }, y: rows.map(\.stress), lambda: lambda)
    }

    /// Nested LOSO over `subjects` (each with both classes): per outer fold, the rolling
    /// method with the highest median per-subject AUC on the training subjects (ties: the
    /// earlier method), and the learned reference with the λ whose inner cross-validated
    /// median per-subject AUC on the training subjects is highest (`innerFolds` folds of
    /// whole subjects; ties: the larger λ), both applied to the
    /// held-out subject. Returns per subject the held-out scores of both, the method and λ.
    static func nested(_ subjects: [[Window]], profile: Profile, jobs: Int) throws
        -> [(choice: BinaryScores, learned: BinaryScores, method: StressWindowMethod, lambda: Double)] {
        let candidates = profile.methods, n = profile.features
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
                    let model = fit(subjects, train.filter { !held.contains($0) }, lambda: l, features: n)
                    return held.map { j in
                        GroupComparison.auc(scores: subjects[j].map { model.probability(Array($0.features.prefix(n))) },
                                            isPositive: subjects[j].map(\.stress))
                    }
                }.filter(\.isFinite)
                let a = inner.isEmpty ? -Double.infinity : Stats.median(inner)
                if a >= lambdaAUC { lambda = l; lambdaAUC = a }
            }
            let model = fit(subjects, train, lambda: lambda, features: n)
            var choice = BinaryScores(), learned = BinaryScores()
            for w in subjects[i] {
                choice.append(w.scores[methodIndex[best]], stress: w.stress)
                learned.append(model.probability(Array(w.features.prefix(n))), stress: w.stress)
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

        /// The AUCs, ROC curve and per-subject AUCs, with those of the same score after the detrend.
        func json(label: String, detrended d: Summary) -> JSONValue {
            let windows = BinaryScores.pooled(groups, Array(groups.indices))
            var o = StressAnalysis.aucJSON((pooled, pooledCI), (median, medianCI, perSubject.filter(\.isFinite).count), roc: windows)
            if case .object(var fields) = o {
                fields["label"] = .string(label)
                fields["per_subject"] = .array(perSubject.map { .num($0) })
                fields["detrended_subject_median"] = .num(d.median)
                fields["detrended_subject_ci_low"] = .num(d.medianCI.0)
                fields["detrended_subject_ci_high"] = .num(d.medianCI.1)
                fields["detrended_per_subject"] = .array(d.perSubject.map { .num($0) })
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

    /// Per subject, a value of each of its windows against the windows' labels.
    static func groups(_ subjects: [[Window]], value: (Window) -> Double) -> [BinaryScores] {
        subjects.map { ws in
            var g = BinaryScores()
            for w in ws { g.append(value(w), stress: w.stress) }
            return g
        }
    }

    /// The groups' scores less each subject's least-squares line on elapsed time
    /// (`StressDesign.detrended`); `groups[i]` holds the scores of `subjects[i]`'s windows in order.
    static func detrended(_ groups: [BinaryScores], _ subjects: [[Window]]) -> [BinaryScores] {
        zip(groups, subjects).map { g, ws in
            var d = g
            d.scores = StressDesign.detrended(g.scores, elapsed: ws.map(\.elapsedSeconds))
            return d
        }
    }

    /// Every score's, nested score's and control's summary on `subjects` (each with both
    /// classes), raw and after the label-blind detrend, and the nested folds' choices.
    static func summaries(_ subjects: [[Window]], jobs: Int) throws
        -> (raw: [String: Summary], detrended: [String: Summary], chosen: [String: (methods: [String], lambdas: [Double])]) {
        var all: [String: [BinaryScores]] = [:]
        for (k, s) in scores.enumerated() { all[s.key] = groups(subjects, k) }
        var chosen: [String: (methods: [String], lambdas: [Double])] = [:]
        for p in profiles {
            let nested = try nested(subjects, profile: p, jobs: jobs)
            all[p.key == "nested" ? "nested_choice" : p.key + "_choice"] = nested.map(\.choice)
            all[p.key == "nested" ? "learned_reference" : p.key + "_learned"] = nested.map(\.learned)
            chosen[p.key] = (nested.map(\.method.name), nested.map(\.lambda))
        }
        all["control_elapsed"] = groups(subjects) { $0.elapsedSeconds }
        all["control_middle"] = groups(subjects) { $0.middleCloseness }
        let clock = StressDesign.fittedClock(subjects.map { $0.map { (elapsed: $0.elapsedSeconds, stress: $0.stress) } })
        all["control_clock"] = zip(clock, subjects).map { c, ws in
            var g = BinaryScores()
            for (x, w) in zip(c, ws) { g.append(x, stress: w.stress) }
            return g
        }
        return (all.mapValues { Summary($0) }, all.mapValues { Summary(detrended($0, subjects)) }, chosen)
    }

    /// The paired differences' table rows and JSON: per-subject (raw and detrended) and pooled.
    static func pairs(_ raw: [String: Summary], _ flat: [String: Summary],
                      _ list: [(String, String)] = paired) -> ([[String]], [JSONValue]) {
        var rows: [[String]] = [], json: [JSONValue] = []
        for (a, b) in list {
            guard let x = raw[a], let y = raw[b], let dx = flat[a], let dy = flat[b] else { continue }
            let d = pairedDifference(x, y), p = pairedPooledDifference(x, y), t = pairedDifference(dx, dy)
            rows.append(["\(a) − \(b)", StressAnalysis.f(d.mean), StressAnalysis.ci(d.ci), "\(d.above) / \(d.subjects)",
                         StressAnalysis.f(p.difference), StressAnalysis.ci(p.ci), StressAnalysis.f(t.mean), StressAnalysis.ci(t.ci)])
            json.append(.object(["score": .string(a), "minus": .string(b), "mean_difference": .num(d.mean),
                                 "ci_low": .num(d.ci.0), "ci_high": .num(d.ci.1),
                                 "subjects": .int(d.subjects), "subjects_above": .int(d.above),
                                 "pooled_difference": .num(p.difference), "pooled_ci_low": .num(p.ci.0), "pooled_ci_high": .num(p.ci.1),
                                 "detrended_mean_difference": .num(t.mean), "detrended_ci_low": .num(t.ci.0),
                                 "detrended_ci_high": .num(t.ci.1)]))
        }
        return (rows, json)
    }

    /// One window set's Markdown and JSON: every score's and control's AUCs, raw and after
    /// the label-blind detrend, the nested folds' choices and the paired differences.
    static func part(_ subjects: [[Window]], names: [String], title: String, verdict: Bool = false,
                     jobs: Int) throws -> (String, JSONValue) {
        let (raw, flat, chosen) = try summaries(subjects, jobs: jobs)
        let windows = subjects.reduce(0) { $0 + $1.count }
        var md = "\n#### \(title) (\(plural(subjects.count, "subject")), \(plural(windows, "window")))\n\n"
        let (table, scoreJSON) = scoreTable(scores + nestedScores + controlScores, raw, flat)
        md += table
        var profileJSON: [String: JSONValue] = [:]
        for p in profiles {
            let (line, json) = profileSummary(p, subjects, chosen[p.key] ?? ([], []))
            md += line
            profileJSON[p.key] = json
        }
        md += "\nPaired differences (subject bootstrap): the mean of per-subject AUC differences, the difference of pooled "
            + "AUCs, and the mean of per-subject differences after the detrend:\n\n"
        let (pairRows, pairJSON) = pairs(raw, flat)
        md += markdownTable(["difference", "mean ΔAUC per subject", "95 % CI", "subjects with Δ > 0", "Δ pooled AUC", "95 % CI",
                             "mean ΔAUC detrended", "95 % CI"], pairRows)
        if verdict { md += profileVerdicts(raw) }
        let heart = chosen["nested"] ?? ([], [])
        return (md, .object(["subjects": .array(names.map(JSONValue.string)), "windows": .int(windows),
                             "scores": .object(scoreJSON), "paired": .array(pairJSON), "profiles": .object(profileJSON),
                             "chosen_methods": .array(heart.methods.map(JSONValue.string)),
                             "learned_lambdas": .array(heart.lambdas.map { .num($0) })]))
    }

    /// The AUC table of `list`'s scores present in `raw` (and `flat`, after the detrend):
    /// Markdown, and each score's JSON by key.
    static func scoreTable(_ list: [(key: String, label: String)], _ raw: [String: Summary],
                           _ flat: [String: Summary]) -> (String, [String: JSONValue]) {
        var rows: [[String]] = [], json: [String: JSONValue] = [:]
        for s in list {
            guard let x = raw[s.key], let d = flat[s.key] else { continue }
            rows.append([s.label, StressAnalysis.f(x.pooled), StressAnalysis.ci(x.pooledCI), StressAnalysis.f(x.median),
                         StressAnalysis.ci(x.medianCI), StressAnalysis.f(d.median), StressAnalysis.ci(d.medianCI),
                         String(x.perSubject.filter(\.isFinite).count)])
            json[s.key] = x.json(label: s.label, detrended: d)
        }
        return (markdownTable(["score", "pooled AUC", "95 % CI", "median per-subject AUC", "95 % CI",
                               "detrended median per-subject AUC", "95 % CI", "subjects"], rows), json)
    }

    /// The verdict per device profile on the primary design, from its held-out scores: what
    /// each profile's chosen method reaches against raw HR, what EDA adds to the pulse wave,
    /// each paired per subject with its interval, the learned reference as the ceiling, and
    /// what each needs.
    static func profileVerdicts(_ raw: [String: Summary]) -> String {
        func auc(_ k: String) -> String {
            guard let x = raw[k] else { return "–" }
            return "\(StressAnalysis.f(x.median)) (\(StressAnalysis.ci(x.medianCI)))"
        }
        func difference(_ a: String, _ b: String) -> (text: String, above: Bool) {
            guard let x = raw[a], let y = raw[b] else { return ("–", false) }
            let d = pairedDifference(x, y)
            return ("\(StressAnalysis.f(d.mean)) (\(StressAnalysis.ci(d.ci)); \(d.above) of \(d.subjects) subjects above)", d.ci.0 > 0)
        }
        let ppg = difference("ppg_choice", "raw_hr"), eda = difference("ppg_eda_choice", "ppg_choice")
        return "\n*Verdict per device profile* (median per-subject AUC, held out; paired per-subject differences with "
            + "subject-bootstrap intervals). *PPG wristband* (pulse wave + accelerometer): the method chosen inside the "
            + "training folds reaches \(auc("ppg_choice")) against \(auc("raw_hr")) for the device's raw HR; paired "
            + "\(ppg.text): " + (ppg.above ? "above raw HR, so it can ship" : "its interval does not lie above 0, so it is not shown to beat raw HR")
            + "; its learned reference, the ceiling of these features, \(auc("ppg_learned")). It needs the raw pulse wave "
            + "and the accelerometer (not a watch API's heart-rate samples) and the person's last minutes of history for "
            + "its reference. *PPG + EDA wristband* (all four channels): \(auc("ppg_eda_choice")); over the PPG wristband "
            + "\(eda.text): " + (eda.above ? "EDA adds to the pulse wave" : "EDA adds nothing measurable beyond the pulse wave here")
            + "; learned reference \(auc("ppg_eda_learned")). It needs skin conductance as well. Neither is judged against the "
            + "clock fitted on the other subjects' labels (\(auc("control_clock"))), which no product has.\n"
    }

    /// The product engines on the detected beats (`beatInputScores`) against raw HR and
    /// against themselves on the device's inputs, on the primary design's windows where every
    /// one is defined (subjects with both classes there), with the label-blind controls on
    /// the same windows: Markdown and JSON; nil when no subject has such windows of both classes.
    static func beatInputPart(_ design: [[Window]], names: [String]) -> (String, JSONValue)? {
        let kept = design.map { $0.filter { $0.beatInputs != nil } }
        let usable = kept.indices.filter { i in kept[i].contains(where: \.stress) && kept[i].contains { !$0.stress } }
        guard !usable.isEmpty else { return nil }
        let subjects = usable.map { kept[$0] }
        var raw: [String: Summary] = [:], flat: [String: Summary] = [:]
        func add(_ key: String, _ g: [BinaryScores]) { raw[key] = Summary(g); flat[key] = Summary(detrended(g, subjects)) }
        let labels = scores.filter { inputComparison.contains($0.key) } + beatInputScores
        for s in labels { add(s.key, groups(subjects) { $0.value(s.key) ?? .nan }) }
        add("control_elapsed", groups(subjects) { $0.elapsedSeconds })
        add("control_middle", groups(subjects) { $0.middleCloseness })
        let windows = subjects.reduce(0) { $0 + $1.count }, all = design.reduce(0) { $0 + $1.count }
        var md = "\n#### The engines on the pulse wave's beats (primary design: \(plural(subjects.count, "subject")), "
            + "\(windows) of its \(all) windows)\n\n"
            + "The product formula and the DJ state keep their formulas and take heart rate and HRV from the reliable beats "
            + "detected in the pulse wave (`beats.csv`; the stress engine's `window_input` 1, the state engine's `hr_input` 1) "
            + "instead of the device's heart-rate samples; scored on the primary design's windows where every one of them is "
            + "defined, beside the same engines on the device's inputs and raw HR on the same windows.\n\n"
        let (table, scoreJSON) = scoreTable(labels + controlScores, raw, flat)
        md += table + "\n"
        let (pairRows, pairJSON) = pairs(raw, flat, inputPaired)
        md += markdownTable(["difference", "mean ΔAUC per subject", "95 % CI", "subjects with Δ > 0", "Δ pooled AUC", "95 % CI",
                             "mean ΔAUC detrended", "95 % CI"], pairRows)
        return (md, .object(["subjects": .array(usable.map { .string(names[$0]) }), "windows": .int(windows),
                             "design_windows": .int(all), "scores": .object(scoreJSON), "paired": .array(pairJSON)]))
    }

    /// One profile's line and JSON: the methods and λ chosen in the outer folds, the
    /// subjects with pulse-wave beats and with skin conductance in some window, the EDA
    /// non-responders (skin conductance but no phasic response in any window) and the
    /// windows the motion gate scores 50.
    static func profileSummary(_ p: Profile, _ subjects: [[Window]], _ chosen: (methods: [String], lambdas: [Double]))
        -> (String, JSONValue) {
        var counts: [String: Int] = [:], lambdaCounts: [String: Int] = [:]
        for m in chosen.methods { counts[m, default: 0] += 1 }
        for l in chosen.lambdas { lambdaCounts[decimals(l, 3), default: 0] += 1 }
        let pulse = subjects.filter { $0.contains(where: \.pulse) }.count
        let eda = subjects.filter { $0.contains(where: \.eda) }
        let nonResponders = eda.filter { $0.allSatisfy { $0.responses == 0 } }.count
        let moving = subjects.reduce(0) { $0 + $1.filter(\.moving).count }
        var md = "\n\(p.label): method chosen in the \(plural(chosen.methods.count, "outer fold")): "
            + counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "`\($0.key)` \($0.value)" }.joined(separator: ", ")
            + "; learned reference (\(plural(p.features, "feature"))) λ: "
            + lambdaCounts.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ") + "."
        if p.key != "nested" {
            md += " Subjects with pulse-wave beats: \(pulse); with skin conductance: \(eda.count), of them "
                + "\(plural(nonResponders, "non-responder")) (no phasic response in any window); windows the motion gate scores 50: \(moving)."
        }
        return (md + "\n", .object(["label": .string(p.label), "methods": .array(p.methods.map { .string($0.name) }),
                                    "features": .int(p.features), "chosen_methods": .array(chosen.methods.map(JSONValue.string)),
                                    "learned_lambdas": .array(chosen.lambdas.map { .num($0) }), "subjects_pulse": .int(pulse),
                                    "subjects_eda": .int(eda.count), "eda_non_responders": .int(nonResponders),
                                    "moving_windows": .int(moving)]))
    }

    /// The section's Markdown and JSON: the primary design's windows (`design`), and every
    /// window of the labelled intervals (`all`) with and without the breathing task.
    static func report(_ all: [[Window]], design: [[Window]], subjectNames: [String], stress c: StressConstants,
                       jobs: Int) throws -> (String, JSONValue) {
        var md = "\n### One protocol: every score on the same windows\n\n"
        let total = all.reduce(0) { $0 + $1.count }
        md += "The windows on which every score below is defined (\(plural(total, "window"))): an HR, the engine's product score, "
            + "at least \(decimals(c.referenceMinWindows, 0)) windows of rolling reference (the \(decimals(c.referenceMinutes, 0)) min "
            + "before the window) and \(decimals(c.onsetMinutes, 0)) min of HR before it, and a DJ state at the window's end. "
            + "The rolling methods (`window_method` 1–10: 1–4 from heart rate and R-R, 5–10 from the pulse wave's reliable "
            + "beats, the accelerometer's motion gate, skin conductance and temperature) and the DJ state use only the "
            + "recording before each window and no label; "
            + "the product formula uses the labelled first baseline interval as its reference period (on the primary design, "
            + "its part before the design's first window), and centred HR the subject's mean over its windows. Primary: the "
            + "transition design (the design above: Stroop and interview starts and ends); beside it, every window of "
            + "Stroop + interview against baseline, and of all tasks, both confounded with the session's clock. Beside every "
            + "score, the time-only controls on the same windows, and every AUC again after a label-blind per-subject "
            + "detrend (the score less its least-squares line on elapsed time). *Nested* rows are held out: for each subject, "
            + "the rolling method with the highest median per-subject AUC on the other subjects, and a ridge logistic over "
            + "the window's HR and the rolling components (HR above the reference mean, HR percentile, onset ΔHR, beat RMSSD, "
            + "respiration and SDNN terms) with λ ∈ {\(penalties.map { decimals($0, 3) }.joined(separator: ", "))} chosen by "
            + "\(innerFolds)-fold cross-validation over whole subjects inside the other subjects, then scored on the held-out "
            + "subject. Each device profile nests the same way over its own methods and features: heart rate (methods "
            + "1–4, the features above), the PPG wristband (methods 1–6; with the pulse-wave HR and RMSSD percentiles and "
            + "the motion) and the PPG + EDA wristband (methods 1–10; with the skin conductance level, phasic responses and "
            + "temperature change). Intervals: subject bootstrap, 2000 resamples, seeded.\n"
        var json: [String: JSONValue] = ["windows": .int(total), "subjects": .array(subjectNames.map(JSONValue.string))]
        // A window set that keeps no more windows than the one before it (no breathing-task
        // windows: all tasks are Stroop + interview) is the same result, shown once.
        var previous: (windows: Int, json: JSONValue)?
        for (name, title, kept) in [
            ("primary", "Primary: the transition design, Stroop + interview", design),
            ("every_window", "Stroop + interview vs baseline, every window", all.map { $0.filter { !breathingTasks.contains($0.task) } }),
            ("secondary", "Secondary: all tasks vs baseline, every window", all),
        ] {
            let count = kept.reduce(0) { $0 + $1.count }
            if name == "secondary", let previous, count == previous.windows {
                md += "\n#### \(title)\n\nThe same windows as the table above (none of a breathing task here), "
                    + "so the same scores and differences.\n"
                json[name] = previous.json
                continue
            }
            let usable = kept.indices.filter { i in kept[i].contains { $0.stress } && kept[i].contains { !$0.stress } }
            let (partMD, partJSON) = try part(usable.map { kept[$0] }, names: usable.map { subjectNames[$0] }, title: title,
                                              verdict: name == "primary", jobs: jobs)
            md += partMD
            json[name] = partJSON
            previous = (count, partJSON)
            if name == "primary", let (inputMD, inputJSON) = beatInputPart(usable.map { kept[$0] }, names: usable.map { subjectNames[$0] }) {
                md += inputMD
                json["beat_inputs"] = inputJSON
            }
        }
        return (md, .object(json))
    }
}
