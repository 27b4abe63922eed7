import Foundation

/// Each subject's R-R intervals, read from `rr.csv` and cleaned into NN series once
/// per artifact method, shared by the stages of one process (`resonance run`): hrv and
/// coherence then read and clean each recording once instead of twice.
public final class NNCache: @unchecked Sendable {
    private var cleaned: [ArtifactMethod: [(subject: String, series: NNSeries)]] = [:]
    private let lock = NSLock()

    public init() {}

    /// Cleaned series of every subject with at least one usable interval, in order of
    /// first appearance in `rr.csv`; from the cache when `cache` holds them.
    public static func series(_ ws: Workspace, method: ArtifactMethod, context: StageContext,
                              label: String) throws -> [(subject: String, series: NNSeries)] {
        if let cache = context.nn {
            cache.lock.lock()
            let hit = cache.cleaned[method]
            cache.lock.unlock()
            if let hit { return hit }
        }
        let subjects = try ws.readSeries(RRInterval.self, jobs: context.jobs)
        let plausible = context.registry.rr
        let counter = context.progress.counter("\(label): cleaning R-R", total: subjects.count)
        // Sorting and the plausibility range too are per subject, in the workers.
        let out = try Parallel.map(subjects, jobs: context.jobs) { raw -> (subject: String, series: NNSeries)? in
            defer { counter.tick() }
            let s = SubjectSeries.rr(raw, plausible: plausible)
            guard !s.values.isEmpty else { return nil }
            return (s.subject, NNSeries.clean(timestampsMs: s.timestampsMs, rrMs: s.values, method: method))
        }.compactMap { $0 }
        if let cache = context.nn {
            cache.lock.lock()
            cache.cleaned[method] = out
            cache.lock.unlock()
        }
        return out
    }
}
