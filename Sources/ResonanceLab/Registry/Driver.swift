/// One input's share in a score: the "decision receipt" the product shows next to
/// every daily score, saying which inputs moved it and by how much.
public struct Driver: Equatable, Sendable {
    /// Signal name, e.g. `resting_hr`.
    public let name: String
    /// The component's own score (points 0–100, or a z-score for the trend engine).
    public let score: Double
    /// Weight after re-normalisation over the available signals.
    public let weight: Double
    /// Signed effect on the combined score: weight × (score − neutral), where neutral is
    /// the scale's midpoint (50 points, z = 0). Positive raises the score.
    public let points: Double
    /// What the input was, in words with units (e.g. `62 bpm, +6.9 % vs baseline 58`).
    public let detail: String
    /// The input's own value (`unit`), and what it was compared with, for the receipt.
    public var raw: Double? = nil
    public var unit = ""
    public var comparedWith = ""

    /// The driver's share of the weighted score it is part of: weight × component /
    /// the weighted score (the shares of a score's drivers sum to 1).
    public func share(of weightedScore: Double) -> Double? {
        weightedScore != 0 ? weight * score / weightedScore : nil
    }

    /// `raises` or `lowers` the score from the scale's neutral point, or `neutral`.
    public var direction: String {
        points > 0 ? "raises" : points < 0 ? "lowers" : "neutral"
    }
}

/// A signal before weighting: its score, nominal weight and description.
struct Component {
    let name: String
    let score: Double
    let weight: Double
    let detail: String
    var raw: Double? = nil
    var unit = ""
    var comparedWith = ""

    /// Weighted mean of the available components, weights re-normalised to sum to 1,
    /// and the drivers sorted by the size of their effect (largest first, ties by
    /// name). Nil when no component is available or all weights are zero.
    static func combine(_ components: [Component], neutral: Double) -> (value: Double, drivers: [Driver])? {
        let total = components.reduce(0) { $0 + $1.weight }
        guard total > 0 else { return nil }
        var value = 0.0
        var drivers: [Driver] = []
        for c in components {
            let w = c.weight / total
            value += w * c.score
            drivers.append(Driver(name: c.name, score: c.score, weight: w, points: w * (c.score - neutral), detail: c.detail,
                                  raw: c.raw, unit: c.unit, comparedWith: c.comparedWith))
        }
        drivers.sort { abs($0.points) != abs($1.points) ? abs($0.points) > abs($1.points) : $0.name < $1.name }
        return (value, drivers)
    }
}

/// `x` with `digits` decimals (POSIX formatting, the same on every machine).
func decimals(_ x: Double, _ digits: Int) -> String {
    String(format: "%.\(digits)f", x)
}

/// `x` with an explicit sign and `digits` decimals.
func signed(_ x: Double, _ digits: Int) -> String {
    String(format: "%+.\(digits)f", x)
}
