/// Which end of its interval an R-R file's timestamp marks (`--rr-stamp`).
/// `rr.csv` always stamps an interval at the beat that closes it; loggers such as
/// HRV Logger or Polar Sensor Logger may stamp it at the beat that opens it.
public enum RRStamp: String, CaseIterable, Sendable {
    case start, end, auto
}

/// Beat times of one R-R file in the `rr.csv` convention (stamped at the closing beat).
///
/// `auto` decides per file from its first rows: with end stamps the step between two
/// successive timestamps equals the later interval, with start stamps the earlier one
/// (within `NNSeries.successiveToleranceMs`, NeuroKit2's `intervals_successive`
/// tolerance). Files with fewer than `minimumSteps` steps keep the closing-beat
/// reading. When neither fits at least half of the steps (coarse or batched phone
/// clocks), the clock is ignored: beats are placed by the cumulative sum of the
/// intervals from the subject's first timestamp.
struct RRClock {
    enum Convention: String {
        case end, start
        case ignored = "clock ignored"
    }

    let convention: Convention
    /// How the convention was chosen, for the manifest note.
    let how: String
    /// Per subject index, the time of the last beat placed (clock ignored).
    private var lastBeat: [Int: Double] = [:]

    init(convention: Convention, how: String) {
        self.convention = convention
        self.how = how
    }

    /// The clock of a file: forced by `--rr-stamp`, else detected from the
    /// (timestamp, interval) pairs of its first rows, in file order, one subject.
    init(stamp: RRStamp, timesMs: [Int64], rrMs: [Double]) {
        switch stamp {
        case .start: self.init(convention: .start, how: "--rr-stamp start")
        case .end: self.init(convention: .end, how: "--rr-stamp end")
        case .auto:
            let (convention, how) = RRClock.detect(timesMs: timesMs, rrMs: rrMs)
            self.init(convention: convention, how: how)
        }
    }

    /// Fewest timestamp steps from which the convention is decided.
    static let minimumSteps = 5

    static func detect(timesMs: [Int64], rrMs: [Double]) -> (Convention, String) {
        let tolerance = NNSeries.successiveToleranceMs
        var endFits = 0, startFits = 0, steps = 0
        for i in timesMs.indices.dropFirst() {
            let step = Double(timesMs[i] - timesMs[i - 1])
            steps += 1
            if abs(step - rrMs[i]) <= tolerance { endFits += 1 }
            if abs(step - rrMs[i - 1]) <= tolerance { startFits += 1 }
        }
        guard steps >= minimumSteps else {
            return (.end, "\(steps) steps, too few to tell: read as stamped at the closing beat")
        }
        let counts = "\(endFits) of \(steps) steps fit the closing beat, \(startFits) the opening beat"
        if endFits >= startFits, 2 * endFits >= steps { return (.end, "detected: \(counts)") }
        if 2 * startFits >= steps { return (.start, "detected: \(counts)") }
        return (.ignored, "detected: \(counts)")
    }

    /// Time (epoch ms) of the beat closing an interval of `rawMs` stamped `stampMs`.
    /// With the clock ignored every parsable interval advances the subject's beat
    /// time, rejected ones included, so a rejected value leaves a gap, not a shift.
    mutating func beatTime(subject: Int, stampMs: Int64, rawMs: Double) -> Int64? {
        switch convention {
        case .end: return stampMs
        case .start: return Timestamp.instant(ms: Double(stampMs) + rawMs)
        case .ignored:
            let t = lastBeat[subject].map { $0 + rawMs } ?? Double(stampMs)
            guard let ms = Timestamp.instant(ms: t) else { return nil }
            lastBeat[subject] = t
            return ms
        }
    }

    /// Manifest note.
    var note: String {
        switch convention {
        case .end: return "rr timestamps mark the closing beat (\(how))"
        case .start: return "rr timestamps mark the opening beat, moved to the closing beat = stamp + interval (\(how))"
        case .ignored:
            return "rr clock ignored: timestamp steps match neither interval (\(how)); beats placed by the cumulative sum of intervals from each subject's first timestamp"
        }
    }
}
