/// One day's heart-trend outputs.
public struct TrendResult: Equatable, Sendable {
    /// Weighted robust z-score, positive = worse than usual; nil without a baseline.
    public let anomaly: Double?
    /// Robust z-scores of today's inputs against the baseline (not sign-adjusted).
    public let restingHRZ: Double?
    public let hrvZ: Double?
    public let recovery1mZ: Double?
    /// 7-day least-squares slopes, bpm/day and ms/day.
    public let restingHRSlope: Double?
    public let hrvSlope: Double?
    public let regression: Bool
    public let stressPattern: Bool
    /// z of the current 7-day mean resting HR against the 28 days before that week.
    public let weekRestingHRZ: Double?
    /// Resting HR above baseline mean + 2σ today.
    public let elevated: Bool
    /// Length of the run of elevated days ending today (0 when today is not elevated).
    public let elevationStreakDays: Int
    public let elevationAlert: Bool
    public let drivers: [Driver]
    /// `anomaly`, `regression`, `stress_pattern`, `rhr_week_up`, `rhr_week_down`,
    /// `consecutive_elevation`, in this order, each when raised.
    public let flags: [String]
}

/// Heart trend (the heart-health coach's trend rules):
/// - anomaly = Σ wᵢ·sᵢ·zᵢ over the available inputs, weights re-normalised, zᵢ the
///   robust z = (x − median)/(1.4826·MAD) against the 28 days before the day
///   (Rousseeuw & Croux 1993: insensitive to a sick day or a bad night in the
///   baseline). Weights RHR 0.25, HRV 0.25, recovery 1 min 0.20, recovery 2 min 0.10,
///   VO2 max 0.20. The specification negates HRV only; this engine negates every
///   higher-is-better input (sᵢ = −1 for HRV, recoveries and VO2 max, +1 for RHR), so
///   that a positive anomaly always means worse than usual — otherwise an improving
///   recovery would count as deterioration. A MAD of 0 leaves that input out.
/// - regression: 7-day RHR slope > +0.3 bpm/day or HRV slope < −0.3 ms/day (or one of
///   the statistically sound variants `regression_method` selects, see `regression`). The
///   specification writes "RHR slope > −0.3 (increasing)", which fires on a flat or
///   slightly falling RHR; the sign is read as a typo and +0.3 is the default, both
///   thresholds being registry constants.
/// - stress pattern: RHR z ≥ 1.5, HRV z ≤ −1.5 and 1-minute recovery z ≤ −1.5.
/// - week over week: (mean RHR of the 7 days ending today − mean of the 28 days before
///   that week) / SD of those 28 days; |z| > 1.5 is significant.
/// - consecutive elevation: RHR > mean + 2σ of the week-over-week baseline on 3 or
///   more consecutive measured days, a gap over 1.5 days between measurements
///   breaking the streak.
public struct HeartTrendEngine: Sendable {
    public let constants: TrendConstants

    public init(constants: TrendConstants = .defaults) {
        self.constants = constants
    }

    private var c: TrendConstants { constants }

    /// (x − median)/(scale·MAD) of `x` against `baseline`; nil when MAD is 0 or the
    /// baseline has fewer than `min_baseline_days` values.
    public func robustZ(_ x: Double, baseline: [Double]) -> Double? {
        guard baseline.count >= Int(c.minBaselineDays) else { return nil }
        let mad = Stats.mad(baseline)
        guard mad > 0 else { return nil }
        return (x - Stats.median(baseline)) / (c.madScale * mad)
    }

    /// The week-over-week baseline of `day`: the 28 days before the 7-day week ending
    /// with `day`.
    func weekBaselineDays(_ day: Int) -> ClosedRange<Int> {
        DailyWindow.before(DailyWindow.ending(day, count: c.weekDays).lowerBound, count: c.weekBaselineDays)
    }

    /// Whether `snapshot`'s resting HR exceeds mean + 2σ of its week-over-week baseline.
    /// The baseline excludes the current week so that an elevation does not inflate
    /// its own baseline: against the trailing days, a sustained 19 bpm rise after ten
    /// days of 60/62 bpm at 80 bpm stops counting as elevated on its fourth day (the
    /// threshold mean + 2σ climbs 63.1 → 74.4 → 79.1 → 82.1 bpm).
    func isElevated(_ snapshot: DailySnapshot, history: ArraySlice<DailySnapshot>) -> Bool {
        guard let rhr = snapshot.restingHRBpm else { return false }
        let base = DailyWindow.values(history, days: weekBaselineDays(snapshot.day), \.restingHRBpm)
        guard base.count >= Int(c.minBaselineDays) else { return false }
        return rhr > Stats.mean(base) + c.elevationSD * Stats.sd(base)
    }

    /// Length of the run of elevated measured days ending with `today`.
    func elevationStreak(_ today: DailySnapshot, history: ArraySlice<DailySnapshot>) -> Int {
        guard isElevated(today, history: history) else { return 0 }
        var streak = 1
        var lastDay = today.day
        var end = history.endIndex
        while end > history.startIndex {
            let i = history.index(before: end)
            end = i
            let s = history[i]
            guard s.restingHRBpm != nil else { continue }
            guard Double(lastDay - s.day) <= c.elevationMaxGapDays,
                  isElevated(s, history: history[..<i]) else { break }
            streak += 1
            lastDay = s.day
        }
        return streak
    }

    /// The regression rule of `regression_method`, with the slopes it reports
    /// (bpm/day, ms/day; least squares, or Theil–Sen for method 2; nil below
    /// `slope_min_days` points):
    /// - 0: the product's rule, slope of the `slope_days` ending today beyond
    ///   `rhr_slope_threshold` / `hrv_slope_threshold`;
    /// - 1: the same, only when the slope's |t| ≥ `slope_t_min` (significant);
    /// - 2: the same thresholds on the Theil–Sen slope;
    /// - 3: an EWMA control chart (Roberts 1959; Lucas & Saccucci 1990) of the robust z of
    ///   each day of those `slope_days` against the `baseline_days` before them: from 0,
    ///   e ← λ·z + (1 − λ)·e; resting HR e ≥ L·√(λ/(2 − λ)) or SDNN e ≤ −L·√(λ/(2 − λ)),
    ///   λ = `ewma_lambda`, L = `ewma_limit`.
    func regression(_ today: DailySnapshot, history: ArraySlice<DailySnapshot>) -> (rhrSlope: Double?, hrvSlope: Double?, flag: Bool) {
        let days = DailyWindow.ending(today.day, count: c.slopeDays)
        let method = Int(c.regressionMethod.rounded())
        func points(_ metric: KeyPath<DailySnapshot, Double?>) -> [(day: Int, value: Double)] {
            DailyWindow.points(history, days: days, metric) + DailyWindow.points([today], days: days, metric)
        }
        func slope(_ metric: KeyPath<DailySnapshot, Double?>) -> Double? {
            let p = points(metric)
            guard p.count >= Int(c.slopeMinDays) else { return nil }
            return method == 2 ? DailyWindow.theilSen(p) : DailyWindow.slope(p)
        }
        let rhrSlope = slope(\.restingHRBpm), hrvSlope = slope(\.hrvSDNNMs)
        func beyond(_ metric: KeyPath<DailySnapshot, Double?>, _ s: Double?, rising: Bool) -> Bool {
            guard let s else { return false }
            let threshold = rising ? c.rhrSlopeThreshold : c.hrvSlopeThreshold
            guard rising ? s > threshold : s < threshold else { return false }
            guard method == 1 else { return true }
            guard let t = DailyWindow.slopeT(points(metric)) else { return false }
            return rising ? t >= c.slopeTMin : t <= -c.slopeTMin
        }
        guard method == 3 else {
            return (rhrSlope, hrvSlope, beyond(\.restingHRBpm, rhrSlope, rising: true) || beyond(\.hrvSDNNMs, hrvSlope, rising: false))
        }
        let baseline = DailyWindow.before(days.lowerBound, count: c.baselineDays)
        let limit = c.ewmaLimit * (c.ewmaLambda / (2 - c.ewmaLambda)).squareRoot()
        func ewma(_ metric: KeyPath<DailySnapshot, Double?>) -> Double? {
            let p = points(metric)
            guard p.count >= Int(c.slopeMinDays) else { return nil }
            let base = DailyWindow.values(history, days: baseline, metric)
            var e = 0.0
            for x in p {
                guard let z = robustZ(x.value, baseline: base) else { return nil }
                e = c.ewmaLambda * z + (1 - c.ewmaLambda) * e
            }
            return e
        }
        let up = ewma(\.restingHRBpm).map { $0 >= limit } ?? false
        let down = ewma(\.hrvSDNNMs).map { $0 <= -limit } ?? false
        return (rhrSlope, hrvSlope, up || down)
    }

    /// Trend outputs of `today` given the days before it (sorted by day).
    public func assess(_ today: DailySnapshot, history: ArraySlice<DailySnapshot>) -> TrendResult {
        let baselineDays = DailyWindow.before(today.day, count: c.baselineDays)
        func z(_ metric: KeyPath<DailySnapshot, Double?>) -> Double? {
            guard let x = today[keyPath: metric] else { return nil }
            return robustZ(x, baseline: DailyWindow.values(history, days: baselineDays, metric))
        }
        let inputs: [(String, KeyPath<DailySnapshot, Double?>, String, Double, Double)] = [
            ("resting_hr", \.restingHRBpm, "bpm", c.weightRHR, 1),
            ("hrv", \.hrvSDNNMs, "ms", c.weightHRV, -1),
            ("recovery_1m", \.recovery1mBpm, "bpm", c.weightRecovery1m, -1),
            ("recovery_2m", \.recovery2mBpm, "bpm", c.weightRecovery2m, -1),
            ("vo2max", \.vo2Max, "mL/kg/min", c.weightVO2max, -1),
        ]
        var zs: [String: Double] = [:]
        var components: [Component] = []
        for (name, metric, unit, weight, sign) in inputs {
            guard let zi = z(metric), let x = today[keyPath: metric] else { continue }
            zs[name] = zi
            components.append(Component(name: name, score: sign * zi, weight: weight,
                                        detail: "\(decimals(x, 1)) \(unit), robust z \(signed(zi, 2))"))
        }
        let combined = Component.combine(components, neutral: 0)

        let (rhrSlope, hrvSlope, regression) = self.regression(today, history: history)

        var pattern = false
        if let r = zs["resting_hr"], let h = zs["hrv"], let rec = zs["recovery_1m"] {
            pattern = r >= c.patternRHRZ && h <= c.patternHRVZ && rec <= c.patternRecoveryZ
        }

        let weekDays = DailyWindow.ending(today.day, count: c.weekDays)
        let week = DailyWindow.values(history, days: weekDays, \.restingHRBpm) + [today.restingHRBpm].compactMap { $0 }
        let weekBase = DailyWindow.values(history, days: weekBaselineDays(today.day), \.restingHRBpm)
        var weekZ: Double?
        if !week.isEmpty, weekBase.count >= Int(c.weekMinBaselineDays), Stats.sd(weekBase) > 0 {
            weekZ = (Stats.mean(week) - Stats.mean(weekBase)) / Stats.sd(weekBase)
        }

        let streak = elevationStreak(today, history: history)
        let alert = streak >= Int(c.elevationMinDays)

        var flags: [String] = []
        if let a = combined?.value, a >= c.anomalyFlagZ { flags.append("anomaly") }
        if regression { flags.append("regression") }
        if pattern { flags.append("stress_pattern") }
        if let w = weekZ, w > c.weekSignificantZ { flags.append("rhr_week_up") }
        if let w = weekZ, w < -c.weekSignificantZ { flags.append("rhr_week_down") }
        if alert { flags.append("consecutive_elevation") }

        return TrendResult(anomaly: combined?.value, restingHRZ: zs["resting_hr"], hrvZ: zs["hrv"],
                           recovery1mZ: zs["recovery_1m"], restingHRSlope: rhrSlope, hrvSlope: hrvSlope,
                           regression: regression, stressPattern: pattern, weekRestingHRZ: weekZ,
                           elevated: streak > 0, elevationStreakDays: streak, elevationAlert: alert,
                           drivers: combined?.drivers ?? [], flags: flags)
    }
}
