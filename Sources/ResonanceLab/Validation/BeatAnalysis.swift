import Foundation

/// The beat-detection section of `resonance validate`, from `beats.csv`: per subject and
/// source, the beats found, how many intervals are reliable and the share of the
/// recording they cover; where `annotations.csv` holds reference beats, the R peaks
/// scored against them as ANSI/AAMI EC57 scores a detector (150 ms window).
public enum BeatAnalysis {
    public static let analysis: ValidationAnalysis = { ws in try section(ws) }
    public static let reads = [DetectedBeat.fileName, ReferenceAnnotation.fileName, WaveformSegment.fileName]
    /// EC57's match window, seconds.
    public static let matchWindowS = 0.150

    static func section(_ ws: Workspace) throws -> ReportSection? {
        guard let beats = try ws.readIfPresent(DetectedBeat.self), !beats.isEmpty else { return nil }
        let reference = try ws.readIfPresent(ReferenceAnnotation.self) ?? []
        let segments = try ws.readIfPresent(WaveformSegment.self) ?? []
        var order: [String] = []
        var groups: [String: [DetectedBeat]] = [:]
        for b in beats {
            let key = b.subject + "\u{1F}" + b.source
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(b)
        }
        var rows: [[String]] = []
        var json: [JSONValue] = []
        for key in order {
            guard let group = groups[key], let first = group.first else { continue }
            let lead = segments.filter { $0.subject == first.subject && $0.channel == first.channel }
            let recorded = lead.reduce(0.0) { $0 + Double($1.samples) / $1.rateHz }
            let reliableMs = group.filter(\.reliable).compactMap(\.intervalMs).reduce(0, +)
            let coverage = recorded > 0 ? reliableMs / 1000 / recorded : .nan
            let refs = reference.filter { $0.subject == first.subject && $0.beat }
            var match: BeatMatch?
            if first.fiducial == "r_peak", let rate = lead.first?.rateHz, !refs.isEmpty {
                // Reference times from their frames (exact), detections from their timestamps.
                let start = Double(refs[0].timestampMs) / 1000 - Double(refs[0].sample) / rate
                match = BeatMatch.match(detected: group.map { Double($0.timestampMs) / 1000 }, reference: refs.map { start + Double($0.sample) / rate },
                                        window: matchWindowS)
            }
            func pct(_ v: Double?) -> String { v.map { String(format: "%.2f", 100 * $0) } ?? "" }
            rows.append([first.subject, first.source, first.channel, String(group.count),
                         pct(Double(group.filter(\.reliable).count) / Double(max(1, group.count - 1))), pct(coverage.isFinite ? coverage : nil),
                         match.map { String($0.truePositives + $0.falseNegatives) } ?? "", pct(match?.sensitivity), pct(match?.positivePredictivity)])
            json.append(.object([
                "subject": .string(first.subject), "source": .string(first.source), "channel": .string(first.channel),
                "beats": .num(Double(group.count)), "reliable_intervals": .num(Double(group.filter(\.reliable).count)),
                "coverage": .num(coverage), "reference_beats": .num(match.map { Double($0.truePositives + $0.falseNegatives) }),
                "sensitivity": .num(match?.sensitivity), "positive_predictivity": .num(match?.positivePredictivity),
            ]))
        }
        var md = "Beats detected in the raw waveforms (`beats.csv`; method in docs/methods.md, Beats from the ECG). "
            + "Reliable % counts the intervals judged reliable; coverage is their summed length over the recording's length. "
            + "Where the dataset has reference beats (`annotations.csv`), the R peaks are scored as ANSI/AAMI EC57 scores a "
            + "detector: a detection within 150 ms of a reference beat matches it, each beat once; "
            + "sensitivity = TP / (TP + FN), positive predictivity = TP / (TP + FP).\n\n"
        md += markdownTable(["subject", "source", "channel", "beats", "reliable %", "coverage %", "reference beats",
                             "sensitivity %", "positive predictivity %"], rows)
        return ReportSection(title: "Beat detection", markdown: md, json: .array(json), key: "beats")
    }
}
