import Foundation

/// What this workspace can answer (docs/workspace.md, What this workspace can answer):
/// for each analysis — HRV, coherence, stress scoring, sessions with physiology, song and
/// listener effects, the daily heart-coach engines — whether the workspace's data support
/// it and, when not, why, in the terms of the exports: no heart rate or R-R intervals
/// (and what the exports hold instead), listening and health data that never overlap
/// (with both date ranges), too few plays with heart data per song, no labels.
///
/// The one definition: `resonance run` prints it on stderr at its end, and the report
/// shows it as its first section and in `validation.json` (`answers`). It is a pure
/// function (`assess`) of a few facts read from the workspace's tables (`Facts.of`).
public struct WorkspaceAnswers: Equatable, Sendable {
    /// The analyses assessed, in the order they are listed.
    public enum Analysis: String, CaseIterable, Sendable {
        case hrv, coherence, stress, sessions, effects, daily

        public var title: String {
            switch self {
            case .hrv: "HRV"
            case .coherence: "coherence"
            case .stress: "stress scoring"
            case .sessions: "sessions with physiology"
            case .effects: "song and listener effects"
            case .daily: "daily heart-coach engines"
            }
        }
    }

    /// First and last time of some rows (UTC).
    public struct Span: Equatable, Sendable {
        public var firstMs: Int64
        public var lastMs: Int64

        public init(firstMs: Int64, lastMs: Int64) {
            self.firstMs = firstMs; self.lastMs = lastMs
        }

        /// The span covering this one and `other`.
        public func union(_ other: Span?) -> Span {
            guard let other else { return self }
            return Span(firstMs: min(firstMs, other.firstMs), lastMs: max(lastMs, other.lastMs))
        }

        public func overlaps(_ other: Span) -> Bool { firstMs <= other.lastMs && other.firstMs <= lastMs }

        /// `2019-05-14 – 2019-06-17` (UTC dates).
        public var text: String { "\(Timestamp.isoDate(firstMs)) – \(Timestamp.isoDate(lastMs))" }

        var json: JSONValue {
            .object(["first": .string(Timestamp.iso(firstMs)), "last": .string(Timestamp.iso(lastMs))])
        }
    }

    /// A kind of record the exports held, with its count: a table's rows (`plays.csv`,
    /// `sleep.csv`, …), a metric's days in `daily_inputs.csv`, or records of a kind the
    /// toolkit does not read (the manifest's `unusedRecords`, `read` false).
    public struct Found: Equatable, Sendable {
        public var kind: String
        public var count: Int
        /// The counted thing, singular (`play`, `sleep record`, `day`, `record`).
        public var unit: String
        public var read: Bool

        public init(kind: String, count: Int, unit: String, read: Bool = true) {
            self.kind = kind; self.count = count; self.unit = unit; self.read = read
        }

        /// `8544 plays`, `steps on 35 days`; a kind not read `flights climbed 170`.
        public var text: String {
            read ? (unit == "day" ? "\(kind) on \(plural(count, "day"))" : plural(count, unit)) : "\(kind) \(count)"
        }
    }

    /// Why an analysis cannot run.
    public enum Reason: Equatable, Sendable {
        /// Neither heart rate nor R-R intervals in the workspace.
        case noHeartData
        /// Heart rate, but no R-R intervals (HRV needs beat-to-beat intervals).
        case noRR(heartRateSamples: Int)
        /// No heart rate, R-R intervals, HRV samples or resting heart rate (the daily engines' inputs).
        case noDailyHeartData
        case noPlays
        /// The listening and the health data (`what`: heart data, else every health
        /// record) lie in time spans that do not overlap.
        case noOverlap(what: String, health: Span, listening: Span)
        /// Their spans overlap, but no play has heart data around it.
        case noHeartDataAtPlays(plays: Int)
        /// No song has `needed` plays with heart data; the most any song has is `most`.
        case tooFewPlaysPerSong(most: Int, needed: Int, playsWithHeartData: Int)
        /// No subject with both `stress` and `baseline` intervals in `labels.csv`.
        case noLabels

        /// A key for code (`validation.json`).
        public var key: String {
            switch self {
            case .noHeartData: "no_heart_data"
            case .noRR: "no_rr"
            case .noDailyHeartData: "no_daily_heart_data"
            case .noPlays: "no_plays"
            case .noOverlap: "no_overlap"
            case .noHeartDataAtPlays: "no_heart_data_at_plays"
            case .tooFewPlaysPerSong: "too_few_plays_per_song"
            case .noLabels: "no_labels"
            }
        }

        /// The reason in the terms of the exports.
        public var text: String {
            switch self {
            case .noHeartData:
                return "no heart rate or R-R intervals in these exports"
            case .noRR(let n):
                return "heart rate (\(plural(n, "sample"))) but no R-R intervals: HRV needs beat-to-beat intervals"
            case .noDailyHeartData:
                return "no heart rate, R-R intervals, HRV or resting heart rate in these exports"
            case .noPlays:
                return "no plays in these exports"
            case let .noOverlap(what, health, listening):
                return "the \(what) (\(health.text)) and the listening (\(listening.text)) never overlap"
            case .noHeartDataAtPlays(let plays):
                return "none of the \(plural(plays, "play")) has heart data around it"
            case let .tooFewPlaysPerSong(most, needed, with):
                return "too few plays with heart data per song: the most any song has is \(most) "
                    + "(\(plural(with, "play")) with heart data in all); a song's effect needs \(needed)"
            case .noLabels:
                return "no labels: no subject has both stress and baseline intervals in labels.csv"
            }
        }
    }

    /// One analysis: answered when there is no reason against it; `detail` says from what.
    public struct Answer: Equatable, Sendable {
        public var analysis: Analysis
        public var reasons: [Reason]
        public var detail: String?

        public var answered: Bool { reasons.isEmpty }

        /// `HRV: no — reason; reason` or `coherence: yes (detail)`.
        public var line: String {
            answered ? "\(analysis.title): yes" + (detail.map { " (\($0))" } ?? "")
                : "\(analysis.title): no — " + reasons.map(\.text).joined(separator: "; ")
        }
    }

    /// What the assessment reads of a workspace.
    public struct Facts: Equatable, Sendable {
        public var heartRateSamples = 0
        /// The R-R intervals the analyses read (`rr_combined.csv` when beats were detected, else `rr.csv`).
        public var rrIntervals = 0
        public var hrvSamples = 0
        /// Days with a resting heart rate in `daily_inputs.csv`.
        public var restingHRDays = 0
        public var plays = 0
        /// Subjects with both `stress` and `baseline` intervals in `labels.csv`.
        public var labelledSubjects = 0
        /// Time spans, read only when the assessment needs them (plays and no play with heart data).
        public var heart: Span?
        /// Every health record: heart data, HRV samples, sleep, workouts, daily inputs.
        public var health: Span?
        public var listening: Span?
        /// Plays of `session_plays.csv` with a heart-rate change; nil when `sessions` has not run.
        public var playsWithHeartData: Int?
        /// The most plays with heart data of one song, and the songs with at least `minSongPlays`.
        public var mostPlaysPerSong = 0
        public var songsWithEnoughPlays = 0
        /// Plays with heart data a song needs for its effect (`mixed_model.min_cell_plays`).
        public var minSongPlays = 10
        /// What the exports hold, read or not, most first.
        public var found: [Found] = []

        public init() {}

        public var hasHeartData: Bool { heartRateSamples > 0 || rrIntervals > 0 }
    }

    public var facts: Facts
    public var answers: [Answer]

    public init(facts: Facts, answers: [Answer]) {
        self.facts = facts; self.answers = answers
    }

    public func answer(_ analysis: Analysis) -> Answer? { answers.first { $0.analysis == analysis } }

    /// The answers the facts give.
    public static func assess(_ f: Facts) -> WorkspaceAnswers {
        let heart: [Reason] = f.hasHeartData ? [] : [.noHeartData]
        var listening: [Reason] = heart
        if f.plays == 0 {
            listening.append(.noPlays)
        } else if (f.playsWithHeartData ?? 0) == 0 {
            // Heart data or, without any, every health record, against the plays' span.
            let (what, span) = f.hasHeartData ? ("heart data", f.heart) : ("health records", f.health)
            if let span, let plays = f.listening, !span.overlaps(plays) {
                listening.append(.noOverlap(what: what, health: span, listening: plays))
            } else if f.hasHeartData, f.playsWithHeartData != nil {
                listening.append(.noHeartDataAtPlays(plays: f.plays))
            }
        }
        var effects = listening
        if effects.isEmpty, f.playsWithHeartData != nil, f.songsWithEnoughPlays == 0 {
            effects.append(.tooFewPlaysPerSong(most: f.mostPlaysPerSong, needed: f.minSongPlays,
                                               playsWithHeartData: f.playsWithHeartData ?? 0))
        }
        let daily: [Reason] = f.hasHeartData || f.hrvSamples > 0 || f.restingHRDays > 0 ? [] : [.noDailyHeartData]
        let hrv: [Reason] = f.rrIntervals > 0 ? [] : f.heartRateSamples > 0 ? [.noRR(heartRateSamples: f.heartRateSamples)] : heart
        let source = f.rrIntervals > 0 ? "from \(plural(f.rrIntervals, "R-R interval"))"
            : "from \(plural(f.heartRateSamples, "heart-rate sample"))"
        func answer(_ a: Analysis, _ reasons: [Reason], _ detail: @autoclosure () -> String?) -> Answer {
            Answer(analysis: a, reasons: reasons, detail: reasons.isEmpty ? detail() : nil)
        }
        return WorkspaceAnswers(facts: f, answers: [
            answer(.hrv, hrv, "from \(plural(f.rrIntervals, "R-R interval"))"),
            answer(.coherence, heart, source),
            answer(.stress, heart + (f.labelledSubjects > 0 ? [] : [.noLabels]), plural(f.labelledSubjects, "labelled subject")),
            answer(.sessions, listening,
                   f.playsWithHeartData.map { "\($0) of \(plural(f.plays, "play")) with heart data" } ?? "plays and heart data overlap"),
            answer(.effects, effects, f.playsWithHeartData == nil ? nil
                   : "\(plural(f.songsWithEnoughPlays, "song")) with at least \(f.minSongPlays) plays with heart data"),
            answer(.daily, daily, f.heartRateSamples > 0 ? "from \(plural(f.heartRateSamples, "heart-rate sample"))"
                   : f.rrIntervals > 0 ? source : f.hrvSamples > 0 ? "from \(plural(f.hrvSamples, "HRV sample"))"
                   : "from resting heart rate on \(plural(f.restingHRDays, "day"))"),
        ])
    }

    /// The sentence on what the exports hold, when they hold no heart data; nil otherwise.
    public var foundText: String? {
        guard !facts.hasHeartData else { return nil }
        let read = facts.found.filter(\.read).map(\.text), unread = facts.found.filter { !$0.read }.map(\.text)
        guard !read.isEmpty || !unread.isEmpty else { return "These exports hold no heart rate or R-R intervals, and nothing else either." }
        var parts = read
        if !unread.isEmpty { parts.append("records the toolkit does not read: " + unread.joined(separator: ", ")) }
        return "These exports hold no heart rate or R-R intervals; they hold " + parts.joined(separator: "; ") + "."
    }

    /// The lines `resonance run` prints on stderr at its end.
    public var stderrText: String {
        var out = "What this workspace can answer:\n" + answers.map { "  " + $0.line + "\n" }.joined()
        if let foundText { out += foundText + "\n" }
        return out
    }

    /// The report's first section (markdown and `validation.json`'s `answers`).
    public var section: ReportSection {
        var md = "Which analyses this workspace's data support, and why not where they do not "
            + "(docs/workspace.md, What this workspace can answer); the sections below hold the results of those that run.\n\n"
        md += markdownTable(["analysis", "answered", "from / why not"], answers.map {
            [$0.analysis.title, $0.answered ? "yes" : "no", $0.answered ? $0.detail ?? "" : $0.reasons.map(\.text).joined(separator: "; ")]
        })
        if let foundText { md += "\n" + foundText + "\n" }
        let json: JSONValue = .object([
            "analyses": .array(answers.map { a in
                .object([
                    "analysis": .string(a.analysis.rawValue), "title": .string(a.analysis.title), "answered": .bool(a.answered),
                    "detail": a.detail.map(JSONValue.string) ?? .null,
                    "reasons": .array(a.reasons.map { .object(["reason": .string($0.key), "text": .string($0.text)]) }),
                ])
            }),
            "found": .array(facts.found.map {
                .object(["kind": .string($0.kind), "count": .int($0.count), "unit": .string($0.unit), "read": .bool($0.read)])
            }),
            "spans": .object([
                "heart": facts.heart?.json ?? .null, "health": facts.health?.json ?? .null,
                "listening": facts.listening?.json ?? .null,
            ]),
        ])
        return ReportSection(title: "What this workspace can answer", markdown: md, json: json, key: "answers")
    }

    // MARK: - Reading the workspace

    /// The tables the assessment reads.
    public static let reads: [String] = [
        Manifest.fileName, HRSample.fileName, RRInterval.fileName, CombinedRR.fileName, HRVSample.fileName, Play.fileName,
        LabelInterval.fileName, SleepEpisode.fileName, Workout.fileName, DailyInputRow.fileName, SessionPlayRow.fileName,
    ]

    /// The answers of workspace `ws`, with the effects' play threshold of `registry`.
    public static func of(_ ws: Workspace, registry: ConstantsRegistry = .defaults) throws -> WorkspaceAnswers {
        assess(try Facts.of(ws, registry: registry))
    }

    /// The report section of `ws`.
    public static func analysis(registry: ConstantsRegistry) -> ValidationAnalysis {
        { ws in ws.exists(Manifest.fileName) ? try of(ws, registry: registry).section : nil }
    }
}

/// The assessment's time spans and holdings, as the facts' readers below name them.
private typealias TimeSpan = WorkspaceAnswers.Span
private typealias Holding = WorkspaceAnswers.Found

extension WorkspaceAnswers.Facts {
    /// Reads the facts of `ws`: row counts from the manifest, labels, `daily_inputs.csv`
    /// and `session_plays.csv` in one pass each; the time spans and what the exports hold
    /// only when an answer needs them.
    public static func of(_ ws: Workspace, registry: ConstantsRegistry = .defaults) throws -> Self {
        var f = Self()
        let manifest = ws.exists(Manifest.fileName) ? try Manifest.read(from: ws) : nil
        func rows(_ name: String) -> Int { ws.exists(name) ? manifest?.table(name)?.rows ?? 0 : 0 }
        f.heartRateSamples = rows(HRSample.fileName)
        f.rrIntervals = rows(ws.analysisRR)
        f.hrvSamples = rows(HRVSample.fileName)
        f.plays = rows(Play.fileName)
        f.minSongPlays = Int(MixedModelConstants(registry: registry).minCellPlays)
        f.labelledSubjects = try labelledSubjects(ws)
        let daily = try dailyInputs(ws)
        f.restingHRDays = daily.days[DailyMetric.restingHR.rawValue] ?? 0
        if ws.exists(SessionPlayRow.fileName) { try f.readSessionPlays(ws) }
        // The spans: needed to tell why no play has heart data.
        if f.plays > 0, (f.playsWithHeartData ?? 0) == 0 { try f.readSpans(ws, daily: daily.span) }
        // What the exports hold instead of heart data.
        if !f.hasHeartData {
            f.found = holdings(f, rows: rows, dailyDays: daily.days, unusedRecords: manifest?.sources.compactMap(\.unusedRecords) ?? [])
        }
        return f
    }

    /// Subjects with both a stress and a baseline interval in `labels.csv`.
    fileprivate static func labelledSubjects(_ ws: Workspace) throws -> Int {
        var names: [String: Set<String>] = [:]
        try ws.forEachRow(LabelInterval.self) { names[$0.subject, default: []].insert($0.label) }
        return names.values.filter { $0.contains(StressWindows.stressLabel) && $0.contains(StressWindows.baselineLabel) }.count
    }

    /// Days per metric of `daily_inputs.csv` and the span of its days (UTC calendar days).
    fileprivate static func dailyInputs(_ ws: Workspace) throws -> (days: [String: Int], span: TimeSpan?) {
        var days: [String: Int] = [:], span: TimeSpan?
        try ws.forEachRow(DailyInputRow.self) { row in
            days[row.metric, default: 0] += 1
            if let day = Timestamp.dayNumber(isoDate: row.date) {
                let ms = Int64(day) * 86_400_000
                span = TimeSpan(firstMs: ms, lastMs: ms + 86_399_999).union(span)
            }
        }
        return (days, span)
    }

    /// Plays with heart data, and per song, from `session_plays.csv`.
    fileprivate mutating func readSessionPlays(_ ws: Workspace) throws {
        var with = 0
        var perSong: [String: Int] = [:]
        try ws.forEachRow(SessionPlayRow.self) { row in
            guard row.biometrics.hrDelta != nil else { return }
            with += 1
            perSong[row.songId, default: 0] += 1
        }
        playsWithHeartData = with
        mostPlaysPerSong = perSong.values.max() ?? 0
        songsWithEnoughPlays = perSong.values.filter { $0 >= minSongPlays }.count
    }

    /// The spans of the heart data, of every health record (`daily` the daily inputs'),
    /// and of the listening.
    fileprivate mutating func readSpans(_ ws: Workspace, daily: TimeSpan?) throws {
        func span<Row: MeasurementRow>(_ type: Row.Type) throws -> TimeSpan? {
            var s: TimeSpan?
            _ = try ws.scanMeasurements(Row.self) { _, t, _ in s = TimeSpan(firstMs: t, lastMs: t).union(s) }
            return s
        }
        var heart = try span(HRSample.self)
        if rrIntervals > 0 {
            let rr = try ws.analysisRRIndex()
            for subject in rr.subjects {
                try rr.forEachMeasurement(RRInterval.self, of: subject) { t, _ in heart = TimeSpan(firstMs: t, lastMs: t).union(heart) }
            }
        }
        var health = heart
        if let s = try span(HRVSample.self) { health = s.union(health) }
        try ws.forEachRow(SleepEpisode.self) { health = TimeSpan(firstMs: $0.startMs, lastMs: $0.endMs).union(health) }
        try ws.forEachRow(Workout.self) { health = TimeSpan(firstMs: $0.startMs, lastMs: $0.endMs).union(health) }
        if let daily { health = daily.union(health) }
        var listening: TimeSpan?
        try ws.forEachRow(Play.self) { p in
            listening = TimeSpan(firstMs: p.startedAtMs, lastMs: max(p.startedAtMs, p.endedAtMs ?? p.startedAtMs)).union(listening)
        }
        self.heart = heart; self.health = health; self.listening = listening
    }

    /// What the exports hold: the tables' rows of `f`, the daily inputs' days per metric,
    /// then the records read and not used (each source's counts per kind), most first.
    fileprivate static func holdings(_ f: Self, rows: (String) -> Int, dailyDays: [String: Int], unusedRecords: [[String: Int]]) -> [Holding] {
        var found: [Holding] = []
        func add(_ kind: String, _ count: Int, _ unit: String) {
            if count > 0 { found.append(Holding(kind: kind, count: count, unit: unit)) }
        }
        add("plays", f.plays, "play")
        add("sleep", rows(SleepEpisode.fileName), "sleep record")
        add("workouts", rows(Workout.fileName), "workout")
        add("HRV", f.hrvSamples, "HRV sample")
        add("labels", rows(LabelInterval.fileName), "label interval")
        for (metric, days) in dailyDays { add(DailyMetric(rawValue: metric)?.words ?? metric, days, "day") }
        var unused: [String: Int] = [:]
        for source in unusedRecords {
            for (kind, count) in source { unused[AppleHealth.words(ofType: kind), default: 0] += count }
        }
        // Most first; ties in the kinds' alphabetical order, whatever their case.
        func order(_ a: Holding, _ b: Holding) -> Bool { (a.count, b.kind.lowercased()) > (b.count, a.kind.lowercased()) }
        return found.sorted(by: order)
            + unused.map { Holding(kind: $0.key, count: $0.value, unit: "record", read: false) }.sorted(by: order)
    }
}
