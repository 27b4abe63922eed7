/// The one plausibility range of an R-R interval (docs/engines/toolkit.md, R-R plausibility):
/// import rejects intervals outside it, and every stage that reads `rr.csv` (hrv,
/// coherence, sessions) skips them before cleaning.
public struct RRConstants: EngineConstants, Equatable {
    public static let spec = EngineSpec(name: "rr", version: "1.0.0", constants: [
        ConstantSpec("rr_min_ms", 250, unit: "ms", range: 100...1000,
                     source: "choice: 240 bpm, above the age-predicted maximum heart rate (208 − 0.7·age, Tanaka et al. 2001): a shorter interval is a spurious or split detection"),
        ConstantSpec("rr_max_ms", 2500, unit: "ms", range: 1000...60_000,
                     source: "choice: 24 bpm, below any sustained sinus rhythm: a longer interval spans missed beats or a recording break"),
    ], orderRules: [
        OrderRule(["rr_min_ms", "rr_max_ms"], strict: true),
    ])

    public static var inRegistry: KeyPath<ConstantsRegistry, Self> { \.rr }

    /// `rr_min_ms`, ms.
    public let rrMinMs: Double
    /// `rr_max_ms`, ms.
    public let rrMaxMs: Double

    public init(_ c: ConstantReader) throws {
        rrMinMs = try c["rr_min_ms"]
        rrMaxMs = try c["rr_max_ms"]
    }

    /// The plausible R-R intervals, ms.
    public var rangeMs: ClosedRange<Double> { rrMinMs...rrMaxMs }

    /// Whether `rrMs` is a finite interval in the range.
    public func isPlausible(_ rrMs: Double) -> Bool { rrMs >= rrMinMs && rrMs <= rrMaxMs }

    /// The reject reason of an interval outside the range, e.g. `rr outside 250–2500 ms`.
    public var rejectReason: String {
        "rr outside \(Self.text(rrMinMs))–\(Self.text(rrMaxMs)) ms"
    }

    /// A bound as reject reasons write it: whole numbers without a fraction.
    static func text(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)"
    }
}
