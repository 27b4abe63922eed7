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
        let v = k.values
        let base = v["base"]
        let bonus = (listenFraction - v["completion_center"]) * v["completion_weight"]
        let skip = !skipped ? 0 : listenFraction < v["early_skip_fraction"] ? v["skip_penalty_early"] : v["skip_penalty_late"]
        let hr = hrDeltaBpm.map { $0 / v["hr_scale_bpm"] }
        let hrv = hrvDeltaMs.map { $0 / v["hrv_scale_ms"] }
        let calm: Double, energy: Double
        switch (hr, hrv) {
        case let (hr?, hrv?):
            calm = base + v["calm_hrv"] * hrv + v["calm_hr"] * hr
            energy = base + v["energy_hr"] * hr
        case let (nil, hrv?):
            calm = base + v["calm_hrv_only"] * hrv
            energy = base
        case let (hr?, nil):
            calm = base + v["calm_hr_only"] * hr
            energy = base + v["energy_hr_only"] * hr
        case (nil, nil):
            calm = base
            energy = base
        }
        let c = clamp(calm + bonus + skip), e = clamp(energy + bonus + skip), f = clamp(base + bonus)
        let mood = clamp(v["mood_calm"] * c + v["mood_energy"] * e + v["mood_focus"] * f)
        return PlayScores(calm: c, energy: e, focus: f, moodLift: mood)
    }

    static func clamp(_ x: Double) -> Double { min(1, max(0, x)) }
}
