/// Heart rate recorded by two sources at once (a watch and a chest strap, or an E4 file
/// and an Apple Health export of the same hours) must not be read as one series, where
/// the denser source would outvote the other in medians and quantiles only by chance.
/// Rule (docs/engines/toolkit.md, Heart rate from several sources): per subject and minute, when
/// samples of more than one `source` fall in the same minute, only those of the source
/// with the most samples in that minute are kept (a tie goes to the source first in byte
/// order); the others are set aside and counted. Daily resting HR, zone minutes and the
/// sessions' heart rate all read heart rate through this rule.
public enum HeartRateSources {
    /// What the rule set aside.
    public struct Overlap: Equatable, Sendable, Codable {
        /// Subject-minutes with samples of more than one source.
        public var minutes = 0
        /// Samples of the other sources in those minutes, not read.
        public var samplesSetAside = 0

        public init(minutes: Int = 0, samplesSetAside: Int = 0) {
            self.minutes = minutes; self.samplesSetAside = samplesSetAside
        }

        public static func + (a: Overlap, b: Overlap) -> Overlap {
            Overlap(minutes: a.minutes + b.minutes, samplesSetAside: a.samplesSetAside + b.samplesSetAside)
        }
    }

    /// Which samples of one subject to keep (`timesMs[i]`, `sources[i]`), and what was set aside.
    public static func keep(timesMs: [Int64], sources: [String]) -> (keep: [Bool], overlap: Overlap) {
        var keep = [Bool](repeating: true, count: timesMs.count)
        guard let first = sources.first, sources.contains(where: { $0 != first }) else { return (keep, Overlap()) }
        var counts: [Int64: [String: Int]] = [:]
        for (t, s) in zip(timesMs, sources) {
            counts[Timestamp.floorDivMod(t, 60_000).0, default: [:]][s, default: 0] += 1
        }
        var winner: [Int64: String] = [:]
        var overlap = Overlap()
        for (minute, bySource) in counts where bySource.count > 1 {
            let best = bySource.max { a, b in
                a.value != b.value ? a.value < b.value : Array(b.key.utf8).lexicographicallyPrecedes(Array(a.key.utf8))
            }
            winner[minute] = best?.key
            overlap.minutes += 1
        }
        for i in timesMs.indices {
            if let w = winner[Timestamp.floorDivMod(timesMs[i], 60_000).0], sources[i] != w {
                keep[i] = false
                overlap.samplesSetAside += 1
            }
        }
        return (keep, overlap)
    }

    /// `hr` with the rule applied per subject (order kept), and what was set aside.
    public static func resolve(_ hr: [HRSample]) -> (kept: [HRSample], overlap: Overlap) {
        var bySubject: [String: [Int]] = [:]
        for (i, s) in hr.enumerated() { bySubject[s.subject, default: []].append(i) }
        var keepAll = [Bool](repeating: true, count: hr.count)
        var overlap = Overlap()
        for indices in bySubject.values {
            let r = keep(timesMs: indices.map { hr[$0].timestampMs }, sources: indices.map { hr[$0].source })
            overlap = overlap + r.overlap
            for (k, i) in indices.enumerated() where !r.keep[k] { keepAll[i] = false }
        }
        if overlap.samplesSetAside == 0 { return (hr, overlap) }
        return (hr.indices.filter { keepAll[$0] }.map { hr[$0] }, overlap)
    }
}

/// A subject's heart rate read forward in time a piece at a time (`RowCursor`), for a
/// subject of one source, where the sources' rule keeps every sample: `hold` reads on
/// until a time and lets go of the samples before another. Rows that go back in time
/// throw `OutOfOrder`; a second source throws `SeveralSources` (the rule then needs the
/// whole recording).
final class HeartRateStream {
    struct SeveralSources: Error {}

    /// The samples held (epoch ms, bpm), in time order.
    private(set) var series = TimeSeries([])
    private var cursor: RowCursor<HRSample>
    private var source: String?
    private var lastReadMs = Int64.min
    private var done = false

    init(_ index: SubjectIndex, subject: String) {
        cursor = RowCursor(index, subject)
    }

    /// Holds the samples from `fromMs` on, up to one past `throughMs` (or the last);
    /// `fromMs` never goes back from one call to the next.
    func hold(fromMs: Int64, throughMs: Int64) throws {
        series.removeSamples(before: fromMs)
        while !done, !(series.timesMs.last.map { $0 > throughMs } ?? false) {
            done = try !cursor.readPiece { x in
                guard x.timestampMs >= lastReadMs else { throw OutOfOrder() }
                lastReadMs = x.timestampMs
                if let source, x.source != source { throw SeveralSources() }
                source = x.source
                series.append(timeMs: x.timestampMs, value: x.bpm)
            }
            series.removeSamples(before: fromMs)
        }
    }
}
