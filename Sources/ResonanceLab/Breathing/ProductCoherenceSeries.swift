/// How beat-to-beat heart rate becomes the product's 4 Hz series.
public enum HRSampling: String, CaseIterable, Sendable {
    /// Cubic spline through the beats' instantaneous HR (60000/NN), sampled at 4 Hz.
    case spline
    /// What the product's watch does: every 0.25 s it appends its latest reading, here the
    /// reading (a beat's instantaneous HR, or an HR sample) at or before the tick; a tick
    /// whose latest reading is 0 (the watch's "no reading") appends nothing, so the
    /// series closes up and is still read as 4 Hz, as the product reads it.
    case repeatLatest = "repeat"

    /// The 4 Hz series from `timeMs` (ascending) and `bpm`, from the first reading to the last.
    public func grid(timeMs: [Double], bpm: [Double], hz: Double) -> [Double] {
        switch self {
        case .spline:
            return ResampledSeries(timeMs: timeMs, values: bpm, hz: hz).values
        case .repeatLatest:
            guard let t0 = timeMs.first, let t1 = timeMs.last else { return [] }
            let stepMs = 1000 / hz
            var out: [Double] = [], beat = 0
            let count = Int(((t1 - t0) / stepMs).rounded(.down)) + 1
            out.reserveCapacity(count)
            for k in 0..<count {
                let t = t0 + Double(k) * stepMs
                while beat + 1 < timeMs.count, timeMs[beat + 1] <= t { beat += 1 }
                if bpm[beat] > 0 { out.append(bpm[beat]) }
            }
            return out
        }
    }
}

/// The product's coherence over a whole recording, as the product would have shown it
/// live: heart rate at 4 Hz (`sampling`: by cubic spline from the beats, or repeating
/// the latest reading as the watch does; each run between gaps longer than the 30 s
/// window on its own grid, its history starting afresh),
/// scored every `step_seconds` over the samples so far (at most the last 120) at the
/// paced rate in force (`breathing.csv`, else `default_rate_per_min`).
public struct ProductCoherenceSeries {
    public let coherence: ProductCoherence
    public let pacer: PacerConstants
    /// Every score as its own row (`--every-step`); otherwise one row per clock minute
    /// and rate: the mean score, `n_samples` the number of scores.
    public let everyStep: Bool
    public let sampling: HRSampling

    public init(coherence: ProductCoherence, pacer: PacerConstants, everyStep: Bool, sampling: HRSampling = .spline) {
        self.coherence = coherence; self.pacer = pacer; self.everyStep = everyStep; self.sampling = sampling
    }

    /// One subject's `product` rows of `coherence.csv`: heart rate `bpm` at `timeMs`.
    public func rows(subject: String, source: String, timeMs: [Double], bpm: [Double],
                     intervals: [BreathingInterval]) -> [CoherenceRow] {
        let hz = coherence.sampleHz, stepMs = 1000 / hz
        let window = coherence.windowSamples
        let gapMs = Double(window) * stepMs
        let every = max(1, Int((pacer.stepSeconds * hz).rounded()))
        var out: [CoherenceRow] = []
        var group: (minute: Int64, rate: Double, first: Double, last: Double, sum: Double, count: Int)?
        func flush() {
            guard let g = group else { return }
            out.append(CoherenceRow(subject: subject, windowStartMs: Int64(g.first.rounded()),
                                    windowEndMs: Int64((g.last + Double(every) * stepMs).rounded()), method: "product",
                                    breathingHz: g.rate / 60, peakHz: .nan, coherence: g.sum / Double(g.count),
                                    nSamples: g.count, source: source))
            group = nil
        }
        var first = 0
        for i in timeMs.indices where i == timeMs.count - 1 || timeMs[i + 1] - timeMs[i] > gapMs {
            let values = sampling.grid(timeMs: Array(timeMs[first...i]), bpm: Array(bpm[first...i]), hz: hz)
            let t0 = timeMs[first]
            first = i + 1
            for j in stride(from: 0, to: values.count, by: every) {
                let t = t0 + Double(j) * stepMs
                let rate = BreathingInterval.rate(at: t, in: intervals) ?? pacer.defaultRatePerMin
                let from = max(0, j - window + 1)
                let score = coherence.score(values[from...j], breathingHz: rate / 60)
                if everyStep {
                    out.append(CoherenceRow(subject: subject, windowStartMs: Int64((t0 + Double(from) * stepMs).rounded()),
                                            windowEndMs: Int64((t + stepMs).rounded()), method: "product",
                                            breathingHz: rate / 60, peakHz: .nan, coherence: score,
                                            nSamples: j - from + 1, source: source))
                    continue
                }
                let minute = Int64((t / 60_000).rounded(.down))
                if let g = group, g.minute == minute, g.rate == rate {
                    group?.last = t
                    group?.sum += score
                    group?.count += 1
                } else {
                    flush()
                    group = (minute, rate, t, t, score, 1)
                }
            }
            flush()
        }
        return out
    }
}
