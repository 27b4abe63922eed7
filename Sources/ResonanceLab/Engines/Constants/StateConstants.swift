/// Real-time state (docs/engines.md, State): arousal from heart-rate reserve with the
/// Fox maximum (220 − age), stress from HRV relative to the personal baseline.
public struct StateConstants: EngineConstants {
    public static let spec = EngineSpec(name: "state", version: "1.0.0", constants: [
        ConstantSpec("max_hr_intercept", 220, unit: "bpm", range: 100...300, source: "product specification: max = 220 − age"),
        ConstantSpec("max_hr_age_slope", 1, unit: "bpm/year", range: 0...5, source: "product specification: max = 220 − age"),
        ConstantSpec("hrv_stress_slope", 0.6, unit: "1/ratio", range: 0...10, source: "product specification: stress = clamp(1 − 0.6·HRV/baseline)"),
    ])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.state }

    /// `max_hr_intercept`, bpm.
    public let maxHRIntercept: Double
    /// `max_hr_age_slope`, bpm/year.
    public let maxHRAgeSlope: Double
    /// `hrv_stress_slope`, 1/ratio.
    public let hrvStressSlope: Double

    public init(_ c: ConstantReader) throws {
        maxHRIntercept = try c["max_hr_intercept"]
        maxHRAgeSlope = try c["max_hr_age_slope"]
        hrvStressSlope = try c["hrv_stress_slope"]
    }
}
