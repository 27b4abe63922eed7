/// The plays the effects models learn from, in play order per listener, with dense
/// indices for songs, listeners, contexts and time slots (sorted, so outputs are
/// deterministic).
public struct PlayIndex: Sendable {
    public let plays: [SessionPlayRow]
    public let songIds: [String]
    public let subjects: [String]
    public let contexts: [String]
    public let slots: [String]
    public let song: [Int]
    public let listener: [Int]
    /// The play's own context (the `mixed` model's).
    public let context: [Int]
    /// The context of the play's session, which the product learns under; nil for a
    /// play of a session dropped as too short, which the product does not learn from.
    public let sessionContext: [Int?]
    /// Names of the session contexts `sessionContext` indexes.
    public let sessionContexts: [String]
    public let slot: [Int]
    /// The listener's play before, or nil for their first.
    public let previous: [Int?]
    /// Playlist name → (song index, plays from that playlist), playlists sorted.
    public let playlists: [(name: String, songs: [(song: Int, plays: Int)])]

    public init(_ rows: [SessionPlayRow]) {
        let plays = rows.sorted { ($0.subject, $0.startedAtMs, $0.playId) < ($1.subject, $1.startedAtMs, $1.playId) }
        self.plays = plays
        func dense(_ values: [String]) -> ([String], [Int]) {
            let names = Array(Set(values)).sorted()
            let index = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
            return (names, values.map { index[$0] ?? 0 })
        }
        (songIds, song) = dense(plays.map(\.songId))
        (subjects, listener) = dense(plays.map(\.subject))
        (contexts, context) = dense(plays.map(\.context))
        let learned = plays.map(\.sessionContext)
        let (names, indices) = dense(learned.filter { !$0.isEmpty })
        sessionContexts = names
        var next = indices.makeIterator()
        sessionContext = learned.map { $0.isEmpty ? nil : next.next() }
        (slots, slot) = dense(plays.map(\.timeSlot))
        previous = plays.indices.map { p in p > 0 && plays[p - 1].subject == plays[p].subject ? p - 1 : nil }
        var membership: [String: [Int: Int]] = [:]
        let songOf = song
        for (p, row) in plays.enumerated() where !row.playlist.isEmpty {
            membership[row.playlist, default: [:]][songOf[p], default: 0] += 1
        }
        playlists = membership.keys.sorted().map { name in
            (name, (membership[name] ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }
    }

    public var count: Int { plays.count }
}

/// Per-song values a model hands to playlist aggregation.
struct SongSummary {
    var estimate: Double?
    var variance: Double?
    var scores: PlayScores?
    /// Weight of the song in a playlist, given its plays from that playlist.
    var weight: (Int) -> Double
}

/// Playlist effect: weighted mean of its songs' effects, with the variance of that
/// mean when the songs carry variances (independent song posteriors).
enum PlaylistAggregation {
    static func rows(model: String, metric: EffectMetric, index: PlayIndex, songs: [SongSummary], z: Double) -> [PlaylistEffectRow] {
        index.playlists.map { playlist in
            var w = 0.0, est = 0.0, variance = 0.0, hasVariance = true, plays = 0
            var calm = 0.0, energy = 0.0, focus = 0.0, wScores = 0.0
            for (i, n) in playlist.songs {
                let s = songs[i]
                plays += n
                let weight = s.weight(n)
                if let scores = s.scores {
                    calm += weight * scores.calm; energy += weight * scores.energy; focus += weight * scores.focus
                    wScores += weight
                }
                guard let e = s.estimate, weight > 0 else { continue }
                w += weight; est += weight * e
                if let v = s.variance { variance += weight * weight * v } else { hasVariance = false }
            }
            let mean = w > 0 ? est / w : nil
            let se = w > 0 && hasVariance ? (variance / (w * w)).squareRoot() : nil
            var effect = EffectEstimate(value: mean)
            if let mean, let se { effect = .normal(mean, se: se, z: z) }
            return PlaylistEffectRow(
                model: model, playlist: playlist.name, metric: metric.rawValue, effect: effect, songs: playlist.songs.count, calm: wScores > 0 ? calm / wScores : nil,
                energy: wScores > 0 ? energy / wScores : nil, focus: wScores > 0 ? focus / wScores : nil, plays: plays)
        }
    }
}
