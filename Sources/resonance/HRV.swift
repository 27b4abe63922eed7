import ArgumentParser
import Foundation
import ResonanceLab

/// `resonance hrv WS`: HRV indices per subject and window → `hrv.csv`.
struct HRV: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compute HRV indices from rr.csv into hrv.csv.",
        discussion: """
            Cleans each subject's RR intervals (those outside the `rr` constants' plausibility \
            range skipped; artifacts detected, corrected and counted), then \
            computes time-domain, frequency-domain, nonlinear and long-term indices over sliding \
            windows, followed by one whole-recording row per subject (empty window bounds, with \
            SDANN and SDNN index). --whole writes the whole-recording rows only. Windows with more \
            corrected or missing beats than --max-artifact are kept and marked reliable=false.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Workspace folder (reads rr.csv, writes hrv.csv).", valueName: "workspace"))
    var workspace: String

    @Option(help: "Window length, seconds.")
    var window: Double = 300

    @Option(help: "Step between window starts, seconds.")
    var step: Double = 60

    @Flag(help: "Write only the whole-recording row of each subject.")
    var whole = false

    @Option(help: "Artifact detection: lipponen (Lipponen & Tarvainen 2019, as Kubios), malik (20 % rule) or none.")
    var artifacts: ArtifactMethod = .lipponen

    @Option(help: "Largest share of corrected or missing beats in a reliable window, %. Default: the constants' hrv.max_artifact_pct (5).")
    var maxArtifact: Double?

    @Option(help: "Spectrum: welch (resampled NN series) or lomb (Lomb–Scargle on the beats).")
    var psd: PSDMethod = .welch

    @Option(help: "Resampling rate of the NN series, Hz.")
    var resampleHz: Double = 4

    @Option(help: "Resampling interpolant: cubic (natural cubic spline) or quadratic (SciPy's, as NeuroKit2).")
    var interpolation: Interpolation = .cubic

    @Option(help: "Detrending: smoothness (smoothness priors, Tarvainen 2002), linear or none.")
    var detrend: Detrending = .smoothnessPriors

    @Option(help: "Smoothness-priors regularisation λ (500 ≈ 0.04 Hz cut-off at 4 Hz).")
    var lambda: Double = 500

    @Option(help: "Welch segment length, seconds; 0 = half the window, as NeuroKit2.")
    var welchSegment: Double = 256

    @Option(help: "Welch segment overlap, %.")
    var welchOverlap: Double = 50

    @Option(help: "Welch FFT length as a multiple of the segment (zero padding).")
    var welchPad: Int = 1

    @Option(help: ArgumentHelp("Also write the cleaned NN series to this CSV (subject,time_ms,nn_ms,artifact,run_start).",
                               valueName: "file"))
    var nnOut: String?

    @Option(help: ArgumentHelp("Also write each subject's whole-recording PSD to this CSV (subject,frequency_hz,power_ms2_hz,band), 0–0.5 Hz.",
                               valueName: "file"))
    var psdOut: String?

    @Flag(help: "Print the mean time per window of each index family on stderr.")
    var timing = false

    func validate() throws {
        try WorkspaceFolder.requireExisting(workspace)
        guard (1...86_400).contains(window), (1...86_400).contains(step) else {
            throw ValidationError("--window and --step must be between 1 and 86400 seconds.")
        }
        guard (1...64).contains(resampleHz) else { throw ValidationError("--resample-hz must be between 1 and 64.") }
        guard lambda > 0 else { throw ValidationError("--lambda must be positive.") }
        guard (0...86_400).contains(welchSegment) else { throw ValidationError("--welch-segment must be between 0 and 86400 seconds.") }
        guard (0..<100).contains(welchOverlap) else { throw ValidationError("--welch-overlap must be in [0, 100).") }
        guard (1...16).contains(welchPad) else { throw ValidationError("--welch-pad must be between 1 and 16.") }
    }

    var options: HRVOptions {
        var o = HRVOptions()
        o.windowSeconds = window
        o.stepSeconds = step
        o.windows = !whole
        o.artifactMethod = artifacts
        o.maxArtifactPct = maxArtifact
        o.psdMethod = psd
        o.resampleHz = resampleHz
        o.interpolation = interpolation
        o.detrending = detrend
        o.lambda = lambda
        o.welch = WelchOptions(segmentSeconds: welchSegment, overlap: welchOverlap / 100, padFactor: welchPad)
        return o
    }

    func run() throws {
        try HRVStage(options: options, nnOut: nnOut, psdOut: psdOut, timings: timing ? Self.printTimings : nil)
            .runCommitted(Workspace(path: workspace), try global.context())
    }

    /// `--timing`: mean time per window of each index family, on stderr.
    @Sendable static func printTimings(_ total: HRVTimings) {
        let per = { (ns: UInt64) in String(format: "%.1f", Double(ns) / 1000 / Double(max(1, total.windows))) }
        let line = "timing: \(plural(total.windows, "window")); µs per window: time \(per(total.timeNs)), "
            + "frequency \(per(total.frequencyNs)), nonlinear \(per(total.nonlinearNs))\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
