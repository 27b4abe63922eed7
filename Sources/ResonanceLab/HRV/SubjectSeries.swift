/// Per-subject series ready for analysis: each sorted by time (stable) with repeated
/// timestamps kept once. Values that cannot be physiological are skipped, leaving a gap:
/// R-R intervals outside the registry's plausibility range (`RRConstants`, the range
/// import applies), heart rates that are not finite and positive.
public enum SubjectSeries {
    public static func rr(_ series: [MeasurementSeries], plausible: RRConstants) -> [MeasurementSeries] {
        series.map { rr($0, plausible: plausible) }
    }

    public static func rr(_ series: consuming MeasurementSeries, plausible: RRConstants) -> MeasurementSeries {
        clean(series, Ready.rr(plausible))
    }

    public static func hr(_ series: [MeasurementSeries]) -> [MeasurementSeries] {
        series.map(hr)
    }

    public static func hr(_ series: consuming MeasurementSeries) -> MeasurementSeries {
        clean(series, Ready.hr)
    }

    /// The rule that makes a series ready, for samples taken in time order one at a time:
    /// a sample is kept when its value is possible and no sample was kept at its time.
    struct Ready {
        private let possible: (Double) -> Bool
        private var lastKeptMs: Int64?

        static func rr(_ plausible: RRConstants) -> Ready { Ready(possible: plausible.isPlausible) }
        static var hr: Ready { Ready(possible: { $0.isFinite && $0 > 0 }) }

        private init(possible: @escaping (Double) -> Bool) { self.possible = possible }

        /// Whether the sample (epoch ms, value), after every one offered before, is kept.
        mutating func keeps(_ timeMs: Int64, _ value: Double) -> Bool {
            guard possible(value), lastKeptMs != timeMs else { return false }
            lastKeptMs = timeMs
            return true
        }
    }

    /// The samples `rule` keeps, in time order. A series already in order (an imported
    /// table's) is compacted in place: a subject's year of samples is not copied.
    static func clean(_ s: consuming MeasurementSeries, _ rule: Ready) -> MeasurementSeries {
        var rule = rule
        if !zip(s.timestampsMs, s.timestampsMs.dropFirst()).contains(where: { $0 > $1 }) {
            var kept = 0
            for i in s.timestampsMs.indices where rule.keeps(s.timestampsMs[i], s.values[i]) {
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
        for i in s.timestampsMs.indices.sorted(by: { (s.timestampsMs[$0], $0) < (s.timestampsMs[$1], $1) })
        where rule.keeps(s.timestampsMs[i], s.values[i]) {
            out.timestampsMs.append(s.timestampsMs[i])
            out.values.append(s.values[i])
        }
        return out
    }
}
