/// Per-subject series ready for analysis: each sorted by time (stable) with repeated
/// timestamps kept once. Values that cannot be physiological are skipped, leaving a gap:
/// R-R intervals outside the registry's plausibility range (`RRConstants`, the range
/// import applies), heart rates that are not finite and positive.
public enum SubjectSeries {
    public static func rr(_ series: [MeasurementSeries], plausible: RRConstants) -> [MeasurementSeries] {
        series.map { rr($0, plausible: plausible) }
    }

    public static func rr(_ series: consuming MeasurementSeries, plausible: RRConstants) -> MeasurementSeries {
        clean(series) { plausible.isPlausible($0) }
    }

    public static func hr(_ series: [MeasurementSeries]) -> [MeasurementSeries] {
        series.map(hr)
    }

    public static func hr(_ series: consuming MeasurementSeries) -> MeasurementSeries {
        clean(series) { $0.isFinite && $0 > 0 }
    }

    /// The samples `keep` accepts, in time order, the first of each timestamp. A series
    /// already in order (an imported table's) is compacted in place: a subject's year of
    /// samples is not copied.
    static func clean(_ s: consuming MeasurementSeries, keep: (Double) -> Bool) -> MeasurementSeries {
        if !zip(s.timestampsMs, s.timestampsMs.dropFirst()).contains(where: { $0 > $1 }) {
            var kept = 0
            for i in s.timestampsMs.indices {
                guard keep(s.values[i]), kept == 0 || s.timestampsMs[kept - 1] != s.timestampsMs[i] else { continue }
                s.timestampsMs[kept] = s.timestampsMs[i]
                s.values[kept] = s.values[i]
                kept += 1
            }
            s.timestampsMs.removeLast(s.timestampsMs.count - kept)
            s.values.removeLast(s.values.count - kept)
            return s
        }
        var out = MeasurementSeries(subject: s.subject)
        out.timestampsMs.reserveCapacity(s.timestampsMs.count)
        out.values.reserveCapacity(s.timestampsMs.count)
        func take(_ i: Int) {
            guard keep(s.values[i]), out.timestampsMs.last != s.timestampsMs[i] else { return }
            out.timestampsMs.append(s.timestampsMs[i])
            out.values.append(s.values[i])
        }
        for i in s.timestampsMs.indices.sorted(by: { (s.timestampsMs[$0], $0) < (s.timestampsMs[$1], $1) }) { take(i) }
        return out
    }
}
