import Foundation

/// The R-R intervals the analyses read when a workspace holds waveforms (docs/methods.md,
/// Which beats the analyses use): `rr_combined.csv`, rr.csv's rows and columns with the
/// reliable intervals of `beats.csv` added where the device gave none.
///
/// The rule: every interval of rr.csv is kept as it is (the device's own beats come
/// first); a reliable detected interval is added when no plausible rr.csv interval of the
/// subject overlaps it by more than `NNSeries.successiveToleranceMs`; an unreliable one
/// never is. A stretch where neither gives an interval stays a gap, never interpolated.
/// hrv, coherence, sessions, breathing assess, `dj replay` and the stress protocol read
/// this table in rr.csv's place when it exists (`Workspace.analysisRR`).
public enum CombinedRR {
    public static let fileName = "rr_combined.csv"

    /// One subject's intervals: `device` (rr.csv's rows) and the reliable intervals of
    /// `detected`, in time order (ties keep rr.csv's first, then file order).
    static func merge(device: [RRInterval], detected: [DetectedBeat], plausible: RRConstants) -> [RRInterval] {
        let spans = covered(by: device, plausible: plausible)
        let tolerance = NNSeries.successiveToleranceMs
        var added: [RRInterval] = []
        var j = 0
        for beat in detected where beat.reliable {
            guard let interval = beat.intervalMs else { continue }
            let end = Double(beat.timestampMs), start = end - interval
            while j < spans.count, spans[j].upperBound <= start { j += 1 }
            var overlap = 0.0
            var k = j
            while k < spans.count, spans[k].lowerBound < end {
                overlap += min(end, spans[k].upperBound) - max(start, spans[k].lowerBound)
                k += 1
            }
            if overlap <= tolerance {
                added.append(RRInterval(subject: beat.subject, timestampMs: beat.timestampMs, rrMs: interval, source: beat.source))
            }
        }
        return (device.map { ($0, 0) } + added.map { ($0, 1) }).enumerated()
            .sorted { ($0.element.0.timestampMs, $0.element.1, $0.offset) < ($1.element.0.timestampMs, $1.element.1, $1.offset) }
            .map(\.element.0)
    }

    /// The time rr.csv's plausible intervals cover (each from its beat less its interval
    /// to its beat, ms), as disjoint ranges in time order.
    static func covered(by device: [RRInterval], plausible: RRConstants) -> [Range<Double>] {
        let spans = device.filter { plausible.isPlausible($0.rrMs) }
            .map { Double($0.timestampMs) - $0.rrMs..<Double($0.timestampMs) }
            .sorted { $0.lowerBound < $1.lowerBound }
        var out: [Range<Double>] = []
        for s in spans {
            if let last = out.last, s.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound..<max(last.upperBound, s.upperBound)
            } else {
                out.append(s)
            }
        }
        return out
    }
}

extension Workspace {
    /// The table of R-R intervals the analyses read: `rr_combined.csv` where the beats
    /// stage wrote one (the workspace holds waveforms), else rr.csv.
    public var analysisRR: String { exists(CombinedRR.fileName) ? CombinedRR.fileName : RRInterval.fileName }

    /// The subject index of the R-R intervals the analyses read (`analysisRR`).
    public func analysisRRIndex(jobs: Int = 1) throws -> SubjectIndex {
        try subjectIndex(RRInterval.self, table: analysisRR, jobs: jobs)
    }

    /// Every row of the R-R intervals the analyses read, subject by subject.
    public func analysisRRRows() throws -> [RRInterval] {
        let index = try analysisRRIndex()
        return try index.subjects.flatMap { try index.rows(RRInterval.self, of: $0) }
    }
}
