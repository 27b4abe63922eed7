import Foundation

/// The day-to-day course of a persona's resting physiology: a deterministic shape over
/// the simulated days plus day-to-day noise. Shapes are centred so that the mean over
/// the days stays at the profile value (the persona's profile is its average).
public struct DailyPattern: Sendable, Equatable {
    public enum Shape: Sendable, Equatable {
        /// Noise around the profile only.
        case steady
        /// Accumulating strain: resting HR rises linearly by `rhrRise` (fraction of
        /// the profile) from the first to the last day, HRV falls by `hrvFall` (log
        /// units), both centred on the profile.
        case risingStrain(rhrRise: Double, hrvFall: Double)
        /// A training taper: the last `days` days have resting HR `rhrDrop` lower and
        /// HRV `hrvRise` higher (log units); the other days carry the opposite so the
        /// mean is unchanged.
        case taper(days: Int, rhrDrop: Double, hrvRise: Double)
    }

    public var shape: Shape
    /// Day-to-day SD of resting HR (fraction of the profile) and of ln HRV.
    public var rhrNoise: Double
    public var hrvNoise: Double
    /// Day-to-day SD of sleep duration (hours).
    public var sleepNoiseHours: Double

    public init(shape: Shape = .steady, rhrNoise: Double = 0.02, hrvNoise: Double = 0.07,
                sleepNoiseHours: Double = 0.4) {
        self.shape = shape; self.rhrNoise = rhrNoise; self.hrvNoise = hrvNoise
        self.sleepNoiseHours = sleepNoiseHours
    }

    /// Deterministic offsets of day `day` (0-based) of `days`: resting HR as a
    /// fraction of the profile, HRV in log units.
    public func offsets(day: Int, days: Int) -> (rhr: Double, lnHRV: Double) {
        switch shape {
        case .steady:
            return (0, 0)
        case let .risingStrain(rhrRise, hrvFall):
            let p = days > 1 ? Double(day) / Double(days - 1) - 0.5 : 0
            return (rhrRise * p, -hrvFall * p)
        case let .taper(taperDays, rhrDrop, hrvRise):
            let n = min(taperDays, days - 1)
            guard n > 0 else { return (0, 0) }
            if day >= days - n { return (-rhrDrop, hrvRise) }
            let share = Double(n) / Double(days - n)
            return (rhrDrop * share, -hrvRise * share)
        }
    }
}
