import Foundation

/// The Markdown report of one persona: profile against what was generated, the daily
/// series of the stress, readiness and trend engines with the flags raised and their
/// drivers, BioAge, heart-rate zones and the zone distribution of workouts, HRV and
/// coherence summaries when the stages have run,
/// listening, and the sleep-score note. Pure: the same inputs give the same bytes.
public struct PersonaReport: Sendable {
    public let subject: String
    public let profile: PersonaProfile?
    /// Rows of `daily.csv` for this subject, and the engines re-run on its snapshots.
    public let rows: [DailyRow]
    public let assessments: [DailyAssessment]
    /// The receipts of this subject's stress and readiness decisions: from
    /// `receipts.csv` (written with `daily.csv`) when the workspace has it, else from the
    /// engines re-run.
    public let receipts: [ReceiptRow]
    public let receiptsFromFile: Bool
    public let inputs: PersonaReportInputs
    public let registry: ConstantsRegistry

    public init(subject: String, inputs: PersonaReportInputs, registry: ConstantsRegistry) {
        self.subject = subject
        self.inputs = inputs
        self.registry = registry
        profile = PersonaProfile.all.first { $0.name == subject }
        rows = inputs.daily.filter { $0.snapshot.subject == subject }.sorted { $0.snapshot.day < $1.snapshot.day }
        assessments = DailyEngines.assess(history: rows.map(\.snapshot), registry: registry, subjects: DailySubjects(inputs.subjectRows))
        receiptsFromFile = inputs.receipts != nil
        receipts = inputs.receipts?.filter { $0.subject == subject && $0.table == DailyRow.fileName }
            ?? ReceiptRow.daily(assessments)
    }

    /// The receipt rows of `engine`'s decision on `date`, drivers by rank.
    func receipts(_ engine: String, on date: String) -> [ReceiptRow] {
        receipts.filter { $0.engine == engine && $0.key == date }
    }

    /// Mean of the non-missing values; nil when there are none.
    static func mean(_ values: [Double?]) -> Double? {
        let v = values.compactMap { $0 }
        return v.isEmpty ? nil : Stats.mean(v)
    }

    static func median(_ values: [Double?]) -> Double? {
        let v = values.compactMap { $0 }
        return v.isEmpty ? nil : Stats.median(v)
    }

    /// `x` with `digits` decimals, or `–` when missing.
    /// The value when finite (tables write NaN as an empty field).
    static func finite(_ x: Double) -> Double? { x.isFinite ? x : nil }

    static func text(_ x: Double?, _ digits: Int) -> String {
        x.map { decimals($0, digits) } ?? "–"
    }

    public var meanStress: Double? { Self.mean(rows.map(\.stress)) }
    public var meanReadiness: Double? { Self.mean(rows.map(\.readiness)) }

    /// Days on which `daily.csv` disagrees with the engines re-run under `registry`.
    public var mismatchedDays: [String] {
        zip(rows, assessments).compactMap { file, now in
            func same(_ a: Double?, _ b: Double?) -> Bool {
                switch (a, b) {
                case (nil, nil): return true
                case let (x?, y?): return abs(x - y) <= 1e-9 * max(1, abs(x))
                default: return false
                }
            }
            let r = now.row
            return same(file.stress, r.stress) && same(file.readiness, r.readiness) && same(file.anomaly, r.anomaly)
                && file.flags == r.flags ? nil : file.snapshot.date
        }
    }

    public func markdown() -> String {
        var out = "# \(subject)\n\n"
        out += "Constants \(registry.version) (digest `\(registry.digest)`).\n\n"
        out += profileSection() + seriesSection() + flagsSection() + receiptsSection() + coachingSection() + bioAgeSection()
            + recoverySection() + zonesSection() + zoneDistributionSection()
        out += hrvSection() + coherenceSection() + listeningSection() + SleepScoreNote.markdown(meanSleepHours: Self.mean(rows.map(\.snapshot.sleepHours)), registry: registry)
        return out
    }

    func profileSection() -> String {
        var out = "## Profile\n\n"
        let measured: [(String, String, Double?, Double?, Int)] = [
            ("resting HR", "bpm", profile?.restingHRBpm, Self.mean(rows.map(\.snapshot.restingHRBpm)), 1),
            ("SDNN", "ms", profile?.sdnnMs, Self.mean(rows.map(\.snapshot.hrvSDNNMs)), 1),
            ("1-min recovery", "bpm", profile?.recovery1mBpm, Self.mean(rows.map(\.snapshot.recovery1mBpm)), 1),
            ("VO2 max", "mL/kg/min", profile?.vo2Max, Self.mean(rows.map(\.snapshot.vo2Max)), 1),
            ("sleep", "h", profile?.sleepHours, Self.mean(rows.map(\.snapshot.sleepHours)), 2),
            ("steps", "/day", profile?.steps, Self.mean(rows.map(\.snapshot.steps)), 0),
            ("zone minutes", "min/day", profile?.zoneMinutes, Self.mean(rows.map(\.snapshot.zoneMinutes)), 1),
            ("body mass", "kg", profile?.weightKg, Self.mean(rows.map(\.snapshot.bodyMassKg)), 1),
        ]
        if let p = profile {
            out += "\(p.age)-year-old \(p.sex.rawValue), \(decimals(p.weightKg, 0)) kg; profile RMSSD \(decimals(p.rmssdMs, 1)) ms.\n"
        } else {
            out += "Not one of the built-in personas: no profile to compare with.\n"
        }
        if let s = inputs.sensitivities[subject], !s.isEmpty {
            out += "Planted music sensitivity (truth.csv): " + s.map { "\($0.metric) \(decimals($0.value, 2))" }.joined(separator: ", ") + ".\n"
        }
        out += "\n" + markdownTable(["metric", "profile", "generated mean (\(plural(rows.count, "day")))", "difference"], measured.map { name, unit, p, m, d in
            var diff = "–"
            if let p, let m, p != 0 { diff = signed(100 * (m - p) / p, 1) + " %" }
            return ["\(name) (\(unit))", Self.text(p, d), Self.text(m, d), diff]
        }) + "\n"
        return out
    }

    func seriesSection() -> String {
        var out = "## Daily series\n\n"
        out += "Mean stress \(Self.text(meanStress, 1)), mean readiness \(Self.text(meanReadiness, 1)). "
        let mismatched = mismatchedDays
        out += mismatched.isEmpty
            ? "Re-running the engines with the constants in force reproduces daily.csv on all \(plural(rows.count, "day")).\n\n"
            : "Re-running the engines with the constants in force differs from daily.csv on \(mismatched.count) of \(plural(rows.count, "day")) (first \(mismatched[0])): daily.csv was written with other constants. "
                + (receiptsFromFile ? "Drivers below are from receipts.csv, written with daily.csv.\n\n" : "Drivers below are from the re-run.\n\n")
        func top(_ engine: String, _ date: String) -> String {
            guard let d = receipts(engine, on: date).first, let points = d.points else { return "–" }
            return "\(d.factor) \(signed(points, 1))"
        }
        out += markdownTable(
            ["date", "RHR", "SDNN", "sleep h", "stress", "level", "top stress driver", "readiness", "level", "top readiness driver",
             "anomaly", "RHR slope", "SDNN slope", "week RHR z", "flags"],
            zip(rows, assessments).map { file, a in
                [file.snapshot.date, Self.text(file.snapshot.restingHRBpm, 1), Self.text(file.snapshot.hrvSDNNMs, 1),
                 Self.text(file.snapshot.sleepHours, 1), Self.text(file.stress, 1), file.stressLevel, top("stress", file.snapshot.date),
                 Self.text(file.readiness, 1), file.readinessLevel, top("readiness", file.snapshot.date), Self.text(file.anomaly, 2),
                 Self.text(a.trend.restingHRSlope, 2), Self.text(a.trend.hrvSlope, 2), Self.text(a.trend.weekRestingHRZ, 2),
                 file.flags.joined(separator: ", ")]
            }) + "\n"
        out += "Driver points are weight × (component − 50) for stress and readiness: how far each input moved the score from the middle of the scale. "
        out += "Slopes are 7-day least-squares slopes (bpm/day, ms/day); week RHR z compares the 7-day mean resting HR with the 28 days before that week.\n\n"
        return out
    }

    /// Why each flag of the day was raised, with the numbers that raised it.
    func reasons(_ a: DailyAssessment) -> [String] {
        let t = a.trend, c = TrendConstants(registry: registry)
        return a.flags.map { flag in
            switch flag {
            case "anomaly":
                return "anomaly \(signed(t.anomaly ?? .nan, 2)) ≥ \(decimals(c.anomalyFlagZ, 1)); drivers: "
                    + t.drivers.prefix(3).map { "\($0.name) \(signed($0.points, 2)) (\($0.detail))" }.joined(separator: "; ")
            case "regression":
                return "regression: 7-day slopes RHR \(Self.slope(t.restingHRSlope)) bpm/day (flag > \(signed(c.rhrSlopeThreshold, 1))), SDNN \(Self.slope(t.hrvSlope)) ms/day (flag < \(signed(c.hrvSlopeThreshold, 1)))"
            case "stress_pattern":
                return "stress pattern: robust z RHR \(Self.slope(t.restingHRZ)), SDNN \(Self.slope(t.hrvZ)), 1-min recovery \(Self.slope(t.recovery1mZ))"
            case "rhr_week_up", "rhr_week_down":
                return "week over week: 7-day mean RHR z \(Self.slope(t.weekRestingHRZ)) against the 28 days before the week (significant beyond ±\(decimals(c.weekSignificantZ, 1)))"
            case "consecutive_elevation":
                return "consecutive elevation: RHR above baseline mean + \(decimals(c.elevationSD, 0))σ for \(t.elevationStreakDays) consecutive days"
            case "readiness_capped":
                return "readiness \(Self.text(a.readiness?.uncappedScore, 1)) capped at \(Self.text(a.readiness?.score, 0)) while the elevation alert is active"
            default:
                return flag
            }
        }
    }

    static func slope(_ x: Double?) -> String { x.map { signed($0, 2) } ?? "–" }

    func flagsSection() -> String {
        var out = "## Flags raised and why\n\n"
        let flagged = assessments.filter { !$0.flags.isEmpty }
        if flagged.isEmpty { return out + "No flags were raised.\n\n" }
        for a in flagged {
            out += "- \(a.snapshot.date): " + reasons(a).joined(separator: "; ") + "\n"
        }
        return out + "\n"
    }

    /// The decision receipts of the last assessed day: each decision's top drivers (from
    /// `receipts.csv` when present), and the anomaly score's drivers from the re-run.
    func receiptsSection() -> String {
        guard let last = assessments.last else { return "" }
        let date = last.snapshot.date
        var out = "## Decision receipts of \(date)\n\n"
        for engine in ["stress", "readiness"] {
            let rows = receipts(engine, on: date)
            guard let head = rows.first else { continue }
            out += "\(engine.prefix(1).uppercased() + engine.dropFirst()) \(Self.text(head.value, 1)) (\(head.decision)), "
                + "confidence \(Self.text(head.confidence, 2)):\n\n"
            out += markdownTable(["rank", "input", "share", "points", "direction", "value", "compared with"],
                                 rows.map(Self.receiptCells)) + "\n"
        }
        if !last.trend.drivers.isEmpty {
            out += "Anomaly \(signed(last.trend.anomaly ?? .nan, 2)) (points = weight × signed robust z):\n\n"
            out += markdownTable(["input", "component", "weight", "points", "detail"], last.trend.drivers.map {
                [$0.name, decimals($0.score, 2), decimals($0.weight, 3), signed($0.points, 2), $0.detail]
            }) + "\n"
        }
        return out
    }

    /// One receipt row as the cells of the receipts table.
    static func receiptCells(_ r: ReceiptRow) -> [String] {
        let rank: String = r.rank.map { String($0) } ?? "–"
        let points: String = r.points.map { signed($0, 2) } ?? "–"
        let value: String = r.rawValue.map { decimals($0, 2) + " " + r.unit } ?? "–"
        return [rank, r.factor, text(r.share, 3), points, r.direction, value, r.comparedWith]
    }

    /// The coaching rules replayed from this subject's `daily.csv` rows: the last seven
    /// days' nudges and recommendations, how often each recommendation and scenario
    /// fired over all days, and the health-profile phase reached.
    func coachingSection() -> String {
        var out = "## The week's nudges and recommendations\n\n"
        guard !rows.isEmpty else { return out + "No days.\n\n" }
        let tables = CoachingRules.replay(rows, constants: registry.coaching)
        let week = Set(rows.suffix(7).map(\.snapshot.date))
        out += "Replayed from daily.csv with the coaching rules (docs/engines/heart-coach.md, Coaching rules): "
            + "nudges in rank order with their tier, recommendations by priority after deduplication.\n\n"
        out += markdownTable(["date", "readiness gate", "nudges", "recommendations"], rows.suffix(7).map { r in
            let date = r.snapshot.date
            let nudges = tables.nudges.filter { $0.date == date }
            let recs = tables.coaching.filter { $0.date == date && $0.kind == "recommendation" }
            return [date, nudges.first?.gate ?? "–", nudges.map { "\($0.nudgeId) (\($0.tier))" }.joined(separator: ", "),
                    recs.map { "\($0.id) (\($0.priority))" }.joined(separator: ", ")]
        }) + "\n"
        func counts(_ kind: String) -> [(String, Int, Int)] {
            var all: [String: Int] = [:], recent: [String: Int] = [:]
            for c in tables.coaching where c.kind == kind {
                all[c.id, default: 0] += 1
                if week.contains(c.date) { recent[c.id, default: 0] += 1 }
            }
            return all.keys.sorted().map { ($0, recent[$0] ?? 0, all[$0] ?? 0) }
        }
        out += "Days on which each recommendation and scenario fired (last 7 days; all \(plural(rows.count, "day"))):\n\n"
        out += markdownTable(["kind", "id", "last 7 days", "all days"],
                             counts("recommendation").map { ["recommendation", $0.0, "\($0.1)", "\($0.2)"] }
                                 + counts("scenario").map { ["scenario", $0.0, "\($0.1)", "\($0.2)"] }) + "\n"
        if let score = tables.coaching.last(where: { $0.id == "weekly_progress_score" }), let value = score.value {
            out += "Weekly progress score \(decimals(value, 0)) of 100 in the week ending \(score.date). "
        }
        if let phase = tables.phases.last {
            out += "Health-profile phase on \(phase.date): \(phase.phase) (\(phase.phaseRule)).\n\n"
        }
        return out
    }

    /// Mean BioAge of the days with one (`daily.csv`), and the mean chronological age of
    /// those days (`subjects.csv`, else the profile's age).
    public var meanBioAge: (bioAge: Double, age: Double, days: Int)? {
        let subjects = DailySubjects(inputs.subjectRows)
        let days = rows.compactMap { r -> (Double, Double)? in
            guard let b = r.bioAge, let a = subjects.age(subject, day: r.snapshot.day) ?? profile.map({ Double($0.age) }) else { return nil }
            return (b, a)
        }
        guard !days.isEmpty else { return nil }
        return (Stats.mean(days.map(\.0)), Stats.mean(days.map(\.1)), days.count)
    }

    func bioAgeSection() -> String {
        var out = "## BioAge\n\n"
        guard let m = meanBioAge else { return out + "No day has a BioAge (it needs an age: subjects.csv or `--age`).\n\n" }
        let category = BioAgeEngine(constants: registry.bioAge).category(differenceYears: m.bioAge - m.age)
        out += "Mean BioAge \(decimals(m.bioAge, 1)) years against a chronological age of \(decimals(m.age, 1)) "
            + "(\(signed(m.bioAge - m.age, 1)) years, \(category.rawValue)) over \(plural(m.days, "day")).\n\n"
        out += markdownTable(["category", "days"], BioAgeCategory.allCases.map { c in
            [c.rawValue, "\(rows.filter { $0.bioAgeCategory == c.rawValue }.count)"]
        }) + "\n"
        if let last = assessments.last(where: { $0.bioAge != nil }), let b = last.bioAge {
            out += "Offsets of \(last.snapshot.date) (years, clamped to ±\(decimals(registry.bioAge.offsetClampYears, 0)); positive is older):\n\n"
            out += markdownTable(["input", "value", "norm", "offset", "weight"], b.offsets.map {
                [$0.name, decimals($0.value, 1), decimals($0.norm, 1), signed($0.years, 2), decimals($0.weight, 2)]
            }) + "\n"
        }
        return out
    }

    /// The 1-minute heart-rate recovery, and the health platform's morning recovery
    /// replayed from this subject's rows as `resonance daily` computes it (without
    /// overnight samples: the day's HRV) beside readiness on the same days.
    func recoverySection() -> String {
        var out = "## Recovery\n\n"
        guard !rows.isEmpty else { return out + "No days.\n\n" }
        let recovery = rows.compactMap(\.snapshot.recovery1mBpm)
        out += recovery.isEmpty ? "No day has a 1-minute heart-rate recovery.\n\n"
            : "1-minute heart-rate recovery: mean \(decimals(Stats.mean(recovery), 1)) bpm over \(plural(recovery.count, "day")).\n\n"
        var readiness: [String: String] = [:]
        for r in rows { readiness[r.snapshot.subject + "\u{0}" + r.snapshot.date] = r.readinessLevel }
        let mornings = MorningRecoveryEngine(constants: registry.morningRecovery)
            .mornings(rows.map(\.snapshot), readiness: readiness).map(\.row)
        let scores = mornings.compactMap(\.score.overall).map(Double.init)
        guard !scores.isEmpty else { return out + "No morning has a recovery score.\n\n" }
        let rest = mornings.filter { $0.withoutPlan?.action == "rest" }.count
        out += "Morning recovery (docs/engines/health-platform.md, Morning recovery): mean score \(decimals(Stats.mean(scores), 1)) of 100 "
            + "over \(plural(scores.count, "morning")); rest (without a planned workout) on \(rest). "
            + "Mean sleep debt \(Self.text(Self.mean(mornings.map(\.sleepDebtHours)), 1)) h, "
            + "mean strain \(Self.text(Self.mean(mornings.map(\.strainIndex)), 1)) points/day.\n\n"
        let kinds = ["both_rest", "both_train", "morning_rest", "readiness_rest"]
        out += "Against readiness (`recovering` = rest) on the same mornings:\n\n"
        out += markdownTable(["agreement", "mornings", "drivers of the disagreement"], kinds.map { k in
            let days = mornings.filter { $0.agreement == k }
            var drivers: [String: Int] = [:]
            for d in days where !d.driver.isEmpty { drivers[d.driver, default: 0] += 1 }
            return [k, "\(days.count)", drivers.keys.sorted().map { "\($0) \(drivers[$0] ?? 0)" }.joined(separator: ", ")]
        }) + "\n"
        return out
    }

    /// Workout minutes per zone over the period (`zones.csv`), the mean zone score, the
    /// days meeting the 80/20 check and the days whose week met the AHA target.
    func zoneDistributionSection() -> String {
        var out = "## Zone distribution of workouts\n\n"
        guard let all = inputs.zones else { return out + "No zones.csv: run `resonance daily` on the workspace.\n\n" }
        let days = all.filter { $0.subject == subject }
        guard !days.isEmpty else { return out + "No day with zones (no resting HR or age).\n\n" }
        let totals = (0..<5).map { z in days.reduce(0) { $0 + $1.zoneMinutes[z] } }
        let sum = totals.reduce(0, +)
        out += markdownTable(["zone", "minutes", "share"], (0..<5).map { z in
            ["\(z + 1)", decimals(totals[z], 0), sum > 0 ? decimals(totals[z] / sum, 3) : "–"]
        }) + "\n"
        let trained = days.filter { $0.rule8020 != nil }
        out += "Mean zone score \(decimals(Stats.mean(days.map(\.zoneScore)), 1)) over \(plural(days.count, "day")); "
            + "80/20 met on \(trained.filter { $0.rule8020 == true }.count) of \(plural(trained.count, "day")) with zone minutes; "
            + "the week to the day met the AHA target on \(days.filter(\.ahaMet).count) of \(plural(days.count, "day")) "
            + "(last week: \(decimals(days[days.count - 1].weekModerateMinutes, 0)) moderate, \(decimals(days[days.count - 1].weekVigorousMinutes, 0)) vigorous minutes).\n\n"
        return out
    }

    func zonesSection() -> String {
        var out = "## Heart-rate zones\n\n"
        guard let age = profile?.age, let rest = Self.median(rows.map(\.snapshot.restingHRBpm)) else {
            return out + "Age or resting HR unknown: no zones.\n\n"
        }
        let engine = HeartRateZoneEngine(constants: ZoneConstants(registry: registry))
        let sex = profile?.sex.rawValue ?? ""
        out += "Karvonen zones from the median resting HR \(decimals(rest, 1)) bpm and Tanaka's maximum \(decimals(engine.maxHR(age: Double(age), sex: sex), 1)) bpm (age \(age), \(sex)).\n\n"
        out += markdownTable(["zone", "% of reserve", "bpm"], engine.zones(age: Double(age), restingHRBpm: rest, sex: sex).map {
            ["\($0.number)", "\(decimals(100 * $0.fromFraction, 0))–\(decimals(100 * $0.toFraction, 0))", "\(decimals($0.lowBpm, 0))–\(decimals($0.highBpm, 0))"]
        }) + "\n"
        return out
    }

    func hrvSection() -> String {
        guard let all = inputs.hrv else { return "## HRV\n\nNo hrv.csv: run `resonance hrv` on the workspace.\n\n" }
        let windows = all.filter { $0.subject == subject }
        let reliable = windows.filter(\.reliable)
        var out = "## HRV (hrv.csv)\n\n\(plural(windows.count, "window")), \(reliable.count) reliable. Medians over reliable windows:\n\n"
        out += markdownTable(["SDNN (ms)", "RMSSD (ms)", "mean HR (bpm)", "profile SDNN", "profile RMSSD"], [[
            Self.text(Self.median(reliable.map { Self.finite($0.time.sdnn) }), 1),
            Self.text(Self.median(reliable.map { Self.finite($0.time.rmssd) }), 1),
            Self.text(Self.median(reliable.map { Self.finite($0.time.meanHR) }), 1), Self.text(profile?.sdnnMs, 1), Self.text(profile?.rmssdMs, 1),
        ]]) + "\n"
        return out
    }

    func coherenceSection() -> String {
        guard let all = inputs.coherence else { return "## Coherence\n\nNo coherence.csv: run `resonance coherence` on the workspace.\n\n" }
        let windows = all.filter { $0.subject == subject }
        let methods = Array(Set(windows.map(\.method))).sorted()
        return "## Coherence (coherence.csv)\n\n" + markdownTable(["method", "windows", "median", "90th percentile"], methods.map { m in
            let v = windows.filter { $0.method == m }.compactMap { Self.finite($0.coherence) }
            return [m, "\(v.count)", Self.text(v.isEmpty ? nil : Stats.median(v), 3), Self.text(v.isEmpty ? nil : Stats.quantile(v, 0.9), 3)]
        }) + "\n"
    }

    func listeningSection() -> String {
        let plays = inputs.plays.filter { $0.subject == subject }
        var out = "## Listening\n\n"
        guard !plays.isEmpty else { return out + "No plays.\n\n" }
        let skipped = plays.filter(\.skipped).count
        let hours = plays.reduce(0.0) { $0 + ($1.playedS ?? Double(($1.endedAtMs ?? $1.startedAtMs) - $1.startedAtMs) / 1000) } / 3600
        let songs = Set(plays.map(\.songId))
        let others = Set(inputs.plays.filter { $0.subject != subject }.map(\.songId))
        out += "\(plural(plays.count, "play")) of \(plural(songs.count, "song")), \(decimals(hours, 1)) h listened, \(skipped) skipped (\(decimals(100 * Double(skipped) / Double(plays.count), 1)) %); "
        out += "\(songs.intersection(others).count) of the \(plural(songs.count, "song")) are also heard by other personas.\n\n"
        func counts(_ key: (Play) -> String) -> [(String, Int)] {
            var n: [String: Int] = [:]
            for p in plays { n[key(p), default: 0] += 1 }
            return n.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        }
        out += markdownTable(["playlist", "plays"], counts(\.playlist).map { [$0.0, "\($0.1)"] }) + "\n"
        out += "Most played:\n\n" + markdownTable(["song", "plays"], counts { "\($0.title) — \($0.artist)" }.prefix(5).map { [$0.0, "\($0.1)"] }) + "\n"
        return out
    }
}
