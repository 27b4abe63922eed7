/// Per-subject series from the canonical tables, in order of first appearance, each
/// sorted by time (stable) with repeated timestamps kept once. Values that cannot be
/// physiological (not finite, ≤ 0, an interval over a minute) are skipped, leaving a gap.
public enum SubjectSeries {
    public struct Samples: Sendable {
        public var subject: String
        public var timestampsMs: [Int64]
        public var values: [Double]
    }

    public static func rr(_ rows: [RRInterval]) -> [Samples] {
        group(rows.filter { $0.rrMs.isFinite && $0.rrMs > 0 && $0.rrMs <= 60_000 }
            .map { ($0.subject, $0.timestampMs, $0.rrMs) })
    }

    public static func hr(_ rows: [HRSample]) -> [Samples] {
        group(rows.filter { $0.bpm.isFinite && $0.bpm > 0 }.map { ($0.subject, $0.timestampMs, $0.bpm) })
    }

    static func group(_ rows: [(String, Int64, Double)]) -> [Samples] {
        // Tables are sorted by subject, so rows are gathered run by run and the
        // dictionary is touched once per run rather than once per row.
        var order: [String] = []
        var bySubject: [String: [(Int64, Double)]] = [:]
        var start = 0
        while start < rows.count {
            let subject = rows[start].0
            var end = start + 1
            while end < rows.count && rows[end].0 == subject { end += 1 }
            if bySubject[subject] == nil { order.append(subject) }
            bySubject[subject, default: []] += rows[start..<end].map { ($0.1, $0.2) }
            start = end
        }
        return order.map { subject in
            var points = bySubject[subject] ?? []
            if zip(points, points.dropFirst()).contains(where: { $0.0 > $1.0 }) {
                points = points.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element)
            }
            var s = Samples(subject: subject, timestampsMs: [], values: [])
            for (t, v) in points where s.timestampsMs.last != t {
                s.timestampsMs.append(t); s.values.append(v)
            }
            return s
        }
    }
}
