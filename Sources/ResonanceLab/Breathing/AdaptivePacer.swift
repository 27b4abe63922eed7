import Foundation

/// Exploration and lock rules for the adaptive pacer, which the product specification
/// leaves open (docs/engines/breathing.md, Pacer). All three explore within the product's
/// 4.5–7/min after its calibration and hold the locked rate for the rest of the session.
public enum PacerStrategy: String, CaseIterable, Sendable {
    /// Hill climbing on the product's coherence: `hill_dwell_seconds` per rate, a
    /// `rate_step_per_min` step in the current direction, reversed when the dwell scores
    /// lower than the one before; locks at the best-scoring rate after `hill_reversals`
    /// reversals or at the end of exploration.
    case hill
    /// Stepped sweep scored by the product's coherence: the rates `min_rate_per_min`,
    /// + `sweep_step_per_min`, … `max_rate_per_min` in equal dwells over the exploration;
    /// locks at the best rate refined by a parabola through the log scores of it and
    /// its neighbours, rounded to the `rate_step_per_min` grid.
    case sweep
    /// The same sweep and refinement scored by heart-rate peak-to-trough amplitude (mean
    /// per-breath max − min after `settle_seconds`), the criterion of Lehrer et al. 2000.
    case amplitude
    /// The amplitude sweep made robust to what real breathing adds (docs/methods.md,
    /// Breathing, "Simulated breathers"): each dwell scored by the median over breaths of
    /// HR max − min (an ectopic beat spoils one breath, not the dwell), and the lock at
    /// the vertex of a least-squares parabola through the scores of every dwell within
    /// `robust_fit_half_width_per_min` of the best, kept within one sweep step of it and
    /// rounded to the `rate_step_per_min` grid (no Gaussian assumed).
    case robust
}

/// One run of the adaptive pacer: fed the elapsed time, the product's coherence and the
/// heart-rate samples so far every step, it sets the paced rate. It sees nothing else
/// of the simulated person.
public struct AdaptivePacer: Sendable {
    public enum Phase: String, Sendable { case calibration, exploration, lock }

    public let strategy: PacerStrategy
    public let constants: PacerConstants
    public let sampleHz: Double
    public private(set) var phase: Phase = .calibration
    /// Breaths per minute in force.
    public private(set) var rate: Double
    /// Elapsed seconds when the pacer locked.
    public private(set) var lockedAt: Double?

    private var dwellStart = 0.0
    private var dwellSample = 0
    private var recent: [(t: Double, coherence: Double)] = []
    private var scores: [(rate: Double, score: Double)] = []
    private var direction = 1.0
    private var reversals = 0

    public init(strategy: PacerStrategy, constants: PacerConstants, sampleHz: Double) {
        self.strategy = strategy; self.constants = constants; self.sampleHz = sampleHz
        rate = constants.clamped(constants.defaultRatePerMin)
    }

    /// Each dwell of the exploration so far: its rate (breaths/min) and score (coherence,
    /// or HR peak-to-trough in bpm for `amplitude`), in order.
    public var dwells: [(rate: Double, score: Double)] { scores }

    /// The rates of the stepped sweep, breaths/min.
    public var sweepRates: [Double] {
        let c = constants
        let count = Int(((c.maxRatePerMin - c.minRatePerMin) / c.sweepStepPerMin + 1e-9).rounded(.down)) + 1
        return (0..<count).map { c.minRatePerMin + Double($0) * c.sweepStepPerMin }
    }

    var dwellSeconds: Double {
        strategy == .hill ? constants.hillDwellSeconds : constants.explorationSeconds / Double(sweepRates.count)
    }

    /// One step: `t` seconds elapsed, the product's `coherence` at it, `hr` all samples so
    /// far. The phases go by elapsed time as the product specifies, an edge belonging to
    /// the earlier phase: calibration while t ≤ `calibration_seconds`, exploration while
    /// t ≤ calibration + `exploration_seconds`.
    public mutating func update(t: Double, coherence: Double, hr: [Double]) {
        let c = constants
        switch phase {
        case .calibration:
            guard t > c.calibrationSeconds else { return }
            phase = .exploration
            rate = strategy == .hill ? rate : sweepRates[0]
            startDwell(t, hr.count)
        case .exploration:
            recent.append((t, coherence))
            guard t >= dwellStart + dwellSeconds - 1e-9 else { return }
            scores.append((rate, score(t: t, hr: hr)))
            let ended = t > c.calibrationSeconds + c.explorationSeconds
            switch strategy {
            case .hill:
                if scores.count > 1, scores[scores.count - 1].score < scores[scores.count - 2].score {
                    direction = -direction
                    reversals += 1
                }
                var next = c.clamped(rate + direction * c.rateStepPerMin)
                if next == rate {
                    direction = -direction
                    reversals += 1
                    next = c.clamped(rate + direction * c.rateStepPerMin)
                }
                if ended || reversals >= Int(c.hillReversals) {
                    lock(t, at: scores.max { $0.score < $1.score }?.rate ?? rate)
                } else {
                    rate = (next * 1000).rounded() / 1000
                    startDwell(t, hr.count)
                }
            case .sweep, .amplitude, .robust:
                if scores.count < sweepRates.count {
                    rate = sweepRates[scores.count]
                    startDwell(t, hr.count)
                } else {
                    lock(t, at: Self.lockRate(strategy, dwells: scores, spacing: c.sweepStepPerMin, constants: c) ?? rate)
                }
            }
        case .lock:
            return
        }
    }

    private mutating func startDwell(_ t: Double, _ samples: Int) {
        dwellStart = t
        dwellSample = samples
        recent.removeAll(keepingCapacity: true)
    }

    private mutating func lock(_ t: Double, at r: Double) {
        phase = .lock
        lockedAt = t
        rate = r
    }

    /// The dwell's score: mean coherence over its last `score_seconds`, or the mean
    /// (`amplitude`) or median (`robust`) per-breath HR max − min after `settle_seconds`
    /// (breaths cut at the paced cycle).
    private func score(t: Double, hr: [Double]) -> Double {
        switch strategy {
        case .hill, .sweep:
            let tail = recent.filter { $0.t > t - constants.scoreSeconds }.map(\.coherence)
            return tail.isEmpty ? 0 : Stats.mean(tail)
        case .amplitude, .robust:
            let breaths = PeakToTrough.perBreath(hr[min(hr.count, dwellSample + Int(constants.settleSeconds * sampleHz))...],
                                                 cycleSamples: Int((60 / rate * sampleHz).rounded()))
            guard !breaths.isEmpty else { return .nan }
            return strategy == .robust ? Stats.median(breaths) : breaths.reduce(0, +) / Double(breaths.count)
        }
    }

    /// The rate a sweep strategy locks at after its dwells (`dwells` in order of rate,
    /// `spacing` breaths/min apart): `sweep` and `amplitude` move the best dwell's rate to
    /// the vertex of the parabola through the log scores of it and its neighbours (exact
    /// for a Gaussian resonance curve); `robust` to the vertex of the least-squares
    /// parabola through the dwells within `robust_fit_half_width_per_min` of it (at least
    /// three, opening downwards), at most `spacing` away; on the rate grid. Nil for `hill`
    /// (its lock is its best dwell) or no dwells.
    public static func lockRate(_ strategy: PacerStrategy, dwells: [(rate: Double, score: Double)], spacing: Double,
                                constants c: PacerConstants) -> Double? {
        switch strategy {
        case .hill:
            return nil
        case .sweep, .amplitude:
            guard let b = dwells.indices.max(by: { dwells[$0].score < dwells[$1].score }) else { return nil }
            var best = dwells[b].rate
            if b > 0, b < dwells.count - 1, dwells[b - 1].score > 0, dwells[b + 1].score > 0 {
                let (y0, y1, y2) = (log(dwells[b - 1].score), log(dwells[b].score), log(dwells[b + 1].score))
                let curvature = y0 - 2 * y1 + y2
                if curvature < 0 { best += 0.5 * (y0 - y2) / curvature * spacing }
            }
            return onGrid(best, c)
        case .robust:
            let finite = dwells.filter { $0.score.isFinite }
            guard let top = finite.max(by: { $0.score < $1.score }) else { return nil }
            let near = finite.filter { abs($0.rate - top.rate) <= c.robustFitHalfWidthPerMin + 1e-9 }
            var best = top.rate
            if near.count >= 3, let (b, a) = parabola(near.map { $0.rate - top.rate }, near.map(\.score)), a < 0 {
                best += min(max(-b / (2 * a), -spacing), spacing)
            }
            return onGrid(best, c)
        }
    }

    /// Least-squares y ≈ k + b·x + a·x² (normal equations, Cramer's rule): (b, a), nil when singular.
    static func parabola(_ x: [Double], _ y: [Double]) -> (Double, Double)? {
        var s = [Double](repeating: 0, count: 5), t = [0.0, 0.0, 0.0]
        for (xi, yi) in zip(x, y) {
            var p = 1.0
            for k in 0..<5 {
                s[k] += p
                if k < 3 { t[k] += p * yi }
                p *= xi
            }
        }
        func det(_ m: [[Double]]) -> Double {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        }
        let m = [[s[0], s[1], s[2]], [s[1], s[2], s[3]], [s[2], s[3], s[4]]]
        let d = det(m)
        guard abs(d) > 1e-12 else { return nil }
        func replaced(_ column: Int) -> [[Double]] { m.enumerated().map { i, row in row.enumerated().map { j, v in j == column ? t[i] : v } } }
        return (det(replaced(1)) / d, det(replaced(2)) / d)
    }

    /// `r` rounded to the `rate_step_per_min` grid from the range's lower end and clamped.
    static func onGrid(_ r: Double, _ c: PacerConstants) -> Double {
        let grid = c.minRatePerMin + ((r - c.minRatePerMin) / c.rateStepPerMin).rounded() * c.rateStepPerMin
        return (c.clamped(grid) * 1000).rounded() / 1000
    }
}

/// Heart-rate peak-to-trough amplitude (Lehrer et al. 2000): the mean over whole breaths
/// of max − min, breaths cut every `cycleSamples` from the first sample.
public enum PeakToTrough {
    public static func mean(_ hr: ArraySlice<Double>, cycleSamples: Int) -> Double {
        let breaths = perBreath(hr, cycleSamples: cycleSamples)
        return breaths.isEmpty ? .nan : breaths.reduce(0, +) / Double(breaths.count)
    }

    /// max − min of each whole breath, in order.
    public static func perBreath(_ hr: ArraySlice<Double>, cycleSamples: Int) -> [Double] {
        let cycle = max(1, cycleSamples)
        var out: [Double] = []
        var i = hr.startIndex
        while i + cycle <= hr.endIndex {
            let b = hr[i..<(i + cycle)]
            out.append((b.max() ?? 0) - (b.min() ?? 0))
            i += cycle
        }
        return out
    }
}
