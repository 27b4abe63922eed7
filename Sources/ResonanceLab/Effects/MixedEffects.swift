import Foundation

/// The `mixed` model's tables: per song (and song × context), per listener and per
/// playlist, for ΔHR and ΔRMSSD (multiplicative listener sensitivity, exposure,
/// carry-over and start value) and skip (a linear probability model with an
/// additive listener propensity: skipping is a behaviour, not a graded response, and
/// the linear scale keeps song effects in probability units).
enum MixedEffects {
    /// The onset time constant of ΔHR and ΔRMSSD follows `onset` (`OnsetChoice`); the
    /// choice made for each is returned in `EffectTables.onsets`.
    static func run(_ x: PlayIndex, registry: ConstantsRegistry, jobs: Int, onset: OnsetChoice = .profiled) throws -> EffectTables {
        let sessions = SessionConstants(registry: registry), k = MixedModelConstants(registry: registry)
        let z = k.ciZ
        // Each metric's per-play data live only while it is fitted: what is kept is per song,
        // listener and cell.
        let fits = try Parallel.map(EffectMetric.allCases, jobs: jobs) { metric -> (MixedFit, [SongContextEffect], OnsetSelection?) in
            let (d, fit, selection): (ResponseData, MixedFit, OnsetSelection?)
            if metric == .skip {
                d = data(x, metric, sessions, k)
                (fit, selection) = (MixedModel.fit(d, term: .additive, constants: k), nil)
            } else if data(x, metric, sessions, k).count == 0 {
                // No play with this metric: nothing to fit, so no onset is chosen (and none reported).
                d = data(x, metric, sessions, k)
                (fit, selection) = (MixedModel.fit(d, term: .sensitivity, constants: k), nil)
            } else {
                let profile = profiledOnset(x, metric, sessions, k, onset)
                (d, fit, selection) = (profile.data, profile.fit, profile.selection)
            }
            let cells = MixedModel.songContextEffects(fit, d, xc: MixedModel.centredStart(d),
                                                      minPlays: Int(k.minCellPlays))
            return (fit, cells, selection)
        }
        let byMetric = Dictionary(uniqueKeysWithValues: zip(EffectMetric.allCases, fits.map(\.0)))
        let scores = productScores(x, byMetric, ImpactConstants(registry: registry))
        var listenersOfSong = [Set<Int>](repeating: [], count: x.songIds.count)
        for p in 0..<x.count { listenersOfSong[Int(x.song[p])].insert(Int(x.listener[p])) }
        var out = EffectTables()
        out.onsets = fits.compactMap(\.2)
        for (metric, (fit, cells, _)) in zip(EffectMetric.allCases, fits) {
            var cellsOfSong: [Int: [SongContextEffect]] = [:]
            for cell in cells { cellsOfSong[cell.song, default: []].append(cell) }
            for i in 0..<x.songIds.count where fit.songPlays[i] > 0 {
                let se = fit.songVariance[i].squareRoot()
                out.songs.append(row(x.songIds[i], "any", metric, fit.song[i], se, z, fit.songPlays[i], scores[i],
                                     shrinkage: fit.songShrinkage[i], listeners: listenersOfSong[i].count))
                for cell in cellsOfSong[i] ?? [] {
                    out.songs.append(row(x.songIds[i], x.contexts[cell.context], metric, cell.estimate, cell.variance.squareRoot(),
                                         z, cell.plays, nil, shrinkage: nil, listeners: 0))
                }
            }
            for j in 0..<x.subjects.count where fit.listenerPlays[j] > 0 {
                // Skip: the listener's propensity m + a_j (its variance adds Var(m̂) ≈ τ²/songs, small).
                let estimate = metric == .skip ? fit.songMean + fit.listener[j] : fit.listener[j]
                let se = fit.listenerVariance[j].squareRoot()
                out.personas.append(PersonaEffectRow(model: "mixed", subject: x.subjects[j], metric: metric.rawValue,
                                                     effect: .normal(estimate, se: se, z: z),
                                                     plays: fit.listenerPlays[j], kind: metric == .skip ? "skip_probability" : "sensitivity"))
            }
            let summaries = (0..<x.songIds.count).map { i in
                SongSummary(estimate: fit.songPlays[i] > 0 ? fit.song[i] : nil,
                            variance: fit.songPlays[i] > 0 ? fit.songVariance[i] : nil, scores: scores[i], weight: { Double($0) })
            }
            out.playlists += PlaylistAggregation.rows(model: "mixed", metric: metric, index: x, songs: summaries, z: z)
        }
        return out
    }

    static func row(_ song: String, _ context: String, _ metric: EffectMetric, _ estimate: Double, _ se: Double, _ z: Double,
                    _ plays: Int, _ scores: PlayScores?, shrinkage: Double?, listeners: Int) -> SongEffectRow {
        SongEffectRow(model: "mixed", songId: song, context: context, metric: metric.rawValue,
                      effect: .normal(estimate, se: se, z: z), plays: plays, scores: scores,
                      confidence: shrinkage.map { 1 - $0 }, shrinkage: shrinkage, listeners: listeners, familiarity: nil)
    }

    /// Onset time constants (s) the profile likelihood chooses from: the range of
    /// cardiac responses to music, from seconds-fast arousal to minutes-slow relaxation
    /// (docs/personas.md, Response laws), in steps of a fifth (45·1.2^k, rounded): one
    /// step moves the song estimates by a few per cent (docs/methods.md).
    static let onsetGridS: [Double] = [15, 18, 22, 26, 31, 37, 45, 54, 65, 78, 93, 112, 134]

    /// The metric's data and fit under the onset `choice` takes, and the selection made.
    /// The profile log-likelihood of τ is the Gaussian −½·Σ_g n_g·ln σ²_g of the fit
    /// under τ (the responses are the same for every τ; only exposure, carry-over and
    /// start shares change). From the constant in force the search walks outwards
    /// through `onsetGridS`, each fit starting from its neighbour's, and stops in a
    /// direction once the likelihood falls (a profile with one peak). `fixed` fits the
    /// constant only; `estimated` takes the best τ̂; `profiled` takes τ̂ when it beats the
    /// constant by 2·Δℓ > `onset_test_lr`, and adds to each song's variance
    /// (w·(ŝ(τ̂) − ŝ(τ₀)))², w = `onset_shift_weight`: the estimate's sensitivity to the
    /// onset, which the profile pins down less well than its likelihood says. Only the
    /// fits are kept while the profile is walked; the chosen onset's data are built again
    /// at the end (one pass over the plays), so one set of per-play columns is held at a time.
    static func profiledOnset(_ x: PlayIndex, _ metric: EffectMetric, _ c: SessionConstants, _ k: MixedModelConstants,
                              _ choice: OnsetChoice) -> (data: ResponseData, fit: MixedFit, selection: OnsetSelection) {
        func fitted(_ tau: Double, from warm: MixedFit?) -> (fit: MixedFit, cost: Double) {
            let d = data(x, metric, c, k, onsetS: tau)
            let fit = MixedModel.fit(d, term: .sensitivity, constants: k, from: warm)
            var n = [0.0, 0.0]
            for p in 0..<d.count { n[Int(d.group[p])] += 1 }
            return (fit, zip(n, fit.sigma2).reduce(0) { $0 + ($1.0 > 0 ? $1.0 * log($1.1) : 0) })
        }
        let tau0 = k.onsetTimeConstantS
        let base = fitted(tau0, from: nil)
        var best = (tau: tau0, result: base)
        if choice != .fixed {
            for direction in [onsetGridS.filter { $0 > tau0 }, onsetGridS.filter { $0 < tau0 }.reversed()] {
                var previous = base
                for tau in direction {
                    let next = fitted(tau, from: previous.fit)
                    guard next.cost < previous.cost else { break }
                    if next.cost < best.result.cost { best = (tau, next) }
                    previous = next
                }
            }
        }
        let lr = max(0, base.cost - best.result.cost)
        var selection = OnsetSelection(metric: metric, choice: choice, onsetS: tau0, bestOnsetS: best.tau, likelihoodRatio: lr,
                                       widened: false)
        switch choice {
        case .fixed:
            return (data(x, metric, c, k, onsetS: tau0), base.fit, selection)
        case .estimated:
            selection.onsetS = best.tau
            return (data(x, metric, c, k, onsetS: best.tau), best.result.fit, selection)
        case .profiled:
            guard lr > k.onsetTestLR else { return (data(x, metric, c, k, onsetS: tau0), base.fit, selection) }
            var fit = best.result.fit
            for i in 0..<fit.song.count where fit.songPlays[i] > 0 {
                let shift = k.onsetShiftWeight * (fit.song[i] - base.fit.song[i])
                if shift.isFinite { fit.songVariance[i] += shift * shift }
            }
            selection.onsetS = best.tau
            selection.widened = true
            return (data(x, metric, c, k, onsetS: best.tau), fit, selection)
        }
    }

    /// The observations of one metric. ΔHR: plays with an HR change; ΔRMSSD: plays
    /// whose HRV came from R-R intervals at both ends; skip: every play. `onsetS`
    /// replaces the constants' onset time constant.
    static func data(_ x: PlayIndex, _ metric: EffectMetric, _ c: SessionConstants, _ k: MixedModelConstants,
                     onsetS: Double? = nil) -> ResponseData {
        var d = ResponseData(songs: x.songIds.count, listeners: x.subjects.count, contexts: x.contexts.count, slots: x.slots.count)
        let onset = onsetS ?? k.onsetTimeConstantS, release = k.releaseTimeConstantS
        let windowS = metric == .deltaRMSSD ? c.playRRWindowSeconds : c.playHRWindowSeconds
        for p in 0..<x.count {
            let play = x.measures[p]
            let y: Double?, start: Double?
            switch metric {
            case .deltaHR: (y, start) = (play.hrDelta, play.hrStart)
            case .deltaRMSSD: (y, start) = play.hrvFromRR ? (play.hrvDelta, play.hrvStart) : (nil, nil)
            case .skip: (y, start) = (play.skipped ? 1 : 0, nil)
            }
            guard let y, y.isFinite else { continue }
            let (song, listener, context, slot) = (Int(x.song[p]), Int(x.listener[p]), Int(x.context[p]), Int(x.slot[p]))
            guard metric != .skip else {
                d.append(song: song, listener: listener, context: context, slot: slot, y: y, exposure: 1, start: nil)
                continue
            }
            let exposure = Exposure.relative(playedS: play.playedS, durationS: play.fullDurationS, windowS: windowS, onsetS: onset)
            guard exposure > 0, let start else { continue }
            var carry = 0.0
            let previous = x.previous(p)
            if let q = previous {
                let prev = x.measures[q]
                carry = Exposure.carryOver(previousPlayedS: prev.playedS, previousDurationS: prev.fullDurationS,
                                           gapS: Double(play.startedAtMs - prev.endedAtMs) / 1000, playedS: play.playedS,
                                           windowS: windowS, onsetS: onset, releaseS: release)
            }
            d.append(song: song, listener: listener, context: context, slot: slot, y: y, exposure: exposure,
                     previousSong: previous.map { Int(x.song[$0]) }, carry: carry > 1e-4 ? carry : 0,
                     group: play.playedS < 2 * windowS ? 1 : 0,
                     startShare: Exposure.startShare(playedS: play.playedS, durationS: play.fullDurationS, windowS: windowS, onsetS: onset),
                     start: start)
        }
        return d
    }

    /// The product's scores a typical play of each song would earn under the fitted
    /// effects: the impact rule applied to the song's ΔHR and ΔRMSSD estimates,
    /// averaged over a completed play (mean listened fraction of its completed plays)
    /// and a skipped one (of its skipped plays), weighted by its skip estimate.
    static func productScores(_ x: PlayIndex, _ fits: [EffectMetric: MixedFit], _ k: ImpactConstants) -> [PlayScores?] {
        var listened = [(done: Double, nDone: Double, skipped: Double, nSkipped: Double)](repeating: (0, 0, 0, 0), count: x.songIds.count)
        for p in 0..<x.count {
            let i = Int(x.song[p]), f = x.measures[p].listenFraction
            if x.measures[p].skipped { listened[i].skipped += f; listened[i].nSkipped += 1 } else { listened[i].done += f; listened[i].nDone += 1 }
        }
        return (0..<x.songIds.count).map { i in
            func estimate(_ m: EffectMetric) -> Double? {
                guard let fit = fits[m], fit.songPlays[i] > 0 else { return nil }
                return fit.song[i]
            }
            guard let pSkip = estimate(.skip) else { return nil }
            let p = min(1, max(0, pSkip)), l = listened[i]
            let done = Impact.of(hrDeltaBpm: estimate(.deltaHR), hrvDeltaMs: estimate(.deltaRMSSD),
                                 listenFraction: l.nDone > 0 ? l.done / l.nDone : 1, skipped: false, constants: k)
            let skip = Impact.of(hrDeltaBpm: estimate(.deltaHR), hrvDeltaMs: estimate(.deltaRMSSD),
                                 listenFraction: l.nSkipped > 0 ? l.skipped / l.nSkipped : 0, skipped: true, constants: k)
            func mix(_ a: Double, _ b: Double) -> Double { (1 - p) * a + p * b }
            return PlayScores(calm: mix(done.calm, skip.calm), energy: mix(done.energy, skip.energy),
                              focus: mix(done.focus, skip.focus), moodLift: mix(done.moodLift, skip.moodLift))
        }
    }
}
