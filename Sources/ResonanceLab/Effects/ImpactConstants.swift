/// The impact score of one play (docs/engines/toolkit.md, Impact).
public struct ImpactConstants: EngineConstants {
    public static let spec = EngineSpec(name: "impact", version: "2.0.0", constants: [
        ConstantSpec("base", 0.5, unit: "score", range: 0...1, source: "product specification: impact scores start at 0.5"),
        ConstantSpec("hrv_scale_ms", 10, unit: "ms", range: 0.001...1000, source: "product specification: hrvImpact = ΔHRV/10"),
        ConstantSpec("hr_scale_bpm", 10, unit: "bpm", range: 0.001...1000, source: "product specification: hrImpact = ΔHR/10"),
        ConstantSpec("early_skip_fraction", 0.15, unit: "fraction", range: 0...1, source: "product specification: skipped below 15 % listened"),
        ConstantSpec("skip_penalty_early", -0.3, unit: "score", range: -1...0, source: "product specification: −0.3 when skipped early"),
        ConstantSpec("skip_penalty_late", -0.15, unit: "score", range: -1...0, source: "product specification: −0.15 when skipped later"),
        ConstantSpec("completion_center", 0.5, unit: "fraction", range: 0...1, source: "product specification: (listen − 0.5)·0.2"),
        ConstantSpec("completion_weight", 0.2, unit: "score", range: 0...1, source: "product specification: (listen − 0.5)·0.2"),
        ConstantSpec("calm_hrv", 0.5, unit: "score", range: -2...2, source: "product specification (HR and HRV): calm = 0.5 + 0.5·hrv − 0.3·hr"),
        ConstantSpec("calm_hr", -0.3, unit: "score", range: -2...2, source: "product specification (HR and HRV): calm = 0.5 + 0.5·hrv − 0.3·hr"),
        ConstantSpec("energy_hr", 0.3, unit: "score", range: -2...2, source: "product specification (HR and HRV): energy = 0.5 + 0.3·hr"),
        ConstantSpec("calm_hrv_only", 0.8, unit: "score", range: -2...2, source: "product specification (HRV only): calm = 0.5 + 0.8·hrv"),
        ConstantSpec("calm_hr_only", -0.8, unit: "score", range: -2...2, source: "product specification (HR only): calm = 0.5 − 0.8·hr"),
        ConstantSpec("energy_hr_only", 0.6, unit: "score", range: -2...2, source: "product specification (HR only): energy = 0.5 + 0.6·hr"),
        ConstantSpec("mood_calm", 0.4, unit: "weight", range: 0...1, source: "product specification: moodLift = 0.4·calm + 0.3·energy + 0.3·focus"),
        ConstantSpec("mood_energy", 0.3, unit: "weight", range: 0...1, source: "product specification: moodLift"),
        ConstantSpec("mood_focus", 0.3, unit: "weight", range: 0...1, source: "product specification: moodLift"),
        ConstantSpec("zero_delta_is_missing", 1, unit: "flag", range: 0...1, source: "product specification: a ΔHR or ΔHRV of exactly 0 means no biometric data for the play (1); 0 selects the toolkit's variant `zero_is_measured`, where a measured change of 0 is a measurement"),
    ], weightGroups: [["mood_calm", "mood_energy", "mood_focus"]])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.impact }

    /// `base`, score.
    public let base: Double
    /// `hrv_scale_ms`, ms.
    public let hrvScaleMs: Double
    /// `hr_scale_bpm`, bpm.
    public let hrScaleBpm: Double
    /// `early_skip_fraction`, fraction.
    public let earlySkipFraction: Double
    /// `skip_penalty_early`, score.
    public let skipPenaltyEarly: Double
    /// `skip_penalty_late`, score.
    public let skipPenaltyLate: Double
    /// `completion_center`, fraction.
    public let completionCenter: Double
    /// `completion_weight`, score.
    public let completionWeight: Double
    /// `calm_hrv`, score.
    public let calmHRV: Double
    /// `calm_hr`, score.
    public let calmHR: Double
    /// `energy_hr`, score.
    public let energyHR: Double
    /// `calm_hrv_only`, score.
    public let calmHRVOnly: Double
    /// `calm_hr_only`, score.
    public let calmHROnly: Double
    /// `energy_hr_only`, score.
    public let energyHROnly: Double
    /// `mood_calm`, weight.
    public let moodCalm: Double
    /// `mood_energy`, weight.
    public let moodEnergy: Double
    /// `mood_focus`, weight.
    public let moodFocus: Double
    /// `zero_delta_is_missing`, flag (≥ 0.5: the product's rule, a change of exactly 0 is no signal).
    public let zeroDeltaIsMissing: Double

    public init(_ c: ConstantReader) throws {
        base = try c["base"]
        hrvScaleMs = try c["hrv_scale_ms"]
        hrScaleBpm = try c["hr_scale_bpm"]
        earlySkipFraction = try c["early_skip_fraction"]
        skipPenaltyEarly = try c["skip_penalty_early"]
        skipPenaltyLate = try c["skip_penalty_late"]
        completionCenter = try c["completion_center"]
        completionWeight = try c["completion_weight"]
        calmHRV = try c["calm_hrv"]
        calmHR = try c["calm_hr"]
        energyHR = try c["energy_hr"]
        calmHRVOnly = try c["calm_hrv_only"]
        calmHROnly = try c["calm_hr_only"]
        energyHROnly = try c["energy_hr_only"]
        moodCalm = try c["mood_calm"]
        moodEnergy = try c["mood_energy"]
        moodFocus = try c["mood_focus"]
        zeroDeltaIsMissing = try c["zero_delta_is_missing"]
    }

    /// A measured ΔHR (bpm) or ΔHRV (ms) as the impact score reads it: nil when there is
    /// none, and, under the product's rule (`zero_delta_is_missing`), when it is exactly 0.
    public func signal(_ delta: Double?) -> Double? {
        guard let delta else { return nil }
        return zeroDeltaIsMissing >= 0.5 && delta == 0 ? nil : delta
    }
}
