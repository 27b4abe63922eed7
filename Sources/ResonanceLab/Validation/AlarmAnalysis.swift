import Foundation

/// A planted health event as `truth.csv` gives it (kind `health_event`).
public struct PlantedEvent: Equatable, Sendable {
    public var subject: String
    /// `illness-1`, …; its kind is the id up to the last `-`.
    public var id: String
    /// First and last day of the symptoms (days since 1970-01-01): the days any
    /// physiological metric is changed.
    public var firstDay: Int
    public var lastDay: Int
    /// An overreaching's training-load block before its symptoms (days since 1970-01-01).
    public var loadBlock: ClosedRange<Int>?

    public init(subject: String, id: String, firstDay: Int, lastDay: Int, loadBlock: ClosedRange<Int>? = nil) {
        self.subject = subject; self.id = id; self.firstDay = firstDay; self.lastDay = lastDay; self.loadBlock = loadBlock
    }

    public var kind: String {
        guard let dash = id.lastIndex(of: "-") else { return id }
        return String(id[..<dash])
    }

    /// Whether a flag should fire: every kind but a return to fitness.
    public var isDeterioration: Bool { kind != HealthEvent.Kind.improvement.rawValue }

    /// One event per (subject, entity) of the `health_event` rows, in the order of
    /// their first row: the symptoms from the earliest `start` to the latest `end` of
    /// the rows of physiological metrics, the load block from the `training_load_pct`
    /// row; rows whose dates do not parse are left out, and an event without symptom
    /// rows too.
    public static func events(in truth: [PlantedEffect]) -> [PlantedEvent] {
        var order: [[String]] = []
        var symptoms: [[String]: ClosedRange<Int>] = [:], load: [[String]: ClosedRange<Int>] = [:]
        for t in truth where t.kind == .healthEvent {
            guard let a = Timestamp.parseISO(t.start), let b = Timestamp.parseISO(t.end) else { continue }
            let key = [t.subject, t.entity], first = DailyStage.day(a.ms), last = DailyStage.day(b.ms)
            guard first <= last else { continue }
            if symptoms[key] == nil && load[key] == nil { order.append(key) }
            if t.metric == HealthEvent.trainingLoadMetric {
                load[key] = first...last
            } else {
                let r = symptoms[key]
                symptoms[key] = min(first, r?.lowerBound ?? first)...max(last, r?.upperBound ?? last)
            }
        }
        return order.compactMap { key in
            symptoms[key].map { PlantedEvent(subject: key[0], id: key[1], firstDay: $0.lowerBound, lastDay: $0.upperBound,
                                             loadBlock: load[key]) }
        }
    }
}

/// How one alarm signal did on one person's days against the events planted in them.
/// A flag episode is a run of flagged days on consecutive calendar days; it is a true
/// alarm when any of its days lies in a deterioration event's window — its first day
/// of symptoms to `AlarmCounting.graceDays` after its last — else, when one of its days
/// lies in an overreaching's training-load block, a load-block episode (neither true nor
/// false: the person is training hard, not yet ill), else a false alarm. An event is
/// detected when a flagged day lies in its window; the delay is the first such day
/// minus the event's first day of symptoms.
public struct AlarmTally: Equatable, Sendable {
    /// Per event kind: events, those detected, and the detection delays (days).
    public var events: [String: Int] = [:]
    public var detected: [String: Int] = [:]
    public var delays: [String: [Int]] = [:]
    public var trueEpisodes = 0
    public var falseEpisodes = 0
    /// Measured days outside every deterioration window and load block: the exposure
    /// of false alarms.
    public var quietDays = 0
    /// Episodes in a load block and in no window; load blocks, and those with a flagged day.
    public var loadBlockEpisodes = 0
    public var loadBlocks = 0
    public var loadBlocksFlagged = 0

    public init() {}

    public static func + (a: AlarmTally, b: AlarmTally) -> AlarmTally {
        var s = a
        s.events.merge(b.events, uniquingKeysWith: +)
        s.detected.merge(b.detected, uniquingKeysWith: +)
        s.delays.merge(b.delays, uniquingKeysWith: +)
        s.trueEpisodes += b.trueEpisodes; s.falseEpisodes += b.falseEpisodes; s.quietDays += b.quietDays
        s.loadBlockEpisodes += b.loadBlockEpisodes; s.loadBlocks += b.loadBlocks; s.loadBlocksFlagged += b.loadBlocksFlagged
        return s
    }

    /// Share of events of `kind` (every deterioration kind when nil) detected; NaN without events.
    public func sensitivity(_ kind: String? = nil) -> Double {
        let n = kind.map { events[$0] ?? 0 } ?? events.values.reduce(0, +)
        let k = kind.map { detected[$0] ?? 0 } ?? detected.values.reduce(0, +)
        return n > 0 ? Double(k) / Double(n) : .nan
    }

    /// False alarms per person-month (`AlarmCounting.daysPerMonth` quiet days); NaN without quiet days.
    public var falseAlarmsPerMonth: Double {
        quietDays > 0 ? Double(falseEpisodes) / (Double(quietDays) / AlarmCounting.daysPerMonth) : .nan
    }

    /// Share of episodes that are true alarms (load-block episodes left out); NaN without episodes.
    public var precision: Double {
        trueEpisodes + falseEpisodes > 0 ? Double(trueEpisodes) / Double(trueEpisodes + falseEpisodes) : .nan
    }

    /// Mean detection delay (days) of detected events of `kind` (all kinds when nil).
    public func meanDelay(_ kind: String? = nil) -> Double {
        let d = kind.map { delays[$0] ?? [] } ?? delays.values.flatMap { $0 }
        return d.isEmpty ? .nan : Double(d.reduce(0, +)) / Double(d.count)
    }
}

public enum AlarmCounting {
    /// Days after an event's last day in which a flag still counts as finding it
    /// (choice: the days a person takes to get back to their baseline).
    public static let graceDays = 3
    /// Mean days per month (365.25 / 12).
    public static let daysPerMonth = 30.4375

    /// The tally of one person's `days` (sorted by day, any gaps) with whether the
    /// signal is on, against that person's `events`.
    public static func tally(days: [(day: Int, on: Bool)], events: [PlantedEvent]) -> AlarmTally {
        let windows = events.filter(\.isDeterioration).map { $0.firstDay...($0.lastDay + graceDays) }
        let blocks = events.compactMap(\.loadBlock)
        func inWindow(_ d: Int) -> Bool { windows.contains { $0.contains(d) } }
        func inBlock(_ d: Int) -> Bool { blocks.contains { $0.contains(d) } }
        var t = AlarmTally()
        t.quietDays = days.filter { !inWindow($0.day) && !inBlock($0.day) }.count
        var episode: (inWindow: Bool, inBlock: Bool)?
        var previous: Int?
        func close() {
            if let e = episode {
                if e.inWindow { t.trueEpisodes += 1 } else if e.inBlock { t.loadBlockEpisodes += 1 } else { t.falseEpisodes += 1 }
            }
            episode = nil
        }
        for (day, on) in days {
            if !on || previous.map({ day != $0 + 1 }) ?? true { close() }
            if on { episode = ((episode?.inWindow ?? false) || inWindow(day), (episode?.inBlock ?? false) || inBlock(day)) }
            previous = day
        }
        close()
        for block in blocks {
            t.loadBlocks += 1
            if days.contains(where: { $0.on && block.contains($0.day) }) { t.loadBlocksFlagged += 1 }
        }
        for e in events where e.isDeterioration {
            t.events[e.kind, default: 0] += 1
            guard let first = days.first(where: { $0.on && e.firstDay <= $0.day && $0.day <= e.lastDay + graceDays }) else {
                continue
            }
            t.detected[e.kind, default: 0] += 1
            t.delays[e.kind, default: []].append(first.day - e.firstDay)
        }
        return t
    }
}

/// An alarm signal of the daily engines: a name and when a `daily.csv` row raises it.
public struct AlarmSignal: Sendable {
    public var name: String
    public var isOn: @Sendable (DailyRow) -> Bool

    /// The trend flags the product shows the user (regression, stress pattern,
    /// consecutive elevation), any of them.
    public static let shownFlags = ["regression", "stress_pattern", "consecutive_elevation"]

    /// Any shown flag, each trend flag, stress level `elevated`, readiness `recovering`.
    public static let all: [AlarmSignal] = [AlarmSignal(name: "shown flags") { r in r.flags.contains { shownFlags.contains($0) } }]
        + ["anomaly", "regression", "stress_pattern", "rhr_week_up", "consecutive_elevation"].map { flag in
            AlarmSignal(name: flag) { $0.flags.contains(flag) }
        }
        + [AlarmSignal(name: "stress elevated") { $0.stressLevel == "elevated" },
           AlarmSignal(name: "readiness recovering") { $0.readinessLevel == "recovering" }]

    /// The coach's flags that live outside `daily.csv`'s own columns, replayed from its rows
    /// with `registry`'s constants as `resonance daily` does: the coaching scenario
    /// `overtraining` (`coaching.csv`) and the morning recovery's `rest` without a planned
    /// workout (`morning_recovery.csv`, from the rows' own inputs: its overnight window
    /// falls back to the day's HRV as it does without HRV samples).
    public static func coach(_ rows: [DailyRow], registry: ConstantsRegistry) -> [AlarmSignal] {
        let key: @Sendable (String, String) -> String = { $0 + "\u{0}" + $1 }
        let overtraining = Set(CoachingRules.replay(rows, constants: registry.coaching).coaching
            .filter { $0.kind == "scenario" && $0.id == "overtraining" }.map { key($0.subject, $0.date) })
        let rest = Set(MorningRecoveryEngine(constants: registry.morningRecovery).mornings(rows.map(\.snapshot), readiness: [:])
            .filter { $0.row.withoutPlan?.action == "rest" }.map { key($0.row.subject, $0.row.date) })
        return [AlarmSignal(name: "overtraining scenario") { overtraining.contains(key($0.snapshot.subject, $0.snapshot.date)) },
                AlarmSignal(name: "morning rest") { rest.contains(key($0.snapshot.subject, $0.snapshot.date)) }]
    }
}

/// The alarm section of `resonance validate` on a workspace with planted health events
/// (docs/methods.md, Alarm rates): per alarm signal, sensitivity to each kind of event,
/// detection delay, false alarms per person-month and precision, from `daily.csv` as
/// written; then the regression flag of every `regression_method`, the engines re-run
/// on the same measured days with the report's constants. Intervals are percentile
/// bootstraps over persons (`GroupComparison.bootstrapCI`).
public enum AlarmAnalysis {
    public static func analysis(registry: ConstantsRegistry) -> ValidationAnalysis {
        { ws in
            let events = PlantedEvent.events(in: try ws.read(PlantedEffect.self))
            guard !events.isEmpty, ws.exists(DailyRow.fileName) else { return nil }
            return try section(rows: ws.read(DailyRow.self), events: events, registry: registry)
        }
    }

    /// Per subject (byte order), the tally of `signal` over `rows`.
    public static func tallies(_ rows: [DailyRow], events: [PlantedEvent], signal: AlarmSignal) -> [(subject: String, tally: AlarmTally)] {
        var bySubject: [String: [DailyRow]] = [:]
        for r in rows { bySubject[r.snapshot.subject, default: []].append(r) }
        return bySubject.keys.sorted(by: SubjectOrder.precedes).map { s in
            let days = (bySubject[s] ?? []).sorted { $0.snapshot.day < $1.snapshot.day }.map { (day: $0.snapshot.day, on: signal.isOn($0)) }
            return (s, AlarmCounting.tally(days: days, events: events.filter { $0.subject == s }))
        }
    }

    /// `rows` as the engines give them with `regression_method` = `method`.
    public static func rows(_ rows: [DailyRow], regressionMethod method: Int, registry: ConstantsRegistry) throws -> [DailyRow] {
        let r = try registry.replacing(TrendConstants.spec.name, with: ["regression_method": Double(method)])
        return DailyEngines.assess(history: rows.map(\.snapshot), registry: r).map(\.row)
    }

    public static let methodNames = ["least-squares slope (product)", "significant slope", "Theil–Sen slope", "EWMA chart"]

    /// One line of the summary: pooled rates with 95 % bootstrap intervals over persons.
    struct Line {
        var name: String
        var tallies: [AlarmTally]

        func pooled(_ picks: [Int]) -> AlarmTally { picks.reduce(AlarmTally()) { $0 + tallies[$1] } }
        var total: AlarmTally { pooled(Array(tallies.indices)) }
        func ci(_ statistic: @escaping (AlarmTally) -> Double) -> (Double, Double) {
            GroupComparison.bootstrapCI(clusters: tallies.count) { statistic(pooled($0)) }
        }

        func cells() -> [String] {
            let t = total
            func f(_ x: Double, _ d: Int = 2) -> String { x.isFinite ? decimals(x, d) : "–" }
            func withCI(_ s: @escaping (AlarmTally) -> Double) -> String {
                let c = ci(s)
                return "\(f(s(t))) (\(f(c.0))–\(f(c.1)))"
            }
            return [name, "\(t.detected["illness"] ?? 0)/\(t.events["illness"] ?? 0)", withCI { $0.sensitivity("illness") },
                    withCI { $0.sensitivity() }, f(t.meanDelay("illness"), 1), withCI(\.falseAlarmsPerMonth), withCI(\.precision),
                    "\(t.loadBlocksFlagged)/\(t.loadBlocks)"]
        }

        func json() -> JSONValue {
            let t = total
            func stat(_ s: @escaping (AlarmTally) -> Double) -> JSONValue {
                let c = ci(s)
                return .object(["value": .num(s(t)), "ci": .array([.num(c.0), .num(c.1)])])
            }
            var kinds: [String: JSONValue] = [:]
            for kind in t.events.keys.sorted() {
                kinds[kind] = .object(["events": .int(t.events[kind] ?? 0), "detected": .int(t.detected[kind] ?? 0),
                                       "sensitivity": stat { $0.sensitivity(kind) }, "mean_delay_days": .num(t.meanDelay(kind))])
            }
            return .object([
                "signal": .string(name), "kinds": .object(kinds), "sensitivity": stat { $0.sensitivity() },
                "false_alarms_per_person_month": stat(\.falseAlarmsPerMonth), "precision": stat(\.precision),
                "true_episodes": .int(t.trueEpisodes), "false_episodes": .int(t.falseEpisodes), "quiet_days": .int(t.quietDays),
                "load_block_episodes": .int(t.loadBlockEpisodes), "load_blocks": .int(t.loadBlocks),
                "load_blocks_flagged": .int(t.loadBlocksFlagged), "per_subject": .array(tallies.map(Self.json)),
            ])
        }

        static func json(_ t: AlarmTally) -> JSONValue {
            .object(["events": .object(t.events.mapValues(JSONValue.int)), "detected": .object(t.detected.mapValues(JSONValue.int)),
                     "delays": .object(t.delays.mapValues { .array($0.map(JSONValue.int)) }),
                     "true_episodes": .int(t.trueEpisodes), "false_episodes": .int(t.falseEpisodes), "quiet_days": .int(t.quietDays),
                     "load_block_episodes": .int(t.loadBlockEpisodes), "load_blocks": .int(t.loadBlocks),
                     "load_blocks_flagged": .int(t.loadBlocksFlagged)])
        }
    }

    static let header = ["signal", "illness detected", "illness sensitivity (95 % CI)", "all-event sensitivity",
                         "illness delay (days)", "false alarms / person-month", "precision", "load blocks flagged"]

    static func section(rows: [DailyRow], events: [PlantedEvent], registry: ConstantsRegistry) throws -> ReportSection {
        let subjects = Set(rows.map(\.snapshot.subject))
        let events = events.filter { subjects.contains($0.subject) }
        let lines = (AlarmSignal.all + AlarmSignal.coach(rows, registry: registry)).map { s in Line(name: s.name, tallies: tallies(rows, events: events, signal: s).map(\.tally)) }
        let regression = AlarmSignal.all[2], shown = AlarmSignal.all[0]
        var variants: [Line] = []
        for (method, name) in methodNames.enumerated() {
            let recomputed = try Self.rows(rows, regressionMethod: method, registry: registry)
            variants.append(Line(name: "regression: \(name)", tallies: tallies(recomputed, events: events, signal: regression).map(\.tally)))
            variants.append(Line(name: "shown flags: \(name)", tallies: tallies(recomputed, events: events, signal: shown).map(\.tally)))
        }
        let kinds = Dictionary(grouping: events.filter(\.isDeterioration), by: \.kind).mapValues(\.count)
        var md = "Planted health events: " + kinds.keys.sorted().map { "\(kinds[$0] ?? 0) \($0)" }.joined(separator: ", ")
            + " over \(plural(rows.count, "person-day")) of \(plural(subjects.count, "person")). A flag episode (consecutive flagged days) is a true "
            + "alarm when it overlaps an event from its first day of symptoms to \(AlarmCounting.graceDays) days after its last; "
            + "an episode only in an overreaching's training-load block is neither true nor false (\"load blocks flagged\": the "
            + "blocks with a flagged day); false alarms are counted per person-month (\(AlarmCounting.daysPerMonth) days) "
            + "outside those windows and blocks. Intervals: 95 % bootstrap over persons.\n\n"
        md += "As written in daily.csv:\n\n" + markdownTable(header, lines.map { $0.cells() })
        md += "\nThe regression flag by `regression_method`, the engines re-run on the same measured days:\n\n"
            + markdownTable(header, variants.map { $0.cells() })
        return ReportSection(title: "Alarm rates against planted health events", markdown: md, json: .object([
            "grace_days": .int(AlarmCounting.graceDays), "subjects": .array(subjects.sorted(by: SubjectOrder.precedes).map(JSONValue.string)),
            "signals": .array(lines.map { $0.json() }), "regression_methods": .array(variants.map { $0.json() }),
        ]), key: "alarms")
    }
}
