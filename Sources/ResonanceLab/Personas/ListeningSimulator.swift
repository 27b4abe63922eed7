import Foundation

/// A persona's music: a library drawn from the shared catalogue by popularity and
/// genre taste, playlists over it, and how much the persona likes each song.
struct PersonaLibrary {
    /// Catalogue indices of the library's songs.
    var songs: [Int]
    /// Liking of each library song in [0, 1] (same order): disliked songs are skipped
    /// more often.
    var liking: [Int: Double]
    var playlists: [(name: String, songs: [Int])]

    /// Weighted sampling without replacement (Efraimidis & Spirakis 2006: the k
    /// largest keys u^{1/w}), weight = popularity × genre affinity. Playlists split
    /// the library by genre into the persona's named lists; a third of the songs also
    /// appear on one other playlist.
    init(_ p: PersonaProfile, catalogue: SongCatalogue, random: inout SeededRandom) {
        let keyed = catalogue.songs.indices.map { i -> (Double, Int) in
            let s = catalogue.songs[i]
            let w = s.popularity * p.listening.genreAffinity[s.genre]
            return (w > 0 ? pow(max(random.uniform(), 1e-300), 1 / w) : 0, i)
        }
        let chosen = keyed.sorted { $0.0 != $1.0 ? $0.0 > $1.0 : $0.1 < $1.1 }
            .prefix(p.listening.librarySize).map(\.1)
        let byGenre = chosen.sorted {
            (catalogue.songs[$0].genre, $0) < (catalogue.songs[$1].genre, $1)
        }
        songs = byGenre
        var liking: [Int: Double] = [:]
        for s in byGenre { liking[s] = random.uniform() }
        self.liking = liking
        let names = p.listening.playlists
        var lists = names.map { (name: $0, songs: [Int]()) }
        for (i, s) in byGenre.enumerated() {
            let home = i * names.count / byGenre.count
            lists[home].songs.append(s)
            if names.count > 1, random.uniform() < 1.0 / 3 {
                let other = (home + random.int(in: 1...(names.count - 1))) % names.count
                lists[other].songs.append(s)
            }
        }
        playlists = lists.filter { !$0.songs.isEmpty }
    }
}

/// One listening session: its plays and the planted responses they cause.
struct ListeningSession {
    var startMs: Int64
    var endMs: Int64
    /// The playlist it plays from.
    var playlist: String
    /// Its plays as the simulation decided them; their rows are made when read
    /// (`plays(subject:catalogue:)`), so that a persona-year's ten thousand plays hold no text.
    var decided: [DecidedPlay]
    var responses: [MusicResponse]

    /// The `plays.csv` rows of the session's plays, for the persona named `subject`.
    func plays(subject: String, catalogue: SongCatalogue) -> some Sequence<Play> {
        decided.lazy.map { d in
            let song = catalogue.songs[d.song]
            return Play(subject: subject, playId: "\(subject)-\(String(format: "%05d", d.number))", songId: song.songId,
                        title: song.title, artist: song.artist, album: song.album, playlist: playlist,
                        startedAtMs: d.startMs, endedAtMs: d.startMs + d.playedMs, mediaDurationS: song.durationS,
                        playedS: Double(d.playedMs) / 1000, endReason: d.endReason,
                        skipped: d.endReason == ListeningSimulator.skippedForwards)
        }
    }
}

/// One play as the simulation decides it.
struct DecidedPlay {
    /// The song's index in the catalogue.
    var song: Int
    /// The persona's plays so far, this one included (its play id).
    var number: Int
    var startMs: Int64
    var playedMs: Int64
    /// One of `ListeningSimulator`'s end reasons.
    var endReason: String
}

/// Listening sessions of one persona: start times by habit, plays back to back from
/// a shuffled playlist, skips (more for disliked songs, mostly early in the song),
/// occasional pauses between plays and a last play often cut short.
enum ListeningSimulator {
    /// End reasons as Apple Music's privacy export spells them.
    static let naturalEnd = "NATURAL_END_OF_TRACK"
    static let skippedForwards = "TRACK_SKIPPED_FORWARDS"
    static let paused = "PLAYBACK_MANUALLY_PAUSED"

    /// `law` sets each play's planted response (`ResponseLaw`; the standard law by default).
    static func sessions(_ p: PersonaProfile, library: PersonaLibrary, catalogue: SongCatalogue,
                         timeline: inout PersonaTimeline, days: Int, law: ListenerLaw = .standard,
                         random: inout SeededRandom) -> [ListeningSession] {
        var sessions: [ListeningSession] = []
        var playCount = 0
        let habits = p.listening
        for d in 0..<days {
            let whole = Int(habits.sessionsPerDay)
            let count = min(habits.startHours.count,
                            whole + (random.uniform() < habits.sessionsPerDay - Double(whole) ? 1 : 0))
            var hours = habits.startHours
            for i in stride(from: hours.count - 1, to: 0, by: -1) { hours.swapAt(i, random.int(in: 0...i)) }
            for hour in hours.prefix(count).sorted() {
                let targetS = min(3 * 3600, 3600 * habits.hoursPerDay / habits.sessionsPerDay * exp(0.3 * random.normal() - 0.045))
                let startMinute = timeline.minute(day: d, hour: hour + 0.3 * random.normal())
                let span = Int(targetS / 60) + 9
                guard timeline.isFree(startMinute..<(startMinute + span)),
                      !timeline.listening[max(0, startMinute - 35)..<min(timeline.minutes, startMinute + span + 35)].contains(true)
                else { continue }
                let startMs = timeline.timeMs(minute: startMinute) + Int64(random.int(in: 0...59_999))
                let playlist = library.playlists[random.int(in: 0...(library.playlists.count - 1))]
                let session = playSession(p, playlist: playlist, library: library, catalogue: catalogue,
                                          startMs: startMs, targetS: targetS, law: law, firstPlay: &playCount, random: &random)
                let lastMinute = Int((session.endMs - timeline.spanStartMs) / 60_000)
                for m in startMinute...min(lastMinute, timeline.minutes - 1) { timeline.listening[m] = true }
                sessions.append(session)
            }
        }
        return sessions
    }

    private static func playSession(_ p: PersonaProfile, playlist: (name: String, songs: [Int]),
                                    library: PersonaLibrary, catalogue: SongCatalogue, startMs: Int64,
                                    targetS: Double, law: ListenerLaw, firstPlay playCount: inout Int,
                                    random: inout SeededRandom) -> ListeningSession {
        var order = playlist.songs
        for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, random.int(in: 0...i)) }
        var plays: [DecidedPlay] = []
        var responses: [MusicResponse] = []
        var t = startMs
        var k = 0
        while Double(t - startMs) / 1000 < targetS {
            let index = order[k % order.count]
            let song = catalogue.songs[index]
            let like = library.liking[index] ?? 0.5
            k += 1
            let durationMs = Int64(song.durationS * 1000)
            let isLast = Double(t - startMs + durationMs) / 1000 >= targetS
            var playedMs = durationMs
            var reason = naturalEnd
            if random.uniform() < min(0.9, p.listening.skipPropensity * (1.5 - like)) {
                // Most skips come early: played fraction u^1.5 · 0.8.
                playedMs = max(3000, Int64(Double(durationMs) * 0.8 * pow(random.uniform(), 1.5)))
                reason = skippedForwards
            } else if isLast, random.uniform() < 0.35 {
                playedMs = Int64(Double(durationMs) * random.uniform(0.3, 0.9))
                reason = paused
            }
            playCount += 1
            let end = t + playedMs
            plays.append(DecidedPlay(song: index, number: playCount, startMs: t, playedMs: playedMs, endReason: reason))
            let effect = law.effect(song, index: index, sensitivity: p.sensitivity, startS: Double(t) / 1000)
            responses.append(MusicResponse(
                startS: Double(t) / 1000, endS: Double(end) / 1000, durationS: song.durationS,
                deltaHRBpm: effect.hrBpm, deltaRMSSDMs: effect.rmssdMs, shape: law.shape))
            t = end
            if reason == paused { break }
            if random.uniform() < 0.06 { t += Int64(random.int(in: 5_000...90_000)) }
        }
        return ListeningSession(startMs: startMs, endMs: plays.last.map { $0.startMs + $0.playedMs } ?? startMs,
                                playlist: playlist.name, decided: plays, responses: responses)
    }
}
