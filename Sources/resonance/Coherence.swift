import ArgumentParser
import Foundation
import ResonanceLab

/// `resonance coherence WS`: breathing-coach and HeartMath coherence → `coherence.csv`.
struct CoherenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coherence",
        abstract: "Compute heart-rate coherence from rr.csv (or hr.csv) into coherence.csv.",
        discussion: """
            For each subject, heart rate at 4 Hz (from cleaned RR intervals, or from hr.csv when the \
            subject has no RR) is cut into sliding windows. Each window gets a coach row (power within \
            one bin of the breathing frequency over 0.04–0.15 Hz power; peak_hz is the LF peak, the \
            resonance-frequency estimate) and a heartmath row (HeartMath coherence ratio); a final \
            resonance row per subject gives the median LF peak over windows. Windows with fewer than \
            32 samples score 0 (coach) and are left empty (heartmath).
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Workspace folder (reads rr.csv and hr.csv, writes coherence.csv).")
    var workspace: String

    @Option(help: "Window length, seconds (default: coherence.window_seconds, 64).")
    var window: Double?

    @Option(help: "Step between window starts, seconds (default: coherence.step_seconds, 5).")
    var step: Double?

    @Option(help: "Paced breathing rate, breaths per minute (default: coherence.breathing_rate_per_min, 6).")
    var breathingRate: Double?

    @Option(help: "Artifact detection for RR: lipponen, malik or none.")
    var artifacts: ArtifactMethod = .lipponen

    func validate() throws {
        try WorkspaceFolder.requireExisting(workspace)
        // Each option replaces a constant of the coherence engine and must lie in its range.
        let options = [("--window", "window_seconds", window), ("--step", "step_seconds", step),
                       ("--breathing-rate", "breathing_rate_per_min", breathingRate)]
        for case let (option, name, value?) in options {
            guard let c = CoherenceConstants.spec.constant(name), !c.range.contains(value) else { continue }
            func g(_ v: Double) -> String { String(format: "%g", v) }
            throw ValidationError("\(option) must be \(g(c.range.lowerBound))–\(g(c.range.upperBound)) \(c.unit) "
                                  + "(the range of coherence.\(name)), got \(g(value)).")
        }
    }

    func run() throws {
        try CommandError.oneLine {
            let ws = Workspace(path: workspace)
            var options = CoherenceOptions(constants: CoherenceConstants(registry: try global.registry()))
            if let window { options.windowSeconds = window }
            if let step { options.stepSeconds = step }
            if let breathingRate { options.breathingRate = breathingRate }
            options.artifactMethod = artifacts
            // A subject whose R-R rows are all unusable falls back to its heart rate.
            let rr = SubjectSeries.rr(try ws.readSeries(RRInterval.self, value: "rr_ms")).filter { !$0.values.isEmpty }
            let withRR = Set(rr.map(\.subject))
            let hrOnly = SubjectSeries.hr(try ws.readSeries(HRSample.self, value: "bpm")).filter { !withRR.contains($0.subject) }
            let jobs: [(MeasurementSeries, isRR: Bool)] = rr.map { ($0, true) } + hrOnly.map { ($0, false) }
            global.progress("coherence: \(rr.count) subject(s) from RR, \(hrOnly.count) from HR")
            let results = try Parallel.map(jobs, jobs: global.jobs) { job -> [CoherenceRow] in
                let s = job.0
                var windows: CoherenceWindows
                if job.isRR {
                    let series = NNSeries.clean(timestampsMs: s.timestampsMs, rrMs: s.values, method: options.artifactMethod)
                    windows = CoherenceWindows(subject: s.subject, series: series, options: options)
                } else {
                    windows = CoherenceWindows(subject: s.subject, source: "hr", timeMs: s.timestampsMs.map(Double.init),
                                               bpm: s.values, options: options)
                }
                return windows.rows()
            }
            try results.joined().write(to: ws.file("coherence.csv"))
            global.progress("coherence: wrote \(results.reduce(0) { $0 + $1.count }) row(s) to \(ws.file("coherence.csv"))")
        }
    }
}
