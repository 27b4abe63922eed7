import Foundation

/// One beat detected in a waveform (`beats.csv`, docs/tables.md): its time, the interval
/// from the beat before it in the same segment, how it was found, its quality and whether
/// that interval is reliable.
public struct DetectedBeat: Equatable, Sendable {
    public var subject: String
    public var timestampMs: Int64
    /// From the previous beat of the same segment, ms (sub-sample, to the microsecond); nil
    /// for a segment's first beat.
    public var intervalMs: Double?
    /// `device:detector`: `wfdb:pan-tompkins`, `e4:elgendi-foot`, …
    public var source: String
    public var channel: String
    /// `r_peak` (ECG) or `pulse_onset` (PPG).
    public var fiducial: String
    /// Correlation with the template of the recent beats (`BeatQuality`), 0–1 (negative
    /// for a beat shaped against it).
    public var quality: Double
    /// SD of the accelerometer magnitude over the trailing window, g; nil without one.
    public var motionG: Double?
    /// Whether the interval ending at this beat is reliable (`BeatQuality.reliable`).
    public var reliable: Bool
}

extension DetectedBeat: CanonicalRow {
    public static let fileName = "beats.csv"
    public static let header = ["subject", "timestamp", "interval_ms", "source", "channel", "fiducial", "quality", "motion_g", "reliable"]
    public func write(to w: CSVWriter) {
        w.field(subject); w.field(timestampMs: timestampMs); w.field(intervalMs); w.field(source); w.field(channel)
        w.field(fiducial); w.field(quality); w.field(motionG); w.field(reliable)
    }
    public init(_ r: CanonicalFieldReader) throws {
        self.init(subject: try r.string("subject"), timestampMs: try r.timestamp("timestamp"),
                  intervalMs: try r.optionalDouble("interval_ms"), source: try r.string("source"),
                  channel: try r.string("channel"), fiducial: try r.string("fiducial"), quality: try r.double("quality"),
                  motionG: try r.optionalDouble("motion_g"), reliable: try r.bool("reliable"))
    }
}

/// Which waveform channels hold an ECG lead or a pulse wave, and which one of each a
/// subject's beats come from.
public enum BeatChannels {
    /// ECG leads by preference: MIT-BIH's modified lead II first, then lead II (the
    /// monitoring lead with the tallest R wave in most people), then any other lead.
    public static let ecgLeads = ["mlii", "ii", "ecg", "ekg", "i", "iii", "v5", "v", "v1", "v2", "v3", "v4", "v6", "avr", "avl", "avf"]
    /// Pulse-wave channels: the E4's `bvp`, BIDMC's `pleth`, Polar's first PPG channel `ppg0`.
    public static let pulseWaves = ["bvp", "pleth", "ppg", "ppg0"]

    /// The preferred channel of `kinds` among `channels`, or nil.
    static func chosen(_ channels: [String], from kinds: [String]) -> String? {
        kinds.first { channels.contains($0) }
    }
}

/// `resonance beats`: each subject's raw ECG and pulse wave (`waveforms.csv`) into beats
/// with their quality (`beats.csv`). One ECG lead (`BeatChannels.ecgLeads`'s order) and one
/// pulse wave per subject, each segment on its own (a gap is never bridged).
public struct BeatsStage: Stage {
    /// Receives the time the detectors took (`--timing`).
    public var timings: (@Sendable (DetectionTiming) -> Void)?

    public init(timings: (@Sendable (DetectionTiming) -> Void)? = nil) {
        self.timings = timings
    }

    public var name: String { "beats" }
    public var version: String { "1.0.0" }
    public var engines: [String] { ["ecg_beats", "ppg_beats", "beat_quality"] }
    public var perSubject: Bool { true }
    public var reads: [String] { [WaveformSegment.fileName, WaveformSegment.samplesFileName] }
    public var writes: [String] { [DetectedBeat.fileName] }

    public func run(_ ws: Workspace, _ context: StageContext) throws {
        let store = try WaveformStore(ws)
        var subjects: [String] = []
        var bySubject: [String: [WaveformSegment]] = [:]
        for s in store.segments {
            if bySubject[s.subject] == nil { subjects.append(s.subject) }
            bySubject[s.subject, default: []].append(s)
        }
        let counter = context.progress.counter("beats: subjects", total: subjects.count)
        let table = try ws.writer(DetectedBeat.self)
        let registry = context.registry
        var total = DetectionTiming()
        try Parallel.forEach(subjects, jobs: context.jobs, { subject -> (EncodedRows, [String], DetectionTiming) in
            defer { counter.tick() }
            var timing = DetectionTiming()
            let (rows, notes) = try Self.beats(of: bySubject[subject] ?? [], store: store, registry: registry, timing: &timing)
            return (try Workspace.encode(rows), notes, timing)
        }, inOrder: { out in
            try table.append(out.0)
            for note in out.1 { context.progress.note(note) }
            total.add(out.2)
        })
        timings?(total)
        try table.commit()
        context.progress.note("beats: wrote \(table.rows) row(s) to \(ws.file(DetectedBeat.fileName))")
    }

    /// One subject's beats: those of its preferred ECG lead, then of its pulse wave.
    static func beats(of segments: [WaveformSegment], store: WaveformStore, registry: ConstantsRegistry,
                      timing: inout DetectionTiming) throws -> ([DetectedBeat], [String]) {
        let channels = segments.map(\.channel)
        var rows: [DetectedBeat] = []
        var notes: [String] = []
        let motion = try Motion(segments.filter { $0.channel.hasPrefix("acc_") }, store: store,
                                windowS: registry.beatQuality.motionWindowS)
        for (kinds, fiducial) in [(BeatChannels.ecgLeads, "r_peak"), (BeatChannels.pulseWaves, "pulse_onset")] {
            guard let channel = BeatChannels.chosen(channels, from: kinds) else { continue }
            var found = 0, reliable = 0
            for segment in segments where segment.channel == channel {
                let x = try store.physical(segment)
                let positions: [Double]
                let detector: String
                let started = DispatchTime.now().uptimeNanoseconds
                if fiducial == "r_peak" {
                    positions = ECGPeaks.detect(x, rateHz: segment.rateHz, constants: registry.ecgBeats).peaks
                    detector = "pan-tompkins"
                } else {
                    positions = PPGOnsets.detect(x, rateHz: segment.rateHz, constants: registry.ppgBeats).onsets
                    detector = "elgendi-foot"
                }
                timing.add(fiducial: fiducial, samples: x.count, ns: DispatchTime.now().uptimeNanoseconds - started)
                let quality = BeatQuality.templateCorrelation(x, rateHz: segment.rateHz, at: positions, constants: registry.beatQuality)
                let startS = Double(segment.startMs) / 1000
                let times = positions.map { startS + segment.secondsFromStart(0) + $0 / segment.rateHz }
                let moved = times.map { motion.sd(at: $0) }
                let ok = BeatQuality.reliable(times: times, quality: quality, motion: moved, constants: registry.beatQuality)
                for i in times.indices {
                    let interval = i > 0 ? ((times[i] - times[i - 1]) * 1_000_000).rounded() / 1000 : nil
                    rows.append(DetectedBeat(
                        subject: segment.subject, timestampMs: Int64((times[i] * 1000).rounded(.down)), intervalMs: interval,
                        source: "\(segment.source):\(detector)", channel: channel, fiducial: fiducial,
                        quality: (quality[i] * 1_000_000).rounded() / 1_000_000, motionG: moved[i].map { ($0 * 1_000_000).rounded() / 1_000_000 },
                        reliable: ok[i]))
                }
                found += times.count
                reliable += ok.filter { $0 }.count
            }
            if found == 0 || reliable == 0 {
                notes.append("beats: \(segments[0].subject) \(channel): \(found) beat\(found == 1 ? "" : "s") detected, none reliable "
                    + "(noise, or no \(fiducial == "r_peak" ? "ECG" : "pulse") in the signal)")
            }
        }
        return (rows, notes)
    }
}

/// The time the detectors took on samples already in memory (filtering included),
/// per kind of signal.
public struct DetectionTiming: Sendable {
    public var ecgSamples = 0, ecgNs: UInt64 = 0
    public var ppgSamples = 0, ppgNs: UInt64 = 0

    public init() {}

    mutating func add(fiducial: String, samples: Int, ns: UInt64) {
        if fiducial == "r_peak" { ecgSamples += samples; ecgNs += ns } else { ppgSamples += samples; ppgNs += ns }
    }

    mutating func add(_ other: DetectionTiming) {
        ecgSamples += other.ecgSamples; ecgNs += other.ecgNs
        ppgSamples += other.ppgSamples; ppgNs += other.ppgNs
    }
}

/// The wrist's motion: the SD of the accelerometer's magnitude (g) over a trailing window,
/// from the `acc_x`, `acc_y`, `acc_z` segments of a recording (E4: 1/64 g a unit; Polar: mg).
struct Motion {
    private var pieces: [(startS: Double, rateHz: Double, sum: [Double], squares: [Double])] = []
    private let windowS: Double

    init(_ segments: [WaveformSegment], store: WaveformStore, windowS: Double) throws {
        self.windowS = windowS
        // The three axes of one stretch share their file and first sample.
        var order: [String] = []
        var grouped: [String: [WaveformSegment]] = [:]
        for s in segments {
            let key = "\(s.file)#\(s.firstSample)"
            if grouped[key] == nil { order.append(key) }
            grouped[key, default: []].append(s)
        }
        for key in order {
            guard let axes = grouped[key], axes.count == 3, Set(axes.map(\.samples)).count == 1 else { continue }
            let values = try axes.map { try store.physical($0) }
            let scale = axes[0].unit == "1/64 g" ? 1.0 / 64 : axes[0].unit == "mg" ? 0.001 : 1
            var sum = [0.0], squares = [0.0]
            for i in 0..<axes[0].samples {
                let m = (values[0][i] * values[0][i] + values[1][i] * values[1][i] + values[2][i] * values[2][i]).squareRoot() * scale
                sum.append(sum[i] + m)
                squares.append(squares[i] + m * m)
            }
            pieces.append((Double(axes[0].startMs) / 1000 + axes[0].secondsFromStart(0), axes[0].rateHz, sum, squares))
        }
    }

    /// The SD at time `t` (unix s) over the trailing window, nil outside every piece.
    func sd(at t: Double) -> Double? {
        for p in pieces {
            let k = Int(((t - p.startS) * p.rateHz).rounded(.down))
            guard k >= 0, k < p.sum.count - 1 else { continue }
            let w = max(1, Int((windowS * p.rateHz).rounded()))
            let lo = max(0, k - w + 1)
            let n = Double(k + 1 - lo)
            let mean = (p.sum[k + 1] - p.sum[lo]) / n
            let meanSquare = (p.squares[k + 1] - p.squares[lo]) / n
            return max(meanSquare - mean * mean, 0).squareRoot()
        }
        return nil
    }
}
