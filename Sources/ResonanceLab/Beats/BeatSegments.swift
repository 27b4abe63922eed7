import Foundation

/// One waveform segment's beats summed up (`beat_segments.csv`, docs/tables.md): how much
/// of it reliable beats cover, and the ultra-short indices its reliable intervals give —
/// a 30-s watch ECG's mean heart rate and RMSSD (Munoz et al. 2015, "Validity of
/// (ultra-)short recordings for heart rate variability measurements", PLoS ONE
/// 10:e0138921: RMSSD from 10–30 s of beats agrees with the 5-min value, r ≥ 0.9).
public struct BeatSegment: Equatable, Sendable {
    public var subject: String
    public var channel: String
    /// `device:detector`, as `beats.csv`'s.
    public var source: String
    /// The segment's first sample, ms since 1970.
    public var startMs: Int64
    public var durationS: Double
    public var beats: Int
    public var reliableIntervals: Int
    /// Summed length of the reliable intervals ÷ the segment's duration.
    public var coverage: Double
    /// 60,000 ÷ the mean reliable interval; nil below `summary_min_intervals` of them.
    public var meanHRBpm: Double?
    /// Root mean square of the differences of successive reliable intervals, ms; nil
    /// below `summary_min_intervals` such differences.
    public var rmssdMs: Double?

    /// The summary of one segment's detected beats (in time order).
    static func summary(of segment: WaveformSegment, source: String, beats: ArraySlice<DetectedBeat>,
                        constants c: BeatQualityConstants) -> BeatSegment {
        let reliable = beats.filter(\.reliable).compactMap(\.intervalMs)
        var differences: [Double] = []
        for (a, b) in zip(beats, beats.dropFirst()) where a.reliable && b.reliable {
            if let x = a.intervalMs, let y = b.intervalMs { differences.append(y - x) }
        }
        let durationS = Double(segment.samples) / segment.rateHz
        let enough = Double(reliable.count) >= c.summaryMinIntervals.rounded()
        let mean = reliable.reduce(0, +) / Double(max(1, reliable.count))
        let rmssd = (differences.map { $0 * $0 }.reduce(0, +) / Double(max(1, differences.count))).squareRoot()
        func rounded(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
        return BeatSegment(
            subject: segment.subject, channel: segment.channel, source: source,
            startMs: segment.startMs + Int64((segment.secondsFromStart(0) * 1000).rounded(.down)),
            durationS: rounded(durationS), beats: beats.count, reliableIntervals: reliable.count,
            coverage: rounded(durationS > 0 ? reliable.reduce(0, +) / 1000 / durationS : 0),
            meanHRBpm: enough ? rounded(60_000 / mean) : nil,
            rmssdMs: Double(differences.count) >= c.summaryMinIntervals.rounded() ? rounded(rmssd) : nil)
    }
}

extension BeatSegment: CanonicalRow {
    public static let fileName = "beat_segments.csv"
    public static let header = ["subject", "channel", "source", "start", "duration_s", "beats", "reliable_intervals",
                                "coverage", "mean_hr_bpm", "rmssd_ms"]
    public func write(to w: CSVWriter) {
        w.field(subject); w.field(channel); w.field(source); w.field(timestampMs: startMs); w.field(durationS)
        w.field(beats); w.field(reliableIntervals); w.field(coverage); w.field(meanHRBpm); w.field(rmssdMs)
    }
    public init(_ r: CanonicalFieldReader) throws {
        self.init(subject: try r.string("subject"), channel: try r.string("channel"), source: try r.string("source"),
                  startMs: try r.timestamp("start"), durationS: try r.double("duration_s"), beats: try r.count("beats"),
                  reliableIntervals: try r.count("reliable_intervals"), coverage: try r.double("coverage"),
                  meanHRBpm: try r.optionalDouble("mean_hr_bpm"), rmssdMs: try r.optionalDouble("rmssd_ms"))
    }
}
