/// A song's effect in one context: the song's effect plus its own deviation there.
struct SongContextEffect {
    var song: Int
    var context: Int
    var estimate: Double
    var variance: Double
    var plays: Int
}

extension MixedModel {
    /// Song × context effects from a fitted model: a random interaction
    /// d_ic ~ N(0, κ²) on the song's scale, estimated from the plays' residuals by
    /// the same marginal maximum likelihood as the songs, so a context with few plays stays
    /// near the song's overall effect. Reported only for cells with ≥ `minPlays`
    /// (the data support it); κ² is estimated from every cell.
    static func songContextEffects(_ fit: MixedFit, _ d: ResponseData, xc: [Double], minPlays: Int) -> [SongContextEffect] {
        let fixedPart = FixedPart(fit: fit, d: d, xc: xc)
        var a: [Int: Double] = [:], b: [Int: Double] = [:], n: [Int: Int] = [:]
        for p in 0..<d.count {
            let key = Int(d.song[p]) * d.contexts + Int(d.context[p])
            let z = fit.effectiveExposure(d, p) * fit.scale(d, p), w = fit.weight(d, p)
            let r = d.y[p] - fixedPart.value(p) - fit.music(d, p)
            a[key, default: 0] += w * z * z; b[key, default: 0] += w * z * r; n[key, default: 0] += 1
        }
        let keys = a.keys.sorted()
        guard !keys.isEmpty else { return [] }
        let cellA = keys.map { a[$0] ?? 0 }, cellB = keys.map { b[$0] ?? 0 }
        let informative = keys.indices.filter { cellA[$0] > 0 }
        let kappa2 = VarianceComponent.fit(estimates: informative.map { cellB[$0] / cellA[$0] },
                                           variances: informative.map { 1 / cellA[$0] },
                                           fixedMean: 0, tau2: fit.songTau2).tau2
        return keys.indices.compactMap { g in
            guard let count = n[keys[g]], count >= minPlays else { return nil }
            let i = keys[g] / d.contexts
            let precision = cellA[g] + 1 / kappa2
            return SongContextEffect(song: i, context: keys[g] % d.contexts,
                                     estimate: fit.song[i] + cellB[g] / precision,
                                     variance: fit.songVariance[i] + 1 / precision, plays: count)
        }
    }
}
