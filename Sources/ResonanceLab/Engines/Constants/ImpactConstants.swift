/// The impact score of one play (docs/engines.md, Impact).
public struct ImpactConstants: EngineConstants {
    public static let spec = EngineSpec(name: "impact", version: "1.0.0", constants: [
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
    ], weightGroups: [["mood_calm", "mood_energy", "mood_focus"]])

    public let values: EngineValues
    public init(_ values: EngineValues) { self.values = values }
}
