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
    static let comparisons: [(column: String, published: (nsr: String, chf: String)?)] = [
        ("SDNN", ("131.7–148.0", "62.2–93.6")), ("SDANN", ("121.2–137.8", "48.1–80.7")),
        ("RMSSD", nil), ("LF", nil), ("HF", nil), ("LF_HF", nil), ("DFA_alpha1", nil),
    ]
    static let summaryColumns = ["MeanNN", "SDNN", "RMSSD", "LF", "HF", "LF_HF", "DFA_alpha1"]

    struct Row {
        var subject: String
        var whole: Bool
        var reliable: Bool
        var values: [String: Double]
    }

    static func section(_ ws: Workspace) throws -> ReportSection? {
        guard ws.exists("hrv.csv") else { return nil }
        let rows = try read(ws.file("hrv.csv"))
        guard !rows.isEmpty else { return nil }
        var groups: [String: String] = [:]
        if ws.exists(Manifest.fileName) {
            for s in try Manifest.read(from: ws).subjects { groups[s.subject] = s.group }
        }
        var md = "HRV from `hrv.csv`: per subject, medians over reliable windows (artifact_pct ≤ threshold) "
            + "and the whole-recording SDNN and SDANN (ms; LF, HF in ms²).\n\n"
        md += "| subject | group | windows | reliable % | " + summaryColumns.joined(separator: " | ")
            + " | whole SDNN | SDANN |\n|" + String(repeating: "---|", count: summaryColumns.count + 6) + "\n"
        var subjectsJSON: [JSONValue] = []
        var order: [String] = []
        var bySubject: [String: [Row]] = [:]
        for r in rows {
            if bySubject[r.subject] == nil { order.append(r.subject) }
            bySubject[r.subject, default: []].append(r)
        }
        for subject in order {
            let all = bySubject[subject] ?? []
            let windows = all.filter { !$0.whole }, reliable = windows.filter(\.reliable)
            let whole = all.first { $0.whole }
            var medians: [String: JSONValue] = [:]
            var cells: [String] = []
            for c in summaryColumns {
                let v = median(reliable.compactMap { $0.values[c] })
                medians[c] = .num(v)
                cells.append(format(v))
            }
            let pct = windows.isEmpty ? Double.nan : 100 * Double(reliable.count) / Double(windows.count)
            md += "| \(subject) | \(groups[subject] ?? "") | \(windows.count) | \(format(pct)) | "
                + cells.joined(separator: " | ")
                + " | \(format(whole?.values["SDNN"])) | \(format(whole?.values["SDANN"])) |\n"
            subjectsJSON.append(.object([
                "subject": .string(subject), "group": groups[subject].map(JSONValue.string) ?? .null,
                "windows": .int(windows.count), "reliable_pct": .num(pct), "median_reliable": .object(medians),
                "whole_SDNN": .num(whole?.values["SDNN"]), "whole_SDANN": .num(whole?.values["SDANN"]),
            ]))
        }
        var json: [String: JSONValue] = ["subjects": .array(subjectsJSON)]
        let wholeRows = rows.filter(\.whole)
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
    static func groupComparison(nsr: [Row], chf: [Row]) -> (String, JSONValue) {
        var md = "### NSR vs CHF (whole recordings, ≈ 24 h)\n\n"
            + "Group means with seeded percentile-bootstrap 95 % CIs (2000 resamples); Kruskal–Wallis p, "
            + "Bonferroni-adjusted over \(comparisons.count) indices; AUC for telling CHF from NSR "
            + "(direction in brackets). Published: RHRV book, ch. 8 (Fourier analysis of the full databases; "
            + "Bonferroni-adjusted p ≈ 1e-7 for SDNN and SDANN).\n\n"
            + "| index | NSR mean [95 % CI] (n) | CHF mean [95 % CI] (n) | published NSR CI | published CHF CI "
            + "| p (Bonferroni) | AUC |\n|---|---|---|---|---|---|---|\n"
        var out: [String: JSONValue] = [:]
        for (column, published) in comparisons {
            let a = nsr.compactMap { $0.values[column] }, b = chf.compactMap { $0.values[column] }
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

    static func read(_ path: String) throws -> [Row] {
        var rows: [Row] = []
        var columns: [String: Int] = [:]
        try CSVReader(path: path).forEachRecord { record in
            if columns.isEmpty {
                for i in 0..<record.count { columns[record.trimmed(i)] = i }
                for name in ["subject", "window_start", "reliable"] where columns[name] == nil {
                    throw TableError(path: path, line: record.line, column: 0, message: "header lacks column '\(name)'")
                }
                return
            }
            func field(_ name: String) -> String {
                guard let i = columns[name], i < record.count else { return "" }
                return record.string(i)
            }
            var values: [String: Double] = [:]
            for name in summaryColumns + ["SDANN"] {
                if let i = columns[name], i < record.count, let v = record.double(i), v.isFinite { values[name] = v }
            }
            rows.append(Row(subject: field("subject"), whole: field("window_start").isEmpty,
                            reliable: field("reliable") == "true", values: values))
        }
        return rows
    }

    static func median(_ x: [Double]) -> Double { x.isEmpty ? .nan : Stats.median(x) }

    static func format(_ v: Double?) -> String {
        guard let v, v.isFinite else { return "—" }
        return abs(v) >= 100 ? String(format: "%.0f", v) : String(format: "%.3g", v)
    }
}
