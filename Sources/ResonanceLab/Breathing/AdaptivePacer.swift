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

    /// One step: `t` seconds elapsed, the product's `coherence` at it, `hr` all samples so far.
    public mutating func update(t: Double, coherence: Double, hr: [Double]) {
        let c = constants
        switch phase {
        case .calibration:
            guard t >= c.calibrationSeconds else { return }
            phase = .exploration
            rate = strategy == .hill ? rate : sweepRates[0]
            startDwell(t, hr.count)
        case .exploration:
            recent.append((t, coherence))
            guard t >= dwellStart + dwellSeconds - 1e-9 else { return }
            scores.append((rate, score(t: t, hr: hr)))
            let ended = t >= c.calibrationSeconds + c.explorationSeconds - 1e-9
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
            case .sweep, .amplitude:
                if scores.count < sweepRates.count {
                    rate = sweepRates[scores.count]
                    startDwell(t, hr.count)
                } else {
                    lock(t, at: refinedPeak())
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

    /// The dwell's score: mean coherence over its last `score_seconds`, or mean
    /// per-breath HR max − min after `settle_seconds` (breaths cut at the paced cycle).
    private func score(t: Double, hr: [Double]) -> Double {
        switch strategy {
        case .hill, .sweep:
            let tail = recent.filter { $0.t > t - constants.scoreSeconds }.map(\.coherence)
            return tail.isEmpty ? 0 : Stats.mean(tail)
        case .amplitude:
            return PeakToTrough.mean(hr[min(hr.count, dwellSample + Int(constants.settleSeconds * sampleHz))...],
                                     cycleSamples: Int((60 / rate * sampleHz).rounded()))
        }
    }

    /// The sweep's best rate moved to the vertex of the parabola through the log scores
    /// of it and its neighbours (exact for a Gaussian resonance curve), on the rate grid.
    private func refinedPeak() -> Double {
        let c = constants
        guard let b = scores.indices.max(by: { scores[$0].score < scores[$1].score }) else { return rate }
        var best = scores[b].rate
        if b > 0, b < scores.count - 1, scores[b - 1].score > 0, scores[b + 1].score > 0 {
            let (y0, y1, y2) = (log(scores[b - 1].score), log(scores[b].score), log(scores[b + 1].score))
            let curvature = y0 - 2 * y1 + y2
            if curvature < 0 { best += 0.5 * (y0 - y2) / curvature * c.sweepStepPerMin }
        }
        let grid = c.minRatePerMin + ((best - c.minRatePerMin) / c.rateStepPerMin).rounded() * c.rateStepPerMin
        return (c.clamped(grid) * 1000).rounded() / 1000
    }
}

/// Heart-rate peak-to-trough amplitude (Lehrer et al. 2000): the mean over whole breaths
/// of max − min, breaths cut every `cycleSamples` from the first sample.
public enum PeakToTrough {
    public static func mean(_ hr: ArraySlice<Double>, cycleSamples: Int) -> Double {
        let cycle = max(1, cycleSamples)
        var sum = 0.0, n = 0
        var i = hr.startIndex
        while i + cycle <= hr.endIndex {
            let b = hr[i..<(i + cycle)]
            sum += (b.max() ?? 0) - (b.min() ?? 0)
            n += 1
            i += cycle
        }
        return n == 0 ? .nan : sum / Double(n)
    }
}
