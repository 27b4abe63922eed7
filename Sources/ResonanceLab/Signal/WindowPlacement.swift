/// Where sliding analysis windows go over a recording.
public enum WindowPlacement {
    /// Window starts (ms) over ascending sample times: from the first sample, every
    /// `stepMs`, while the window ends by the last sample (always at least one window).
    /// Windows that would hold no sample — inside a gap in the recording — are skipped
    /// by jumping to the first step whose window reaches the next sample, so a gap of
    /// any length costs nothing and yields no empty rows.
    public static func starts(timesMs: [Double], windowMs: Int64, stepMs: Int64) -> [Int64] {
        guard let first = timesMs.first, let last = timesMs.last, windowMs > 0, stepMs > 0 else { return [] }
        let t0 = Int64(first.rounded(.down))
        var starts: [Int64] = [t0]
        var k: Int64 = 1
        var next = 0  // first sample at or after the candidate start
        while true {
            let s = t0 + k * stepMs
            guard Double(s + windowMs) <= last else { break }
            while next < timesMs.count && timesMs[next] < Double(s) { next += 1 }
            guard next < timesMs.count else { break }
            if timesMs[next] < Double(s + windowMs) {
                starts.append(s)
                k += 1
            } else {
                // Smallest k with t0 + k·step + window > t_next.
                let reach = (timesMs[next] - Double(windowMs) - Double(t0)) / Double(stepMs)
                k = max(k + 1, Int64(reach.rounded(.down)) + 1)
            }
        }
        return starts
    }
}
