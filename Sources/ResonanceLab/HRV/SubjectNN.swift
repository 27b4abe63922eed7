extension SubjectIndex {
    /// `subject`'s R-R intervals from this index of `rr.csv`, made ready (`SubjectSeries.rr`:
    /// sorted, the plausibility range applied) and cleaned into its NN series by `method`;
    /// nil when no interval is usable. hrv, coherence, sessions and breathing assess each
    /// read a subject's R-R this way in the worker that computes the subject.
    func nnSeries(of subject: String, method: ArtifactMethod, plausible: RRConstants) throws -> NNSeries? {
        let s = SubjectSeries.rr(try series(RRInterval.self, of: subject), plausible: plausible)
        guard !s.values.isEmpty else { return nil }
        return NNSeries.clean(timestampsMs: s.timestampsMs, rrMs: s.values, method: method)
    }
}
