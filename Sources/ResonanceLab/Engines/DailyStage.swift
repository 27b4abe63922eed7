import Foundation

/// `resonance daily`: one snapshot per subject and UTC day from the workspace's
/// tables, then the daily engines (trend, stress, readiness, BioAge; zones for zone
/// minutes) → `daily.csv`, the zone distribution of workout heart rate → `zones.csv`,
/// and the coaching rules replayed from its rows (`CoachingRules`) → `nudges.csv`,
/// `coaching.csv`, `phases.csv`. The persona generator writes its `daily.csv` through `write` too.
///
/// Input rules (docs/methods.md, "Daily engines"), per subject and UTC calendar day:
/// - `resting_hr`: the `daily_inputs.resting_hr_quantile` (5th percentile; type 7, as
///   NumPy) of the day's `hr.csv` samples, on days with at least
///   `daily_inputs.min_hr_samples_per_day` (60) samples — the low end of the day's heart
///   rate, robust to a few artifact beats, where a minimum is not. Samples of two sources
///   in the same minute are read by `HeartRateSources` (the source with most samples).
/// - `hrv_sdnn`: the mean of the day's `hrv_samples.csv` SDNN values (wearable
///   samples, e.g. Apple Health); without any, the median SDNN of the reliable
///   windows of `hrv.csv` that start that day.
/// - `sleep_hours`: asleep time (core, deep, rem, asleep stages) of each night of
///   `sleep.csv` (`SleepLink.periods`: the union of its asleep rows, counted once
///   whatever the sources), counted on the day the night ends (the morning after).
/// - `workout_minutes`: duration of the `workouts.csv` workouts starting that day.
/// - `zone_minutes` (only with an age): minutes whose mean heart rate reaches the
///   lower bound of zone 2 (Karvonen from the day's resting HR and the age).
/// - `daily_inputs.csv` (the exports' own per-day values, on the record's local date):
///   its `resting_hr` replaces the quantile rule on the days it has one; `hr_recovery_1m`,
///   `vo2_max`, `steps` and `body_mass` fill their columns. Walking minutes and the
///   2-minute recovery have no source yet and stay empty.
/// - Age (zone minutes, zones, BioAge): the subject's `subjects.csv` birth year (age
///   reached in the day's year), else `--age`; sex and height (zones' female adjustment,
///   BioAge) from `subjects.csv` too.
/// - `zones.csv`: the minutes of heart rate inside `workouts.csv` workouts, per Karvonen
///   zone (`ZoneDistributionEngine`).
/// A day is listed when any rule gives it a value. When `manifest.json` lists
/// `daily.csv` itself as a source (a generated persona workspace, whose simulated
/// wearable measured every column), its measured columns are the inputs instead.
public struct DailyStage: Stage {
    /// Age in years of the subjects without a birth year in `subjects.csv`, for zone
    /// minutes; nil leaves theirs empty.
    public var ageYears: Double?
    /// A BioAge norms table replacing the built-in one (`bio_age_norms.csv` format).
    public var normsFile: String?

    public init(ageYears: Double? = nil, normsFile: String? = nil) {
        self.ageYears = ageYears; self.normsFile = normsFile
    }


    public var name: String { "daily" }
    public var version: String { "1.0.0" }
    public var engines: [String] { DailyEngines.engines + ["daily_inputs", "zones", "morning_recovery", "coaching"] }
    public var perSubject: Bool { true }
    public var reads: [String] {
        [HRSample.fileName, HRVSample.fileName, HRVRow.fileName, SleepEpisode.fileName, Workout.fileName, DailyInputRow.fileName,
         SubjectRow.fileName]
    }
    public var writes: [String] {
        [DailyRow.fileName, ReceiptRow.fileName, HeartRateRecoveryRow.fileName, MorningRecoveryRow.fileName,
         MorningReceiptRow.fileName,
         NudgeRow.fileName, CoachingRow.fileName, PhaseRow.fileName, ZoneDayRow.fileName]
    }

    public func run(_ ws: Workspace, _ context: StageContext) throws {
        ws.session?.record(setting: "age_years", ageYears.map(CSVWriter.format) ?? "none")
        var norms = BioAgeNorms.builtIn
        if let normsFile {
            norms = try BioAgeNorms.read(path: normsFile)
            ws.session?.record(setting: "bio_age_norms", "\(normsFile) (SHA-256 \(try SHA256.hex(ofFile: normsFile)))")
        }
        let subjects = DailySubjects(try ws.read(SubjectRow.self), defaultAgeYears: ageYears, norms: norms)
        var heartRate = WorkoutHeartRate(workouts: try ws.read(Workout.self))
        var overlaps = SourceOverlaps()
        var recoveries: [HeartRateRecoveryRow] = []
        var snapshots: [DailySnapshot]
        if let measured = try Self.measuredSnapshots(ws) {
            snapshots = measured
            // A generated workspace has one heart-rate source per subject: every sample counts.
            try ws.forEachRow(HRSample.self) { heartRate.add(subject: $0.subject, timeMs: $0.timestampMs, bpm: $0.bpm) }
        } else {
            snapshots = try self.snapshots(ws, context: context, subjects: subjects, overlaps: &overlaps, recoveries: &recoveries,
                                           heartRate: &heartRate)
        }
        let rows = try Self.write(snapshots, to: ws, registry: context.registry, subjects: subjects, heartRate: heartRate)
        try ws.write(recoveries)
        var readiness: [String: String] = [:]
        for r in rows { readiness[r.snapshot.subject + "\u{0}" + r.snapshot.date] = r.readinessLevel }
        let mornings = MorningRecoveryEngine(constants: context.registry.morningRecovery)
            .mornings(snapshots, readiness: readiness, inputs: try MorningInputs.read(ws))
        try ws.write(mornings.map(\.row))
        try ws.write(mornings.flatMap(\.receipts))
        let coaching = CoachingRules.replay(rows, constants: context.registry.coaching)
        try ws.write(coaching.nudges)
        try ws.write(coaching.coaching)
        try ws.write(coaching.phases)
        ws.session?.overlaps = (name, overlaps)
        context.progress.note("daily: \(snapshots.count) person-days → \(ws.file(DailyRow.fileName))")
    }

    /// Runs the engines over `snapshots` and writes `daily.csv`, the decisions'
    /// receipts (`receipts.csv`) and the zone distribution of `heartRate` (`zones.csv`).
    @discardableResult
    public static func write(_ snapshots: [DailySnapshot], to ws: Workspace, registry: ConstantsRegistry,
                             subjects: DailySubjects, heartRate: WorkoutHeartRate) throws -> [DailyRow] {
        let assessments = DailyEngines.assess(history: snapshots, registry: registry, subjects: subjects)
        let rows = assessments.map(\.row)
        try ws.write(rows)
        try ws.write(ReceiptRow.daily(assessments))
        try ws.write(ZoneDistributionEngine(constants: registry.zones).rows(snapshots, heartRate: heartRate, subjects: subjects))
        return rows
    }

    /// The measured columns of a `daily.csv` that `manifest.json` lists as a source; nil otherwise.
    static func measuredSnapshots(_ ws: Workspace) throws -> [DailySnapshot]? {
        guard ws.exists(Manifest.fileName), ws.exists(DailyRow.fileName),
              try Manifest.read(from: ws).sources.contains(where: { $0.path == DailyRow.fileName }) else { return nil }
        return try ws.read(DailyRow.self).map(\.snapshot)
    }

    /// Day number (days since 1970-01-01 UTC) of a time.
    static func day(_ ms: Int64) -> Int { Int(Timestamp.floorDivMod(ms, 86_400_000).0) }

    /// Snapshots of every subject-day the workspace's tables give a value for,
    /// subjects in byte order, days ascending.
    func snapshots(_ ws: Workspace, context: StageContext, subjects: DailySubjects, overlaps: inout SourceOverlaps,
                   recoveries: inout [HeartRateRecoveryRow], heartRate: inout WorkoutHeartRate) throws -> [DailySnapshot] {
        struct Key: Hashable, Comparable {
            let subject: String
            let day: Int
            static func < (a: Key, b: Key) -> Bool {
                a.subject != b.subject ? SubjectOrder.precedes(a.subject, b.subject) : a.day < b.day
            }
        }
        var days: [Key: DailySnapshot] = [:]
        func update(_ subject: String, _ day: Int, _ change: (inout DailySnapshot) -> Void) {
            let key = Key(subject: subject, day: day)
            change(&days[key, default: DailySnapshot(subject: subject, day: day)])
        }

        // Heart rate: per day the samples (resting HR) and per minute their mean (zones).
        // Samples of more than one source in a minute: the heart-rate source rule decides.
        var samples: [Key: (times: [Int64], bpm: [Double], sources: [String])] = [:]
        let inputs = context.registry.dailyInputs
        // Workouts first: the samples around their ends give heart-rate recovery.
        var workouts: [String: [Workout]] = [:]
        try ws.forEachRow(Workout.self) { workouts[$0.subject, default: []].append($0) }
        var endsBySubject = workouts.mapValues { $0.map(\.endMs).sorted() }
        var nearEnds: [String: (times: [Int64], bpm: [Double])] = [:]
        try ws.forEachRow(HRSample.self) { s in
            if let ends = endsBySubject[s.subject] {
                let i = HeartRateRecovery.lowerBound(ends, s.timestampMs - 120_000 - Int64(inputs.recoverySampleToleranceSeconds * 1000))
                if i < ends.count, HeartRateRecovery.matters(s.timestampMs, workoutEndMs: ends[i], constants: inputs) {
                    nearEnds[s.subject, default: ([], [])].times.append(s.timestampMs)
                    nearEnds[s.subject]?.bpm.append(s.bpm)
                }
            }
            let key = Key(subject: s.subject, day: Self.day(s.timestampMs))
            samples[key, default: ([], [], [])].times.append(s.timestampMs)
            samples[key]?.bpm.append(s.bpm)
            samples[key]?.sources.append(s.source)
        }
        // The exports' own per-day values, and each subject's age.
        var stated: [Key: [String: Double]] = [:]
        try ws.forEachRow(DailyInputRow.self) { row in
            guard let day = Timestamp.dayNumber(isoDate: row.date) else { return }
            stated[Key(subject: row.subject, day: day), default: [:]][row.metric] = row.value
        }
        func age(_ key: Key) -> Double? { subjects.age(key.subject, day: key.day) }
        var hrByDay: [Key: [Double]] = [:]
        var minuteSums: [Key: [Int64: (sum: Double, n: Int)]] = [:]
        var hrOverlap = HeartRateSources.Overlap()
        for (key, day) in samples {
            let rule = HeartRateSources.keep(timesMs: day.times, sources: day.sources)
            hrOverlap = hrOverlap + rule.overlap
            for i in day.times.indices where rule.keep[i] {
                let (t, bpm) = (day.times[i], day.bpm[i])
                hrByDay[key, default: []].append(bpm)
                heartRate.add(subject: key.subject, timeMs: t, bpm: bpm)
                if age(key) != nil {
                    let minute = Timestamp.floorDivMod(t, 60_000).0
                    let old = minuteSums[key, default: [:]][minute] ?? (0, 0)
                    minuteSums[key, default: [:]][minute] = (old.sum + bpm, old.n + 1)
                }
            }
        }
        let zones = HeartRateZoneEngine(constants: ZoneConstants(registry: context.registry))
        for (key, values) in hrByDay where Double(values.count) >= inputs.minHRSamplesPerDay {
            let rest = stated[key]?[DailyMetric.restingHR.rawValue] ?? Stats.quantile(values, inputs.restingHRQuantile)
            var zoneMinutes: Double?
            if let age = age(key), let floor = zones.zones(age: age, restingHRBpm: rest, sex: subjects.sex(key.subject)).dropFirst().first?.lowBpm {
                zoneMinutes = Double(minuteSums[key]?.values.filter { $0.sum / Double($0.n) >= floor }.count ?? 0)
            }
            update(key.subject, key.day) { $0.restingHRBpm = rest; $0.zoneMinutes = zoneMinutes }
        }

        let columns: [(DailyMetric, WritableKeyPath<DailySnapshot, Double?>)] = [
            (.restingHR, \.restingHRBpm), (.hrRecovery1m, \.recovery1mBpm), (.vo2Max, \.vo2Max), (.steps, \.steps),
            (.bodyMass, \.bodyMassKg),
        ]
        for (key, metrics) in stated {
            update(key.subject, key.day) { snapshot in
                for (metric, column) in columns { if let v = metrics[metric.rawValue] { snapshot[keyPath: column] = v } }
            }
        }

        // HRV: wearable SDNN samples, else the reliable windows of hrv.csv.
        var sdnn: [Key: [Double]] = [:]
        try ws.forEachRow(HRVSample.self) { row in
            guard let v = row.sdnnMs else { return }
            sdnn[Key(subject: row.subject, day: Self.day(row.timestampMs)), default: []].append(v)
        }
        var windowSDNN: [Key: [Double]] = [:]
        try ws.forEachRow(HRVRow.self) { row in
            guard let start = row.windowStartMs, row.reliable, row.time.sdnn.isFinite else { return }
            windowSDNN[Key(subject: row.subject, day: Self.day(start)), default: []].append(row.time.sdnn)
        }
        for (key, values) in sdnn { update(key.subject, key.day) { $0.hrvSDNNMs = Stats.mean(values) } }
        for (key, values) in windowSDNN where sdnn[key] == nil {
            update(key.subject, key.day) { $0.hrvSDNNMs = Stats.median(values) }
        }

        // Sleep and workouts.
        var sleep: [String: [SleepEpisode]] = [:]
        try ws.forEachRow(SleepEpisode.self) { sleep[$0.subject, default: []].append($0) }
        var nights: [SleepPeriod] = []
        let sessionConstants = SessionConstants(registry: context.registry)
        for (subject, rows) in sleep {
            for night in SleepLink.periods(rows, constants: sessionConstants) where night.measuredAsleepMs > 0 {
                nights.append(night)
                update(subject, Self.day(night.endMs)) {
                    $0.sleepHours = ($0.sleepHours ?? 0) + Double(night.measuredAsleepMs) / 3_600_000
                }
            }
        }
        overlaps = SourceOverlaps(periods: nights, hr: hrOverlap)
        endsBySubject = [:]
        for subject in workouts.keys.sorted(by: SubjectOrder.precedes) {
            let near = nearEnds[subject] ?? ([], [])
            let order = near.times.indices.sorted { near.times[$0] != near.times[$1] ? near.times[$0] < near.times[$1] : $0 < $1 }
            let times = order.map { near.times[$0] }, bpm = order.map { near.bpm[$0] }
            for w in (workouts[subject] ?? []).sorted(by: { ($0.startMs, $0.endMs) < ($1.startMs, $1.endMs) }) {
                update(w.subject, Self.day(w.startMs)) { $0.workoutMinutes = ($0.workoutMinutes ?? 0) + Double(w.endMs - w.startMs) / 60_000 }
                let r = HeartRateRecovery.after(workout: w, times: times, bpm: bpm, constants: inputs)
                recoveries.append(r)
                // The day's recovery: the export's own value, else the last workout ending that day with a 1-minute drop.
                guard r.quality == "ok", stated[Key(subject: w.subject, day: Self.day(w.endMs))]?[DailyMetric.hrRecovery1m.rawValue] == nil
                else { continue }
                update(w.subject, Self.day(w.endMs)) { $0.recovery1mBpm = r.drop1mBpm; $0.recovery2mBpm = r.drop2mBpm }
            }
        }
        return days.keys.sorted().compactMap { days[$0] }
    }
}
