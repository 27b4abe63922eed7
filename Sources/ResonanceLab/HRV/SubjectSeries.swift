/// Per-subject series ready for analysis: each sorted by time (stable) with repeated
/// timestamps kept once. Values that cannot be physiological are skipped, leaving a gap:
/// R-R intervals outside the registry's plausibility range (`RRConstants`, the range
/// import applies), heart rates that are not finite and positive.
public enum SubjectSeries {
    public static func rr(_ series: [MeasurementSeries], plausible: RRConstants) -> [MeasurementSeries] {
        series.map { rr($0, plausible: plausible) }
    }

    public static func rr(_ series: MeasurementSeries, plausible: RRConstants) -> MeasurementSeries {
        clean(series) { plausible.isPlausible($0) }
    }

    public static func hr(_ series: [MeasurementSeries]) -> [MeasurementSeries] {
        series.map(hr)
    }

    public static func hr(_ series: MeasurementSeries) -> MeasurementSeries {
        clean(series) { $0.isFinite && $0 > 0 }
    }

    static func clean(_ s: MeasurementSeries, keep: (Double) -> Bool) -> MeasurementSeries {
        var out = MeasurementSeries(subject: s.subject)
        out.timestampsMs.reserveCapacity(s.timestampsMs.count)
        out.values.reserveCapacity(s.timestampsMs.count)
        func take(_ i: Int) {
            guard keep(s.values[i]), out.timestampsMs.last != s.timestampsMs[i] else { return }
            out.timestampsMs.append(s.timestampsMs[i])
            out.values.append(s.values[i])
        }
        if zip(s.timestampsMs, s.timestampsMs.dropFirst()).contains(where: { $0 > $1 }) {
            for i in s.timestampsMs.indices.sorted(by: { (s.timestampsMs[$0], $0) < (s.timestampsMs[$1], $1) }) { take(i) }
        } else {
            for i in s.timestampsMs.indices { take(i) }
        }
        return out
    }
}
