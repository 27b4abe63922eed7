/// One night (or nap) of sleep assembled from consecutive stage rows, asleep time counted
/// once (docs/engines/toolkit.md, Sleep counted once).
public struct SleepPeriod: Equatable, Sendable {
    public var startMs: Int64
    public var endMs: Int64
    /// Milliseconds asleep (the union of the core, deep, rem and asleep rows); when only
    /// `in_bed`/`awake` rows exist, in-bed time minus awake time.
    public var asleepMs: Int64
    /// Milliseconds of `deep` (stages decided by source priority); nil when the rows
    /// carry no stage breakdown.
    public var deepMs: Int64?
    /// The union of the asleep rows alone (0 when there are none): the hours asleep of
    /// `daily.csv`, which, as the product, does not read in-bed time as sleep.
    public var measuredAsleepMs: Int64
    /// Asleep time the rows held more than once (their summed length minus the union):
    /// two sources recording the same night, or an unspecified `asleep` row over staged ones.
    public var overlapMs: Int64

    public init(startMs: Int64, endMs: Int64, asleepMs: Int64, deepMs: Int64?, measuredAsleepMs: Int64? = nil, overlapMs: Int64 = 0) {
        self.startMs = startMs; self.endMs = endMs; self.asleepMs = asleepMs; self.deepMs = deepMs
        self.measuredAsleepMs = measuredAsleepMs ?? asleepMs; self.overlapMs = overlapMs
    }

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

/// Links a session to the listener's next night of sleep (docs/engines/toolkit.md, Sessions): the first
/// sleep period starting within `sleep_window_hours` after the session ends, periods
/// shorter than `nap_max_hours` (naps) ignored.
public enum SleepLink {
    /// Groups one listener's stage rows into periods: rows less than
    /// `sleep_merge_gap_minutes` apart belong to one period, whatever their source.
    /// Within a period, asleep time is the union of the asleep rows; where rows overlap,
    /// the stage is that of the source of highest priority covering the instant — sources
    /// ranked by staged (core, deep, rem) time in the period, then asleep time, then byte
    /// order of the name — and, within one source, the most specific stage (deep > rem >
    /// core > asleep, the product's order when it merges overlapping samples).
    public static func periods(_ episodes: [SleepEpisode], constants c: SessionConstants) -> [SleepPeriod] {
        let sorted = episodes.sorted { ($0.startMs, $0.endMs) < ($1.startMs, $1.endMs) }
        var out: [SleepPeriod] = []
        var rows: [SleepEpisode] = []
        var periodEnd = Int64.min
        func flush() {
            guard let first = rows.first else { return }
            out.append(resolve(rows, startMs: first.startMs, endMs: periodEnd))
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

    /// Specificity of an asleep stage (higher wins within one source); nil when not asleep.
    static func specificity(_ stage: SleepStage) -> Int? {
        switch stage {
        case .deep: return 3
        case .rem: return 2
        case .core: return 1
        case .asleep: return 0
        case .awake, .inBed: return nil
        }
    }

    /// Total length of the union of `intervals`.
    static func unionMs(_ intervals: [(Int64, Int64)]) -> Int64 {
        var total: Int64 = 0, end = Int64.min
        for (s, e) in intervals.sorted(by: { $0.0 < $1.0 }) where e > max(s, end) {
            total += e - max(s, end)
            end = e
        }
        return total
    }

    /// One period's asleep time, deep time and overlap from its rows.
    static func resolve(_ rows: [SleepEpisode], startMs: Int64, endMs: Int64) -> SleepPeriod {
        let asleepRows = rows.filter { specificity($0.stage) != nil && $0.endMs > $0.startMs }
        guard !asleepRows.isEmpty else {
            let inBed = unionMs(rows.filter { $0.stage == .inBed }.map { ($0.startMs, $0.endMs) })
            let awake = unionMs(rows.filter { $0.stage == .awake }.map { ($0.startMs, $0.endMs) })
            return SleepPeriod(startMs: startMs, endMs: endMs, asleepMs: max(0, inBed - awake), deepMs: nil,
                               measuredAsleepMs: 0, overlapMs: 0)
        }
        // Source priority: staged time, then asleep time, then name.
        var staged: [String: Int64] = [:], total: [String: Int64] = [:]
        for r in asleepRows {
            let d = r.endMs - r.startMs
            total[r.source, default: 0] += d
            if r.stage != .asleep { staged[r.source, default: 0] += d }
        }
        let ranked = total.keys.sorted { a, b in
            let (sa, sb) = (staged[a] ?? 0, staged[b] ?? 0)
            if sa != sb { return sa > sb }
            if total[a] != total[b] { return (total[a] ?? 0) > (total[b] ?? 0) }
            return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
        }
        let rank = Dictionary(uniqueKeysWithValues: ranked.enumerated().map { ($1, $0) })
        let bounds = Array(Set(asleepRows.flatMap { [$0.startMs, $0.endMs] })).sorted()
        let byStart = asleepRows.sorted { $0.startMs < $1.startMs }
        var asleep: Int64 = 0, deep: Int64 = 0, hasStages = false
        // Sweep over the elementary segments [a, b) between row bounds, keeping the rows
        // that cover the current one (those started and not yet ended).
        var active: [SleepEpisode] = [], next = 0
        for (a, b) in zip(bounds, bounds.dropFirst()) {
            while next < byStart.count && byStart[next].startMs <= a { active.append(byStart[next]); next += 1 }
            active.removeAll { $0.endMs <= a }
            var best: (rank: Int, specificity: Int)?
            for r in active where r.endMs >= b {
                let key = (rank[r.source] ?? 0, specificity(r.stage) ?? 0)
                if let current = best, (current.rank, -current.specificity) <= (key.0, -key.1) { continue }
                best = key
            }
            guard let best else { continue }
            asleep += b - a
            if best.specificity == 3 { deep += b - a }
            if best.specificity > 0 { hasStages = true }
        }
        let summed = asleepRows.reduce(Int64(0)) { $0 + ($1.endMs - $1.startMs) }
        return SleepPeriod(startMs: startMs, endMs: endMs, asleepMs: asleep, deepMs: hasStages ? deep : nil,
                           measuredAsleepMs: asleep, overlapMs: summed - asleep)
    }

    /// The next night after `sessionEndMs`, or nil.
    public static func nextNight(after sessionEndMs: Int64, in periods: [SleepPeriod], constants c: SessionConstants) -> SleepPeriod? {
        periods.first {
            $0.startMs >= sessionEndMs && $0.startMs - sessionEndMs <= c.sleepWindowMs
                && $0.endMs - $0.startMs >= c.napMaxMs
        }
    }
}
