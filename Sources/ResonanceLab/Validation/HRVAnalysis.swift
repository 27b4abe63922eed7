import Foundation

/// The HRV section of `make validate`, read from `hrv.csv` (windowed rows plus one
/// whole-recording row per subject with empty window bounds, as `resonance hrv` writes
/// by default) and `manifest.json`: an HRV summary per subject and, when the subjects
/// carry the groups `nsr2db` and `chf2db` (the PhysioNet RR databases), the NSR vs CHF
/// comparison of the whole-recording (24 h) indices next to the RHRV book's table.
public enum HRVAnalysis {
    public static let analysis: ValidationAnalysis = { ws in try section(ws) }

    /// Indices compared between groups, with the RHRV book's published 95 % CIs of the
    /// group means (Rodríguez-Liñares et al., "Heart Rate Variability Analysis with the R
    /// package RHRV", ch. 8, full databases, 24 h): (NSR, CHF), ms.
    static let comparisons: [(column: String, key: KeyPath<HRVRow, Double>, published: (nsr: String, chf: String)?)] = [
        ("SDNN", \.time.sdnn, ("131.7–148.0", "62.2–93.6")), ("SDANN", \.longTerm.sdann, ("121.2–137.8", "48.1–80.7")),
        ("RMSSD", \.time.rmssd, nil), ("LF", \.frequency.lf, nil), ("HF", \.frequency.hf, nil),
        ("LF_HF", \.frequency.lfHF, nil), ("DFA_alpha1", \.nonlinear.dfaAlpha1, nil),
    ]
    static let summaryColumns: [(name: String, key: KeyPath<HRVRow, Double>)] = [
        ("MeanNN", \.time.meanNN), ("SDNN", \.time.sdnn), ("RMSSD", \.time.rmssd), ("LF", \.frequency.lf),
        ("HF", \.frequency.hf), ("LF_HF", \.frequency.lfHF), ("DFA_alpha1", \.nonlinear.dfaAlpha1),
    ]

    /// The finite values of index `key` over `rows`.
    static func values(_ rows: [HRVRow], _ key: KeyPath<HRVRow, Double>) -> [Double] {
        rows.map { $0[keyPath: key] }.filter(\.isFinite)
    }

    /// Index `key` of `row`, nil when the row is absent or the value not finite.
    static func value(_ row: HRVRow?, _ key: KeyPath<HRVRow, Double>) -> Double? {
        row.map { $0[keyPath: key] }.flatMap { $0.isFinite ? $0 : nil }
    }

    static func section(_ ws: Workspace) throws -> ReportSection? {
        guard let rows = try ws.readIfPresent(HRVRow.self) else { return nil }
        guard !rows.isEmpty else { return nil }
        var groups: [String: String] = [:]
        if ws.exists(Manifest.fileName) {
            for s in try Manifest.read(from: ws).subjects { groups[s.subject] = s.group }
        }
        var md = "HRV from `hrv.csv`: per subject, medians over reliable windows (artifact_pct ≤ threshold) "
            + "and the whole-recording SDNN and SDANN (ms; LF, HF in ms²).\n\n"
        md += "| subject | group | windows | reliable % | " + summaryColumns.map(\.name).joined(separator: " | ")
            + " | whole SDNN | SDANN |\n|" + String(repeating: "---|", count: summaryColumns.count + 6) + "\n"
        var subjectsJSON: [JSONValue] = []
        var order: [String] = []
        var bySubject: [String: [HRVRow]] = [:]
        for r in rows {
            if bySubject[r.subject] == nil { order.append(r.subject) }
            bySubject[r.subject, default: []].append(r)
        }
        for subject in order {
            let all = bySubject[subject] ?? []
            let windows = all.filter { !$0.isWhole }, reliable = windows.filter(\.reliable)
            let whole = all.first { $0.isWhole }
            var medians: [String: JSONValue] = [:]
            var cells: [String] = []
            for (name, key) in summaryColumns {
                let v = median(values(reliable, key))
                medians[name] = .num(v)
                cells.append(format(v))
            }
            let pct = windows.isEmpty ? Double.nan : 100 * Double(reliable.count) / Double(windows.count)
            md += "| \(subject) | \(groups[subject] ?? "") | \(windows.count) | \(format(pct)) | "
                + cells.joined(separator: " | ")
                + " | \(format(value(whole, \.time.sdnn))) | \(format(value(whole, \.longTerm.sdann))) |\n"
            subjectsJSON.append(.object([
                "subject": .string(subject), "group": groups[subject].map(JSONValue.string) ?? .null,
                "windows": .int(windows.count), "reliable_pct": .num(pct), "median_reliable": .object(medians),
                "whole_SDNN": .num(value(whole, \.time.sdnn)), "whole_SDANN": .num(value(whole, \.longTerm.sdann)),
            ]))
        }
        var json: [String: JSONValue] = ["subjects": .array(subjectsJSON)]
        let wholeRows = rows.filter(\.isWhole)
        let nsr = wholeRows.filter { groups[$0.subject] == "nsr2db" }
        let chf = wholeRows.filter { groups[$0.subject] == "chf2db" }
        if !nsr.isEmpty && !chf.isEmpty {
            let (text, data) = groupComparison(nsr: nsr, chf: chf)
            md += "\n" + text
            json["nsr_vs_chf"] = data
        }
        return ReportSection(title: "HRV", markdown: md, json: .object(json))
    }

    /// NSR vs CHF over whole-recording rows: means with bootstrap CIs, Kruskal–Wallis p
    /// (Bonferroni-adjusted over the compared indices), the AUC and the ROC curve of each index.
    static func groupComparison(nsr: [HRVRow], chf: [HRVRow]) -> (String, JSONValue) {
        var md = "### NSR vs CHF (whole recordings, ≈ 24 h)\n\n"
            + "Group means with seeded percentile-bootstrap 95 % CIs (2000 resamples); Kruskal–Wallis p, "
            + "Bonferroni-adjusted over \(comparisons.count) indices; AUC for telling CHF from NSR "
            + "(direction in brackets). Published: RHRV book, ch. 8 (Fourier analysis of the full databases; "
            + "Bonferroni-adjusted p ≈ 1e-7 for SDNN and SDANN).\n\n"
            + "| index | NSR mean [95 % CI] (n) | CHF mean [95 % CI] (n) | published NSR CI | published CHF CI "
            + "| p (Bonferroni) | AUC |\n|---|---|---|---|---|---|---|\n"
        var out: [String: JSONValue] = [:]
        for (column, key, published) in comparisons {
            let a = values(nsr, key), b = values(chf, key)
            guard a.count > 1, b.count > 1 else { continue }
            let ciA = GroupComparison.bootstrapMeanCI(a), ciB = GroupComparison.bootstrapMeanCI(b)
            // Undefined (all values tied) stays NaN: min(1, NaN) would print p = 1.
            let raw = GroupComparison.kruskalWallis([a, b]).p
            let p = raw.isNaN ? raw : min(1, raw * Double(comparisons.count))
            let lower = GroupComparison.auc(positive: a, negative: b)
            let auc = max(lower, 1 - lower)
            let direction = lower >= 0.5 ? "CHF lower" : "CHF higher"
            // CHF is the positive class, told by the side of the index it lies on.
            let roc = lower >= 0.5 ? GroupComparison.rocCurve(positive: b.map { -$0 }, negative: a.map { -$0 })
                : GroupComparison.rocCurve(positive: b, negative: a)
            md += "| \(column) | \(format(Stats.mean(a))) [\(format(ciA.0)), \(format(ciA.1))] (\(a.count)) "
                + "| \(format(Stats.mean(b))) [\(format(ciB.0)), \(format(ciB.1))] (\(b.count)) "
                + "| \(published?.nsr ?? "—") | \(published?.chf ?? "—") | \(p.isNaN ? "—" : String(format: "%.2g", p)) "
                + "| \(String(format: "%.3f", auc)) (\(direction)) |\n"
            out[column] = .object([
                "nsr_mean": .num(Stats.mean(a)), "nsr_ci": .array([.num(ciA.0), .num(ciA.1)]), "nsr_n": .int(a.count),
                "chf_mean": .num(Stats.mean(b)), "chf_ci": .array([.num(ciB.0), .num(ciB.1)]), "chf_n": .int(b.count),
                "p_bonferroni": .num(p), "auc": .num(auc), "direction": .string(direction),
                "roc": .array(roc.map { .array([.num($0.fpr), .num($0.tpr)]) }),
                "published_nsr_ci": published.map { .string($0.nsr) } ?? .null,
                "published_chf_ci": published.map { .string($0.chf) } ?? .null,
            ])
        }
        return (md, .object(out))
    }

    static func median(_ x: [Double]) -> Double { x.isEmpty ? .nan : Stats.median(x) }

    static func format(_ v: Double?) -> String {
        guard let v, v.isFinite else { return "—" }
        return abs(v) >= 100 ? String(format: "%.0f", v) : String(format: "%.3g", v)
    }
}
