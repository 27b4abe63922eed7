/// The HRV stage's reliability rule: a window with more corrected or missing beats than
/// this share is kept and marked `reliable = false` (docs/methods.md, HRV); every stage
/// that asks whether a window's HRV is reliable (daily's SDNN, validate's stress scoring)
/// uses it.
public struct HRVConstants: EngineConstants, Equatable {
    public static let spec = EngineSpec(name: "hrv", version: "1.0.0", constants: [
        ConstantSpec("max_artifact_pct", 5, unit: "%", range: 0...100,
                     source: "choice: at most 5 % of a window's beats corrected or missing, the limit under which artifact correction leaves short-term HRV indices close to those of clean data (Peltola 2012, Front Physiol 3:148)"),
    ])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.hrv }

    /// `max_artifact_pct`, %.
    public let maxArtifactPct: Double

    public init(_ c: ConstantReader) throws {
        maxArtifactPct = try c["max_artifact_pct"]
    }
}
