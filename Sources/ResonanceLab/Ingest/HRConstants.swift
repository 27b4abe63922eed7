/// The one plausibility range of a heart-rate sample (docs/import.md, Import rules):
/// import rejects samples outside it.
public struct HRConstants: EngineConstants, Equatable {
    public static let spec = EngineSpec(name: "hr", version: "1.0.0", constants: [
        ConstantSpec("bpm_min", 20, unit: "bpm", range: 1...100,
                     source: "choice: below the slowest sustained human rhythm (complete heart block escape rhythms run at 20–40 bpm): a lower value is a sensor dropout"),
        ConstantSpec("bpm_max", 250, unit: "bpm", range: 150...400,
                     source: "choice: above the age-predicted maximum heart rate of any age (208 − 0.7·age, Tanaka et al. 2001) and the fastest supraventricular tachycardias: a higher value is a doubled or spurious detection"),
    ], orderRules: [
        OrderRule(["bpm_min", "bpm_max"], strict: true),
    ])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.hr }

    /// `bpm_min`, bpm.
    public let bpmMin: Double
    /// `bpm_max`, bpm.
    public let bpmMax: Double

    public init(_ c: ConstantReader) throws {
        bpmMin = try c["bpm_min"]
        bpmMax = try c["bpm_max"]
    }

    /// The plausible heart rates, bpm.
    public var rangeBpm: ClosedRange<Double> { bpmMin...bpmMax }

    /// Whether `bpm` is a finite heart rate in the range.
    public func isPlausible(_ bpm: Double) -> Bool { bpm >= bpmMin && bpm <= bpmMax }

    /// The reject reason of a sample outside the range, e.g. `bpm outside 20–250`.
    public var rejectReason: String {
        "bpm outside \(RRConstants.text(bpmMin))–\(RRConstants.text(bpmMax))"
    }
}
