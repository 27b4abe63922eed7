import Foundation

/// Writes one report per persona of a persona workspace plus `index.md` comparing them.
public enum PersonaReports {
    /// Reads `ws`, writes `<subject>.md` per subject and `index.md` into `dir`
    /// (atomically), and returns the paths written in that order. Personas are
    /// reported on `jobs` threads; the output does not depend on it.
    @discardableResult
    public static func write(workspace ws: Workspace, to dir: String, registry: ConstantsRegistry, jobs: Int = 1,
                             progress: (String) -> Void = { _ in }) throws -> [String] {
        let inputs = try PersonaReportInputs(workspace: ws)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        progress("reporting \(plural(inputs.subjects.count, "persona"))")
        let reports = try Parallel.map(inputs.subjects, jobs: jobs) { subject in
            let report = PersonaReport(subject: subject, inputs: inputs, registry: registry)
            try AtomicFile.write(report.markdown(), to: (dir as NSString).appendingPathComponent(fileName(report.subject)))
            return report
        }
        let paths = reports.map { (dir as NSString).appendingPathComponent(fileName($0.subject)) }
        let index = (dir as NSString).appendingPathComponent("index.md")
        try AtomicFile.write(indexMarkdown(reports, registry: registry), to: index)
        return paths + [index]
    }

    /// The report file of a subject: its id with ASCII letters, digits and `-` kept
    /// and every other UTF-8 byte written `_XX` (upper-case hex), then `.md`. The
    /// encoding is reversible, so no two subjects share a file (`New.Mom` →
    /// `New_2EMom.md`, `New_Mom` → `New_5FMom.md`); `index.md` is reserved for the
    /// index (a subject `index` → `_69ndex.md`) and the empty id is `_.md`.
    static func fileName(_ subject: String) -> String {
        var name = ""
        for byte in subject.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                name.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                name += (hex.count == 1 ? "_0" : "_") + hex
            }
        }
        if name == "index" { name = "_69ndex" }
        return (name.isEmpty ? "_" : name) + ".md"
    }

    static func indexMarkdown(_ reports: [PersonaReport], registry: ConstantsRegistry) -> String {
        var out = "# Persona reports\n\n"
        out += "resonance \(ResonanceLabInfo.version); constants \(registry.version) (digest `\(registry.digest)`).\n\n"
        out += markdownTable(
            ["persona", "age", "days", "mean RHR", "mean SDNN", "mean stress", "mean readiness", "last-day stress", "flags raised"],
            reports.map { r in
                let flags = r.rows.reduce(0) { $0 + $1.flags.count }
                return ["[\(r.subject)](\(fileName(r.subject)))", r.profile.map { "\($0.age)" } ?? "–", "\(r.rows.count)",
                        PersonaReport.text(PersonaReport.mean(r.rows.map(\.snapshot.restingHRBpm)), 1),
                        PersonaReport.text(PersonaReport.mean(r.rows.map(\.snapshot.hrvSDNNMs)), 1),
                        PersonaReport.text(r.meanStress, 1), PersonaReport.text(r.meanReadiness, 1),
                        r.rows.last.map { "\(PersonaReport.text($0.stress, 1)) \($0.stressLevel)" } ?? "–", "\(flags)"]
            }) + "\n"
        out += "Days on which each flag was raised:\n\n" + markdownTable(["persona"] + DailyAssessment.flagNames, reports.map { r in
            [r.subject] + DailyAssessment.flagNames.map { name in "\(r.rows.filter { $0.flags.contains(name) }.count)" }
        }) + "\n"
        out += regressionNote(reports.flatMap(\.assessments), registry: registry)
        // The heart-health coach's persona expectations: who should rank first.
        func extreme(_ title: String, _ value: (PersonaReport) -> Double?, lowest: Bool, expected: String) -> String? {
            let ranked = reports.compactMap { r in value(r).map { (r.subject, $0) } }
                .sorted { lowest ? ($0.1, $0.0) < ($1.1, $1.0) : ($0.1, $1.0) > ($1.1, $0.0) }
            return ranked.first.map {
                "- \(title): \($0.0) (\(decimals($0.1, 1))); expected \(expected)\($0.0 == expected ? "" : " — NOT MET")"
            }
        }
        var lines = [
            extreme("lowest mean readiness", \.meanReadiness, lowest: true, expected: "NewMom"),
            extreme("highest mean stress", \.meanStress, lowest: false, expected: "StressedExecutive"),
            extreme("lowest mean SDNN", { PersonaReport.mean($0.rows.map(\.snapshot.hrvSDNNMs)) }, lowest: true, expected: "CardiacRehab"),
        ].compactMap { $0 }
        if let athlete = reports.first(where: { $0.subject == "YoungAthlete" }), let last = athlete.rows.last {
            let level = last.stressLevel.isEmpty ? "no score" : last.stressLevel
            lines.append("- YoungAthlete's stress on the last day (\(last.snapshot.date)): \(level); expected relaxed\(level == "relaxed" ? "" : " — NOT MET")")
        }
        if !lines.isEmpty { out += "## Persona expectations\n\n" + lines.joined(separator: "\n") + "\n\n" }
        out += SleepScoreNote.markdown(meanSleepHours: nil, registry: registry)
        return out
    }

    /// How often each half of the regression rule fires: its thresholds are near the
    /// noise of a 7-day least-squares slope (SE = σ/√28 for 7 daily values).
    static func regressionNote(_ assessments: [DailyAssessment], registry: ConstantsRegistry) -> String {
        let c = TrendConstants(registry: registry)
        let rhr = assessments.compactMap(\.trend.restingHRSlope), hrv = assessments.compactMap(\.trend.hrvSlope)
        guard !rhr.isEmpty || !hrv.isEmpty else { return "" }
        let rhrFires = rhr.filter { $0 > c.rhrSlopeThreshold }.count
        let hrvFires = hrv.filter { $0 < c.hrvSlopeThreshold }.count
        return "Regression rule: the 7-day RHR slope exceeds \(signed(c.rhrSlopeThreshold, 1)) bpm/day on \(rhrFires) of \(rhr.count) "
            + "person-days with a slope, the SDNN slope is below \(signed(c.hrvSlopeThreshold, 1)) ms/day on \(hrvFires) of \(hrv.count). "
            + "Both thresholds are near the noise of a 7-day slope (its SE is the day-to-day SD / √28), so the flag is frequent on day-to-day "
            + "variation alone; tune `trend.rhr_slope_threshold` and `trend.hrv_slope_threshold` with --constants.\n\n"
    }
}
