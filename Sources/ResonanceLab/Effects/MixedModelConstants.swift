/// Settings of the toolkit's mixed model of per-play responses (Effects/MixedModel).
public struct MixedModelConstants: EngineConstants {
    public static let spec = EngineSpec(name: "mixed_model", version: "1.1.0", constants: [
        ConstantSpec("onset_time_constant_s", 45, unit: "s", range: 1...600,
                     source: "cardiac responses to music develop over tens of seconds (Bernardi et al. 2006, Heart 92:445); first-order onset τ ≈ 45 s"),
        ConstantSpec("release_time_constant_s", 6, unit: "s", range: 0.1...600,
                     source: "choice: a play's effect fades within seconds after it stops (vagally mediated HR changes reverse within seconds)"),
        ConstantSpec("max_iterations", 500, unit: "iterations", range: 1...100_000, source: "choice: iteration cap of the alternating fit"),
        ConstantSpec("tolerance", 1e-6, unit: "relative", range: 1e-14...1e-2, source: "choice: the alternating fit stops when every parameter moves less than this × its scale"),
        ConstantSpec("min_cell_plays", 10, unit: "plays", range: 1...10_000, source: "choice: fewest plays for a song × context estimate"),
        ConstantSpec("ci_z", 1.959963984540054, unit: "z", range: 0.1...10, source: "normal quantile of the 95 % interval"),
        ConstantSpec("onset_shift_weight", 0.5, unit: "fraction", range: 0...10,
                     source: "choice: share of a song's shift between its estimates under the constant and the profiled onset added to its standard error in quadrature; chosen from 0, 0.5 and 1 on development seeds 201–203 at severe strength, where 0.5 gave 95 % coverage 0.93–0.985 under every response law (docs/methods.md)"),
        ConstantSpec("onset_test_lr", 10.83, unit: "χ² statistic", range: 0...1e9,
                     source: "choice: the likelihood-ratio statistic 2·Δℓ by which the profile's best onset must beat onset_time_constant_s to replace it (`effects --onset profiled`); 10.83 is χ²₁'s 99.9th percentile, strict because the grid offers several alternatives"),
    ])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.mixedModel }

    /// `onset_time_constant_s`, s.
    public let onsetTimeConstantS: Double
    /// `release_time_constant_s`, s.
    public let releaseTimeConstantS: Double
    /// `max_iterations`, iterations.
    public let maxIterations: Double
    /// `tolerance`, relative.
    public let tolerance: Double
    /// `min_cell_plays`, plays.
    public let minCellPlays: Double
    /// `ci_z`, z.
    public let ciZ: Double
    /// `onset_shift_weight`, fraction.
    public let onsetShiftWeight: Double
    /// `onset_test_lr`, χ² statistic.
    public let onsetTestLR: Double

    public init(_ c: ConstantReader) throws {
        onsetTimeConstantS = try c["onset_time_constant_s"]
        releaseTimeConstantS = try c["release_time_constant_s"]
        maxIterations = try c["max_iterations"]
        tolerance = try c["tolerance"]
        minCellPlays = try c["min_cell_plays"]
        ciZ = try c["ci_z"]
        onsetShiftWeight = try c["onset_shift_weight"]
        onsetTestLR = try c["onset_test_lr"]
    }
}
