/// How a listener enters the model.
public enum ListenerTerm: Sendable {
    /// Multiplicative: the play's music term is exposure · λ_listener · s_song with
    /// λ ~ N(1, ω²) and mean λ fixed at 1 (the planted and physiological truth:
    /// a listener who reacts strongly reacts strongly to every song).
    case sensitivity
    /// Additive: s_song + a_listener with a ~ N(0, ω²) (skip propensity).
    case additive
}

/// A fitted mixed model of one response.
public struct MixedFit: Sendable {
    /// Posterior mean of each song's effect (NaN for songs without plays).
    public var song: [Double]
    /// Posterior variance of each song's effect, including the uncertainty of the
    /// mean it shrinks towards.
    public var songVariance: [Double]
    /// Weight of the prior mean in the estimate: 0 = data only, 1 = fully shrunk.
    public var songShrinkage: [Double]
    public var songPlays: [Int]
    /// Mean song effect m and between-song variance τ².
    public var songMean: Double
    public var songTau2: Double
    /// Residual variance σ² of each variance group (`ResponseData.group`).
    public var sigma2: [Double]
    /// λ (sensitivity) or a (additive) per listener, and its posterior variance.
    public var listener: [Double]
    public var listenerVariance: [Double]
    public var listenerPlays: [Int]
    /// Listener variance component ω².
    public var listenerOmega2: Double
    /// Context and time-slot effects (play-weighted to sum to zero), start-value slope.
    public var context: [Double]
    public var slot: [Double]
    public var startSlope: Double
    /// Per listener, the mean of λ·a·s over their plays: the start-value covariate
    /// x − λ·a·s is kept centred on the listener as x is.
    var startOffset: [Double] = []
    public var iterations: Int
    public var converged: Bool
    public var term: ListenerTerm
    /// The pooled robust variance parameters of the song effects (`RobustVariance`):
    /// the scores' variance relative to the model's (φ) and the covariance of one
    /// listener's plays of one song (κ², unit²).
    public var robustScale = 1.0
    public var clusterCovariance = 0.0

    /// The music term of play p: what the song (and listener) contribute.
    func music(_ d: ResponseData, _ p: Int) -> Double {
        let j = Int(d.listener[p])
        switch term {
        case .sensitivity: return listener[j] * songTerm(d, p)
        case .additive: return songTerm(d, p) + listener[j]
        }
    }

    /// (e_p − γ·a_p)·s_i − k_p·s_previous: the songs' part of play p before listener
    /// scaling.
    func songTerm(_ d: ResponseData, _ p: Int) -> Double {
        let q = Int(d.previousSong[p])
        return effectiveExposure(d, p) * song[Int(d.song[p])] - (q >= 0 ? d.carry[p] * song[q] : 0)
    }

    /// e_p − γ·a_p: the song's coefficient once the start-value term γ·(x − λ·a·s)
    /// is expanded (a_p the share of the song already in the start value).
    func effectiveExposure(_ d: ResponseData, _ p: Int) -> Double {
        d.exposure[p] - (d.start.isEmpty ? 0 : startSlope * d.startShare[p])
    }

    /// Weight 1/σ² of play p in every sufficient statistic (weighted least squares).
    func weight(_ d: ResponseData, _ p: Int) -> Double {
        1 / sigma2[Int(d.group[p])]
    }

    /// The listener's multiplier of the song terms in play p.
    func scale(_ d: ResponseData, _ p: Int) -> Double {
        term == .sensitivity ? listener[Int(d.listener[p])] : 1
    }

    /// The listener's additive part of play p.
    func offset(_ d: ResponseData, _ p: Int) -> Double {
        term == .additive ? listener[Int(d.listener[p])] : 0
    }
}

/// The toolkit's model of per-play responses (written here: no listed package fits
/// it). For play p of song i by listener j in context c and time slot t:
///
///     y_p = β_c + δ_t + γ·(x_p − λ_j·a_p·s_i − x̄_j) + λ_j·(e_p·s_i − k_p·s_q) + ε_p   (ΔHR, ΔRMSSD)
///     y_p = β_c + δ_t + s_i + a_j + ε_p                                  (skip)
///
/// - s_i ~ N(m, τ²): song random effects; λ_j ~ N(1, ω²): listener sensitivities,
///   mean fixed at 1 so s is the population-average effect (or a_j ~ N(0, ω²)).
/// - e_p: the play's exposure, the share of the full effect its change can show;
///   k_p: the carry-over of the previous play's song q still wearing off (`Exposure`).
///   Without k the release of the previous effect biases every song by a constant
///   share of the mean effect and intervals under-cover.
/// - x_p: the start value, net of the song's own onset in the start window (λ·a_p·s_i,
///   `Exposure.startShare`), centred on the listener's mean (regression to the mean).
/// - ε ~ N(0, σ²_g), a separate σ² for plays whose start and end windows overlap.
/// - β, δ are play-weighted to sum to zero: with no music-free control periods a
///   constant drift cannot be told from the average song effect, and, as in the
///   product, the mean change is attributed to the music.
///
/// Fitted by alternating conditional updates (Laird & Ware 1982, Biometrics 38:963):
/// fixed effects by least squares from per-cell sufficient statistics; songs and
/// listeners by their conditional posterior (best linear unbiased predictor), so
/// songs with few plays shrink towards m; m, τ² and ω² by marginal maximum
/// likelihood given the rest (`VarianceComponent`; with hundreds of songs the REML
/// correction of τ² is below 1 %); σ² by its EM update (Dempster, Laird & Rubin
/// 1977). Every pass is O(plays) over flat arrays; no plays × songs matrix is formed.
public enum MixedModel {
    /// `from`: a fit of the same plays under other covariates (another onset) to start
    /// the iterations at; the fit converges to the same solution, in fewer passes.
    public static func fit(_ d: ResponseData, term: ListenerTerm, constants k: MixedModelConstants, from warm: MixedFit? = nil) -> MixedFit {
        let n = d.count
        var songPlays = [Int](repeating: 0, count: d.songs), listenerPlays = [Int](repeating: 0, count: d.listeners)
        for p in 0..<n { songPlays[Int(d.song[p])] += 1; listenerPlays[Int(d.listener[p])] += 1 }
        let yMean = n > 0 ? d.y.reduce(0, +) / Double(n) : 0
        let yVar = n > 1 ? d.y.reduce(0) { $0 + ($1 - yMean) * ($1 - yMean) } / Double(n - 1) : 1
        let meanExposure = n > 0 ? max(1e-6, d.exposure.reduce(0, +) / Double(n)) : 1
        var fit = MixedFit(
            // Every song starts at the mean: a song heard only just before measured
            // plays still enters through its carry-over.
            song: [Double](repeating: yMean / meanExposure, count: d.songs),
            songVariance: [Double](repeating: .nan, count: d.songs), songShrinkage: [Double](repeating: .nan, count: d.songs),
            songPlays: songPlays, songMean: yMean / meanExposure, songTau2: max(yVar, 1e-12) / (meanExposure * meanExposure),
            sigma2: [max(yVar, 1e-12), max(yVar, 1e-12)], listener: [Double](repeating: term == .sensitivity ? 1 : 0, count: d.listeners),
            listenerVariance: [Double](repeating: .nan, count: d.listeners), listenerPlays: listenerPlays,
            listenerOmega2: term == .sensitivity ? 0.25 : max(yVar, 1e-12),
            context: [Double](repeating: 0, count: d.contexts), slot: [Double](repeating: 0, count: d.slots),
            startSlope: 0, iterations: 0, converged: n == 0, term: term)
        guard n > 0 else { return fit }
        if let warm, warm.song.count == d.songs, warm.listener.count == d.listeners {
            fit.song = warm.song; fit.songMean = warm.songMean; fit.songTau2 = warm.songTau2; fit.sigma2 = warm.sigma2
            fit.listener = warm.listener; fit.listenerOmega2 = warm.listenerOmega2
            fit.context = warm.context; fit.slot = warm.slot; fit.startSlope = warm.startSlope
        }
        let maxIterations = Int(k.maxIterations), tol = k.tolerance
        let fixed = FixedEffects(d)
        let xc = centredStart(d)
        var covariate = [Double](repeating: 0, count: xc.count), residual = [Double](repeating: 0, count: n)
        var songA = [Double](repeating: 0, count: d.songs), listenerA = [Double](repeating: 0, count: d.listeners)
        while fit.iterations < maxIterations {
            fit.iterations += 1
            let before = (fit.song, fit.listener, fit.sigma2, fit.songTau2, fit.startSlope)
            // γ is fitted on the start value net of the song's own onset, x − λ·a·s;
            // the residual excludes the γ part of the music term accordingly.
            if !xc.isEmpty {
                var sum = [Double](repeating: 0, count: d.listeners)
                for p in 0..<n { sum[Int(d.listener[p])] += fit.scale(d, p) * d.startShare[p] * fit.song[Int(d.song[p])] }
                fit.startOffset = (0..<d.listeners).map { listenerPlays[$0] > 0 ? sum[$0] / Double(listenerPlays[$0]) : 0 }
            }
            for p in 0..<n {
                let share = xc.isEmpty ? 0 : fit.scale(d, p) * d.startShare[p] * fit.song[Int(d.song[p])]
                if !xc.isEmpty { covariate[p] = xc[p] - share + fit.startOffset[Int(d.listener[p])] }
                residual[p] = d.y[p] - fit.music(d, p) - fit.startSlope * share
            }
            fixed.update(&fit, d, x: covariate, residual: residual)
            updateSongs(&fit, d, xc: xc, songA: &songA)
            updateListeners(&fit, d, xc: xc, listenerA: &listenerA)
            // σ² per group: EM update, the squared residuals plus the posterior
            // variance the song and listener effects leave in each fitted value.
            var rss = [0.0, 0.0], count = [0.0, 0.0]
            let fixedPart = FixedPart(fit: fit, d: d, xc: xc)
            for p in 0..<n {
                let e = d.y[p] - fixedPart.value(p) - fit.music(d, p)
                let i = Int(d.song[p]), j = Int(d.listener[p]), z = fit.effectiveExposure(d, p) * fit.scale(d, p)
                let u = fit.term == .sensitivity ? fit.songTerm(d, p) : 1
                let g = Int(d.group[p])
                rss[g] += e * e + z * z * fit.songVariance[i] + u * u * fit.listenerVariance[j]
                count[g] += 1
            }
            let floor = 1e-12 * max(yVar, 1e-12)
            for g in 0..<2 where count[g] > 0 { fit.sigma2[g] = max(rss[g] / count[g], floor) }
            let scale = fit.songTau2.squareRoot() + 1e-12
            // τ² is compared on the scale of a typical song's sampling variance so that
            // a τ² heading to zero does not keep the fit running.
            let typicalA = songA.reduce(0, +) / Double(max(1, songPlays.filter { $0 > 0 }.count))
            var change = abs(fit.songTau2 - before.3) / (fit.songTau2 + 1 / max(typicalA, 1e-300))
            for g in 0..<2 { change = max(change, abs(fit.sigma2[g] - before.2[g]) / fit.sigma2[g]) }
            change = max(change, abs(fit.startSlope - before.4))
            for i in 0..<d.songs where songPlays[i] > 0 { change = max(change, abs(fit.song[i] - before.0[i]) / scale) }
            for j in 0..<d.listeners where listenerPlays[j] > 0 { change = max(change, abs(fit.listener[j] - before.1[j])) }
            if change < tol { fit.converged = true; break }
        }
        // Intervals that hold when plays are correlated or noisier than the model says.
        let robust = RobustVariance.compute(fit, d, xc: xc)
        fit.songVariance = robust.songVariance
        fit.robustScale = robust.phi
        fit.clusterCovariance = robust.kappa2
        // Uncertainty of the estimated mean m adds to each song in proportion to its
        // shrinkage: Var(s_i − ŝ_i) = v_i + B_i²·Var(m̂) (Morris 1983, JASA 78:47).
        var precisionOfMean = 0.0
        for i in 0..<d.songs where songPlays[i] > 0 && songA[i] > 0 {
            precisionOfMean += 1 / (fit.songTau2 + 1 / songA[i])
        }
        let varMean = precisionOfMean > 0 ? 1 / precisionOfMean : 0
        for i in 0..<d.songs where songPlays[i] > 0 {
            fit.songVariance[i] += fit.songShrinkage[i] * fit.songShrinkage[i] * varMean
        }
        return fit
    }

    /// Start values centred on each listener's mean (empty without start values).
    static func centredStart(_ d: ResponseData) -> [Double] {
        guard !d.start.isEmpty else { return [] }
        var sum = [Double](repeating: 0, count: d.listeners), count = [Double](repeating: 0, count: d.listeners)
        for p in 0..<d.count { sum[Int(d.listener[p])] += d.start[p]; count[Int(d.listener[p])] += 1 }
        return (0..<d.count).map { p in d.start[p] - sum[Int(d.listener[p])] / count[Int(d.listener[p])] }
    }

    /// Conditional posterior of every song given the rest, after m and τ² by
    /// marginal maximum likelihood.
    static func updateSongs(_ fit: inout MixedFit, _ d: ResponseData, xc: [Double], songA: inout [Double]) {
        var b = [Double](repeating: 0, count: d.songs), solveA = [Double](repeating: 0, count: d.songs)
        for i in songA.indices { songA[i] = 0 }
        let fixedPart = FixedPart(fit: fit, d: d, xc: xc)
        // Jacobi step for the songs coupled by carry-over: each play informs its own
        // song (weight (e − γa)·λ) and the previous one (weight −k·λ), the other held fixed.
        // The other song's term is only estimated: its posterior variance is added to
        // the play's noise, so that information is not counted twice.
        func known(_ v: Double) -> Double { v.isFinite ? v : 0 }
        for p in 0..<d.count {
            let lambda = fit.scale(d, p), sigma2 = 1 / fit.weight(d, p)
            let r = d.y[p] - fixedPart.value(p) - fit.offset(d, p)
            let i = Int(d.song[p]), q = Int(d.previousSong[p])
            // The song enters y as (e − γa)·λ·s (the start-value term holds λ·a·s);
            // its estimating equation uses the measured change's own weight e·λ, so
            // the song solves Σ eλ·(r − (e − γa)λ·s) = 0 exactly, not by iteration.
            let z = d.exposure[p] * lambda, zEff = fit.effectiveExposure(d, p) * lambda
            guard q >= 0 else {
                songA[i] += z * z / sigma2
                solveA[i] += z * zEff / sigma2
                b[i] += z * r / sigma2
                continue
            }
            let zq = -d.carry[p] * lambda
            let wi = 1 / (sigma2 + zq * zq * known(fit.songVariance[q])), wq = 1 / (sigma2 + zEff * zEff * known(fit.songVariance[i]))
            songA[i] += wi * z * z
            solveA[i] += wi * z * zEff
            b[i] += wi * z * (r - zq * fit.song[q])
            songA[q] += wq * zq * zq
            solveA[q] += wq * zq * zq
            b[q] += wq * zq * (r - zEff * fit.song[i])
        }
        // m and τ² by marginal maximum likelihood from the songs' weighted
        // least-squares estimates B/A (sampling variance 1/A), then each posterior.
        var estimates: [Double] = [], variances: [Double] = []
        for i in 0..<d.songs where fit.songPlays[i] > 0 && songA[i] > 0 && solveA[i] > 0 {
            estimates.append(b[i] / solveA[i]); variances.append(1 / songA[i])
        }
        (fit.songMean, fit.songTau2) = VarianceComponent.fit(estimates: estimates, variances: variances, fixedMean: nil,
                                                             tau2: fit.songTau2)
        for i in 0..<d.songs where fit.songPlays[i] > 0 || songA[i] > 0 {
            let precision = songA[i] + 1 / fit.songTau2
            fit.song[i] = (b[i] + fit.songMean / fit.songTau2) / (max(0, solveA[i]) + 1 / fit.songTau2)
            fit.songVariance[i] = 1 / precision
            fit.songShrinkage[i] = (1 / fit.songTau2) / precision
        }
    }

    /// Conditional posterior of every listener given the rest, ω² by marginal ML,
    /// and (sensitivity) the rescaling that keeps the mean λ at 1.
    static func updateListeners(_ fit: inout MixedFit, _ d: ResponseData, xc: [Double], listenerA: inout [Double]) {
        var b = [Double](repeating: 0, count: d.listeners)
        for j in listenerA.indices { listenerA[j] = 0 }
        let fixedPart = FixedPart(fit: fit, d: d, xc: xc)
        let sensitivity = fit.term == .sensitivity
        for p in 0..<d.count {
            let songs = fit.songTerm(d, p)
            let u = sensitivity ? songs : 1
            let r = d.y[p] - fixedPart.value(p) - (sensitivity ? 0 : songs)
            let j = Int(d.listener[p]), w = fit.weight(d, p)
            listenerA[j] += w * u * u
            b[j] += w * u * r
        }
        let prior = sensitivity ? 1.0 : 0.0
        var estimates: [Double] = [], variances: [Double] = []
        for j in 0..<d.listeners where fit.listenerPlays[j] > 0 && listenerA[j] > 0 {
            estimates.append(b[j] / listenerA[j]); variances.append(1 / listenerA[j])
        }
        fit.listenerOmega2 = VarianceComponent.fit(estimates: estimates, variances: variances, fixedMean: prior,
                                                   tau2: fit.listenerOmega2).tau2
        var sum = 0.0, count = 0.0
        for j in 0..<d.listeners where fit.listenerPlays[j] > 0 {
            let precision = listenerA[j] + 1 / fit.listenerOmega2
            fit.listener[j] = (b[j] + prior / fit.listenerOmega2) / precision
            fit.listenerVariance[j] = 1 / precision
            sum += fit.listener[j]; count += 1
        }
        guard count > 0 else { return }
        guard sensitivity, sum / count > 1e-9 else { return }
        // Identifiability of λ·s: mean λ = 1, so s is the population-average effect.
        let c = sum / count
        for j in 0..<d.listeners where fit.listenerPlays[j] > 0 {
            fit.listener[j] /= c
            fit.listenerVariance[j] /= c * c
            listenerA[j] *= c * c
        }
        for i in 0..<d.songs {
            fit.song[i] *= c
            fit.songVariance[i] *= c * c
        }
        fit.songMean *= c
        fit.songTau2 *= c * c
        fit.listenerOmega2 /= c * c
    }
}

/// β_c + δ_t + γ·x_p of one play under the current fit.
struct FixedPart {
    let fit: MixedFit
    let d: ResponseData
    let xc: [Double]

    func value(_ p: Int) -> Double {
        fit.context[Int(d.context[p])] + fit.slot[Int(d.slot[p])]
            + (xc.isEmpty ? 0 : fit.startSlope * (xc[p] + fit.startOffset[Int(d.listener[p])]))
    }
}
