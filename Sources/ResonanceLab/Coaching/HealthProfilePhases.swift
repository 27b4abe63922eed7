/// The health platform's user health-profile phases replayed per subject and day from
/// the daily tables (docs/engines/health-platform.md, Health-profile phases). A subject starts in
/// `baseline`; at most one transition a day, evaluated after the day's data:
/// - baseline → adaptation once `phase_baseline_days` days have resting HR or SDNN; the
///   baselines (mean SDNN, sleep and activity minutes of the days so far) are set then;
/// - adaptation → maintenance after `phase_adaptation_days` in the phase with pattern
///   confidence ≥ `phase_min_confidence` and `phase_accurate_streak` accurate predictions
///   in a row;
/// - maintenance → regression on `phase_indicator_count` regression indicators, or one
///   of severity > `phase_severity`;
/// - regression → adaptation after `phase_regression_days` in the phase on a day without
///   indicators.
/// A prediction is the median resting HR of the `baseline_days` before the day (at least
/// `min_baseline_days`), accurate within `phase_prediction_tolerance_bpm` of the day's
/// value; pattern confidence is the share of accurate predictions among the last
/// `phase_confidence_window` made in the current phase. Indicators: `activity_decline`,
/// `sleep_degradation`, `hrv_dropping` — the mean of the `trend_week_days` ending the day
/// (at least `trend_min_days` values) at least `hrv_drop_fraction` below its baseline,
/// severity the relative drop (at most 1). Engagement loss needs feedback on nudges that
/// the daily tables do not have and is never raised.
public enum HealthProfilePhases {
    public enum Phase: String, Sendable { case baseline, adaptation, maintenance, regression }

    public struct Indicator: Equatable, Sendable {
        /// `activity_decline`, `sleep_degradation`, `hrv_dropping`.
        public let name: String
        /// Relative drop below the baseline, 0–1.
        public let severity: Double
    }

    public struct Day: Equatable, Sendable {
        public let day: Int
        public let phase: Phase
        public let daysInPhase: Int
        /// Share of accurate predictions, nil before any in the phase.
        public let patternConfidence: Double?
        public let accurateStreak: Int
        /// The regression indicators of the day (maintenance and regression), with severities.
        public let indicators: [Indicator]
        public let changed: Bool
        /// The rule that moved the subject into `phase` (on the day of the move and after).
        public let rule: String
    }

    /// The regression indicators of `day` against the phase baselines.
    static func indicators(_ h: CoachingHistory, day: Int, baselines: [String: Double],
                           constants c: CoachingConstants) -> [Indicator] {
        let week = DailyWindow.ending(day, count: c.trendWeekDays)
        let metrics: [(String, (DailyRow) -> Double?)] = [
            ("activity_decline", CoachingHistory.activityMinutes), ("sleep_degradation", { $0.snapshot.sleepHours }),
            ("hrv_dropping", { $0.snapshot.hrvSDNNMs }),
        ]
        return metrics.compactMap { name, value in
            let v = h.values(week, value)
            guard let base = baselines[name], base > 0, v.count >= Int(c.trendMinDays) else { return nil }
            let drop = (base - Stats.mean(v)) / base
            return drop >= c.hrvDropFraction ? Indicator(name: name, severity: min(1, drop)) : nil
        }
    }

    /// Every day of `h` with its phase.
    public static func replay(_ h: CoachingHistory, constants c: CoachingConstants) -> [Day] {
        var phase = Phase.baseline, entered = h.rows.first?.snapshot.day ?? 0, rule = "start"
        var dataDays = 0, streak = 0
        var predictions: [Bool] = []
        var baselines: [String: Double] = [:]
        var out: [Day] = []
        for row in h.rows {
            let day = row.snapshot.day
            if row.snapshot.restingHRBpm != nil || row.snapshot.hrvSDNNMs != nil { dataDays += 1 }
            if phase != .baseline, let rhr = row.snapshot.restingHRBpm {
                let base = h.values(DailyWindow.before(day, count: c.baselineDays)) { $0.snapshot.restingHRBpm }
                if base.count >= Int(c.minBaselineDays) {
                    let accurate = abs(rhr - Stats.median(base)) <= c.phasePredictionToleranceBpm
                    predictions.append(accurate)
                    streak = accurate ? streak + 1 : 0
                }
            }
            func confidence() -> Double? {
                let recent = predictions.suffix(Int(c.phaseConfidenceWindow))
                return recent.isEmpty ? nil : Double(recent.filter { $0 }.count) / Double(recent.count)
            }
            var found: [Indicator] = []
            if phase == .maintenance || phase == .regression {
                found = indicators(h, day: day, baselines: baselines, constants: c)
            }
            var next: (Phase, String)?
            switch phase {
            case .baseline:
                if Double(dataDays) >= c.phaseBaselineDays {
                    let upTo = h.rows.prefix { $0.snapshot.day <= day }
                    func mean(_ v: (DailyRow) -> Double?) -> Double? {
                        let x = upTo.compactMap(v).filter(\.isFinite)
                        return x.isEmpty ? nil : Stats.mean(x)
                    }
                    baselines = ["activity_decline": mean(CoachingHistory.activityMinutes), "sleep_degradation": mean { $0.snapshot.sleepHours },
                                 "hrv_dropping": mean { $0.snapshot.hrvSDNNMs }].compactMapValues { $0 }
                    next = (.adaptation, "baseline_complete: \(dataDays) data days ≥ \(Int(c.phaseBaselineDays))")
                }
            case .adaptation:
                let conf = confidence() ?? 0
                if Double(day - entered) >= c.phaseAdaptationDays, conf >= c.phaseMinConfidence, Double(streak) >= c.phaseAccurateStreak {
                    next = (.maintenance, "adaptation_complete: \(day - entered) days, confidence \(decimals(conf, 2)), \(streak) accurate in a row")
                }
            case .maintenance:
                if Double(found.count) >= c.phaseIndicatorCount || found.contains(where: { $0.severity > c.phaseSeverity }) {
                    next = (.regression, "regression_detected: " + found.map { "\($0.name) \(decimals($0.severity, 2))" }.joined(separator: ", "))
                }
            case .regression:
                if Double(day - entered) >= c.phaseRegressionDays, found.isEmpty {
                    next = (.adaptation, "regression_recovered: \(day - entered) days, no indicators")
                }
            }
            if let (p, r) = next {
                phase = p; entered = day; rule = r; streak = 0; predictions = []
            }
            out.append(Day(day: day, phase: phase, daysInPhase: day - entered, patternConfidence: confidence(), accurateStreak: streak,
                           indicators: found, changed: next != nil, rule: rule))
        }
        return out
    }
}
