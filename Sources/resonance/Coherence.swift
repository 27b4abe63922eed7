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

    @Argument(help: ArgumentHelp("Workspace folder (reads rr.csv and hr.csv, writes coherence.csv).", valueName: "workspace"))
    var workspace: String

    @Option(help: "Window length, seconds. Default: the constant coherence.window_seconds (64).")
    var window: Double?

    @Option(help: "Step between window starts, seconds. Default: the constant coherence.step_seconds (5).")
    var step: Double?

    @Option(help: "Paced breathing rate, breaths per minute. Default: the constant coherence.breathing_rate_per_min (6).")
    var breathingRate: Double?

    @Option(help: "Artifact detection for RR: lipponen, malik or none.")
    var artifacts: ArtifactMethod = .lipponen

    @Option(help: ArgumentHelp("windowed (tapered 64 s windows every 5 s: coach, heartmath and resonance rows) or product "
                               + "(the breathing product's own score: raw DFT of the last 30 s at 4 Hz, every 0.25 s, at the "
                               + "rate in force in breathing.csv, else 5.5/min; per-minute means). Default: windowed."))
    var method: CoherenceMethod = .windowed

    @Flag(help: "With --method product: write every 0.25 s score as a row instead of per-minute means.")
    var everyStep = false

    @Option(help: ArgumentHelp("With --method product: how beats become 4 Hz heart rate: spline (cubic spline) or repeat "
                               + "(the latest beat's heart rate every 0.25 s, as the product's watch samples). Default: spline."))
    var hrSampling: HRSampling?

    func validate() throws {
        try WorkspaceFolder.requireExisting(workspace)
        if everyStep && method != .product { throw ValidationError("--every-step needs --method product.") }
        if hrSampling != nil && method != .product { throw ValidationError("--hr-sampling needs --method product.") }
        if method == .product && (window != nil || step != nil || breathingRate != nil) {
            throw ValidationError("--window, --step and --breathing-rate apply to --method windowed; the product's window is "
                                  + "the constant pacer.window_samples and its rate comes from breathing.csv.")
        }
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
        let context = try global.context()
        var options = CoherenceOptions(constants: CoherenceConstants(registry: context.registry))
        if let window { options.windowSeconds = window }
        if let step { options.stepSeconds = step }
        if let breathingRate { options.breathingRate = breathingRate }
        options.artifactMethod = artifacts
        options.method = method
        options.everyStep = everyStep
        options.sampling = hrSampling ?? .spline
        try CoherenceStage(options: options).runCommitted(Workspace(path: workspace), context)
    }
}

extension CoherenceMethod: ExpressibleByArgument {}

extension HRSampling: ExpressibleByArgument {}
