/// The raw signals of a workspace (docs/tables.md, waveforms.csv and waveforms.bin): each
/// segment is one channel sampled at one rate without a gap; its samples are the bytes
/// `offset ..< offset + bytes` of `waveforms.bin` (`WaveformCodec`). The time of sample
/// `j` of a segment is `start + (first_sample + j) / rate_hz`: `start` is the source
/// file's clock (its first sample), so a segment after a gap keeps sample-exact times.
/// A physical value is `(stored − baseline) / gain` in `unit` (WFDB's ADC units; gain 1
/// and baseline 0 for a source that prints physical values).
public struct WaveformSegment: Equatable, Sendable {
    public var subject: String
    /// `bvp`, `acc_x`, `eda`, `ecg_mlii`, … (docs/tables.md, waveforms.csv).
    public var channel: String
    public var unit: String
    /// The device or database format: `e4`, `wfdb`, `bidmc`, `polar-sensor-logger`,
    /// `apple_health`, `waveform-csv`.
    public var source: String
    /// The source file's first sample, epoch ms.
    public var startMs: Int64
    public var firstSample: Int
    public var rateHz: Double
    public var samples: Int
    public var gain: Double
    public var baseline: Double
    /// Byte range of the samples in `waveforms.bin`.
    public var offset: Int
    public var bytes: Int
    /// Quality flags (`WaveformQuality`): samples equal to 0; in flat stretches; clipped.
    public var zeroSamples: Int
    public var flatSamples: Int
    public var clippedSamples: Int
    /// Samples printed with more than `WaveformCodec.maxDecimals` places or 15
    /// significant digits, kept rounded.
    public var roundedSamples: Int
    /// The source file, as the manifest names it.
    public var file: String

    /// Sampling rates a waveform may have, Hz: a sample a day up to 1 MHz (ECG is
    /// recorded at 125–10,000 Hz, skin temperature at 1–4 Hz).
    public static let rateRangeHz: ClosedRange<Double> = 1.0 / 86_400...1_000_000
    public static let rateRangeText = "1/86400–1000000 Hz"

    /// Seconds from `startMs` to sample `j` of this segment.
    public func secondsFromStart(_ j: Int) -> Double { Double(firstSample + j) / rateHz }

    /// A stored sample in physical units: `(stored − baseline) / gain`.
    public func physical(_ sample: WaveformCodec.Fixed) -> Double { Self.physical(sample, gain: gain, baseline: baseline) }

    @inline(__always)
    static func physical(_ sample: WaveformCodec.Fixed, gain: Double, baseline: Double) -> Double { (sample.value - baseline) / gain }
}

extension WaveformSegment: CanonicalRow {
    public static let fileName = "waveforms.csv"
    /// The file holding the segments' samples (docs/tables.md, waveforms.bin).
    public static let samplesFileName = "waveforms.bin"
    public static let header = [
        "subject", "channel", "unit", "source", "start", "first_sample", "rate_hz", "samples", "gain", "baseline",
        "offset", "bytes", "zero_samples", "flat_samples", "clipped_samples", "rounded_samples", "file",
    ]
    public func write(to w: CSVWriter) {
        w.field(subject); w.field(channel); w.field(unit); w.field(source); w.field(timestampMs: startMs)
        w.field(firstSample); w.field(rateHz); w.field(samples); w.field(gain); w.field(baseline)
        w.field(offset); w.field(bytes); w.field(zeroSamples); w.field(flatSamples); w.field(clippedSamples)
        w.field(roundedSamples); w.field(file)
    }
    /// A byte position or length of `waveforms.bin`: a whole number below 2^53 (the file
    /// may pass the 2^31 of a row count).
    static func byteCount(_ r: CanonicalFieldReader, _ name: String) throws -> Int {
        let v = try r.double(name)
        guard v >= 0, v < 9_007_199_254_740_992, v == v.rounded() else {
            throw r.fail(name, "'\(name)' is not a whole number of bytes: '\(try r.string(name))'")
        }
        return Int(v)
    }

    public init(_ r: CanonicalFieldReader) throws {
        self.init(subject: try r.string("subject"), channel: try r.string("channel"), unit: try r.string("unit"),
                  source: try r.string("source"), startMs: try r.timestamp("start"),
                  firstSample: try r.count("first_sample"), rateHz: try r.double("rate_hz"),
                  samples: try r.count("samples"), gain: try r.double("gain"), baseline: try r.double("baseline"),
                  offset: try Self.byteCount(r, "offset"), bytes: try Self.byteCount(r, "bytes"), zeroSamples: try r.count("zero_samples"),
                  flatSamples: try r.count("flat_samples"), clippedSamples: try r.count("clipped_samples"),
                  roundedSamples: try r.count("rounded_samples"), file: try r.string("file"))
        guard WaveformSink.rateRangeHz.contains(rateHz) else { throw r.fail("rate_hz", "sample rate outside \(WaveformSink.rateRangeText)") }
        guard gain != 0, gain.isFinite, baseline.isFinite else { throw r.fail("gain", "gain must be finite and not 0, baseline finite") }
        guard Timestamp.instant(ms: Double(startMs) + secondsFromStart(samples) * 1000) != nil else {
            throw r.fail("samples", "the segment's last sample lies past the years 0000–9999")
        }
    }
}

/// A reference annotation of a recording (WFDB `.atr`): `annotations.csv`. `sample` is
/// the frame number in the record (exact); `timestamp` is its time to the millisecond.
/// `beat` marks the labels ANSI/AAMI EC57 counts as beats (`WFDB.Annotations.beatCodes`).
public struct ReferenceAnnotation: Equatable, Sendable {
    public var subject: String
    public var timestampMs: Int64
    public var sample: Int
    public var label: String
    public var beat: Bool
    /// The annotation's auxiliary text (a rhythm such as `(N`), else empty.
    public var aux: String
    public var file: String
}

extension ReferenceAnnotation: CanonicalRow {
    public static let fileName = "annotations.csv"
    public static let header = ["subject", "timestamp", "sample", "label", "beat", "aux", "file"]
    public func write(to w: CSVWriter) {
        w.field(subject); w.field(timestampMs: timestampMs); w.field(sample); w.field(label); w.field(beat)
        w.field(aux); w.field(file)
    }
    public init(_ r: CanonicalFieldReader) throws {
        self.init(subject: try r.string("subject"), timestampMs: try r.timestamp("timestamp"),
                  sample: try r.count("sample"), label: try r.string("label"), beat: try r.bool("beat"),
                  aux: try r.string("aux"), file: try r.string("file"))
    }
}
