/// A subject's cleaned normal-to-normal (NN) interval series: RR intervals after
/// artifact detection and correction, on a beat time axis rebuilt from the corrected
/// intervals within each run of consecutive beats (as Kubios does), so that the time
/// between two successive beats always equals the interval that closes them.
public struct NNSeries: Sendable {
    /// Time of the beat closing each interval, ms since the epoch.
    public var timeMs: [Double]
    public var nnMs: [Double]
    /// The artifact class of the RR interval this NN interval replaces (`.none` if kept).
    public var artifact: [BeatArtifact]
    /// True where the beat does not follow the previous one (first beat, or a gap where
    /// beats were lost), so no successive difference spans it.
    public var runStart: [Bool]

    public var count: Int { nnMs.count }

    /// No beats.
    public static let empty = NNSeries(timeMs: [], nnMs: [], artifact: [], runStart: [])

    /// Tolerance (ms) between a timestamp step and the interval it should equal, the same
    /// as NeuroKit2's `intervals_successive`: beyond it the beats are not successive.
    public static let successiveToleranceMs = 10.0

    public init(timeMs: [Double], nnMs: [Double], artifact: [BeatArtifact], runStart: [Bool]) {
        self.timeMs = timeMs; self.nnMs = nnMs; self.artifact = artifact; self.runStart = runStart
    }

    /// Cleans the RR intervals of one subject (`timestampsMs` ascending, the beat closing
    /// each interval). Each run of successive beats is cleaned on its own. Ectopic,
    /// long/short and Malik beats are replaced by the cubic spline through the run's
    /// accepted beats at their time; a missed beat is split in two halves and an extra
    /// beat merged with the next interval (Lipponen & Tarvainen 2019, section 2.3).
    /// Every corrected interval keeps its artifact class. `Builder` does the same with
    /// intervals handed over one at a time.
    public static func clean(timestampsMs: [Int64], rrMs: [Double], method: ArtifactMethod) -> NNSeries {
        var builder = Builder(method: method, capacity: rrMs.count)
        for i in rrMs.indices { builder.add(timeMs: timestampsMs[i], rrMs: rrMs[i]) }
        return builder.finish()
    }

    /// Cleans R-R intervals handed over one at a time, in time order, as `clean` does with
    /// whole columns: it holds the run of successive beats being read, not the recording.
    public struct Builder {
        private let method: ArtifactMethod
        private var out = NNSeries.empty
        /// The run being read: its intervals, and the time and interval of its first beat.
        private var run: [Double] = []
        private var runFirstMs: Int64 = 0, runFirstRR = 0.0
        /// Time of the last beat added, ms since the epoch.
        public private(set) var lastTimeMs: Int64?
        /// Time of the last beat cleaned, on the rebuilt axis: the next run starts after it.
        private var lastBeatMs = -Double.infinity

        /// `capacity`: the intervals expected. A missed beat adds one: room for one in 64
        /// before the columns must grow (which would double them, a year of beats being
        /// tens of megabytes each).
        public init(method: ArtifactMethod, capacity: Int) {
            self.method = method
            let room = capacity + capacity / 64 + 16
            out.timeMs.reserveCapacity(room)
            out.nnMs.reserveCapacity(room)
            out.artifact.reserveCapacity(room)
            out.runStart.reserveCapacity(room)
        }

        /// Adds the interval `rrMs` closing at `timeMs` (after every earlier one).
        public mutating func add(timeMs: Int64, rrMs: Double) {
            if let last = lastTimeMs, abs(Double(timeMs - last) - rrMs) <= successiveToleranceMs {
                run.append(rrMs)
            } else {
                endRun()
                runFirstMs = timeMs
                runFirstRR = rrMs
                run.append(rrMs)
            }
            lastTimeMs = timeMs
        }

        /// The series of every interval added (since the last `takeCleaned`).
        public mutating func finish() -> NNSeries {
            endRun()
            return out
        }

        /// The beats cleaned since the last call, handed over: those of the runs that have
        /// ended (a run is cleaned whole, when the next interval does not follow it).
        mutating func takeCleaned() -> NNSeries {
            defer { out = .empty }
            return out
        }

        private mutating func endRun() {
            guard !run.isEmpty else { return }
            // A run never starts before the previous one ends, so time stays increasing.
            let anchor = max(Double(runFirstMs) - runFirstRR, lastBeatMs)
            out.appendRun(run, anchorMs: anchor, method: method)
            lastBeatMs = out.timeMs.last ?? lastBeatMs
            run.removeAll(keepingCapacity: true)
        }
    }

    fileprivate mutating func appendRun(_ rr: [Double], anchorMs: Double, method: ArtifactMethod) {
        let flags = ArtifactDetector.detect(rr, method: method)
        var values: [Double] = [], kinds: [BeatArtifact] = []
        values.reserveCapacity(rr.count)
        var j = 0
        while j < rr.count {
            switch flags[j] {
            case .missed:
                values += [rr[j] / 2, rr[j] / 2]
                kinds += [.missed, .missed]
            case .extra where j + 1 < rr.count:
                values.append(rr[j] + rr[j + 1])
                kinds.append(.extra)
                j += 1
            default:
                values.append(rr[j])
                kinds.append(flags[j])
            }
            j += 1
        }
        // Times on the uncorrected axis locate the beats to replace.
        var t = anchorMs
        var times = [Double](repeating: 0, count: values.count)
        for k in values.indices { t += values[k]; times[k] = t }
        let replace: (BeatArtifact) -> Bool = { $0 == .ectopic || $0 == .longShort || $0 == .malik }
        if kinds.contains(where: replace) {
            let good = values.indices.filter { !replace(kinds[$0]) }
            let gx = good.map { times[$0] }, gy = good.map { values[$0] }
            if let spline = CubicSpline(x: gx, y: gy) {
                var next = 0  // index in `good` of the first accepted beat after k
                for k in values.indices where replace(kinds[k]) {
                    while next < good.count && good[next] < k { next += 1 }
                    // Bracketing accepted values; beyond the accepted beats the nearest is held.
                    let left = gy[max(0, next - 1)], right = gy[min(good.count - 1, next)]
                    // Across a long run of artifacts a cubic can overshoot, even below zero:
                    // the replacement is kept within its bracketing accepted values.
                    values[k] = min(max(spline.evaluate(at: times[k]), min(left, right)), max(left, right))
                }
            } else if let only = gy.first {
                for k in values.indices where replace(kinds[k]) { values[k] = only }
            }
        }
        t = anchorMs
        for k in values.indices {
            t += values[k]
            timeMs.append(t)
            nnMs.append(values[k])
            artifact.append(kinds[k])
            runStart.append(k == 0)
        }
    }

    /// Appends `later`'s beats, all after these.
    mutating func append(_ later: NNSeries) {
        timeMs += later.timeMs; nnMs += later.nnMs; artifact += later.artifact; runStart += later.runStart
    }

    /// Lets go of the beats before `timeMs`; each beat kept keeps its run flag.
    mutating func removeBeats(before timeMs: Double) {
        let k = self.timeMs.lowerBound(timeMs)
        guard k > 0 else { return }
        self.timeMs.removeFirst(k); nnMs.removeFirst(k); artifact.removeFirst(k); runStart.removeFirst(k)
    }

    /// Indices of the beats whose time lies in [fromMs, toMs).
    public func range(fromMs: Double, toMs: Double) -> Range<Int> {
        timeMs.indices(from: fromMs, to: toMs)
    }
}
