/// The product's four scores for one play, each in [0, 1].
public struct PlayScores: Equatable, Sendable {
    public var calm: Double
    public var energy: Double
    public var focus: Double
    public var moodLift: Double

    public init(calm: Double, energy: Double, focus: Double, moodLift: Double) {
        self.calm = calm; self.energy = energy; self.focus = focus; self.moodLift = moodLift
    }
}

/// The impact score of one play as the product computes it (docs/engines/toolkit.md, Impact):
/// hrvImpact = ΔHRV/10, hrImpact = ΔHR/10; skip penalty −0.3 when skipped below 15 %
/// listened, −0.15 when skipped later; completion bonus (listen − 0.5)·0.2. The HR/HRV
/// weights are redistributed by which signals exist, a change of exactly 0 counting as
/// no signal (`zero_delta_is_missing`). Calm, energy and focus are clamped to [0, 1];
/// mood lift combines their unclamped values (0.4/0.3/0.3) and is clamped after.
public enum Impact {
    public static func of(hrDeltaBpm: Double?, hrvDeltaMs: Double?, listenFraction: Double, skipped: Bool,
                          constants k: ImpactConstants) -> PlayScores {
        let v = k
        let base = v.base
        let bonus = (listenFraction - v.completionCenter) * v.completionWeight
        let skip = !skipped ? 0 : listenFraction < v.earlySkipFraction ? v.skipPenaltyEarly : v.skipPenaltyLate
        let hr = v.signal(hrDeltaBpm).map { $0 / v.hrScaleBpm }
        let hrv = v.signal(hrvDeltaMs).map { $0 / v.hrvScaleMs }
        let calm: Double, energy: Double
        switch (hr, hrv) {
        case let (hr?, hrv?):
            calm = base + v.calmHRV * hrv + v.calmHR * hr
            energy = base + v.energyHR * hr
        case let (nil, hrv?):
            calm = base + v.calmHRVOnly * hrv
            energy = base
        case let (hr?, nil):
            calm = base + v.calmHROnly * hr
            energy = base + v.energyHROnly * hr
        case (nil, nil):
            calm = base
            energy = base
        }
        let c = calm + bonus + skip, e = energy + bonus + skip, f = base + bonus
        let mood = v.moodCalm * c + v.moodEnergy * e + v.moodFocus * f
        return PlayScores(calm: clamp(c), energy: clamp(e), focus: clamp(f), moodLift: clamp(mood))
    }

    /// Whether the product counts the play as measured (its confidence is not capped):
    /// a ΔHR or a ΔHRV that is a signal under `zero_delta_is_missing`.
    public static func hasBiometrics(hrDeltaBpm: Double?, hrvDeltaMs: Double?, constants k: ImpactConstants) -> Bool {
        k.signal(hrDeltaBpm) != nil || k.signal(hrvDeltaMs) != nil
    }

    static func clamp(_ x: Double) -> Double { min(1, max(0, x)) }
}
