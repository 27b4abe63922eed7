/// Per-subject series from the canonical tables, in order of first appearance, each
/// sorted by time (stable) with repeated timestamps kept once.
public enum SubjectSeries {
    public struct Samples: Sendable {
        public var subject: String
        public var timestampsMs: [Int64]
        public var values: [Double]
    }

    public static func rr(_ rows: [RRInterval]) -> [Samples] {
        group(rows.map { ($0.subject, $0.timestampMs, $0.rrMs) })
    }

    public static func hr(_ rows: [HRSample]) -> [Samples] {
        group(rows.map { ($0.subject, $0.timestampMs, $0.bpm) })
    }

    static func group(_ rows: [(String, Int64, Double)]) -> [Samples] {
        var order: [String] = []
        var bySubject: [String: [(Int64, Double)]] = [:]
        for (subject, t, v) in rows {
            if bySubject[subject] == nil { order.append(subject) }
            bySubject[subject, default: []].append((t, v))
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
