import Foundation

/// Stress level bands of the daily stress score (docs/engines.md, Stress).
public enum StressLevel: String, Sendable {
    case relaxed, balanced, elevated
}

/// One day's stress: the weighted score before the logistic, the 0–100 output, its
/// level and the drivers.
public struct StressResult: Equatable, Sendable {
    public let raw: Double
    public let score: Double
    public let level: StressLevel
    public let drivers: [Driver]
}

/// Daily HR-primary stress (docs/engines.md, Stress):
/// - resting-HR score = 40 + 4·(% above the personal baseline), the baseline being the
///   mean resting HR of the 28 days before the day;
/// - HRV score = 40 − 20·z, z the z-score of today's ln(SDNN) against the same
///   baseline days (SDNN is log-normal; the log makes the z symmetric);
/// - HRV-stability score from the coefficient of variation of SDNN over the 7 days
///   ending today: 40 at CV ≤ 0.15 (stable), rising linearly to 100 at CV ≥ 0.30;
/// - weights 0.50 / 0.30 / 0.20 re-normalised over the available signals, except that
///   RHR + HRV alone use the specification's explicit 0.60 / 0.40 (proportional
///   re-normalisation would give 0.625 / 0.375);
/// - output = 100 / (1 + exp(−0.08·(x − 50))); relaxed < 35 ≤ balanced < 65 ≤ elevated.
///
/// Each signal's points are clamped to 0–100 before weighting (the specification does
/// not say; without it a 25 % RHR rise, 140 points, would outweigh every other signal
/// whatever the weights). The HRV and stability mappings are not in the specification;
/// see `StressConstants`.
public struct StressEngine: Sendable {
    public let constants: StressConstants

    public init(constants: StressConstants = .defaults) {
        self.constants = constants
    }

    private var c: StressConstants { constants }

    /// The product's logistic: 100 / (1 + exp(−k·(x − centre))).
    public func sigmoid(_ x: Double) -> Double {
        100 / (1 + exp(-c.sigmoidSlope * (x - c.sigmoidCenter)))
    }

    /// Resting-HR deviation score: 40 + 4·(% above baseline), before clamping.
    public func restingHRScore(restingHRBpm: Double, baselineBpm: Double) -> Double {
        let percentAbove = 100 * (restingHRBpm - baselineBpm) / baselineBpm
        return c.rhrScoreAtBaseline + c.rhrPointsPerPercent * percentAbove
    }

    public func level(_ score: Double) -> StressLevel {
        score < c.relaxedBelow ? .relaxed : score < c.elevatedFrom ? .balanced : .elevated
    }

    /// Stress of `today` given the days before it (sorted by day); nil when no signal
    /// has enough history.
    public func assess(_ today: DailySnapshot, history: ArraySlice<DailySnapshot>) -> StressResult? {
        let baselineDays = DailyWindow.before(today.day, count: c.baselineDays)
        let minDays = Int(c.minBaselineDays)
        var components: [Component] = []

        let rhrBase = DailyWindow.values(history, days: baselineDays, \.restingHRBpm)
        if let rhr = today.restingHRBpm, rhrBase.count >= minDays {
            let base = Stats.mean(rhrBase)
            if base > 0 {
                let pct = 100 * (rhr - base) / base
                components.append(Component(
                    name: "resting_hr", score: clamp(restingHRScore(restingHRBpm: rhr, baselineBpm: base), 0...100), weight: c.weightRHR,
                    detail: "\(decimals(rhr, 1)) bpm, \(signed(pct, 1)) % vs baseline \(decimals(base, 1)) bpm"))
            }
        }

        let lnBase = DailyWindow.values(history, days: baselineDays, \.hrvSDNNMs).filter { $0 > 0 }.map { log($0) }
        if let sdnn = today.hrvSDNNMs, sdnn > 0, lnBase.count >= minDays {
            let sd = Stats.sd(lnBase)
            if sd > 0 {
                let z = (log(sdnn) - Stats.mean(lnBase)) / sd
                components.append(Component(
                    name: "hrv", score: clamp(c.hrvScoreAtBaseline - c.hrvPointsPerSD * z, 0...100), weight: c.weightHRV,
                    detail: "SDNN \(decimals(sdnn, 1)) ms, z(ln SDNN) \(signed(z, 2)) vs \(lnBase.count)-day baseline"))
            }
        }

        let recent = DailyWindow.values(history, days: DailyWindow.ending(today.day - 1, count: c.cvDays - 1), \.hrvSDNNMs)
            + [today.hrvSDNNMs].compactMap { $0 }
        if recent.count >= Int(c.cvMinDays), Stats.mean(recent) > 0 {
            let cv = Stats.sd(recent) / Stats.mean(recent)
            components.append(Component(
                name: "hrv_stability",
                score: ramp(cv, from: c.cvStable, c.cvScoreStable, to: c.cvUnstable, c.cvScoreUnstable),
                weight: c.weightCV, detail: "SDNN CV \(decimals(cv, 3)) over \(recent.count) days"))
        }

        if components.map(\.name) == ["resting_hr", "hrv"] {
            components = [
                Component(name: "resting_hr", score: components[0].score, weight: c.weightRHRWithoutCV, detail: components[0].detail),
                Component(name: "hrv", score: components[1].score, weight: c.weightHRVWithoutCV, detail: components[1].detail),
            ]
        }
        guard let (raw, drivers) = Component.combine(components, neutral: c.sigmoidCenter) else { return nil }
        let score = sigmoid(raw)
        return StressResult(raw: raw, score: score, level: level(score), drivers: drivers)
    }
}
