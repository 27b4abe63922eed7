/// Song-effect variances that stay honest when the plays are not the independent,
/// equal-variance draws `MixedModel` assumes (docs/methods.md, Honest intervals).
///
/// A song's estimate solves Σ_p w·z_p·(r_p − z_p·s) + (m − s)/τ² = 0 (w = 1/σ², z the
/// play's exposure × sensitivity), so its variance is Var(b)/(A + 1/τ²)² with
/// b = Σ w·z·ε. The model takes Var(b) = A = Σ w·z². The sandwich form (Liang & Zeger
/// 1986, Biometrika 73:13) takes the variance of the scores w·z·e with plays clustered
/// by listener within the song, which also covers listener × song interactions,
/// drifting effects (a listener hears a song in a few stretches of the study) and
/// heavy-tailed or heteroscedastic noise. Per song that sum has as many terms as the
/// song has listeners (often 2–6), far too few for a per-song sandwich, so it is pooled
/// into two parameters estimated over all songs:
///
///     Var(b_i) = φ·A_i + κ²·C_i,   C_i = Σ_j [(Σ_{p∈ij} w·z)² − Σ_{p∈ij} (w·z)²]
///
/// φ = Σ (w·z·ẽ)² / Σ A (the scores' variance relative to the model's: tails and
/// heteroscedasticity), ẽ = e/(1 − h) the leverage-corrected residuals (h = w·z²/(A + 1/τ²),
/// at most 0.9), and κ² the pooled excess of the listener-cluster sums over their
/// independent parts per unit C — the covariance of plays of one song by one listener, in
/// the response's unit squared — from songs with ≥ 3 listeners, each song's cluster sums
/// scaled by G/(G − 1) for the degree of freedom its own fit absorbs (the CR1 factor;
/// Cameron & Miller 2015, J Hum Resour 50:317). The posterior variance becomes
/// 1/(A_i²/Var(b_i) + 1/τ²); a song's variance is never made smaller than the model's
/// (φ < 1 and κ² < 0 are sampling noise when the model holds).
enum RobustVariance {
    /// The pooled scale φ and cluster covariance κ² of a fit, and each song's
    /// robust posterior variance (the model's where the song has no plays of its own).
    struct Result {
        var phi: Double
        var kappa2: Double
        var songVariance: [Double]
    }

    static func compute(_ fit: MixedFit, _ d: ResponseData, xc: [Double]) -> Result {
        let fixedPart = FixedPart(fit: fit, d: d, xc: xc)
        let tau2 = max(fit.songTau2, 1e-300)
        // Information A_i = Σ w·z² of each song (own plays), for the leverages.
        var info = [Double](repeating: 0, count: d.songs)
        for p in 0..<d.count {
            let z = d.exposure[p] * fit.scale(d, p)
            info[Int(d.song[p])] += fit.weight(d, p) * z * z
        }
        // Clusters (song, listener) in key order, each one's sums in play order: the same
        // bits on every run, from the plays sorted by cluster instead of a table of clusters.
        struct Cluster { var score = 0.0, weight = 0.0, weight2 = 0.0, score2 = 0.0 }
        let order = d.playsBySong(then: d.listener, d.listeners)
        var independent = 0.0, excess = 0.0, excessWeight = 0.0, totalInfo = 0.0
        var offDiagonal = [Double](repeating: 0, count: d.songs)
        var songStart = 0
        while songStart < order.count {
            let i = Int(d.song[Int(order[songStart])])
            var songEnd = songStart, g = 0.0
            while songEnd < order.count, Int(d.song[Int(order[songEnd])]) == i {
                if songEnd == songStart || d.listener[Int(order[songEnd])] != d.listener[Int(order[songEnd - 1])] { g += 1 }
                songEnd += 1
            }
            var next = songStart
            while next < songEnd {
                let j = d.listener[Int(order[next])]
                var c = Cluster()
                while next < songEnd, d.listener[Int(order[next])] == j {
                    let p = Int(order[next])
                    let w = fit.weight(d, p), z = d.exposure[p] * fit.scale(d, p)
                    let e = d.y[p] - fixedPart.value(p) - fit.music(d, p)
                    let h = min(0.9, w * z * z / (info[i] + 1 / tau2))
                    let u = w * z * e
                    c.score += u; c.weight += w * z; c.weight2 += w * z * w * z
                    c.score2 += (u / (1 - h)) * (u / (1 - h))
                    next += 1
                }
                independent += c.score2
                let off = c.weight * c.weight - c.weight2
                offDiagonal[i] += off
                // κ² from songs with ≥ 3 listeners, cluster sums with the small-sample
                // factor G/(G − 1) (the song's own estimate absorbs one cluster's worth).
                guard g >= 3 else { continue }
                excess += g / (g - 1) * c.score * c.score - c.score2
                excessWeight += off
            }
            songStart = songEnd
        }
        for i in 0..<d.songs where fit.songPlays[i] > 0 { totalInfo += info[i] }
        let phi = totalInfo > 0 ? independent / totalInfo : 1
        let kappa2 = excessWeight > 0 ? excess / excessWeight : 0
        var variance = fit.songVariance
        for i in 0..<d.songs where fit.songPlays[i] > 0 && info[i] > 0 {
            let vb = max(1, phi) * info[i] + max(0, kappa2) * offDiagonal[i]
            let robust = 1 / (info[i] * info[i] / vb + 1 / tau2)
            variance[i] = max(fit.songVariance[i], robust)
        }
        return Result(phi: phi, kappa2: kappa2, songVariance: variance)
    }
}
