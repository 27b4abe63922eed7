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

/// The impact score of one play, the product's rule bit for bit (docs/engines.md,
/// Impact): hrvImpact = ΔHRV/10, hrImpact = ΔHR/10; skip penalty −0.3 when
/// skipped below 15 % listened, −0.15 when skipped later; completion bonus
/// (listen − 0.5)·0.2. The HR/HRV weights are redistributed by which signals exist.
public enum Impact {
    public static func of(hrDeltaBpm: Double?, hrvDeltaMs: Double?, listenFraction: Double, skipped: Bool,
                          constants k: ImpactConstants) -> PlayScores {
        let v = k
        let base = v.base
        let bonus = (listenFraction - v.completionCenter) * v.completionWeight
        let skip = !skipped ? 0 : listenFraction < v.earlySkipFraction ? v.skipPenaltyEarly : v.skipPenaltyLate
        let hr = hrDeltaBpm.map { $0 / v.hrScaleBpm }
        let hrv = hrvDeltaMs.map { $0 / v.hrvScaleMs }
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
        let c = clamp(calm + bonus + skip), e = clamp(energy + bonus + skip), f = clamp(base + bonus)
        let mood = clamp(v.moodCalm * c + v.moodEnergy * e + v.moodFocus * f)
        return PlayScores(calm: c, energy: e, focus: f, moodLift: mood)
    }

    static func clamp(_ x: Double) -> Double { min(1, max(0, x)) }
}
