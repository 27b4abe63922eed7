/// The inputs of the product's learning rule, computed once from a `PlayIndex`: the plays
/// of kept sessions grouped by (listener, song, session context) — the product learns
/// each song per (song, context) from plays that belong to a session, under the session's
/// context — in play order within a group, each as a `LearnedPlay` (the impact constants
/// held fixed). `replay` runs `SongLearner`'s step over these flat arrays, so the `ema`
/// model, the song-effect tuner, `dj replay` and `dj simulate` learn the same way.
public struct EMAReplay: Sendable {
    /// Per play, in group order.
    var plays: [LearnedPlay] = []
    /// Per group: its first play (the group ends where the next begins), listener,
    /// song and context indices of the `PlayIndex`. Groups are sorted by listener,
    /// song, context.
    var groupStart: [Int] = []
    var groupListener: [Int] = []
    var groupSong: [Int] = []
    var groupContext: [Int] = []
    /// Per listener: the range of its groups.
    public private(set) var listenerGroups: [Range<Int>] = []

    public init(_ x: PlayIndex, impact k: ImpactConstants) {
        let nc = max(1, x.sessionContexts.count), ns = max(1, x.songIds.count)
        // Plays grouped by (listener, song, context), play order kept within a group
        // (stable sort of play indices by key; no hashing over a million plays).
        let learned = (0..<x.count).filter { x.sessionContext[$0] >= 0 }
        var key = [Int](repeating: 0, count: x.count)
        for p in learned { key[p] = (Int(x.listener[p]) * ns + Int(x.song[p])) * nc + Int(x.sessionContext[p]) }
        let order = learned.sorted { (key[$0], $0) < (key[$1], $1) }
        listenerGroups = [Range<Int>](repeating: 0..<0, count: x.subjects.count)
        plays.reserveCapacity(order.count)
        for (n, p) in order.enumerated() {
            if n == 0 || key[p] != key[order[n - 1]] {
                let j = Int(x.listener[p])
                if listenerGroups[j].isEmpty { listenerGroups[j] = groupStart.count..<groupStart.count }
                groupStart.append(n); groupListener.append(j); groupSong.append(Int(x.song[p])); groupContext.append(Int(x.sessionContext[p]))
                listenerGroups[j] = listenerGroups[j].lowerBound..<groupStart.count
            }
            plays.append(LearnedPlay(x.measures[p], impact: k))
        }
    }

    /// Replays the learning of the listeners `listeners` (all when nil), in listener
    /// order: `context` receives each (listener, song, context) state after its last
    /// play, `listenerSong` each listener × song aggregate (confidence-weighted over
    /// its contexts, docs/engines/toolkit.md, Song effect) after its last context.
    func replay(_ s: SongEffectConstants, listeners: [Int]? = nil,
                context: (_ listener: Int, _ song: Int, _ context: Int, EMAState) -> Void = { _, _, _, _ in },
                listenerSong: (_ listener: Int, _ song: Int, EMAState) -> Void) {
        for j in listeners ?? Array(listenerGroups.indices) {
            var aggregate = EMAAggregate()
            for g in listenerGroups[j] {
                var state = EMAState(constants: s)
                for p in groupStart[g]..<(g + 1 < groupStart.count ? groupStart[g + 1] : plays.count) {
                    SongLearner.learn(&state, plays[p], constants: s)
                }
                context(j, groupSong[g], groupContext[g], state)
                aggregate.add(state)
                // Last context of this listener × song: close the aggregate.
                if g + 1 == listenerGroups[j].upperBound || groupSong[g + 1] != groupSong[g] {
                    listenerSong(j, groupSong[g], aggregate.state(s))
                    aggregate = EMAAggregate()
                }
            }
        }
    }
}
