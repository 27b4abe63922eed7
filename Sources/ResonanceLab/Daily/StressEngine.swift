import Foundation

/// Stress level bands of the daily stress score (docs/engines/heart-coach.md, Stress).
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
    /// 0–1: the nominal weight of the signals present over that of all three, times
    /// the baseline days found over the baseline window (docs/engines/health-platform.md, Receipts).
    public var confidence: Double = 0
    /// The signals the score came from (the hourly estimates shift their HRV term).
    public var signals = StressSignals()
}

/// Daily HR-primary stress (docs/engines/heart-coach.md, Stress):
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
        restingHRScore(percentAbove: 100 * (restingHRBpm - baselineBpm) / baselineBpm)
    }

    /// Resting-HR deviation score from the % above baseline, before clamping.
    public func restingHRScore(percentAbove: Double) -> Double {
        c.rhrScoreAtBaseline + c.rhrPointsPerPercent * percentAbove
    }

    public func level(_ score: Double) -> StressLevel {
        score < c.relaxedBelow ? .relaxed : score < c.elevatedFrom ? .balanced : .elevated
    }

    /// The signals of `today` against the days before it (sorted by day): resting HR %
    /// above the mean of the baseline days, the z-score of ln(SDNN) against them, and the
    /// SDNN coefficient of variation over the recent days; each nil without enough history.
    public func signals(_ today: DailySnapshot, history: ArraySlice<DailySnapshot>) -> StressSignals {
        let baselineDays = DailyWindow.before(today.day, count: c.baselineDays)
        let minDays = Int(c.minBaselineDays)
        var out = StressSignals()

        let rhrBase = DailyWindow.values(history, days: baselineDays, \.restingHRBpm)
        out.rhrBaselineDays = rhrBase.count
        if let rhr = today.restingHRBpm, rhrBase.count >= minDays {
            let base = Stats.mean(rhrBase)
            if base > 0 {
                out.rhrPercentAbove = 100 * (rhr - base) / base
                out.rhrBaselineBpm = base
            }
        }

        let lnBase = DailyWindow.values(history, days: baselineDays, \.hrvSDNNMs).filter { $0 > 0 }.map { log($0) }
        if let sdnn = today.hrvSDNNMs, sdnn > 0, lnBase.count >= minDays {
            let sd = Stats.sd(lnBase)
            if sd > 0 {
                out.hrvZ = (log(sdnn) - Stats.mean(lnBase)) / sd
                out.hrvLnSD = sd
                out.hrvBaselineDays = lnBase.count
            }
        }

        let recent = DailyWindow.values(history, days: DailyWindow.ending(today.day - 1, count: c.cvDays - 1), \.hrvSDNNMs)
            + [today.hrvSDNNMs].compactMap { $0 }
        if recent.count >= Int(c.cvMinDays), Stats.mean(recent) > 0 {
            out.sdnnCV = Stats.sd(recent) / Stats.mean(recent)
            out.cvDays = recent.count
        }
        return out
    }

    /// Each available signal's points (clamped to 0–100) and nominal weight; RHR and HRV
    /// alone take the specification's explicit 0.60 / 0.40.
    public func points(_ s: StressSignals) -> StressPoints {
        var p = StressPoints()
        if let pct = s.rhrPercentAbove {
            p.rhr = (clamp(restingHRScore(percentAbove: pct), 0...100), c.weightRHR)
        }
        if let z = s.hrvZ { p.hrv = (clamp(c.hrvScoreAtBaseline - c.hrvPointsPerSD * z, 0...100), c.weightHRV) }
        if let cv = s.sdnnCV {
            p.stability = (ramp(cv, from: c.cvStable, c.cvScoreStable, to: c.cvUnstable, c.cvScoreUnstable), c.weightCV)
        }
        if let rhr = p.rhr, let hrv = p.hrv, p.stability == nil {
            p.rhr = (rhr.points, c.weightRHRWithoutCV)
            p.hrv = (hrv.points, c.weightHRVWithoutCV)
        }
        return p
    }

    /// The 0–100 score of `s`: the weighted mean of the available signals' points
    /// (weights re-normalised over them) through the logistic; nil when no signal is
    /// available or their weights are all zero. Allocation-free, for tuning loops.
    public func score(_ s: StressSignals) -> Double? {
        let p = points(s)
        var total = 0.0, sum = 0.0
        func add(_ part: (points: Double, weight: Double)?) {
            guard let part else { return }
            total += part.weight
            sum += part.weight * part.points
        }
        add(p.rhr); add(p.hrv); add(p.stability)
        return total > 0 ? sigmoid(sum / total) : nil
    }

    /// Stress of `today` given the days before it (sorted by day); nil when no signal
    /// has enough history.
    public func assess(_ today: DailySnapshot, history: ArraySlice<DailySnapshot>) -> StressResult? {
        let s = signals(today, history: history)
        let p = points(s)
        var components: [Component] = []
        if let rhr = p.rhr, let pct = s.rhrPercentAbove, let base = s.rhrBaselineBpm, let bpm = today.restingHRBpm {
            components.append(Component(name: "resting_hr", score: rhr.points, weight: rhr.weight,
                                        detail: "\(decimals(bpm, 1)) bpm, \(signed(pct, 1)) % vs baseline \(decimals(base, 1)) bpm",
                                        raw: bpm, unit: "bpm",
                                        comparedWith: "\(s.rhrBaselineDays)-day baseline mean \(decimals(base, 1)) bpm"))
        }
        if let hrv = p.hrv, let z = s.hrvZ, let sdnn = today.hrvSDNNMs {
            components.append(Component(name: "hrv", score: hrv.points, weight: hrv.weight,
                                        detail: "SDNN \(decimals(sdnn, 1)) ms, z(ln SDNN) \(signed(z, 2)) vs \(s.hrvBaselineDays)-day baseline",
                                        raw: sdnn, unit: "ms",
                                        comparedWith: "\(s.hrvBaselineDays)-day baseline of ln SDNN (z \(signed(z, 2)))"))
        }
        if let stability = p.stability, let cv = s.sdnnCV {
            components.append(Component(name: "hrv_stability", score: stability.points, weight: stability.weight,
                                        detail: "SDNN CV \(decimals(cv, 3)) over \(s.cvDays) days",
                                        raw: cv, unit: "ratio",
                                        comparedWith: "SDNN of the last \(s.cvDays) days (stable ≤ \(decimals(c.cvStable, 2)))"))
        }
        guard let (raw, drivers) = Component.combine(components, neutral: c.sigmoidCenter) else { return nil }
        let score = sigmoid(raw)
        // Coverage by the nominal weights (not the RHR + HRV pair's own), times history.
        let present = (p.rhr != nil ? c.weightRHR : 0) + (p.hrv != nil ? c.weightHRV : 0) + (p.stability != nil ? c.weightCV : 0)
        let history = min(1, Double(max(s.rhrBaselineDays, s.hrvBaselineDays)) / c.baselineDays)
        return StressResult(raw: raw, score: score, level: level(score), drivers: drivers,
                            confidence: present / (c.weightRHR + c.weightHRV + c.weightCV) * history, signals: s)
    }

    /// The day's circadian hourly estimates (product specification: the daily HRV
    /// interpolated to hourly values by circadian multipliers on HRV): for each local
    /// hour h, HRV_h = SDNN × `circadian_h`, scored by this engine with the day's
    /// signals, its HRV z-score being that of ln(HRV_h) against the same baseline,
    /// z_h = z + ln(m_h)/SD(ln SDNN baseline). Resting HR and stability are the day's,
    /// so an hour whose multiplier is 1 scores the day's stress. Empty when the day
    /// has no HRV z-score (no SDNN or too short a baseline).
    public func hourly(sdnnMs: Double?, signals: StressSignals) -> [HourlyStress] {
        guard let sdnn = sdnnMs, let z = signals.hrvZ, let sd = signals.hrvLnSD, sd > 0 else { return [] }
        return c.circadianMultipliers.enumerated().compactMap { hour, m in
            var s = signals
            s.hrvZ = z + log(m) / sd
            return score(s).map { HourlyStress(hour: hour, hrvEstimateMs: sdnn * m, multiplier: m, stress: $0, level: level($0)) }
        }
    }

    /// The direction of `points` (day, stress score), by the least-squares slope in
    /// points/day (product specification: ±0.5 points/day): rising above
    /// `trend_slope_points_per_day`, falling below its negative, else steady; nil with
    /// fewer than `trend_min_days` points or a single day.
    public func trendDirection(_ points: [(day: Int, score: Double)]) -> StressTrend? {
        guard points.count >= Int(c.trendMinDays) else { return nil }
        let mx = Stats.mean(points.map { Double($0.day) }), my = Stats.mean(points.map(\.score))
        var sxy = 0.0, sxx = 0.0
        for p in points {
            sxy += (Double(p.day) - mx) * (p.score - my)
            sxx += (Double(p.day) - mx) * (Double(p.day) - mx)
        }
        guard sxx > 0 else { return nil }
        let slope = sxy / sxx
        return slope > c.trendSlopePointsPerDay ? .rising : slope < -c.trendSlopePointsPerDay ? .falling : .steady
    }
}

/// Direction of the stress scores over the trend window.
public enum StressTrend: String, Sendable {
    case rising, falling, steady
}

/// One local hour's circadian stress estimate.
public struct HourlyStress: Equatable, Sendable {
    /// Local clock hour, 0–23.
    public let hour: Int
    /// The day's SDNN × the hour's multiplier, ms.
    public let hrvEstimateMs: Double
    public let multiplier: Double
    /// 0–100.
    public let stress: Double
    public let level: StressLevel
}

/// The stress engine's signals for one day (or one window), before any weighting.
public struct StressSignals: Equatable, Sendable {
    /// Resting HR above the baseline mean, % (nil without enough baseline).
    public var rhrPercentAbove: Double?
    public var rhrBaselineBpm: Double?
    /// Baseline days with a resting HR.
    public var rhrBaselineDays = 0
    /// z-score of ln(SDNN) against the baseline days.
    public var hrvZ: Double?
    /// SD of the baseline days' ln(SDNN), the z-score's denominator.
    public var hrvLnSD: Double?
    public var hrvBaselineDays = 0
    /// Coefficient of variation of SDNN over the recent days (ratio).
    public var sdnnCV: Double?
    public var cvDays = 0

    public init(rhrPercentAbove: Double? = nil, hrvZ: Double? = nil, sdnnCV: Double? = nil) {
        self.rhrPercentAbove = rhrPercentAbove; self.hrvZ = hrvZ; self.sdnnCV = sdnnCV
    }
}

/// Each available signal's points (0–100) and nominal weight.
public struct StressPoints: Sendable {
    public var rhr: (points: Double, weight: Double)?
    public var hrv: (points: Double, weight: Double)?
    public var stability: (points: Double, weight: Double)?
}
