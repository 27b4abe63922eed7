/// Real-time state (docs/engines/dj.md, State), computed per heart-rate / HRV sample:
/// arousal = (HR − rest)/(max − rest) with max = 220 − age (Fox et al. 1971, as the
/// product specifies; the zone engine uses Tanaka), and stress = 1 − 0.6·HRV/baseline;
/// both clamped to [0, 1]. At baseline HRV the stress reads 0.4; it reaches 0 once
/// HRV is 1/0.6 ≈ 1.67 × baseline.
public struct StateEngine: Sendable {
    public let constants: StateConstants

    public init(constants: StateConstants = .defaults) {
        self.constants = constants
    }

    private var c: StateConstants { constants }

    /// Arousal in [0, 1]; nil when the predicted maximum is not above resting HR.
    public func arousal(hrBpm: Double, restingHRBpm rest: Double, age: Double) -> Double? {
        let max = c.maxHRIntercept - c.maxHRAgeSlope * age
        guard max > rest else { return nil }
        return clamp((hrBpm - rest) / (max - rest), 0...1)
    }

    /// Momentary stress in [0, 1]; nil without a positive baseline.
    public func stress(hrvMs: Double, baselineHRVMs: Double) -> Double? {
        guard baselineHRVMs > 0 else { return nil }
        return clamp(1 - c.hrvStressSlope * hrvMs / baselineHRVMs, 0...1)
    }
}
