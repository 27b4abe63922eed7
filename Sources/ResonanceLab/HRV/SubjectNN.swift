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
struct OutOfOrder: Error {}

/// A subject's NN series cleaned forward in time, as its R-R rows are read a piece at a
/// time (`MeasurementCursor`): `hold(fromMs:throughMs:)` reads on until every beat up to a
/// time is cleaned, and lets go of the beats before another. A stage that walks a
/// recording in time order so holds a stretch of it and the run of successive beats being
/// cleaned (a run is cleaned whole), not the recording. The beats held are those of
/// `SubjectIndex.nnSeries(of:)`, bit for bit; rows that go back in time throw `OutOfOrder`.
final class NNStream {
    /// The beats held, in time order.
    private(set) var series = NNSeries.empty
    private var builder: NNSeries.Builder
    private var ready: SubjectSeries.Ready
    private var cursor: MeasurementCursor<RRInterval>
    private var lastReadMs = Int64.min
    private var done = false

    init(_ index: SubjectIndex, subject: String, method: ArtifactMethod, plausible: RRConstants) {
        builder = NNSeries.Builder(method: method, capacity: 0)
        ready = .rr(plausible)
        cursor = MeasurementCursor(index, subject)
    }

    /// Holds the beats from `floorMs` on, up to one past `horizonMs` (or the last);
    /// `floorMs` never goes back from one call to the next.
    func hold(fromMs floorMs: Double, throughMs horizonMs: Double) throws {
        series.removeBeats(before: floorMs)
        while !(series.timeMs.last.map { $0 > horizonMs } ?? false), let beats = try readOn() {
            series.append(beats)
            series.removeBeats(before: floorMs)
        }
    }

    /// Whether any interval was kept: the subject has a usable R-R interval (as
    /// `SubjectIndex.nnSeries(of:)` is non-nil), once the beats have all been read.
    var anyKept: Bool { builder.lastTimeMs != nil }

    /// The next beats cleaned, in time order, handed over as they are read instead of
    /// held (not to be mixed with `hold`); nil when every beat has been.
    func nextBeats() throws -> NNSeries? {
        while let beats = try readOn() {
            if beats.count > 0 { return beats }
        }
        return nil
    }

    /// Reads one more piece and hands over the beats it let be cleaned; nil when read to the end.
    private func readOn() throws -> NNSeries? {
        guard !done else { return nil }
        let more = try cursor.readPiece { timeMs, rrMs in
            guard timeMs >= lastReadMs else { throw OutOfOrder() }
            lastReadMs = timeMs
            if ready.keeps(timeMs, rrMs) { builder.add(timeMs: timeMs, rrMs: rrMs) }
        }
        if !more {
            done = true
            _ = builder.finish()
        }
        return builder.takeCleaned()
    }
}
