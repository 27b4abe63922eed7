/// One training zone: heart-rate bounds in bpm and the fractions of heart-rate
/// reserve they correspond to.
public struct HeartRateZone: Equatable, Sendable {
    public let number: Int
    public let fromFraction: Double
    public let toFraction: Double
    public let lowBpm: Double
    public let highBpm: Double
}

/// Karvonen zones (Karvonen et al. 1957): bound = rest + fraction·(max − rest), with
/// Tanaka's age-predicted maximum 208 − 0.7·age (Tanaka et al., JACC 2001; more
/// accurate than 220 − age above 40), five zones at 50–60–70–80–90–100 % of reserve.
public struct HeartRateZoneEngine: Sendable {
    public let constants: ZoneConstants

    public init(constants: ZoneConstants = .defaults) {
        self.constants = constants
    }

    private var c: ZoneConstants { constants }

    /// Tanaka age-predicted maximum heart rate, bpm, with the product's female
    /// adjustment (`female_max_hr_adjustment_bpm`) for `sex` `female`; other or unknown
    /// sex takes Tanaka's equation as fitted, on men and women pooled.
    public func maxHR(age: Double, sex: String = "") -> Double {
        c.maxHRIntercept - c.maxHRAgeSlope * age + (sex == "female" ? c.femaleMaxHRAdjustmentBpm : 0)
    }

    /// The five zones; empty when resting HR is not below the predicted maximum.
    public func zones(age: Double, restingHRBpm rest: Double, sex: String = "") -> [HeartRateZone] {
        let max = maxHR(age: age, sex: sex)
        guard rest > 0, max > rest else { return [] }
        let bounds = [c.zone1From, c.zone2From, c.zone3From, c.zone4From, c.zone5From, c.zone5To]
        return (0..<5).map { i in
            HeartRateZone(number: i + 1, fromFraction: bounds[i], toFraction: bounds[i + 1],
                          lowBpm: rest + bounds[i] * (max - rest), highBpm: rest + bounds[i + 1] * (max - rest))
        }
    }
}
