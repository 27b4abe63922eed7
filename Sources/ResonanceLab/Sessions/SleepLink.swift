/// One night (or nap) of sleep assembled from consecutive stage rows.
public struct SleepPeriod: Equatable, Sendable {
    public var startMs: Int64
    public var endMs: Int64
    /// Milliseconds asleep (core, deep, rem, asleep); when only `in_bed`/`awake` rows
    /// exist, in-bed time minus awake time.
    public var asleepMs: Int64
    /// Milliseconds of `deep`; nil when the rows carry no stage breakdown.
    public var deepMs: Int64?

    /// Product specification: min(1, hours/8)·0.6 + min(1, deepFraction/0.25)·0.4. Without stage
    /// breakdown the deep term is unknown and the hours term alone is used
    /// (weights re-normalised), rather than scoring unstaged sleep as zero deep sleep.
    public func score(_ c: SessionConstants) -> Double {
        let hours = Double(asleepMs) / 3_600_000
        let hoursTerm = min(1, hours / c.sleepTargetHours)
        guard let deepMs, asleepMs > 0 else { return hoursTerm }
        let deepTerm = min(1, Double(deepMs) / Double(asleepMs) / c.deepFractionTarget)
        return hoursTerm * c.sleepWeightHours + deepTerm * c.sleepWeightDeep
    }
}

/// Links a session to the listener's next night of sleep (docs/engines.md, Sessions): the first
/// sleep period starting within `sleep_window_hours` after the session ends, periods
/// shorter than `nap_max_hours` (naps) ignored.
public enum SleepLink {
    /// Groups one listener's stage rows into periods: rows less than
    /// `sleep_merge_gap_minutes` apart belong to one period.
    public static func periods(_ episodes: [SleepEpisode], constants c: SessionConstants) -> [SleepPeriod] {
        let sorted = episodes.sorted { ($0.startMs, $0.endMs) < ($1.startMs, $1.endMs) }
        var out: [SleepPeriod] = []
        var rows: [SleepEpisode] = []
        var periodEnd = Int64.min
        func flush() {
            guard let first = rows.first else { return }
            var asleep: Int64 = 0, deep: Int64 = 0, inBed: Int64 = 0, awake: Int64 = 0
            var staged = false
            for r in rows {
                let d = max(0, r.endMs - r.startMs)
                switch r.stage {
                case .core, .rem: asleep += d; staged = true
                case .deep: asleep += d; deep += d; staged = true
                case .asleep: asleep += d
                case .awake: awake += d
                case .inBed: inBed += d
                }
            }
            if asleep == 0 { asleep = max(0, inBed - awake) }
            out.append(SleepPeriod(startMs: first.startMs, endMs: periodEnd,
                                   asleepMs: asleep, deepMs: staged ? deep : nil))
            rows.removeAll()
        }
        for e in sorted {
            if !rows.isEmpty && e.startMs - periodEnd > c.sleepMergeGapMs {
                flush()
                periodEnd = Int64.min
            }
            rows.append(e)
            periodEnd = max(periodEnd, e.endMs)
        }
        flush()
        return out
    }

    /// The next night after `sessionEndMs`, or nil.
    public static func nextNight(after sessionEndMs: Int64, in periods: [SleepPeriod], constants c: SessionConstants) -> SleepPeriod? {
        periods.first {
            $0.startMs >= sessionEndMs && $0.startMs - sessionEndMs <= c.sleepWindowMs
                && $0.endMs - $0.startMs >= c.napMaxMs
        }
    }
}
