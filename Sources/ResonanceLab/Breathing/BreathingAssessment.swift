import Foundation

/// One row of `breathing_assessment.csv`: what one paced-breathing trial of a subject
/// shows (docs/methods.md, Breathing, "Resonance-frequency assessment").
public struct AssessmentRow: Sendable, Equatable {
    public var subject: String
    /// Paced rate of the trial, breaths/min.
    public var rateBpm: Double
    public var startedAtMs: Int64
    public var endedAtMs: Int64
    /// Beats (NN intervals) in the trial after its first `settle_seconds`.
    public var beats: Int
    /// NN power in 0.04–0.15 Hz, ms².
    public var lfPowerMs2: Double
    /// Frequency of the highest NN spectral density in 0.04–0.15 Hz, Hz.
    public var lfPeakHz: Double
    /// NN spectral density at that peak, ms²/Hz.
    public var lfPeakMs2PerHz: Double
    /// Mean over whole breaths of heart rate max − min, bpm.
    public var peakToTroughBpm: Double
    /// Median over whole breaths of heart rate max − min, bpm (the `robust` pacer
    /// strategy's score).
    public var peakToTroughMedianBpm: Double
    /// Mean of the product's coherence score at the paced rate over the trial's full windows.
    public var productCoherence: Double
    /// Mean of the windowed coach score at the paced rate over the trial's 64 s windows.
    public var windowedCoherence: Double
    /// RMSSD of the trial's NN intervals, ms.
    public var rmssdMs: Double
}

extension AssessmentRow: CanonicalRow {
    public static let fileName = "breathing_assessment.csv"
    public static let header = ["subject", "rate_bpm", "started_at", "ended_at", "beats", "lf_power_ms2", "lf_peak_hz",
                                "lf_peak_ms2_per_hz", "peak_to_trough_bpm", "peak_to_trough_median_bpm", "product_coherence", "windowed_coherence",
                                "rmssd_ms"]

    public func write(to w: CSVWriter) {
        w.field(subject); w.field(rateBpm)
        w.field(timestampMs: startedAtMs); w.field(timestampMs: endedAtMs)
        w.field(beats); w.field(lfPowerMs2); w.field(lfPeakHz); w.field(lfPeakMs2PerHz)
        w.field(peakToTroughBpm); w.field(peakToTroughMedianBpm); w.field(productCoherence); w.field(windowedCoherence); w.field(rmssdMs)
    }

    public init(_ r: CanonicalFieldReader) throws {
        self.init(subject: try r.string("subject"), rateBpm: try r.double("rate_bpm"),
                  startedAtMs: try r.timestamp("started_at"), endedAtMs: try r.timestamp("ended_at"),
                  beats: try r.count("beats"), lfPowerMs2: try r.doubleOrNaN("lf_power_ms2"),
                  lfPeakHz: try r.doubleOrNaN("lf_peak_hz"), lfPeakMs2PerHz: try r.doubleOrNaN("lf_peak_ms2_per_hz"),
                  peakToTroughBpm: try r.doubleOrNaN("peak_to_trough_bpm"),
                  peakToTroughMedianBpm: try r.doubleOrNaN("peak_to_trough_median_bpm"),
                  productCoherence: try r.doubleOrNaN("product_coherence"),
                  windowedCoherence: try r.doubleOrNaN("windowed_coherence"), rmssdMs: try r.doubleOrNaN("rmssd_ms"))
    }
}

/// One row of `breathing_resonance.csv`: the resonance rate a criterion picks for a
/// subject among the rates tried, and how clearly.
public struct ResonanceChoiceRow: Sendable, Equatable {
    public var subject: String
    /// `peak_to_trough`, `lf_power`, `lf_peak` or `combined` (lowest sum of the three ranks).
    public var criterion: String
    public var rateBpm: Double
    /// The criterion's value at that rate (for `combined`, the rank sum).
    public var value: Double
    public var runnerUpRateBpm: Double?
    /// (best − runner-up) / |best| (for `combined`, runner-up rank sum − best), NaN with one rate.
    public var margin: Double
    /// The chosen rate is the lowest or highest tried: the resonance may lie beyond.
    public var atEdge: Bool
    public var ratesTried: Int
}

extension ResonanceChoiceRow: CanonicalRow {
    public static let fileName = "breathing_resonance.csv"
    public static let header = ["subject", "criterion", "rate_bpm", "value", "runner_up_rate_bpm", "margin", "at_edge",
                                "rates_tried"]

    public func write(to w: CSVWriter) {
        w.field(subject); w.field(criterion); w.field(rateBpm); w.field(value); w.field(runnerUpRateBpm)
        w.field(margin); w.field(atEdge); w.field(ratesTried)
    }

    public init(_ r: CanonicalFieldReader) throws {
        self.init(subject: try r.string("subject"), criterion: try r.string("criterion"), rateBpm: try r.double("rate_bpm"),
                  value: try r.doubleOrNaN("value"), runnerUpRateBpm: try r.optionalDouble("runner_up_rate_bpm"),
                  margin: try r.doubleOrNaN("margin"), atEdge: try r.bool("at_edge"), ratesTried: try r.count("rates_tried"))
    }
}

/// The stepped resonance-frequency assessment (Lehrer, Vaschillo & Vaschillo 2000,
/// "Resonant frequency biofeedback training to increase cardiac variability", Appl
/// Psychophysiol Biofeedback 25:177; Shaffer & Meehan 2020, "A practical guide to
/// resonance frequency assessment for heart rate variability biofeedback", Front
/// Neurosci 14:570400): each paced trial is scored by the published criteria — HR
/// peak-to-trough amplitude, LF power, LF peak amplitude — and the rate that maximises
/// each (and their rank sum) is the resonance rate by that criterion.
public struct BreathingAssessment {
    public let coherence: CoherenceConstants
    public let pacer: PacerConstants

    public init(coherence: CoherenceConstants, pacer: PacerConstants) {
        self.coherence = coherence; self.pacer = pacer
    }

    /// The trials of one subject, in `intervals` order; empty bounds take the series' ends.
    /// A trial with fewer than `min_samples` 4 Hz samples after settling is left out.
    public func trials(subject: String, series: NNSeries, intervals: [BreathingInterval]) throws -> [AssessmentRow] {
        guard let first = series.timeMs.first, let last = series.timeMs.last else { return [] }
        return try intervals.compactMap { iv in
            let start = iv.startedAtMs.map(Double.init) ?? first
            let end = iv.endedAtMs.map(Double.init) ?? (last + 1)
            return try trial(subject: subject, series: series, fromMs: start + pacer.settleSeconds * 1000, toMs: end,
                         rate: iv.rateBpm, bounds: (Int64(start.rounded()), Int64(end.rounded())))
        }
    }

    /// The same trials scored from `stream`, walked in order of their start, so that only
    /// one trial's beats are held; nil when the subject has no usable interval. Trials must
    /// have both ends (one open at an end reaches to the recording's first or last beat:
    /// `trials(subject:series:intervals:)` on the whole series).
    func trials(subject: String, stream: NNStream, intervals: [BreathingInterval]) throws -> [AssessmentRow]? {
        try stream.hold(fromMs: -.infinity, throughMs: -.infinity)
        guard !stream.series.timeMs.isEmpty else { return nil }
        var rows = [AssessmentRow?](repeating: nil, count: intervals.count)
        let bounded = intervals.indices.compactMap { i in
            intervals[i].startedAtMs.flatMap { s in intervals[i].endedAtMs.map { (i, Double(s), Double($0)) } }
        }
        for (i, start, end) in bounded.sorted(by: { ($0.1, $0.0) < ($1.1, $1.0) }) {
            try stream.hold(fromMs: start + pacer.settleSeconds * 1000, throughMs: end)
            rows[i] = try trial(subject: subject, series: stream.series, fromMs: start + pacer.settleSeconds * 1000, toMs: end,
                            rate: intervals[i].rateBpm, bounds: (Int64(start.rounded()), Int64(end.rounded())))
        }
        return rows.compactMap { $0 }
    }

    func trial(subject: String, series: NNSeries, fromMs: Double, toMs: Double, rate: Double,
               bounds: (Int64, Int64)) throws -> AssessmentRow? {
        let beats = series.range(fromMs: fromMs, toMs: toMs)
        guard beats.count >= 2 else { return nil }
        let t = Array(series.timeMs[beats]), nn = Array(series.nnMs[beats])
        let hz = coherence.sampleHz
        var nnGrid = ResampledSeries(timeMs: t, values: nn, hz: hz).values
        let hr = ResampledSeries(timeMs: t, values: nn.map { 60000 / $0 }, hz: hz).values
        guard hr.count >= Int(coherence.minSamples) else { return nil }
        // NN spectrum over the whole trial: one linearly detrended, Hann-tapered
        // periodogram, zero-padded 4× (Task Force 1996 band limits).
        Detrender.removeLinearTrend(&nnGrid)
        var welch = Welch(options: WelchOptions(segmentSeconds: Double(nnGrid.count) / hz, overlap: 0, padFactor: 4,
                                                powerOfTwo: true, taper: .hann, maxHz: coherence.coachBandHighHz * 2))
        let s = welch.psd(nnGrid[...], fs: hz)
        let peak = s.peak(coherence.coachBandLowHz, coherence.coachBandHighHz)
        let peakDensity = peak.isFinite ? s.psd[Int((peak / s.df).rounded())] : .nan
        let breaths = PeakToTrough.perBreath(hr[...], cycleSamples: Int((60 / rate * hz).rounded()))
        let peakToTrough = PeakToTrough.mean(hr[...], cycleSamples: Int((60 / rate * hz).rounded()))
        let product = ProductCoherence(coherence: coherence, pacer: pacer)
        let window = product.windowSamples, every = max(1, Int((pacer.stepSeconds * hz).rounded()))
        let scores = stride(from: window - 1, to: hr.count, by: every).map {
            product.score(hr[($0 - window + 1)...$0], breathingHz: rate / 60)
        }
        var options = CoherenceOptions(constants: coherence)
        options.breathingRate = rate
        var windows = CoherenceWindows(subject: subject, source: "rr", timeMs: t, bpm: nn.map { 60000 / $0 }, options: options)
        let windowed = try windows.rows().filter { $0.method == "coach" && $0.nSamples >= options.minimumSamples }.map(\.coherence)
        return AssessmentRow(subject: subject, rateBpm: rate, startedAtMs: bounds.0, endedAtMs: bounds.1, beats: beats.count,
                             lfPowerMs2: s.integral(coherence.coachBandLowHz, coherence.coachBandHighHz),
                             lfPeakHz: peak, lfPeakMs2PerHz: peakDensity,
                             peakToTroughBpm: peakToTrough,
                             peakToTroughMedianBpm: breaths.isEmpty ? .nan : Stats.median(breaths),
                             productCoherence: scores.isEmpty ? .nan : Stats.mean(scores),
                             windowedCoherence: windowed.isEmpty ? .nan : Stats.mean(windowed),
                             rmssdMs: HRVTime.rmssd(NNWindow(series, beats)))
    }

    /// The criteria (name, value of a trial); higher is better for each.
    public static let criteria: [(String, (AssessmentRow) -> Double)] = [
        ("peak_to_trough", \.peakToTroughBpm), ("lf_power", \.lfPowerMs2), ("lf_peak", \.lfPeakMs2PerHz),
    ]

    /// Each criterion's choice among one subject's trials, then the combined one.
    /// Ties go to the trial listed first.
    public static func choose(_ trials: [AssessmentRow]) -> [ResonanceChoiceRow] {
        guard let subject = trials.first?.subject else { return [] }
        let rates = trials.map(\.rateBpm)
        let lowest = rates.min() ?? .nan, highest = rates.max() ?? .nan
        var out: [ResonanceChoiceRow] = []
        var rankSum = [Double](repeating: 0, count: trials.count)
        func row(_ criterion: String, _ values: [Double], higherIsBetter: Bool) -> ResonanceChoiceRow? {
            let order = values.indices.filter { values[$0].isFinite }.sorted {
                values[$0] == values[$1] ? $0 < $1 : (higherIsBetter ? values[$0] > values[$1] : values[$0] < values[$1])
            }
            guard let best = order.first else { return nil }
            let second = order.dropFirst().first
            let margin = second.map { higherIsBetter ? (values[best] - values[$0]) / abs(values[best]) : values[$0] - values[best] } ?? .nan
            return ResonanceChoiceRow(subject: subject, criterion: criterion, rateBpm: rates[best], value: values[best],
                                      runnerUpRateBpm: second.map { rates[$0] }, margin: margin,
                                      atEdge: trials.count > 1 && (rates[best] == lowest || rates[best] == highest),
                                      ratesTried: Set(rates).count)
        }
        for (name, value) in criteria {
            let values = trials.map(value)
            if let r = row(name, values, higherIsBetter: true) { out.append(r) }
            // Rank 1 = best; a trial without the value ranks last.
            let finite = values.map { $0.isFinite ? $0 : -.infinity }
            let order = values.indices.sorted { finite[$0] == finite[$1] ? $0 < $1 : finite[$0] > finite[$1] }
            for (rank, i) in order.enumerated() { rankSum[i] += Double(rank + 1) }
        }
        if let r = row("combined", rankSum, higherIsBetter: false) { out.append(r) }
        return out
    }

    /// The rate each sweep strategy of the adaptive pacer would have locked at on these
    /// trials taken as its dwells (`AdaptivePacer.lockRate`; docs/methods.md, Breathing):
    /// `pacer_sweep` scores a trial by its mean product coherence (over the whole trial,
    /// not its last `score_seconds`), `pacer_amplitude` by its mean and `pacer_robust` by
    /// its median HR peak-to-trough. The trials are spaced by their mean spacing; the lock
    /// is on the product's 0.1/min grid within its 4.5–7/min. `value` is the best trial's
    /// score; no runner-up or margin. Hill climbing's path cannot be replayed on fixed trials.
    public static func pacerLocks(_ trials: [AssessmentRow], pacer: PacerConstants) -> [ResonanceChoiceRow] {
        guard let subject = trials.first?.subject else { return [] }
        let sorted = trials.sorted { $0.rateBpm < $1.rateBpm }
        let lowest = sorted.first?.rateBpm ?? .nan, highest = sorted.last?.rateBpm ?? .nan
        let spacing = sorted.count > 1 ? (highest - lowest) / Double(sorted.count - 1) : pacer.sweepStepPerMin
        let scored: [(PacerStrategy, (AssessmentRow) -> Double)] = [
            (.sweep, \.productCoherence), (.amplitude, \.peakToTroughBpm), (.robust, \.peakToTroughMedianBpm),
        ]
        return scored.compactMap { strategy, value in
            let dwells = sorted.map { (rate: $0.rateBpm, score: value($0)) }
            guard let rate = AdaptivePacer.lockRate(strategy, dwells: dwells, spacing: spacing, constants: pacer) else { return nil }
            return ResonanceChoiceRow(subject: subject, criterion: "pacer_" + strategy.rawValue, rateBpm: rate,
                                      value: dwells.map(\.score).filter(\.isFinite).max() ?? .nan, runnerUpRateBpm: nil,
                                      margin: .nan, atEdge: sorted.count > 1 && (rate <= lowest || rate >= highest),
                                      ratesTried: Set(sorted.map(\.rateBpm)).count)
        }
    }
}
