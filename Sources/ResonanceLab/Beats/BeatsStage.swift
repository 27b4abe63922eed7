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
    /// With `timings`: how many times each batch of chunks is detected, the median time
    /// counted (`--timing-runs`); the beats are the same every time.
    public var timingRuns: Int

    public init(timings: (@Sendable (DetectionTiming) -> Void)? = nil, timingRuns: Int = 1) {
        self.timings = timings
        self.timingRuns = timingRuns
    }

    public var name: String { "beats" }
    public var version: String { "1.1.0" }
    public var engines: [String] { ["ecg_beats", "ppg_beats", "beat_quality", "rr"] }
    public var perSubject: Bool { true }
    public var reads: [String] { [WaveformSegment.fileName, WaveformSegment.samplesFileName, RRInterval.fileName] }
    public var writes: [String] { [DetectedBeat.fileName, BeatSegment.fileName, CombinedRR.fileName] }

    /// Writes `beats.csv`, and where the workspace holds waveforms (`waveforms.bin`)
    /// `rr_combined.csv` (`CombinedRR`): rr.csv's subjects in their order, then those with
    /// waveforms alone.
    public func run(_ ws: Workspace, _ context: StageContext) throws {
        let store = try WaveformStore(ws)
        var subjects: [String] = []
        var bySubject: [String: [WaveformSegment]] = [:]
        for s in store.segments {
            if bySubject[s.subject] == nil { subjects.append(s.subject) }
            bySubject[s.subject, default: []].append(s)
        }
        // waveforms.bin, not a subject's segments, says the workspace holds waveforms: every
        // shard of a split has it whole, so every shard writes the table.
        let rr = ws.exists(WaveformSegment.samplesFileName) ? try ws.subjectIndex(RRInterval.self) : nil
        let combined = try rr.map { _ in try ws.writer(RRInterval.self, table: CombinedRR.fileName) }
        let counter = context.progress.counter("beats: subjects", total: subjects.count)
        let table = try ws.writer(DetectedBeat.self), summaries = try ws.writer(BeatSegment.self)
        var total = DetectionTiming()
        // One subject at a time, each recording's chunks on every core.
        for subject in (rr?.subjects ?? []) + subjects.filter({ !(rr?.contains($0) ?? false) }) {
            var rows: [DetectedBeat] = []
            if let segments = bySubject[subject] {
                let (found, summary, notes) = try Self.beats(of: segments, store: store, registry: context.registry,
                                                             jobs: context.jobs, timing: &total,
                                                             runs: timings == nil ? 1 : timingRuns)
                rows = found
                try table.append(try Workspace.encode(rows))
                try summaries.append(try Workspace.encode(summary))
                for note in notes { context.progress.note(note) }
                counter.tick()
            }
            if let rr, let combined {
                let device = rr.contains(subject) ? try rr.rows(RRInterval.self, of: subject) : []
                try combined.append(try Workspace.encode(CombinedRR.merge(device: device, detected: rows, plausible: context.registry.rr)))
            }
        }
        timings?(total)
        try table.commit()
        try summaries.commit()
        try combined?.commit()
        context.progress.note("beats: wrote \(plural(table.rows, "row")) to \(ws.file(DetectedBeat.fileName))"
            + (combined.map { ", \(plural($0.rows, "R-R interval")) to \(ws.file(CombinedRR.fileName))" } ?? ""))
    }

    /// One subject's beats: those of its preferred ECG lead, then of its pulse wave, and
    /// a summary of each segment they come from.
    static func beats(of segments: [WaveformSegment], store: WaveformStore, registry: ConstantsRegistry, jobs: Int,
                      timing: inout DetectionTiming, runs: Int = 1) throws -> ([DetectedBeat], [BeatSegment], [String]) {
        let channels = segments.map(\.channel)
        var rows: [DetectedBeat] = []
        var summaries: [BeatSegment] = []
        var notes: [String] = []
        let motion = try Motion(segments.filter { $0.channel.hasPrefix("acc_") }, store: store,
                                windowS: registry.beatQuality.motionWindowS)
        for kind in [BeatKind.ecg, .pulse] {
            guard let channel = BeatChannels.chosen(channels, from: kind.channels) else { continue }
            var found = 0, reliable = 0
            for segment in segments where segment.channel == channel {
                let (positions, quality) = try kind.detect(segment, store: store, registry: registry, jobs: jobs,
                                                           timing: &timing, runs: runs)
                let startS = Double(segment.startMs) / 1000
                let times = positions.map { startS + segment.secondsFromStart(0) + $0 / segment.rateHz }
                let moved = times.map { motion.sd(at: $0) }
                let ok = BeatQuality.reliable(times: times, quality: quality, motion: moved, constants: registry.beatQuality)
                let first = rows.count
                for i in times.indices {
                    let interval = i > 0 ? ((times[i] - times[i - 1]) * 1_000_000).rounded() / 1000 : nil
                    rows.append(DetectedBeat(
                        subject: segment.subject, timestampMs: Int64((times[i] * 1000).rounded(.down)), intervalMs: interval,
                        source: "\(segment.source):\(kind.detector)", channel: channel, fiducial: kind.fiducial,
                        quality: (quality[i] * 1_000_000).rounded() / 1_000_000, motionG: moved[i].map { ($0 * 1_000_000).rounded() / 1_000_000 },
                        reliable: ok[i]))
                }
                summaries.append(BeatSegment.summary(of: segment, source: "\(segment.source):\(kind.detector)",
                                                     beats: rows[first...], constants: registry.beatQuality))
                found += times.count
                reliable += ok.filter { $0 }.count
            }
            if found == 0 || reliable == 0 {
                notes.append("beats: \(segments[0].subject) \(channel): \(plural(found, "beat")) detected, none reliable "
                    + "(noise, or no \(kind == .ecg ? "ECG" : "pulse") in the signal)")
            }
        }
        return (rows, summaries, notes)
    }
}

/// The two kinds of beat: an ECG's R peaks and a pulse wave's onsets.
enum BeatKind {
    case ecg, pulse

    var channels: [String] { self == .ecg ? BeatChannels.ecgLeads : BeatChannels.pulseWaves }
    var fiducial: String { self == .ecg ? "r_peak" : "pulse_onset" }
    var detector: String { self == .ecg ? "pan-tompkins" : "elgendi-foot" }

    /// The fiducial points of `x`, fractional sample indices; a pulse wave's in the
    /// recording's `polarity`.
    func fiducialPoints(_ x: [Double], rateHz: Double, registry: ConstantsRegistry, polarity: Int) -> [Double] {
        switch self {
        case .ecg: ECGPeaks.detect(x, rateHz: rateHz, constants: registry.ecgBeats).peaks
        case .pulse: PPGOnsets.detect(x, rateHz: rateHz, constants: registry.ppgBeats, polarity: polarity).onsets
        }
    }

    /// A pulse wave's polarity, voted over all the chunks of `segment` (`PPGOnsets`); an
    /// ECG's is voted beat by beat as its R peaks are placed, so 1.
    /// The time the votes took (samples in memory; the median of `runs`) is added to
    /// `elapsed`, ns.
    func polarity(_ segment: WaveformSegment, chunks: BeatChunks, store: WaveformStore, registry: ConstantsRegistry,
                  jobs: Int, runs: Int, elapsed: inout UInt64) throws -> Int {
        guard self == .pulse else { return 1 }
        var vote = 0.0
        try chunks.forEachBatch(of: segment, store: store, batch: BeatChunks.batch(jobs: jobs)) { batch in
            let (votes, ns) = try DetectionTiming.median(of: runs) {
                try Parallel.map(batch, jobs: jobs) {
                    PPGOnsets.polarityVote($0.samples, rateHz: segment.rateHz, constants: registry.ppgBeats)
                }
            }
            vote += votes.reduce(0, +)
            elapsed += ns
        }
        return vote >= 0 ? 1 : -1
    }

    /// The closest two beats can be, s: the detector's refractory period.
    func minimumSpacingS(_ registry: ConstantsRegistry) -> Double {
        self == .ecg ? registry.ecgBeats.refractoryS : registry.ppgBeats.minIntervalS
    }

    /// The beats of `segment` (fractional sample indices from its first sample) and their
    /// quality, detected chunk by chunk (`BeatChunks`), a batch of chunks at a time on
    /// `jobs` cores. Where two chunks place one beat on either side of their border, the
    /// first is kept. The detection's time (the median of `runs`) is added to `timing`.
    func detect(_ segment: WaveformSegment, store: WaveformStore, registry: ConstantsRegistry, jobs: Int,
                timing: inout DetectionTiming, runs: Int = 1) throws -> (positions: [Double], quality: [Double]) {
        let chunks = BeatChunks(rateHz: segment.rateHz, constants: registry.beatQuality)
        let spacing = minimumSpacingS(registry) * segment.rateHz
        var positions: [Double] = [], quality: [Double] = []
        var elapsed: UInt64 = 0
        let polarity = try polarity(segment, chunks: chunks, store: store, registry: registry, jobs: jobs, runs: runs,
                                    elapsed: &elapsed)
        try chunks.forEachBatch(of: segment, store: store, batch: BeatChunks.batch(jobs: jobs)) { batch in
            let (found, ns) = try DetectionTiming.median(of: runs) {
                try Parallel.map(batch, jobs: jobs) {
                    fiducialPoints($0.samples, rateHz: segment.rateHz, registry: registry, polarity: polarity)
                }
            }
            elapsed += ns
            let judged = try Parallel.map(Array(zip(batch, found)), jobs: jobs) { pair in
                BeatQuality.templateCorrelation(pair.0.samples, rateHz: segment.rateHz, at: pair.1, constants: registry.beatQuality)
            }
            for (chunk, (local, q)) in zip(batch, zip(found, judged)) {
                for (p, qi) in zip(local, q) {
                    let at = Double(chunk.first) + p
                    guard at >= Double(chunk.owned.lowerBound), at < Double(chunk.owned.upperBound),
                          positions.last.map({ at - $0 >= spacing }) ?? true else { continue }
                    positions.append(at)
                    quality.append(qi)
                }
            }
        }
        timing.add(fiducial: fiducial, samples: segment.samples, ns: elapsed)
        return (positions, quality)
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

    /// `body` run `runs` times (at least once) and the median of the times it took, ns
    /// (the upper of the middle two for an even count), with the first run's result: a
    /// detector gives the same every time, so later runs measure it with its buffers warm,
    /// as a peer is timed in its own process.
    static func median<R>(of runs: Int, _ body: () throws -> R) rethrows -> (R, UInt64) {
        func timed<T>(_ run: () throws -> T) rethrows -> (T, UInt64) {
            let started = DispatchTime.now().uptimeNanoseconds
            let result = try run()
            return (result, DispatchTime.now().uptimeNanoseconds - started)
        }
        let (result, first) = try timed(body)
        var times = [first]
        for _ in 1..<max(1, runs) { times.append(try timed(body).1) }
        times.sort()
        return (result, times[times.count / 2])
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
