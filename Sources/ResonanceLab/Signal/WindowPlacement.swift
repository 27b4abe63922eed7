/// Where sliding analysis windows go over a recording.
public enum WindowPlacement {
    /// Window starts (ms) over ascending sample times: from the first sample, every
    /// `stepMs`, while the window ends by the last sample (always at least one window).
    /// Windows that would hold no sample — inside a gap in the recording — are skipped
    /// by jumping to the first step whose window reaches the next sample, so a gap of
    /// any length costs nothing and yields no empty rows.
    public static func starts(timesMs: [Double], windowMs: Int64, stepMs: Int64) -> [Int64] {
        var walk = Walk(windowMs: windowMs, stepMs: stepMs)
        var starts: [Int64] = []
        walk.advance(count: timesMs.count, ended: true, time: { timesMs[$0] }) { starts.append($0) }
        return starts
    }

    /// `starts` for samples that arrive in time order: each `advance` places the windows
    /// the samples so far decide (those that end by the latest sample), and the rest once
    /// the samples have ended. The starts are those `starts` gives for all the samples,
    /// in order, whatever the samples are handed over in.
    public struct Walk {
        public let windowMs: Int64, stepMs: Int64
        private var t0: Int64?
        private var k: Int64 = 1
        private var finished = false
        /// The first sample at or after the next candidate start: `advance` reads no
        /// sample before it again but the latest.
        public private(set) var next = 0

        public init(windowMs: Int64, stepMs: Int64) {
            self.windowMs = windowMs; self.stepMs = stepMs
        }

        /// Places windows over the `count` samples so far, `time(i)` the time of sample
        /// `i` (ms); `ended`: no sample follows. `emit` takes each start in order.
        public mutating func advance(count: Int, ended: Bool, time: (Int) -> Double, emit: (Int64) throws -> Void) rethrows {
            guard !finished, count > 0, windowMs > 0, stepMs > 0 else { return }
            let t0: Int64
            if let placed = self.t0 {
                t0 = placed
            } else {
                t0 = Int64(time(0).rounded(.down))
                self.t0 = t0
                try emit(t0)
            }
            let last = time(count - 1)
            while true {
                let s = t0 + k * stepMs
                // A later sample could still let this window end by the last one.
                guard Double(s + windowMs) <= last else { finished = ended; return }
                while next < count && time(next) < Double(s) { next += 1 }
                guard next < count else { finished = ended; return }
                if time(next) < Double(s + windowMs) {
                    try emit(s)
                    k += 1
                } else {
                    // Smallest k with t0 + k·step + window > t_next.
                    let reach = (time(next) - Double(windowMs) - Double(t0)) / Double(stepMs)
                    k = max(k + 1, Int64(reach.rounded(.down)) + 1)
                }
            }
        }
    }
}
