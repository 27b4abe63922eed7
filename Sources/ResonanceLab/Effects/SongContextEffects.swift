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
    /// the same EM empirical Bayes as the songs, so a context with few plays stays
    /// near the song's overall effect. Reported only for cells with ≥ `minPlays`
    /// (the data support it); κ² is estimated from every cell.
    static func songContextEffects(_ fit: MixedFit, _ d: ResponseData, xc: [Double], minPlays: Int) -> [SongContextEffect] {
        let fixedPart = FixedPart(fit: fit, d: d, xc: xc)
        var a: [Int: Double] = [:], b: [Int: Double] = [:], n: [Int: Int] = [:]
        for p in 0..<d.count {
            let key = Int(d.song[p]) * d.contexts + Int(d.context[p])
            let z = d.exposure[p] * fit.scale(d, p)
            let r = d.y[p] - fixedPart.value(p) - fit.music(d, p)
            a[key, default: 0] += z * z; b[key, default: 0] += z * r; n[key, default: 0] += 1
        }
        let keys = a.keys.sorted()
        guard !keys.isEmpty else { return [] }
        var kappa2 = fit.songTau2
        for _ in 0..<200 {
            var sum = 0.0
            for key in keys {
                let precision = (a[key] ?? 0) / fit.sigma2 + 1 / kappa2
                let mean = (b[key] ?? 0) / fit.sigma2 / precision
                sum += mean * mean + 1 / precision
            }
            let next = max(sum / Double(keys.count), 1e-12)
            if abs(next - kappa2) <= 1e-9 * kappa2 { kappa2 = next; break }
            kappa2 = next
        }
        return keys.compactMap { key in
            guard let count = n[key], count >= minPlays else { return nil }
            let i = key / d.contexts
            let precision = (a[key] ?? 0) / fit.sigma2 + 1 / kappa2
            return SongContextEffect(song: i, context: key % d.contexts,
                                     estimate: fit.song[i] + (b[key] ?? 0) / fit.sigma2 / precision,
                                     variance: fit.songVariance[i] + 1 / precision, plays: count)
        }
    }
}
