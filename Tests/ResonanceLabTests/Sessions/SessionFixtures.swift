@testable import ResonanceLab

/// A play of listener "u1" for hand-built sequences.
func play(_ id: String, _ start: String, _ end: String?, song: String = "s1", media: Double? = 200,
          played: Double? = nil, skipped: Bool = false, subject: String = "u1", playlist: String = "p") -> Play {
    Play(subject: subject, playId: id, songId: song, title: "", artist: "", album: "", playlist: playlist,
         startedAtMs: ms(start), endedAtMs: end.map(ms), mediaDurationS: media, playedS: played,
         endReason: skipped ? "skip" : "end", skipped: skipped)
}
