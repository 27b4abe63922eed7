import Foundation

/// How well one model recovers the planted effects of one metric.
public struct EffectRecovery: Equatable, Sendable {
    public var model: String
    public var metric: String
    /// Songs with ≥ `minPlays` plays and a planted effect.
    public var songs: Int
    /// Pearson r of estimated vs planted song effects.
    public var pearson: Double
    /// Least-squares slope of the estimates on the planted effects (1: neither
    /// shrunk nor inflated; below 1: shrunk towards the mean).
    public var slope: Double
    /// Mean of estimate − truth (bpm or ms).
    public var bias: Double
    /// Share of 95 % intervals containing the truth (nil when the model has none).
    public var coverage: Double?
    /// Spearman ρ of estimated vs planted listener sensitivities.
    public var sensitivitySpearman: Double?

    /// Compares `song_effects` / `persona_effects` rows of `model` with the truth.
    public static func compute(model: String, metric: String, songs: [SongEffectRow], personas: [PersonaEffectRow],
                               truth: [PlantedEffect], minPlays: Int = 10) -> EffectRecovery? {
        let (planted, sensitivity) = PlantedEffect.planted(truth, metric: metric)
        var est: [Double] = [], tru: [Double] = [], covered = 0, intervals = 0
        for row in songs where row.model == model && row.metric == metric && row.context == "any" && row.plays >= minPlays {
            guard let e = row.effect.value, let t = planted[row.songId] else { continue }
            est.append(e); tru.append(t)
            if let lo = row.effect.ciLow, let hi = row.effect.ciHigh {
                intervals += 1
                if lo <= t && t <= hi { covered += 1 }
            }
        }
        guard est.count >= 3 else { return nil }
        var pe: [Double] = [], pt: [Double] = []
        for row in personas where row.model == model && row.metric == metric && row.kind == "sensitivity" {
            guard let e = row.effect.value, let t = sensitivity[row.subject] else { continue }
            pe.append(e); pt.append(t)
        }
        let mt = Stats.mean(tru), me = Stats.mean(est)
        let sxy = zip(est, tru).reduce(0) { $0 + ($1.0 - me) * ($1.1 - mt) }, stt = tru.reduce(0) { $0 + ($1 - mt) * ($1 - mt) }
        return EffectRecovery(model: model, metric: metric, songs: est.count, pearson: Stats.pearson(est, tru),
                              slope: stt > 0 ? sxy / stt : .nan,
                              bias: zip(est, tru).reduce(0) { $0 + $1.0 - $1.1 } / Double(est.count),
                              coverage: intervals > 0 ? Double(covered) / Double(intervals) : nil,
                              sensitivitySpearman: pe.count >= 3 ? Stats.spearman(pe, pt) : nil)
    }
}

/// Report section for listening sessions and song effects; with `truth.csv`, the
/// recovery of the planted effects by each model side by side.
public enum EffectsAnalysis {
    public static let analysis: ValidationAnalysis = { ws in try section(ws) }

    static func section(_ ws: Workspace) throws -> ReportSection? {
        let sessions = try ws.read(SessionRow.self), plays = try ws.read(SessionPlayRow.self)
        guard !plays.isEmpty else { return nil }
        let songs = try ws.read(SongEffectRow.self), personas = try ws.read(PersonaEffectRow.self)
        let truth = try ws.read(PlantedEffect.self)
        func f(_ x: Double?, _ digits: Int = 3) -> String {
            guard let x, x.isFinite else { return "–" }
            let p = pow(10.0, Double(digits))
            return String((x * p).rounded() / p)
        }
        let withHR = plays.filter { $0.biometrics.hrDelta != nil }.count
        let withRMSSD = plays.filter { $0.biometrics.hrvSource == "rr" && $0.biometrics.hrvDelta != nil }.count
        let noPhysiology = plays.filter { $0.quality.contains("no_physiology") }.count
        let minutes = sessions.map { Double($0.endMs - $0.startMs) / 60_000 }
        var md = """
            | sessions | plays | plays with ΔHR | plays with ΔRMSSD | plays without physiology | median session (min) | mean skip rate | mean session score |
            |---|---|---|---|---|---|---|---|
            | \(sessions.count) | \(plays.count) | \(withHR) | \(withRMSSD) | \(noPhysiology) | \(f(minutes.isEmpty ? nil : Stats.median(minutes), 1)) | \(f(sessions.isEmpty ? nil : Stats.mean(sessions.map(\.skipRate)))) | \(f(sessions.isEmpty ? nil : Stats.mean(sessions.map(\.sessionScore)))) |

            """
        var json: [String: JSONValue] = [
            "sessions": .int(sessions.count), "plays": .int(plays.count), "plays_with_hr_delta": .int(withHR),
            "plays_with_rmssd_delta": .int(withRMSSD), "plays_without_physiology": .int(noPhysiology),
        ]
        let models = Array(Set(songs.map(\.model))).sorted()
        var effects: [JSONValue] = []
        if !models.isEmpty {
            md += "\n| model | metric | songs | mean estimate | sd of estimates |\n|---|---|---|---|---|\n"
            for model in models {
                for metric in EffectMetric.allCases.map(\.rawValue) {
                    let e = songs.filter { $0.model == model && $0.metric == metric && $0.context == "any" }.compactMap(\.effect.value)
                    guard !e.isEmpty else { continue }
                    md += "| \(model) | \(metric) | \(e.count) | \(f(Stats.mean(e))) | \(f(Stats.sd(e))) |\n"
                    effects.append(.object(["model": .string(model), "metric": .string(metric), "songs": .int(e.count),
                                            "mean": .num(Stats.mean(e)), "sd": .num(Stats.sd(e))]))
                }
            }
        }
        json["song_effects"] = .array(effects)
        if !truth.isEmpty {
            var recovered: [JSONValue] = []
            md += "\nRecovery of the planted effects (songs with ≥ 10 plays; the truth is song effect × listener sensitivity"
            if let law = truth.first(where: { $0.kind == .responseLaw && $0.subject.isEmpty })?.entity {
                md += "; response law \(law), docs/personas.md"
                json["response_law"] = .string(law)
            }
            md += "):\n\n"
            md += "| model | metric | songs | r (est. vs true) | slope | bias | 95 % coverage | sensitivity Spearman |\n|---|---|---|---|---|---|---|---|\n"
            for metric in Array(Set(truth.filter { $0.kind == .songEffect }.map(\.metric))).sorted() {
                for model in models {
                    guard let r = EffectRecovery.compute(model: model, metric: metric, songs: songs, personas: personas, truth: truth) else { continue }
                    md += "| \(model) | \(metric) | \(r.songs) | \(f(r.pearson)) | \(f(r.slope)) | \(f(r.bias)) | \(f(r.coverage)) | \(f(r.sensitivitySpearman)) |\n"
                    recovered.append(.object([
                        "model": .string(model), "metric": .string(metric), "songs": .int(r.songs), "pearson": .num(r.pearson),
                        "slope": .num(r.slope),
                        "bias": .num(r.bias), "coverage": .num(r.coverage), "sensitivity_spearman": .num(r.sensitivitySpearman),
                    ]))
                }
            }
            json["recovery"] = .array(recovered)
        }
        return ReportSection(title: "Listening sessions and song effects", markdown: md, json: .object(json))
    }
}
