import Foundation

/// The data inventory section of `validation.md` / `validation.json`: what was
/// imported, for whom, over which time, what was rejected and why, where the
/// recordings have holes, and how much of each recording carries labels.
public enum Inventory {
    /// Gaps between consecutive samples longer than this are listed (5 min).
    public static let gapMs: Int64 = 5 * 60_000
    /// Rejection reasons shown per file.
    public static let topReasons = 3

    public static let analysis: ValidationAnalysis = { ws in try section(ws) }

    /// Row counts and gaps per subject of one series (`hr`, `rr`).
    typealias Series = (name: String, bySubject: [String: SeriesSummary])

    public static func section(_ ws: Workspace) throws -> ReportSection? {
        guard ws.exists(Manifest.fileName) else { return nil }
        let manifest = try Manifest.read(from: ws)
        let series: [Series] = [
            ("hr", try SeriesScan.summarize(ws, HRSample.self, gapMs: gapMs)),
            ("rr", try SeriesScan.summarize(ws, RRInterval.self, gapMs: gapMs)),
        ]
        let coverage = labelCoverage(try ws.read(LabelInterval.self), subjects: manifest.subjects)
        var md = "Timezone of naive times: \(manifest.timezone). \(plural(manifest.subjects.count, "subject")), "
            + plural(manifest.sources.count, "source file")
            + (manifest.skipped.map { " (\(plural($0.count, "other file")) skipped, listed in manifest.json)" } ?? "") + ", "
            + "\(plural(manifest.sources.reduce(0) { $0 + $1.rowsRead }, "row")) read, "
            + "\(manifest.sources.reduce(0) { $0 + $1.rejected }) rejected.\n\n"
        var json: [String: JSONValue] = ["timezone": .string(manifest.timezone), "gap_threshold_s": .num(Double(gapMs) / 1000)]
        let parts: [(String, (markdown: String, json: JSONValue))] = [
            ("subjects", subjects(manifest, series)), ("files", files(manifest, reasons: try rejectionReasons(ws))),
            ("gaps", gaps(manifest, series)), ("labels", labels(coverage)),
            ("unlabelled_subjects", unlabelled(manifest, coverage)), ("markers_outside_recording", markersOutside(manifest)),
        ]
        for (key, part) in parts {
            md += part.markdown
            json[key] = part.json
        }
        return ReportSection(title: "Data inventory", markdown: md, json: .object(json))
    }

    /// Each subject's time span and rows of each series.
    static func subjects(_ manifest: Manifest, _ series: [Series]) -> (markdown: String, json: JSONValue) {
        var rows: [[String]] = [], json: [JSONValue] = []
        for s in manifest.subjects {
            let span = spanMs(s)
            let counts = series.map { $0.bySubject[s.subject]?.rows ?? 0 }
            rows.append([s.subject, s.group ?? "", s.start ?? "", s.end ?? "", fmt(Double(span) / 3_600_000),
                         String(counts[0]), String(counts[1])])
            json.append(.object([
                "subject": .string(s.subject), "group": s.group.map(JSONValue.string) ?? .null,
                "start": s.start.map(JSONValue.string) ?? .null, "end": s.end.map(JSONValue.string) ?? .null,
                "span_s": .num(Double(span) / 1000), "hr_rows": .int(counts[0]), "rr_rows": .int(counts[1]),
            ]))
        }
        return ("### Subjects\n\n" + markdownTable(["subject", "group", "start", "end", "span h", "hr rows", "rr rows"], rows),
                .array(json))
    }

    /// Each source file's accounting and its most frequent rejection reasons (`reasons`: per path, per reason).
    static func files(_ manifest: Manifest, reasons: [String: [String: Int]]) -> (markdown: String, json: JSONValue) {
        var rows: [[String]] = [], json: [JSONValue] = []
        for f in manifest.sources {
            let top = (reasons[f.path] ?? [:]).sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                .prefix(topReasons)
            rows.append([f.path, f.format, String(f.rowsRead), String(f.accepted), String(f.rejected),
                         String(f.duplicates), top.map { "\($0.key) (\($0.value))" }.joined(separator: "; ")])
            json.append(.object([
                "path": .string(f.path), "format": .string(f.format), "rows_read": .int(f.rowsRead),
                "accepted": .int(f.accepted), "rejected": .int(f.rejected), "duplicates": .int(f.duplicates),
                "top_reasons": .array(top.map { .object(["reason": .string($0.key), "rows": .int($0.value)]) }),
            ]))
        }
        return ("\n### Files\n\n" + markdownTable(
            ["file", "format", "read", "accepted", "rejected", "duplicates", "top rejection reasons"], rows), .array(json))
    }

    /// Per subject and series, the gaps longer than `gapMs`.
    static func gaps(_ manifest: Manifest, _ series: [Series]) -> (markdown: String, json: JSONValue) {
        var rows: [[String]] = [], json: [JSONValue] = []
        for s in manifest.subjects {
            for (name, table) in series {
                guard let g = table[s.subject], g.gaps > 0 else { continue }
                rows.append([s.subject, name, String(g.gaps), fmt(Double(g.gapTotalMs) / 3_600_000),
                             fmt(Double(g.longestGapMs) / 60_000), Timestamp.iso(g.longestGapEndMs)])
                json.append(.object([
                    "subject": .string(s.subject), "series": .string(name), "gaps": .int(g.gaps),
                    "total_gap_s": .num(Double(g.gapTotalMs) / 1000), "longest_gap_s": .num(Double(g.longestGapMs) / 1000),
                    "longest_gap_end": .string(Timestamp.iso(g.longestGapEndMs)),
                ]))
            }
        }
        return ("\n### Gaps longer than 5 min\n\n" + (rows.isEmpty ? "None.\n" : markdownTable(
            ["subject", "series", "gaps", "total gap h", "longest gap min", "longest ends at"], rows)), .array(json))
    }

    /// The share of each subject's recording that each label covers.
    static func labels(_ coverage: [Coverage]) -> (markdown: String, json: JSONValue) {
        var md = "\n### Label coverage\n\n"
        md += "Share of each subject's recording span (first to last sample) covered by label intervals; "
            + "zero-length labels (event marks) are counted, not timed.\n\n"
        md += coverage.isEmpty ? "None: labels.csv holds no intervals.\n"
            : markdownTable(["subject", "label", "intervals", "labelled h", "coverage %"], coverage.map {
                [$0.subject, $0.label, String($0.intervals), fmt(Double($0.ms) / 3_600_000), fmt($0.coverage * 100)]
            })
        return (md, .array(coverage.map { row in
            .object([
                "subject": .string(row.subject), "label": .string(row.label), "intervals": .int(row.intervals),
                "labelled_s": .num(Double(row.ms) / 1000), "coverage": .num(row.coverage),
            ])
        }))
    }

    /// How many subjects have labels, and the names of those without.
    static func unlabelled(_ manifest: Manifest, _ coverage: [Coverage]) -> (markdown: String, json: JSONValue) {
        let unlabelled = manifest.subjects.map(\.subject).filter { s in !coverage.contains { $0.subject == s } }
        return ("\nSubjects with labels: \(manifest.subjects.count - unlabelled.count) of \(manifest.subjects.count)"
                    + (unlabelled.isEmpty ? ".\n" : " (none for \(unlabelled.joined(separator: ", "))).\n"),
                .array(unlabelled.map(JSONValue.string)))
    }

    /// Event markers outside their subject's recording: kept in labels.csv, used by no
    /// window (stress windows are cut from stress and baseline intervals only).
    static func markersOutside(_ manifest: Manifest) -> (markdown: String, json: JSONValue) {
        let outside = manifest.subjects.compactMap { s in s.markersOutsideRecording.map { (s.subject, $0) } }
        var md = ""
        if !outside.isEmpty {
            md = "\nEvent markers outside the subject's recording (kept in labels.csv, used by no window; "
                + "manifest.json says more): " + outside.map { subject, o in
                    "\(subject) \(o.count) of \(o.markers)"
                        + (o.probableOffsetHours.map { ", probable repair \($0 > 0 ? "+" : "-")\(abs($0)) h, not applied" } ?? "")
                }.joined(separator: "; ") + ".\n"
        }
        return (md, .array(outside.map { subject, o in
            .object([
                "subject": .string(subject), "markers": .int(o.markers), "outside": .int(o.count),
                "probable_offset_h": o.probableOffsetHours.map { .int($0) } ?? .null,
            ])
        }))
    }

    /// Rejected rows by source file and reason, from `rejects.csv` (streamed).
    static func rejectionReasons(_ ws: Workspace) throws -> [String: [String: Int]] {
        var out: [String: [String: Int]] = [:]
        try ws.forEachRow(Reject.self) { out[$0.sourceFile, default: [:]][$0.reason, default: 0] += 1 }
        return out
    }

    struct Coverage {
        var subject: String
        var label: String
        var intervals: Int
        var ms: Int64
        var coverage: Double
    }

    /// Labelled time per subject and label, as a share of the subject's span.
    static func labelCoverage(_ labels: [LabelInterval], subjects: [SubjectInfo]) -> [Coverage] {
        var spans: [String: Int64] = [:]
        for s in subjects { spans[s.subject] = spanMs(s) }
        var totals: [String: [String: (Int, Int64)]] = [:]
        for l in labels {
            let t = totals[l.subject]?[l.label] ?? (0, 0)
            totals[l.subject, default: [:]][l.label] = (t.0 + 1, t.1 + (l.endMs - l.startMs))
        }
        var out: [Coverage] = []
        for (subject, byLabel) in totals.sorted(by: { $0.key < $1.key }) {
            for (label, t) in byLabel.sorted(by: { $0.key < $1.key }) {
                let span = spans[subject] ?? 0
                out.append(Coverage(subject: subject, label: label, intervals: t.0, ms: t.1,
                                    coverage: span > 0 ? Double(t.1) / Double(span) : 0))
            }
        }
        return out
    }

    static func spanMs(_ s: SubjectInfo) -> Int64 {
        guard let a = s.start.flatMap(Timestamp.parseISO)?.ms, let b = s.end.flatMap(Timestamp.parseISO)?.ms else { return 0 }
        return b - a
    }

    /// Two decimals, fixed: stable text for reports.
    static func fmt(_ v: Double) -> String {
        String(format: "%.2f", v)
    }
}
