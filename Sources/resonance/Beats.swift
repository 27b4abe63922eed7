import ArgumentParser
import Foundation
import ResonanceLab

/// `resonance beats WS`: beats from the raw ECG and pulse wave, with their quality.
struct Beats: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "beats",
        abstract: "Detect beats in a workspace's raw ECG and pulse wave (waveforms.csv) into beats.csv.",
        discussion: """
            Per subject, one ECG lead (MLII, II, then any other) gives R peaks (Pan & Tompkins \
            1985 with Hamilton's 2002 threshold; constants ecg_beats) and one pulse wave (the \
            E4's bvp, BIDMC's pleth) gives pulse onsets (Elgendi et al. 2013's systolic peaks, \
            then each pulse's foot; constants ppg_beats). Each beat gets its correlation with \
            the template of the last 10 s of beats, the wrist's motion where an accelerometer \
            was worn, and whether the interval ending at it is reliable (constants \
            beat_quality). A gap in a waveform is never bridged. Each recording is read in \
            5-minute chunks that run on every core (--jobs). Where the workspace holds \
            waveforms, rr_combined.csv gets rr.csv's intervals and the reliable detected ones \
            where the device gave none: hrv, coherence, sessions, breathing assess, dj replay \
            and the stress protocol then read it in rr.csv's place. A workspace without \
            waveforms gives a beats.csv with its header only.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Workspace folder (reads waveforms.csv, waveforms.bin and rr.csv; writes beats.csv and rr_combined.csv).", valueName: "workspace"))
    var workspace: String

    @Flag(help: "Print the detectors' time (filtering included, samples already in memory) on stderr, in ms.")
    var timing = false

    @Option(help: ArgumentHelp("With --timing: detect each batch of chunks this many times in the process and print the median time (the later runs with their buffers warm, as a peer timed in its own process); the beats are the same. Default: 1.", valueName: "n"))
    var timingRuns = 1

    func validate() throws {
        try WorkspaceFolder.requireExisting(workspace)
        guard timingRuns >= 1 else { throw ValidationError("--timing-runs must be at least 1 (got \(timingRuns)).") }
        guard timingRuns == 1 || timing else { throw ValidationError("--timing-runs needs --timing.") }
    }

    func run() throws {
        try BeatsStage(timings: timing ? Self.printTimings : nil, timingRuns: timingRuns)
            .runCommitted(Workspace(path: workspace), try global.context())
    }

    /// `--timing`: the detectors' time per kind of signal, on stderr.
    @Sendable static func printTimings(_ t: DetectionTiming) {
        let ms = { (ns: UInt64) in String(format: "%.3f", Double(ns) / 1e6) }
        let line = "timing: ECG \(t.ecgSamples) samples in \(ms(t.ecgNs)) ms; pulse wave \(t.ppgSamples) samples in \(ms(t.ppgNs)) ms\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
