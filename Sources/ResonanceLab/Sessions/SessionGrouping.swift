/// Splits one listener's plays into listening sessions (docs/engines/toolkit.md, Sessions): a new
/// session starts when a play begins more than `gap_minutes` after the end of the
/// previous play (its `ended_at`, or start + media duration when unknown). Sessions
/// shorter than `min_session_minutes` (first start to last end) are dropped.
public enum SessionGrouping {
    /// Index ranges into `plays` (sorted by start): kept sessions, and the number of
    /// sessions dropped as too short.
    public static func group(_ plays: [TimedPlay], constants c: SessionConstants)
        -> (kept: [Range<Int>], droppedShort: Int)
    {
        var kept: [Range<Int>] = []
        var dropped = 0
        var first = 0
        var end = Int64.min
        func close(_ upTo: Int) {
            guard upTo > first else { return }
            if end - plays[first].play.startedAtMs >= c.minSessionMs { kept.append(first..<upTo) } else { dropped += 1 }
        }
        for (i, p) in plays.enumerated() {
            if i > first && p.play.startedAtMs - end > c.gapMs {
                close(i)
                first = i
                end = Int64.min
            }
            end = max(end, p.endMs)
        }
        close(plays.count)
        return (kept, dropped)
    }
}
