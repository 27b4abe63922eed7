import Foundation

/// One play a learning policy learns from: the listener, the catalogue song, its slot
/// (`PopulationPrior.slot`) and the ΔHR measured over it (bpm).
struct HeardPlay: Sendable, Equatable {
    let listener: Int
    let song: Int
    let slot: Int
    let deltaHRBpm: Double
}

/// The song level of the hierarchical model: a song's mean effect (bpm) ~
/// N(intercept + slope · content index, variance).
struct SongLevel: Sendable, Equatable {
    var intercept = 0.0, slope = 0.0
    var varianceBpm2: Double
}

/// A normal distribution of an effect (bpm, bpm²).
struct Belief: Sendable, Equatable {
    var mean: Double
    var variance: Double
}

/// The population prior of the learning policies (docs/dj.md, Learning policies): a
/// normal hierarchical model of the ΔHR measured over a play (Gelman et al. 2013,
/// Bayesian Data Analysis, ch. 5), y = slot offset + θ(listener, song) + ε,
/// ε ~ N(0, σ²); θ(l, s) ~ N(μ(s) + b(l) + g(l, genre of s), τ²), the listener's mean
/// offset b(l) ~ N(0, β²) and their offset per genre g ~ N(0, β_g²); μ(s) ~ N(α + γ·z(s),
/// ω²), z the song's content index (γ = 0 without content). Every component is estimated by
/// moments (empirical Bayes) from the plays it is built from — in the simulation all
/// listeners' plays of earlier days — never chosen; a fallback holds until enough
/// groups inform it (`LearningConstants`).
struct PopulationPrior: Sendable {
    /// Per slot, its mean ΔHR − the overall mean (bpm).
    let slotOffsetBpm: [Double]
    /// σ², τ², β², β_g² (bpm²).
    let noiseVarianceBpm2: Double, listenerSongVarianceBpm2: Double, listenerOffsetVarianceBpm2: Double
    let genreOffsetVarianceBpm2: Double
    /// The song level without content (γ = 0) and with the content index (γ estimated).
    let plain: SongLevel, content: SongLevel
    let contentIndex: [Double]
    /// Per catalogue song: Σ w and Σ w·ȳ over its (listener, song) groups, w = 1/(τ² + σ²/n).
    let songWeight: [Double], songWeightedSum: [Double]
    /// Per listener, per catalogue song: plays and mean residual of the group.
    let groups: [Int: [Int: (n: Int, mean: Double)]]

    /// The prior from `plays` (in a fixed order) for a catalogue whose songs have
    /// `contentIndex` and `genres` (indices).
    init(_ plays: [HeardPlay], contentIndex z: [Double], genres: [Int], constants c: LearningConstants) {
        let offsets = Self.slotOffsets(plays)
        slotOffsetBpm = offsets
        var sums: [Int: [Int: (n: Int, sum: Double, squares: Double)]] = [:]
        for p in plays {
            let r = p.deltaHRBpm - offsets[p.slot]
            let old = sums[p.listener, default: [:]][p.song] ?? (0, 0, 0)
            sums[p.listener, default: [:]][p.song] = (old.n + 1, old.sum + r, old.squares + r * r)
        }
        // Groups in listener then song order, so that every sum is taken in one order.
        let ordered = sums.keys.sorted().flatMap { l in (sums[l] ?? [:]).keys.sorted().compactMap { s in
            sums[l]?[s].map { (listener: l, song: s, n: $0.n, mean: $0.sum / Double($0.n), squares: $0.squares) } } }
        let floor = c.varianceFloorBpm2, enough = Int(c.minGroups)
        let sigma2 = Self.within(ordered.map { ($0.n, $0.mean, $0.squares) }, enough: enough, floor: floor)
            ?? c.fallbackNoiseSDBpm * c.fallbackNoiseSDBpm
        let bySong = Dictionary(grouping: ordered, by: \.song)
        let tau2 = Self.between(bySong.keys.sorted().compactMap { bySong[$0]?.map { ($0.n, $0.mean) } }, within: sigma2,
                                enough: enough, floor: floor) ?? c.fallbackListenerSDBpm * c.fallbackListenerSDBpm
        var weight = [Double](repeating: 0, count: z.count), weighted = weight
        for g in ordered where g.song < z.count {
            let w = 1 / (tau2 + sigma2 / Double(g.n))
            weight[g.song] += w; weighted[g.song] += w * g.mean
        }
        noiseVarianceBpm2 = sigma2; listenerSongVarianceBpm2 = tau2
        songWeight = weight; songWeightedSum = weighted; contentIndex = z
        groups = sums.mapValues { $0.mapValues { (n: $0.n, mean: $0.sum / Double($0.n)) } }
        let songs = weight.indices.filter { weight[$0] > 0 }.map { (z: z[$0], mean: weighted[$0] / weight[$0], variance: 1 / weight[$0]) }
        let fallback = SongLevel(varianceBpm2: c.fallbackSongSDBpm * c.fallbackSongSDBpm)
        plain = Self.songLevel(songs, content: false, enough: enough, floor: floor) ?? fallback
        content = Self.songLevel(songs, content: true, enough: enough, floor: floor) ?? fallback
        // Listener and listener × genre offsets: each group's deviation from its song's mean.
        let songMean = { (s: Int) in s < weight.count && weight[s] > 0 ? weighted[s] / weight[s] : 0 }
        var deviation = ordered.map { (key: $0.listener, n: $0.n, deviation: $0.mean - songMean($0.song)) }
        let spread = { (n: Int) in tau2 + sigma2 / Double(n) }
        let fallbackOffset = c.fallbackListenerSDBpm * c.fallbackListenerSDBpm
        listenerOffsetVarianceBpm2 = Self.offsetVariance(deviation, spread: spread, enough: enough, floor: floor) ?? fallbackOffset
        let byListener = Dictionary(grouping: deviation, by: \.key).mapValues { d in d.reduce(0) { $0 + $1.deviation } / Double(d.count) }
        deviation = zip(ordered, deviation).map { g, d in
            (key: g.listener * 1024 + (g.song < genres.count ? genres[g.song] : 0), n: d.n, deviation: d.deviation - (byListener[g.listener] ?? 0))
        }
        genreOffsetVarianceBpm2 = Self.offsetVariance(deviation, spread: spread, enough: enough, floor: floor) ?? fallbackOffset
    }

    /// Songs' positions in a session told apart by the slots (the last one holds the rest).
    static let positions = 8
    static let slots = DJContext.allCases.count * positions

    /// The slot of a play: its DJ context (a workout's rising HR and the recovery's falling
    /// one are not the song's doing, and fade over the session) and its position in the
    /// session (0 first, at most `positions` − 1).
    static func slot(_ context: DJContext, position: Int) -> Int {
        (DJContext.allCases.firstIndex(of: context) ?? 0) * positions + min(max(0, position), positions - 1)
    }

    /// Whether `slot` is in a workout or the session after one.
    static func inWorkout(_ slot: Int) -> Bool {
        let context = DJContext.allCases[min(DJContext.allCases.count - 1, max(0, slot / positions))]
        return context == .workout || context == .postWorkout
    }

    /// Per slot, the mean ΔHR of its plays − the mean of all plays (0 without plays).
    static func slotOffsets(_ plays: [HeardPlay]) -> [Double] {
        let k = slots
        var sum = [Double](repeating: 0, count: k), count = [Int](repeating: 0, count: k)
        for p in plays where p.slot < k { sum[p.slot] += p.deltaHRBpm; count[p.slot] += 1 }
        let all = count.reduce(0, +)
        let grand = all > 0 ? sum.reduce(0, +) / Double(all) : 0
        return (0..<k).map { count[$0] > 0 ? sum[$0] / Double(count[$0]) - grand : 0 }
    }

    /// The pooled within-group variance Σ Σ (y − ȳ)² / (N − G) of groups given as (n, mean,
    /// Σ y²); nil below `enough` degrees of freedom.
    static func within(_ groups: [(n: Int, mean: Double, squares: Double)], enough: Int, floor: Double) -> Double? {
        let df = groups.reduce(0) { $0 + $1.n - 1 }
        guard df >= enough else { return nil }
        return max(floor, groups.reduce(0) { $0 + max(0, $1.squares - Double($1.n) * $1.mean * $1.mean) } / Double(df))
    }

    /// The between-group variance of a pooled one-way analysis of variance (the
    /// unbalanced moment estimator, Searle, Casella & McCulloch 1992, §3.5): within each
    /// cluster (a song) its groups (n, mean); (Σ SSB / Σ (k − 1) − σ²) / n₀, n₀ = Σ (N −
    /// Σ n²/N) / Σ (k − 1); nil below `enough` degrees of freedom.
    static func between(_ clusters: [[(n: Int, mean: Double)]], within sigma2: Double, enough: Int, floor: Double) -> Double? {
        var ssb = 0.0, df = 0, n0 = 0.0
        for groups in clusters where groups.count >= 2 {
            let total = Double(groups.reduce(0) { $0 + $1.n })
            let mean = groups.reduce(0) { $0 + Double($1.n) * $1.mean } / total
            ssb += groups.reduce(0) { $0 + Double($1.n) * ($1.mean - mean) * ($1.mean - mean) }
            df += groups.count - 1
            n0 += total - groups.reduce(0) { $0 + Double($1.n * $1.n) } / total
        }
        guard df >= enough, n0 > 0 else { return nil }
        return max(floor, (ssb / Double(df) - sigma2) / (n0 / Double(df)))
    }

    /// The song level from each song's estimated mean and its sampling variance: the
    /// least-squares line on the content index (with `content`; its slope shrunk by
    /// max(0, 1 − SE²/γ̂²), positive-part James–Stein, so that it fades to 0 where the
    /// index predicts nothing) or the mean, and ω² = the residual variance − the mean
    /// sampling variance (moments); nil for fewer than `enough` songs.
    static func songLevel(_ songs: [(z: Double, mean: Double, variance: Double)], content: Bool, enough: Int, floor: Double) -> SongLevel? {
        let m = Double(songs.count)
        guard songs.count >= max(enough, 3) else { return nil }
        let zBar = songs.reduce(0) { $0 + $1.z } / m, yBar = songs.reduce(0) { $0 + $1.mean } / m
        let sxx = songs.reduce(0) { $0 + ($1.z - zBar) * ($1.z - zBar) }
        let sxy = songs.reduce(0) { $0 + ($1.z - zBar) * ($1.mean - yBar) }
        var slope = 0.0
        if content, sxx > 0 {
            let raw = sxy / sxx
            let residual = songs.reduce(0) { $0 + pow($1.mean - yBar - raw * ($1.z - zBar), 2) } / (m - 2)
            let se2 = residual / sxx
            slope = raw == 0 ? 0 : raw * max(0, 1 - se2 / (raw * raw))
        }
        let intercept = yBar - slope * zBar
        let spread = songs.reduce(0) { $0 + pow($1.mean - intercept - slope * $1.z, 2) } / (m - (content ? 2 : 1))
        let sampling = songs.reduce(0) { $0 + $1.variance } / m
        return SongLevel(intercept: intercept, slope: slope, varianceBpm2: max(floor, spread - sampling))
    }

    /// The variance of an offset (β² of listeners, β_g² of listener × genre cells): the
    /// variance over keys of their groups' mean deviation minus its mean sampling variance
    /// (the mean of `spread(n)` over the key's k groups / k); nil for fewer than `enough` keys.
    static func offsetVariance(_ groups: [(key: Int, n: Int, deviation: Double)], spread: (Int) -> Double, enough: Int,
                               floor: Double) -> Double? {
        var offsets: [Double] = [], sampling: [Double] = []
        for (_, mine) in Dictionary(grouping: groups, by: \.key).sorted(by: { $0.key < $1.key }) {
            let k = Double(mine.count)
            offsets.append(mine.reduce(0) { $0 + $1.deviation } / k)
            sampling.append(mine.reduce(0) { $0 + spread($1.n) } / (k * k))
        }
        guard offsets.count >= enough else { return nil }
        return max(floor, Stats.sd(offsets) * Stats.sd(offsets) - sampling.reduce(0, +) / Double(sampling.count))
    }

    /// Song `s`'s mean effect for listener `l` from the other listeners' groups only (the
    /// listener's own group taken out): the song level's prior updated by their weights.
    func song(_ s: Int, listener l: Int, level: SongLevel) -> Belief {
        var w = s < songWeight.count ? songWeight[s] : 0, sum = s < songWeight.count ? songWeightedSum[s] : 0
        if let own = groups[l]?[s] {
            let wg = 1 / (listenerSongVarianceBpm2 + noiseVarianceBpm2 / Double(own.n))
            w -= wg; sum -= wg * own.mean
        }
        if w <= 1e-12 { w = 0; sum = 0 }
        let z = s < contentIndex.count ? contentIndex[s] : 0
        let precision = 1 / level.varianceBpm2 + w
        return Belief(mean: ((level.intercept + level.slope * z) / level.varianceBpm2 + sum) / precision, variance: 1 / precision)
    }
}

/// What a listener's own plays say about one song: plays and the sum of their ΔHR net of
/// the slot offsets (bpm).
struct OwnEvidence: Sendable, Equatable {
    var plays = 0
    var residualSumBpm = 0.0
}

extension PopulationPrior {
    /// A listener's offset: the precision-weighted mean of their songs' mean deviations
    /// from the songs' priors + `base`, shrunk to 0 by its prior N(0, `variance`) — b over
    /// all their songs (β², base 0), g over a genre's (β_g², base b).
    func offset(_ own: [(prior: Belief, evidence: OwnEvidence)], base: Double, variance: Double) -> Double {
        var sum = 0.0, precision = 1 / variance
        for (prior, e) in own where e.plays > 0 {
            let w = 1 / (listenerSongVarianceBpm2 + prior.variance + noiseVarianceBpm2 / Double(e.plays))
            sum += w * (e.residualSumBpm / Double(e.plays) - prior.mean - base); precision += w
        }
        return sum / precision
    }

    /// θ(l, s) given the listener's own plays of the song: prior N(μ + b, τ² + var μ),
    /// n plays of noise σ² (the conjugate normal update, Bayesian Data Analysis §2.5).
    func posterior(_ prior: Belief, offset b: Double, own e: OwnEvidence) -> Belief {
        let v0 = listenerSongVarianceBpm2 + prior.variance
        let precision = 1 / v0 + Double(e.plays) / noiseVarianceBpm2
        return Belief(mean: ((prior.mean + b) / v0 + e.residualSumBpm / noiseVarianceBpm2) / precision, variance: 1 / precision)
    }

    /// The expected need fulfilment (bpm, `needFulfilment`) of an effect believed N(m, v):
    /// −m for calm, m for energize, −E|θ| (the folded normal's mean, σ√(2/π)·e^(−m²/2v)
    /// + m·erf(m/σ√2)) for the needs that want a steady heart.
    static func expectedFulfilment(_ need: MusicNeed, _ b: Belief) -> Double {
        switch need {
        case .calm: return -b.mean
        case .energize: return b.mean
        case .focus, .maintain, .transition:
            let sd = b.variance.squareRoot()
            guard sd > 0 else { return -abs(b.mean) }
            return -(sd * (2 / Double.pi).squareRoot() * exp(-b.mean * b.mean / (2 * b.variance)) + b.mean * erf(b.mean / (sd * 2.0.squareRoot())))
        }
    }
}
