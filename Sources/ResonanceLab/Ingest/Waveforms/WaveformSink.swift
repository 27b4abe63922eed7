import Foundation

/// Quality flags of a waveform segment (docs/tables.md, waveforms.csv): counted, never
/// a reason to reject a sample.
public enum WaveformQuality {
    /// A flat stretch: the same value for at least this long, seconds (and at least
    /// `clipRunSamples` samples). A pulse wave or ECG never holds still for a second;
    /// slow channels (skin temperature, skin conductance at their print resolution) do,
    /// and their flat counts say so rather than flag a fault.
    public static let flatRunS = 1.0
    /// A sample is clipped when it lies in a run of at least this many equal samples at
    /// its segment's minimum or maximum (the sensor's rail).
    public static let clipRunSamples = 3
}

/// Writes `waveforms.bin` and collects the rows of `waveforms.csv` as the import reads
/// each signal file: every channel of a file is encoded as its samples come, and its
/// segments are written in channel order when the file ends (or a gap ends them).
final class WaveformSink {
    /// First bytes of `waveforms.bin`: the format and its version.
    static let magic = Array("RLWAVE1\n".utf8)
    static let fileName = WaveformSegment.samplesFileName
    /// Sampling rates a waveform may have (`WaveformSegment.rateRangeHz`).
    static let rateRangeHz = WaveformSegment.rateRangeHz
    static let rateRangeText = WaveformSegment.rateRangeText

    /// Where `waveforms.bin` is staged; nil keeps nothing (an in-memory import).
    private let path: String?
    /// Opened with the first recording, so that an import without one writes no file.
    private var output: AtomicFile?
    private var offset = 0
    private(set) var segments: [WaveformSegment] = []

    init(path: String?) {
        self.path = path
    }

    private func write(_ bytes: [UInt8]) throws {
        try open()
        offset += bytes.count
        try output?.write(bytes)
    }

    /// Opens the file with its first bytes, once.
    private func open() throws {
        guard offset == 0 else { return }
        output = try path.map { try AtomicFile(path: $0) }
        offset = WaveformSink.magic.count
        try output?.write(WaveformSink.magic)
    }

    /// Writes the file, if any recording was read, and hands the workspace session its
    /// digest and segment count.
    func commit(workspace: Workspace) throws {
        guard let output else { return }
        try output.commit()
        if let sha256 = output.sha256 { workspace.session?.wrote(file: output.path, rows: segments.count, sha256: sha256) }
    }

    /// One channel of a recording being read.
    struct Channel {
        var name: String
        var unit: String
        var gain = 1.0
        var baseline = 0.0
    }

    /// The channels of one source file, sampled together frame by frame.
    final class Recording {
        let subject: String
        let source: String
        let startMs: Int64
        let rateHz: Double
        let file: String
        fileprivate var channels: [ChannelState]
        /// Frames seen so far, accepted or not: the next frame's index.
        private(set) var frames = 0
        fileprivate var finished: [[(WaveformSegment, [UInt8])]]

        fileprivate init(subject: String, source: String, startMs: Int64, rateHz: Double, file: String, channels: [Channel]) {
            self.subject = subject; self.source = source; self.startMs = startMs; self.rateHz = rateHz; self.file = file
            let flatRun = max(WaveformQuality.clipRunSamples, Int((WaveformQuality.flatRunS * rateHz).rounded(.up)))
            self.channels = channels.map { ChannelState(channel: $0, flatRun: flatRun) }
            finished = channels.map { _ in [] }
        }

        /// One frame: a sample per channel, in channel order.
        func frame(_ samples: [WaveformCodec.Fixed], rounded: [Bool]) {
            for k in channels.indices { channels[k].add(samples[k], rounded: rounded[k], at: frames) }
            frames += 1
        }

        /// A frame that was rejected: it ends every channel's segment (a gap).
        func gap() {
            endSegments()
            frames += 1
        }

        /// A break in the source's own clock (a jump in its sample times): every channel's
        /// segment ends, and the next frame is `frame` (never an earlier one).
        func skip(to frame: Int) {
            endSegments()
            frames = max(frames, frame)
        }

        fileprivate func endSegments() {
            for k in channels.indices {
                guard let done = channels[k].end() else { continue }
                let c = channels[k].channel
                let row = WaveformSegment(
                    subject: subject, channel: c.name, unit: c.unit, source: source, startMs: startMs,
                    firstSample: done.first, rateHz: rateHz, samples: done.samples, gain: c.gain, baseline: c.baseline,
                    offset: 0, bytes: done.bytes.count, zeroSamples: done.zero, flatSamples: done.flat,
                    clippedSamples: done.clipped, roundedSamples: done.rounded, file: file)
                finished[k].append((row, done.bytes))
            }
        }
    }

    func begin(subject: String, source: String, startMs: Int64, rateHz: Double, file: String,
               channels: [Channel]) -> Recording {
        Recording(subject: subject, source: source, startMs: startMs, rateHz: rateHz, file: file, channels: channels)
    }

    /// Ends a recording: its segments go to `waveforms.bin`, channel by channel in time order.
    func end(_ recording: Recording) throws {
        recording.endSegments()
        try open()
        for channel in recording.finished {
            for (row, bytes) in channel {
                var placed = row
                placed.offset = offset
                try write(bytes)
                segments.append(placed)
            }
        }
        recording.finished = []
    }
}

/// One channel's open segment: its encoder and its quality counts.
private struct ChannelState {
    let channel: WaveformSink.Channel
    let flatRun: Int
    var encoder = WaveformCodec.Encoder()
    var first = -1
    var samples = 0
    var zero = 0
    var flat = 0
    var rounded = 0
    /// The current run of equal values: its value and length.
    var runValue = Double.nan
    var runLength = 0
    /// Samples in runs of at least `clipRunSamples`, by value (for the rails).
    var inRuns: [Double: Int] = [:]
    var low = Double.infinity, high = -Double.infinity

    init(channel: WaveformSink.Channel, flatRun: Int) {
        self.channel = channel; self.flatRun = flatRun
    }

    mutating func add(_ sample: WaveformCodec.Fixed, rounded wasRounded: Bool, at frame: Int) {
        if first < 0 { first = frame }
        encoder.append(sample)
        samples += 1
        let v = sample.value
        if v == 0 { zero += 1 }
        if wasRounded { rounded += 1 }
        low = min(low, v); high = max(high, v)
        if v == runValue {
            runLength += 1
        } else {
            closeRun()
            runValue = v
            runLength = 1
        }
    }

    private mutating func closeRun() {
        if runLength >= flatRun { flat += runLength }
        if runLength >= WaveformQuality.clipRunSamples { inRuns[runValue, default: 0] += runLength }
        runLength = 0
    }

    /// Ends the open segment: nil when it holds no sample.
    mutating func end() -> (first: Int, samples: Int, bytes: [UInt8], zero: Int, flat: Int, clipped: Int, rounded: Int)? {
        guard samples > 0 else { return nil }
        closeRun()
        encoder.flush()
        let clipped = (inRuns[low] ?? 0) + (high != low ? inRuns[high] ?? 0 : 0)
        let done = (first, samples, encoder.take(), zero, flat, clipped, rounded)
        self = ChannelState(channel: channel, flatRun: flatRun)
        return done
    }
}
