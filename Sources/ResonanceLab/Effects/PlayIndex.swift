/// The plays the effects models learn from, as columns in play order per listener
/// (sorted by subject, start, play id): dense indices for songs, listeners, contexts and
/// time slots (into their sorted names, so outputs are deterministic) and the numbers the
/// models use of each play (`PlayMeasures`). Built a row at a time: each id becomes an
/// index as it is read and each distinct id is kept once, so `session_plays.csv` is
/// never held whole and the index takes 92 bytes per play whatever its text fields hold.
public struct PlayIndex: Sendable {
    public let songIds: [String]
    public let subjects: [String]
    public let contexts: [String]
    public let slots: [String]
    /// Names of the session contexts `sessionContext` indexes.
    public let sessionContexts: [String]
    public let song: [Int32]
    public let listener: [Int32]
    /// The play's own context (the `mixed` model's).
    public let context: [Int32]
    /// The context of the play's session, which the product learns under; −1 for a
    /// play of a session dropped as too short, which the product does not learn from.
    public let sessionContext: [Int32]
    public let slot: [Int32]
    public let measures: [PlayMeasures]
    /// Playlist name → (song index, plays from that playlist), playlists sorted.
    public let playlists: [(name: String, songs: [(song: Int, plays: Int)])]

    /// The index of plays held in memory.
    public init<S: Sequence>(_ rows: S) where S.Element == SessionPlayRow {
        var builder = Builder()
        for row in rows { builder.add(row) }
        self.init(builder)
    }

    /// The index of the workspace's `session_plays.csv`, read a row at a time (empty
    /// when the table is absent).
    public init(reading ws: Workspace) throws {
        var builder = Builder()
        try ws.forEachRow(SessionPlayRow.self) { builder.add($0) }
        self.init(builder)
    }

    public var count: Int { measures.count }

    /// The listener's play before play `p`, or nil for their first.
    public func previous(_ p: Int) -> Int? {
        p > 0 && listener[p - 1] == listener[p] ? p - 1 : nil
    }

    /// Plays in file order with ids as first-seen indices, then sorted and renumbered.
    private struct Builder {
        var subjects = Interner(), songs = Interner(), contexts = Interner(), slots = Interner()
        var sessionContexts = Interner(), playlists = Interner()
        var subject: [Int32] = [], song: [Int32] = [], context: [Int32] = [], sessionContext: [Int32] = []
        var slot: [Int32] = [], measures: [PlayMeasures] = []
        /// Playlist → song → plays, by first-seen indices.
        var membership: [Int32: [Int32: Int]] = [:]
        /// Play ids, needed only to order plays of one listener that start in the same
        /// millisecond: their UTF-8 bytes end to end, and where each ends.
        var playIdBytes: [UInt8] = [], playIdEnd: [Int] = []

        mutating func add(_ row: SessionPlayRow) {
            subject.append(subjects.index(row.subject))
            song.append(songs.index(row.songId))
            context.append(contexts.index(row.context))
            sessionContext.append(row.sessionContext.isEmpty ? -1 : sessionContexts.index(row.sessionContext))
            slot.append(slots.index(row.timeSlot))
            measures.append(PlayMeasures(row))
            if !row.playlist.isEmpty { membership[playlists.index(row.playlist), default: [:]][song[song.count - 1], default: 0] += 1 }
            playIdBytes.append(contentsOf: row.playId.utf8)
            playIdEnd.append(playIdBytes.count)
        }

        func playId(_ p: Int) -> String {
            String(decoding: playIdBytes[(p > 0 ? playIdEnd[p - 1] : 0)..<playIdEnd[p]], as: UTF8.self)
        }

        /// Play order: by subject, start, play id (as `String` compares them), then file
        /// order; nil when the file is in that order already.
        func order() -> [Int]? {
            let rank = subjects.sorted().rank
            func before(_ a: Int, _ b: Int) -> Bool {
                let (ra, rb) = (rank[Int(subject[a])], rank[Int(subject[b])])
                if ra != rb { return ra < rb }
                let (ta, tb) = (measures[a].startedAtMs, measures[b].startedAtMs)
                if ta != tb { return ta < tb }
                let (ia, ib) = (playId(a), playId(b))
                return ia != ib ? ia < ib : a < b
            }
            let n = measures.count
            guard (1..<max(1, n)).contains(where: { !before($0 - 1, $0) }) else { return nil }
            return (0..<n).sorted(by: before)
        }
    }

    private init(_ b: consuming Builder) {
        let order = b.order()
        b.playIdBytes = []; b.playIdEnd = []
        /// `column` in play order, first-seen indices replaced by their sorted rank
        /// (−1 kept); the builder's copy is released.
        func arranged(_ column: inout [Int32], _ names: Interner) -> (names: [String], column: [Int32]) {
            defer { column = [] }
            let (sorted, rank) = names.sorted()
            func renumbered(_ i: Int32) -> Int32 { i < 0 ? i : rank[Int(i)] }
            guard let order else { return (sorted, column.map(renumbered)) }
            return (sorted, order.map { renumbered(column[$0]) })
        }
        (songIds, song) = arranged(&b.song, b.songs)
        (subjects, listener) = arranged(&b.subject, b.subjects)
        (contexts, context) = arranged(&b.context, b.contexts)
        (sessionContexts, sessionContext) = arranged(&b.sessionContext, b.sessionContexts)
        (slots, slot) = arranged(&b.slot, b.slots)
        measures = order.map { order in order.map { b.measures[$0] } } ?? b.measures
        b.measures = []
        let songRank = b.songs.sorted().rank, (playlistNames, playlistRank) = b.playlists.sorted()
        var songsOf = [[(song: Int, plays: Int)]](repeating: [], count: playlistNames.count)
        for (playlist, songs) in b.membership {
            songsOf[Int(playlistRank[Int(playlist)])] = songs.map { (Int(songRank[Int($0.key)]), $0.value) }.sorted { $0.song < $1.song }
        }
        playlists = zip(playlistNames, songsOf).map { (name: $0, songs: $1) }
    }
}

/// What the models use of one play besides its ids: `SessionPlayRow`'s times, played
/// seconds, listened fraction, skip and physiology, in 72 bytes (an absent HR or HRV
/// value is stored as NaN with its bit clear in `flags`).
public struct PlayMeasures: Sendable {
    public let startedAtMs: Int64
    public let endedAtMs: Int64
    public let playedS: Double
    public let listenFraction: Double
    private let hrStartValue: Double, hrDeltaValue: Double, hrvStartValue: Double, hrvDeltaValue: Double
    private let flags: UInt8

    private static let skippedBit: UInt8 = 1, rrBit: UInt8 = 2
    private static let hrStartBit: UInt8 = 4, hrDeltaBit: UInt8 = 8, hrvStartBit: UInt8 = 16, hrvDeltaBit: UInt8 = 32

    public init(_ row: SessionPlayRow) {
        let bio = row.biometrics
        startedAtMs = row.startedAtMs; endedAtMs = row.endedAtMs; playedS = row.playedS
        // A play of unknown length counts as heard in full (`TimedPlay.listenFraction`).
        listenFraction = row.listenFraction ?? 1
        hrStartValue = bio.hrStart ?? .nan; hrDeltaValue = bio.hrDelta ?? .nan
        hrvStartValue = bio.hrvStart ?? .nan; hrvDeltaValue = bio.hrvDelta ?? .nan
        func bit(_ on: Bool, _ b: UInt8) -> UInt8 { on ? b : 0 }
        flags = bit(row.skipped, Self.skippedBit) | bit(bio.hrvSource == "rr", Self.rrBit)
            | bit(bio.hrStart != nil, Self.hrStartBit) | bit(bio.hrDelta != nil, Self.hrDeltaBit)
            | bit(bio.hrvStart != nil, Self.hrvStartBit) | bit(bio.hrvDelta != nil, Self.hrvDeltaBit)
    }

    /// Skip by the product's rule.
    public var skipped: Bool { flags & Self.skippedBit != 0 }
    /// Whether the HRV is an RMSSD of R-R intervals (`hrv_source` `rr`).
    public var hrvFromRR: Bool { flags & Self.rrBit != 0 }
    /// HR at the play's start and its change (bpm); HRV at the start and its change (ms).
    public var hrStart: Double? { flags & Self.hrStartBit != 0 ? hrStartValue : nil }
    public var hrDelta: Double? { flags & Self.hrDeltaBit != 0 ? hrDeltaValue : nil }
    public var hrvStart: Double? { flags & Self.hrvStartBit != 0 ? hrvStartValue : nil }
    public var hrvDelta: Double? { flags & Self.hrvDeltaBit != 0 ? hrvDeltaValue : nil }

    /// The song's full duration (s): played / listened fraction; the played time when
    /// the media duration was unknown (fraction 1).
    public var fullDurationS: Double { listenFraction > 0 ? playedS / listenFraction : playedS }
}

/// Distinct strings in first-seen order, each kept once, with the index of each.
struct Interner {
    private(set) var names: [String] = []
    private var indices: [String: Int32] = [:]

    mutating func index(_ name: String) -> Int32 {
        if let i = indices[name] { return i }
        let i = Int32(names.count)
        names.append(name)
        indices[name] = i
        return i
    }

    /// The names sorted, and the rank among them of each first-seen index.
    func sorted() -> (names: [String], rank: [Int32]) {
        let order = names.indices.sorted { names[$0] < names[$1] }
        var rank = [Int32](repeating: 0, count: names.count)
        for (r, i) in order.enumerated() { rank[i] = Int32(r) }
        return (order.map { names[$0] }, rank)
    }
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
    /// One row per playlist with an estimate of `metric`: a playlist none of whose songs
    /// has one (no play with heart data) has no row for it.
    static func rows(model: String, metric: EffectMetric, index: PlayIndex, songs: [SongSummary], z: Double) -> [PlaylistEffectRow] {
        index.playlists.compactMap { playlist in
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
            guard w > 0 else { return nil }
            let mean = est / w
            let se = hasVariance ? (variance / (w * w)).squareRoot() : nil
            var effect = EffectEstimate(value: mean)
            if let se { effect = .normal(mean, se: se, z: z) }
            return PlaylistEffectRow(
                model: model, playlist: playlist.name, metric: metric.rawValue, effect: effect, songs: playlist.songs.count, calm: wScores > 0 ? calm / wScores : nil,
                energy: wScores > 0 ? energy / wScores : nil, focus: wScores > 0 ? focus / wScores : nil, plays: plays)
        }
    }
}
