/// The product's per-song learning rule (docs/engines/toolkit.md, Song effect).
public struct SongEffectConstants: EngineConstants {
    public static let spec = EngineSpec(name: "song_effect", version: "2.0.0", constants: [
        ConstantSpec("ema_start", 0.5, unit: "score", range: 0...1, source: "product specification: EMA from 0.5"),
        ConstantSpec("alpha_early", 0.4, unit: "weight", range: 0...1, source: "product specification: α = 0.4 for the first 5 plays"),
        ConstantSpec("alpha_late", 0.2, unit: "weight", range: 0...1, source: "product specification: then α = 0.2"),
        ConstantSpec("early_plays", 5, unit: "plays", range: 0...1000, source: "product specification: first 5 plays"),
        ConstantSpec("confidence_full_plays", 20, unit: "plays", range: 1...10000, source: "product specification: confidence = min(1, n/20)"),
        ConstantSpec("no_biometrics_confidence_cap", 0.7, unit: "confidence", range: 0...1, source: "product specification: capped at 0.7 without biometrics"),
        ConstantSpec("familiarity_full_plays", 10, unit: "plays", range: 1...10000, source: "product specification: familiarity = min(1, plays/10)"),
    ])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.songEffect }

    /// `ema_start`, score.
    public let emaStart: Double
    /// `alpha_early`, weight.
    public let alphaEarly: Double
    /// `alpha_late`, weight.
    public let alphaLate: Double
    /// `early_plays`, plays.
    public let earlyPlays: Double
    /// `confidence_full_plays`, plays.
    public let confidenceFullPlays: Double
    /// `no_biometrics_confidence_cap`, confidence.
    public let noBiometricsConfidenceCap: Double
    /// `familiarity_full_plays`, plays.
    public let familiarityFullPlays: Double

    public init(_ c: ConstantReader) throws {
        emaStart = try c["ema_start"]
        alphaEarly = try c["alpha_early"]
        alphaLate = try c["alpha_late"]
        earlyPlays = try c["early_plays"]
        confidenceFullPlays = try c["confidence_full_plays"]
        noBiometricsConfidenceCap = try c["no_biometrics_confidence_cap"]
        familiarityFullPlays = try c["familiarity_full_plays"]
    }
}
