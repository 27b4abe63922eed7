/// One row of `nudges.csv` (docs/tables.md): a nudge of a person-day, with the tier and
/// the rule that selected it and the readiness gate in force.
public struct NudgeRow: Equatable, Sendable {
    public var subject: String
    public var date: String
    /// 1 for the primary nudge.
    public var rank: Int
    public var tier: String
    public var nudgeId: String
    public var category: String
    public var rule: String
    public var readiness: Double?
    public var gate: String

    public init(subject: String, date: String, rank: Int, tier: String, nudgeId: String, category: String, rule: String,
                readiness: Double?, gate: String) {
        self.subject = subject; self.date = date; self.rank = rank; self.tier = tier; self.nudgeId = nudgeId
        self.category = category; self.rule = rule; self.readiness = readiness; self.gate = gate
    }
}

extension NudgeRow: CanonicalRow {
    public static let fileName = "nudges.csv"
    public static let header = ["subject", "date", "rank", "tier", "nudge_id", "category", "rule", "readiness", "gate"]

    public func write(to w: CSVWriter) {
        w.field(subject); w.field(date); w.field(rank); w.field(tier); w.field(nudgeId); w.field(category); w.field(rule)
        w.field(readiness); w.field(gate)
    }

    public init(_ r: CanonicalFieldReader) throws {
        self.init(subject: try r.string("subject"), date: try r.string("date"), rank: try r.count("rank"), tier: try r.string("tier"),
                  nudgeId: try r.string("nudge_id"), category: try r.string("category"), rule: try r.string("rule"),
                  readiness: try r.optionalDouble("readiness"), gate: try r.string("gate"))
    }
}

/// One row of `coaching.csv` (docs/tables.md): one finding of the coaching rules on a
/// person-day — the assessment, the recovery trend, a scenario, a recommendation, a
/// scheduled action, a weekly-report line or a correlation — with the rule that fired.
public struct CoachingRow: Equatable, Sendable {
    public var subject: String
    public var date: String
    /// `assessment`, `trend`, `scenario`, `recommendation`, `schedule`, `weekly_report`, `correlation`.
    public var kind: String
    public var id: String
    public var category: String
    /// `critical`, `high`, `medium`, `low` (recommendations), else empty.
    public var priority: String
    public var rank: Int?
    public var value: Double?
    public var unit: String
    /// Values behind the row: data days, days in the week, observations, pairs.
    public var n: Int?
    public var rule: String

    public init(subject: String, date: String, kind: String, id: String, category: String = "", priority: String = "",
                rank: Int? = nil, value: Double? = nil, unit: String = "", n: Int? = nil, rule: String) {
        self.subject = subject; self.date = date; self.kind = kind; self.id = id; self.category = category
        self.priority = priority; self.rank = rank; self.value = value; self.unit = unit; self.n = n; self.rule = rule
    }
}

extension CoachingRow: CanonicalRow {
    public static let fileName = "coaching.csv"
    public static let header = ["subject", "date", "kind", "id", "category", "priority", "rank", "value", "unit", "n", "rule"]

    public func write(to w: CSVWriter) {
        w.field(subject); w.field(date); w.field(kind); w.field(id); w.field(category); w.field(priority); w.field(rank)
        w.field(value); w.field(unit); w.field(n); w.field(rule)
    }

    public init(_ r: CanonicalFieldReader) throws {
        let rank = try r.string("rank"), n = try r.string("n")
        self.init(subject: try r.string("subject"), date: try r.string("date"), kind: try r.string("kind"), id: try r.string("id"),
                  category: try r.string("category"), priority: try r.string("priority"),
                  rank: rank.isEmpty ? nil : try r.count("rank"), value: try r.optionalDouble("value"), unit: try r.string("unit"),
                  n: n.isEmpty ? nil : try r.count("n"), rule: try r.string("rule"))
    }
}

/// One row of `phases.csv` (docs/tables.md): a person-day's health-profile phase and the
/// rule that moved the subject into it.
public struct PhaseRow: Equatable, Sendable {
    public var subject: String
    public var date: String
    public var phase: String
    public var daysInPhase: Int
    public var patternConfidence: Double?
    public var accurateStreak: Int
    /// `;`-joined `name:severity` of the day's regression indicators.
    public var indicators: String
    public var changed: Bool
    public var phaseRule: String

    public init(subject: String, date: String, phase: String, daysInPhase: Int, patternConfidence: Double?, accurateStreak: Int,
                indicators: String, changed: Bool, phaseRule: String) {
        self.subject = subject; self.date = date; self.phase = phase; self.daysInPhase = daysInPhase
        self.patternConfidence = patternConfidence; self.accurateStreak = accurateStreak; self.indicators = indicators
        self.changed = changed; self.phaseRule = phaseRule
    }
}

extension PhaseRow: CanonicalRow {
    public static let fileName = "phases.csv"
    public static let header = ["subject", "date", "phase", "days_in_phase", "pattern_confidence", "accurate_streak", "indicators",
                                "changed", "phase_rule"]

    public func write(to w: CSVWriter) {
        w.field(subject); w.field(date); w.field(phase); w.field(daysInPhase); w.field(patternConfidence); w.field(accurateStreak)
        w.field(indicators); w.field(changed); w.field(phaseRule)
    }

    public init(_ r: CanonicalFieldReader) throws {
        self.init(subject: try r.string("subject"), date: try r.string("date"), phase: try r.string("phase"),
                  daysInPhase: try r.count("days_in_phase"), patternConfidence: try r.optionalDouble("pattern_confidence", in: 0...1),
                  accurateStreak: try r.count("accurate_streak"), indicators: try r.string("indicators"),
                  changed: try r.bool("changed"), phaseRule: try r.string("phase_rule"))
    }
}

/// The coaching rule layers as a stage function: `daily.csv` rows in, `nudges.csv`,
/// `coaching.csv` and `phases.csv` rows out. Each day sees only itself and the days
/// before it (the weekly report and correlations count back from the day's date), so a
/// replay of the same rows gives the same tables.
public enum CoachingRules {
    public struct Tables: Equatable, Sendable {
        public var nudges: [NudgeRow] = []
        public var coaching: [CoachingRow] = []
        public var phases: [PhaseRow] = []
    }

    /// The tables of `daily`'s rows; subjects in order of first appearance, days ascending.
    public static func replay(_ daily: [DailyRow], constants c: CoachingConstants) -> Tables {
        var order: [String] = []
        var bySubject: [String: [DailyRow]] = [:]
        for r in daily {
            if bySubject[r.snapshot.subject] == nil { order.append(r.snapshot.subject) }
            bySubject[r.snapshot.subject, default: []].append(r)
        }
        var out = Tables()
        let engine = CoachingSignalEngine(constants: c)
        for subject in order {
            let h = CoachingHistory(rows: bySubject[subject] ?? [])
            for row in h.rows {
                let day = row.snapshot.day, date = row.snapshot.date
                let s = engine.signals(h, day: day)
                let (gate, nudges) = NudgeSelector.select(row, s, constants: c)
                for (i, n) in nudges.enumerated() {
                    out.nudges.append(NudgeRow(subject: subject, date: date, rank: i + 1, tier: n.tier, nudgeId: n.variation.id,
                                               category: n.variation.category, rule: n.rule, readiness: row.readiness, gate: gate.rawValue))
                }
                func add(_ kind: String, _ id: String, category: String = "", priority: String = "", rank: Int? = nil,
                         value: Double? = nil, unit: String = "", n: Int? = nil, rule: String) {
                    out.coaching.append(CoachingRow(subject: subject, date: date, kind: kind, id: id, category: category, priority: priority,
                                                    rank: rank, value: value, unit: unit, n: n, rule: rule))
                }
                add("assessment", s.status.rawValue, category: s.confidence.rawValue, value: row.anomaly, unit: "z", n: s.dataDays, rule: s.statusRule)
                if let t = s.recoveryTrend {
                    add("trend", "recovery_trend", category: t.direction.rawValue, value: t.change, unit: t.unit, n: t.days, rule: t.rule)
                }
                for x in s.scenarios { add("scenario", x.id, rule: x.rule) }
                for (i, x) in BuddyRecommendations.recommend(row, s, constants: c).enumerated() {
                    add("recommendation", x.id, category: x.category, priority: x.priority.name, rank: i + 1, rule: x.rule)
                }
                for a in NudgeScheduler.schedule(h, day: day, signals: s, constants: c) {
                    add("schedule", a.action, category: a.slot, value: a.hour, unit: "h", n: a.observations, rule: a.rule)
                }
                if WeeklyReport.isReportDay(h, day: day) {
                    for t in s.trends {
                        let pct = t.metric == "hrv" ? " (\(signed(100 * t.relativeChange, 1)) %)" : ""
                        add("weekly_report", t.metric, category: t.direction.rawValue, value: t.change, unit: t.unit, n: t.days, rule: t.rule + pct)
                    }
                    if let score = WeeklyReport.progressScore(s.trends) {
                        add("weekly_report", "weekly_progress_score", value: score, unit: "points", n: s.trends.count,
                            rule: "100 × (improving + ½ stable) / \(s.trends.count) trends")
                    }
                    for x in WeeklyReport.correlations(h, day: day, constants: c) {
                        add("correlation", x.pair, category: x.strength, value: x.r, unit: "r", n: x.pairs,
                            rule: x.expectedSign ? "expected sign" : "opposite of the expected sign")
                    }
                }
            }
            for p in HealthProfilePhases.replay(h, constants: c) {
                out.phases.append(PhaseRow(subject: subject, date: Timestamp.isoDate(Int64(p.day) * 86_400_000), phase: p.phase.rawValue,
                                           daysInPhase: p.daysInPhase, patternConfidence: p.patternConfidence, accurateStreak: p.accurateStreak,
                                           indicators: p.indicators.map { "\($0.name):\(decimals($0.severity, 3))" }.joined(separator: ";"),
                                           changed: p.changed, phaseRule: p.rule))
            }
        }
        return out
    }
}
