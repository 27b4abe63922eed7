/// Heart-rate zones: Karvonen heart-rate reserve (Karvonen et al., Ann Med Exp Biol
/// Fenn 1957) with Tanaka's age-predicted maximum (Tanaka, Monahan & Seals, JACC 2001).
public struct ZoneConstants: EngineConstants {
    public static let spec = EngineSpec(name: "zones", version: "1.0.0", constants: [
        ConstantSpec("max_hr_intercept", 208, unit: "bpm", range: 100...300, source: "Tanaka 2001: HRmax = 208 − 0.7·age"),
        ConstantSpec("max_hr_age_slope", 0.7, unit: "bpm/year", range: 0...5, source: "Tanaka 2001: HRmax = 208 − 0.7·age"),
        ConstantSpec("zone1_from", 0.5, unit: "fraction of HRR", range: 0...1, source: "Karvonen et al. 1957: zones at 50–60–70–80–90–100 % of heart-rate reserve"),
        ConstantSpec("zone2_from", 0.6, unit: "fraction of HRR", range: 0...1, source: "Karvonen et al. 1957: zones at 50–60–70–80–90–100 % of heart-rate reserve"),
        ConstantSpec("zone3_from", 0.7, unit: "fraction of HRR", range: 0...1, source: "Karvonen et al. 1957: zones at 50–60–70–80–90–100 % of heart-rate reserve"),
        ConstantSpec("zone4_from", 0.8, unit: "fraction of HRR", range: 0...1, source: "Karvonen et al. 1957: zones at 50–60–70–80–90–100 % of heart-rate reserve"),
        ConstantSpec("zone5_from", 0.9, unit: "fraction of HRR", range: 0...1, source: "Karvonen et al. 1957: zones at 50–60–70–80–90–100 % of heart-rate reserve"),
        ConstantSpec("zone5_to", 1.0, unit: "fraction of HRR", range: 0...1, source: "Karvonen et al. 1957: zones at 50–60–70–80–90–100 % of heart-rate reserve"),
    ], orderRules: [
        OrderRule(["zone1_from", "zone2_from", "zone3_from", "zone4_from", "zone5_from", "zone5_to"], strict: true),
    ])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.zones }

    /// `max_hr_intercept`, bpm.
    public let maxHRIntercept: Double
    /// `max_hr_age_slope`, bpm/year.
    public let maxHRAgeSlope: Double
    /// `zone1_from`, fraction of HRR.
    public let zone1From: Double
    /// `zone2_from`, fraction of HRR.
    public let zone2From: Double
    /// `zone3_from`, fraction of HRR.
    public let zone3From: Double
    /// `zone4_from`, fraction of HRR.
    public let zone4From: Double
    /// `zone5_from`, fraction of HRR.
    public let zone5From: Double
    /// `zone5_to`, fraction of HRR.
    public let zone5To: Double

    public init(_ c: ConstantReader) throws {
        maxHRIntercept = try c["max_hr_intercept"]
        maxHRAgeSlope = try c["max_hr_age_slope"]
        zone1From = try c["zone1_from"]
        zone2From = try c["zone2_from"]
        zone3From = try c["zone3_from"]
        zone4From = try c["zone4_from"]
        zone5From = try c["zone5_from"]
        zone5To = try c["zone5_to"]
    }
}
