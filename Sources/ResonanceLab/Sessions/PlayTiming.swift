/// A play with its end and listened time resolved, ready for sessions and effects.
public struct TimedPlay: Equatable, Sendable {
    public var play: Play
    /// End used by the gap rule: `ended_at`, else start + media duration (docs/engines/toolkit.md, Sessions),
    /// else start + played time.
    public var endMs: Int64
    /// Seconds actually listened: `played_s`, else the known end − start, else the
    /// media duration.
    public var playedS: Double
    /// playedS / media duration in [0, 1]; 1 when the media duration is unknown (the
    /// session score and the impact scores take such a play as heard in full).
    public var listenFraction: Double
    /// Whether the export gives the song's length, so that `listenFraction` is measured.
    public var lengthKnown: Bool { (play.mediaDurationS ?? 0) > 0 }
    /// Data-quality notes: `end_unknown`, `end_before_start`, `merged_duplicate`.
    public var flags: [String]

    /// Whether the play is a skip (docs/engines/toolkit.md, Skips): the product's rule, less than
    /// `skip_listen_fraction` (30 %) of the song heard; with `skip_export_flag_counts`, the
    /// export's flag too. Without a media duration the listened fraction is unknown and
    /// the export's flag decides.
    public func skipped(_ c: SessionConstants) -> Bool {
        guard let media = play.mediaDurationS, media > 0 else { return play.skipped }
        return listenFraction < c.skipListenFraction || (c.skipExportFlagCounts >= 0.5 && play.skipped)
    }
}

/// How many plays were repaired or set aside while resolving timings.
public struct PlayCleaningCounts: Equatable, Sendable {
    /// `ended_at` earlier than `started_at`: the end is ignored as unknown.
    public var endBeforeStart = 0
    /// Zero listened time and zero span: dropped.
    public var zeroDuration = 0
    /// Overlapping plays of the same song by the same listener (two devices
    /// reporting one listening) merged into the first.
    public var mergedDuplicates = 0
}

/// Resolves play timings and merges device duplicates (docs/engines/toolkit.md, Sessions).
public enum PlayTiming {
    /// Plays of one listener, sorted by start, cleaned. Order among equal starts
    /// follows play_id so the result does not depend on input order.
    public static func resolve(_ plays: [Play], counts: inout PlayCleaningCounts) -> [TimedPlay] {
        let sorted = plays.sorted { ($0.startedAtMs, $0.playId) < ($1.startedAtMs, $1.playId) }
        var out: [TimedPlay] = []
        out.reserveCapacity(sorted.count)
        var lastOfSong: [String: Int] = [:]
        for play in sorted {
            var flags: [String] = []
            var knownEnd = play.endedAtMs
            if let end = knownEnd, end < play.startedAtMs {
                flags.append("end_before_start")
                counts.endBeforeStart += 1
                knownEnd = nil
            }
            let media = play.mediaDurationS.flatMap { $0 > 0 ? $0 : nil }
            let played = play.playedS.flatMap { $0 >= 0 ? $0 : nil }
            let endMs: Int64
            if let knownEnd {
                endMs = knownEnd
            } else {
                flags.append("end_unknown")
                endMs = play.startedAtMs + Int64(((media ?? played ?? 0) * 1000).rounded())
            }
            let playedS = played ?? (knownEnd != nil ? Double(endMs - play.startedAtMs) / 1000 : media ?? 0)
            if playedS <= 0 && endMs <= play.startedAtMs {
                counts.zeroDuration += 1
                continue
            }
            let fraction = media.map { min(1, max(0, playedS / $0)) } ?? 1
            let timed = TimedPlay(play: play, endMs: endMs, playedS: playedS, listenFraction: fraction, flags: flags)
            if let i = lastOfSong[play.songId], out[i].endMs > play.startedAtMs {
                // The same song overlapping itself is one listening reported twice.
                out[i].endMs = max(out[i].endMs, timed.endMs)
                if timed.playedS > out[i].playedS {
                    out[i].playedS = timed.playedS
                    out[i].listenFraction = timed.listenFraction
                    out[i].play.skipped = timed.play.skipped
                }
                if !out[i].flags.contains("merged_duplicate") { out[i].flags.append("merged_duplicate") }
                counts.mergedDuplicates += 1
                continue
            }
            lastOfSong[play.songId] = out.count
            out.append(timed)
        }
        return out
    }
}
