/// The breathing product's coherence window and adaptive pacer (docs/engines/breathing.md, Pacer):
/// what the product specification fixes, and the toolkit's choices for the exploration
/// and lock rules it leaves open.
public struct PacerConstants: EngineConstants {
    public static let spec = EngineSpec(name: "pacer", version: "2.0.0", constants: [
        ConstantSpec("window_samples", 120, unit: "samples", range: 32...100_000, source: "product specification: coherence over the last 120 heart-rate samples (30 s at 4 Hz)"),
        ConstantSpec("step_seconds", 0.25, unit: "s", range: 0.25...60, source: "product specification: coherence recomputed every 0.25 s"),
        ConstantSpec("default_rate_per_min", 5.5, unit: "breaths/min", range: 2...30, source: "product specification: sessions start at 5.5 breaths/min"),
        ConstantSpec("min_rate_per_min", 4.5, unit: "breaths/min", range: 2...30, source: "product specification: rates clamped to 4.5–7 breaths/min"),
        ConstantSpec("max_rate_per_min", 7, unit: "breaths/min", range: 2...30, source: "product specification: rates clamped to 4.5–7 breaths/min"),
        ConstantSpec("rate_step_per_min", 0.1, unit: "breaths/min", range: 0.01...2, source: "product specification: the pacer moves the rate in 0.1 breaths/min steps"),
        ConstantSpec("calibration_seconds", 120, unit: "s", range: 0...3600, source: "product specification: 120 s of calibration at the starting rate"),
        ConstantSpec("exploration_seconds", 180, unit: "s", range: 10...3600, source: "product specification: 180 s of exploration, then resonance lock"),
        ConstantSpec("inhale_share", 0.4, unit: "fraction", range: 0.1...0.9, source: "product specification, breathing parameters: inhale 40 % of the cycle less the hold (its 4:6 ratio)"),
        ConstantSpec("hold_share", 0.05, unit: "fraction", range: 0...0.5, source: "product specification, breathing parameters: hold 5 % of the cycle"),
        ConstantSpec("rmssd_window_seconds", 30, unit: "s", range: 5...600, source: "product specification: the session's RMSSD is that of the R-R intervals of the last 30 s"),
        ConstantSpec("score_seconds", 5, unit: "s", range: 0.25...60, source: "choice: a dwell's coherence is the mean of the product's score over its last 5 s"),
        ConstantSpec("hill_dwell_seconds", 15, unit: "s", range: 1...300, source: "choice: hill climbing holds each rate 15 s, half the product's 30 s coherence window"),
        ConstantSpec("hill_reversals", 3, unit: "reversals", range: 1...100, source: "choice: hill climbing locks early after 3 reversals of direction (it oscillates about its maximum)"),
        ConstantSpec("sweep_step_per_min", 0.5, unit: "breaths/min", range: 0.1...2.5, source: "choice: the stepped sweep tries 4.5, 5.0, …, 7.0 (six 30 s dwells in 180 s, each a full coherence window at one rate)"),
        ConstantSpec("settle_seconds", 10, unit: "s", range: 0...60, source: "choice: HR peak-to-trough of a dwell, and each assessment trial, skip the first 10 s while heart rate settles to the new rate"),
        ConstantSpec("robust_fit_half_width_per_min", 1, unit: "breaths/min", range: 0.25...3, source: "choice: the robust strategy fits its parabola to the dwells within 1/min of the best (up to five of the 0.5/min sweep), wide enough to average the noise of single dwells, narrow enough to stay on the main peak"),
        ConstantSpec("lock_seconds", 120, unit: "s", range: 10...3600, source: "choice: the simulated session continues 120 s at the locked rate, over which the coherence reached is averaged"),
    ], orderRules: [
        OrderRule(["min_rate_per_min", "default_rate_per_min", "max_rate_per_min"]),
        OrderRule(["min_rate_per_min", "max_rate_per_min"], strict: true),
    ])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.pacer }

    /// `window_samples`, samples.
    public let windowSamples: Double
    /// `step_seconds`, s.
    public let stepSeconds: Double
    /// `default_rate_per_min`, breaths/min.
    public let defaultRatePerMin: Double
    /// `min_rate_per_min`, breaths/min.
    public let minRatePerMin: Double
    /// `max_rate_per_min`, breaths/min.
    public let maxRatePerMin: Double
    /// `rate_step_per_min`, breaths/min.
    public let rateStepPerMin: Double
    /// `calibration_seconds`, s.
    public let calibrationSeconds: Double
    /// `exploration_seconds`, s.
    public let explorationSeconds: Double
    /// `inhale_share`, fraction of the cycle less the hold.
    public let inhaleShare: Double
    /// `hold_share`, fraction of the cycle.
    public let holdShare: Double
    /// `rmssd_window_seconds`, s.
    public let rmssdWindowSeconds: Double
    /// `score_seconds`, s.
    public let scoreSeconds: Double
    /// `hill_dwell_seconds`, s.
    public let hillDwellSeconds: Double
    /// `hill_reversals`, reversals.
    public let hillReversals: Double
    /// `sweep_step_per_min`, breaths/min.
    public let sweepStepPerMin: Double
    /// `settle_seconds`, s.
    public let settleSeconds: Double
    /// `robust_fit_half_width_per_min`, breaths/min.
    public let robustFitHalfWidthPerMin: Double
    /// `lock_seconds`, s.
    public let lockSeconds: Double

    public init(_ c: ConstantReader) throws {
        windowSamples = try c["window_samples"]
        stepSeconds = try c["step_seconds"]
        defaultRatePerMin = try c["default_rate_per_min"]
        minRatePerMin = try c["min_rate_per_min"]
        maxRatePerMin = try c["max_rate_per_min"]
        rateStepPerMin = try c["rate_step_per_min"]
        calibrationSeconds = try c["calibration_seconds"]
        explorationSeconds = try c["exploration_seconds"]
        inhaleShare = try c["inhale_share"]
        holdShare = try c["hold_share"]
        rmssdWindowSeconds = try c["rmssd_window_seconds"]
        scoreSeconds = try c["score_seconds"]
        hillDwellSeconds = try c["hill_dwell_seconds"]
        hillReversals = try c["hill_reversals"]
        sweepStepPerMin = try c["sweep_step_per_min"]
        settleSeconds = try c["settle_seconds"]
        robustFitHalfWidthPerMin = try c["robust_fit_half_width_per_min"]
        lockSeconds = try c["lock_seconds"]
    }

    /// `rate` clamped to the product's range, breaths/min.
    public func clamped(_ rate: Double) -> Double {
        min(max(rate, minRatePerMin), maxRatePerMin)
    }
}
