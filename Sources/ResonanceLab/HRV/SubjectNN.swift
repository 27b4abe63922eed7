extension SubjectIndex {
    /// `subject`'s R-R intervals from this index of `rr.csv`, made ready (`SubjectSeries.rr`:
    /// sorted, the plausibility range applied) and cleaned into its NN series by `method`;
    /// nil when no interval is usable. hrv, coherence, sessions and breathing assess each
    /// read a subject's R-R this way in the worker that computes the subject.
    ///
    /// Rows in time order (an imported table's) are cleaned as they are read, so the raw
    /// series is never held: a subject-year costs its NN columns only. A subject whose rows
    /// go back in time is read again whole and sorted, with the same result.
    func nnSeries(of subject: String, method: ArtifactMethod, plausible: RRConstants) throws -> NNSeries? {
        var builder = NNSeries.Builder(method: method, capacity: records(of: subject))
        var ready = SubjectSeries.Ready.rr(plausible)
        var lastReadMs = Int64.min
        do {
            try forEachMeasurement(RRInterval.self, of: subject) { timeMs, rrMs in
                guard timeMs >= lastReadMs else { throw OutOfOrder() }
                lastReadMs = timeMs
                if ready.keeps(timeMs, rrMs) { builder.add(timeMs: timeMs, rrMs: rrMs) }
            }
        } catch is OutOfOrder {
            let s = SubjectSeries.rr(try series(RRInterval.self, of: subject), plausible: plausible)
            guard !s.values.isEmpty else { return nil }
            return NNSeries.clean(timestampsMs: s.timestampsMs, rrMs: s.values, method: method)
        }
        guard builder.lastTimeMs != nil else { return nil }
        return builder.finish()
    }
}

/// A subject's rows went back in time: they must be sorted before cleaning.
private struct OutOfOrder: Error {}
