import Foundation

/// `resonance daily`: one snapshot per subject and local day from the workspace's
/// tables, then the daily engines (trend, stress, readiness, BioAge; zones for zone
/// minutes) → `daily.csv`, the circadian hourly stress → `stress_hourly.csv`, the zone
/// distribution of workout heart rate → `zones.csv`, and the coaching rules replayed
/// from its rows (`CoachingRules`) → `nudges.csv`, `coaching.csv`, `phases.csv`. The
/// persona generator writes its `daily.csv` through `write` too.
///
/// Input rules (docs/methods.md, "Daily engines"), per subject and local calendar day
/// (`SubjectClock`: the plays' offset, else `subjects.csv`'s zone, else `--tz`, else UTC):
/// - `resting_hr`: the `daily_inputs.resting_hr_quantile` (5th percentile; type 7, as
///   NumPy) of the day's `hr.csv` samples, on days with at least
///   `daily_inputs.min_hr_samples_per_day` (60) samples — the low end of the day's heart
///   rate, robust to a few artifact beats, where a minimum is not. Samples of two sources
///   in the same minute are read by `HeartRateSources` (the source with most samples).
/// - `hrv_sdnn`: the mean of the day's `hrv_samples.csv` SDNN values (wearable
///   samples, e.g. Apple Health); without any, the median SDNN of the reliable
///   windows of `hrv.csv` that start that day; without either, a day with RMSSD samples
///   only (Oura, WHOOP, Garmin, Fitbit) takes `daily_inputs.rmssd_to_sdnn_ratio` × their
///   mean (`hrv_basis` `rmssd_converted`). `hrv_rmssd`: the mean RMSSD of the day's samples.
/// - `wear_hours`: local clock hours with at least one `hr.csv` sample (empty for a
///   subject without heart rate). Below `daily_inputs.min_wear_hours` the day is
///   `low_wear`: no resting HR from its samples, and no stress score.
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
///   BioAge) from `subjects.csv` too, the height else from the latest `height` of
///   `daily_inputs.csv`.
/// - `zones.csv`: the minutes of heart rate inside `workouts.csv` workouts, per Karvonen
///   zone (`ZoneDistributionEngine`).
/// A day is listed when any rule gives it a value (a heart-rate sample gives its wear
/// time). When `manifest.json` lists `daily.csv` itself as a source (a generated persona
/// workspace, whose simulated wearable measured every column), its measured columns are
/// the inputs instead.
public struct DailyStage: Stage {
    /// Age in years of the subjects without a birth year in `subjects.csv`, for zone
    /// minutes; nil leaves theirs empty.
    public var ageYears: Double?
    /// Zone of the subjects whose local days neither their plays' offsets nor
    /// `subjects.csv` give (`--tz`); nil leaves them in UTC.
    public var timeZone: TimeZone?
    /// A BioAge norms table replacing the built-in one (`bio_age_norms.csv` format).
    public var normsFile: String?

    public init(ageYears: Double? = nil, timeZone: TimeZone? = nil, normsFile: String? = nil) {
        self.ageYears = ageYears; self.timeZone = timeZone; self.normsFile = normsFile
    }


    public var name: String { "daily" }
    public var version: String { "1.1.0" }
    public var engines: [String] { DailyEngines.engines + ["zones", "morning_recovery", "coaching"] }
    public var perSubject: Bool { true }
    public var reads: [String] {
        [HRSample.fileName, HRVSample.fileName, HRVRow.fileName, SleepEpisode.fileName, Workout.fileName, DailyInputRow.fileName,
         SubjectRow.fileName, Play.fileName]
    }
    public var writes: [String] {
        [DailyRow.fileName, ReceiptRow.fileName, HeartRateRecoveryRow.fileName, MorningRecoveryRow.fileName,
         MorningReceiptRow.fileName, StressHourlyRow.fileName,
         NudgeRow.fileName, CoachingRow.fileName, PhaseRow.fileName, ZoneDayRow.fileName]
    }

    public func run(_ ws: Workspace, _ context: StageContext) throws {
        ws.session?.record(setting: "age_years", ageYears.map(CSVWriter.format) ?? "none")
        ws.session?.record(setting: "tz", timeZone?.identifier ?? "none")
        var norms = BioAgeNorms.builtIn
        if let normsFile {
            norms = try BioAgeNorms.read(path: normsFile)
            ws.session?.record(setting: "bio_age_norms", "\(normsFile) (SHA-256 \(try SHA256.hex(ofFile: normsFile)))")
        }
        var subjects = DailySubjects(try ws.read(SubjectRow.self), defaultAgeYears: ageYears, norms: norms)
        // A subject without a height in subjects.csv takes its export's latest (daily_inputs.csv `height`).
        var heights: [String: (date: String, cm: Double)] = [:]
        try ws.forEachRow(DailyInputRow.self) { row in
            guard row.metric == DailyMetric.height.rawValue, row.date >= heights[row.subject]?.date ?? "" else { return }
            heights[row.subject] = (row.date, row.value)
        }
        for (subject, h) in heights where subjects.rows[subject]?.heightCm == nil {
            subjects.rows[subject, default: SubjectRow(subject: subject, source: "daily_inputs")].heightCm = h.cm
        }
        // A generated workspace's daily.csv lists its measured days (subjects in its order);
        // an export's days come from its tables (subjects in byte order).
        let measured = try Self.measuredIndex(ws)
        let tables = try SubjectTables(ws, jobs: context.jobs, windows: measured == nil)
        let days: DaysSource = try measured.map { .measured($0) } ?? .tables(try SubjectClocks(ws, subjects: subjects, option: timeZone))
        let names = measured?.subjects ?? tables.subjects.sorted(by: SubjectOrder.precedes)
        let out = try Writers(ws)
        var overlaps = SourceOverlaps()
        var count = 0
        try Parallel.forEach(names, jobs: context.jobs, { subject -> SubjectOutputs in
            var t = try tables.rows(of: subject)
            let inputs = MorningInputs(hrvSamples: t.hrvSamples, sleep: t.sleep, stated: t.stated)
            switch days {
            case .measured(let measured):
                // One heart-rate source per subject: every sample inside a workout counts.
                var heartRate = WorkoutHeartRate(workouts: t.workouts)
                if !t.workouts.isEmpty {
                    try tables.hr.forEachMeasurement(HRSample.self, of: subject) { heartRate.add(subject: subject, timeMs: $0, bpm: $1) }
                }
                let snapshots = try measured.rows(DailyRow.self, of: subject).map(\.snapshot)
                return try Self.outputs(SubjectDays(days: snapshots, recoveries: [], overlaps: SourceOverlaps(), heartRate: heartRate),
                                        subject: subject, inputs: inputs, offsetMs: { _ in 0 }, registry: context.registry, subjects: subjects)
            case .tables(let clocks):
                let clock = clocks.clock(of: subject)
                let part: SubjectDays
                do {
                    part = try subjectSnapshots(t, context: context, subjects: subjects, clock: clock)
                } catch is OutOfOrder {
                    t.hr = .held(try tables.hr.rows(HRSample.self, of: subject))
                    part = try subjectSnapshots(t, context: context, subjects: subjects, clock: clock)
                }
                return try Self.outputs(part, subject: subject, inputs: inputs, offsetMs: { clock.offsetMs(Int64($0) * 86_400_000) },
                                        registry: context.registry, subjects: subjects)
            }
        }, inOrder: { part in
            try out.append(part)
            overlaps = overlaps + part.overlaps
            count += part.days
        })
        try out.commit()
        ws.session?.overlaps = (name, overlaps)
        context.progress.note("daily: \(plural(count, "person-day")) → \(ws.file(DailyRow.fileName))")
    }

    /// Where a subject's days come from: a generated workspace's measured `daily.csv`,
    /// or the tables by the input rules, on the subjects' clocks.
    enum DaysSource {
        case measured(SubjectIndex)
        case tables(SubjectClocks)
    }

    /// The per-subject tables `daily` reads, indexed by subject.
    struct SubjectTables {
        let workouts, hr, stated, hrvSamples, sleep: SubjectIndex
        /// `hrv.csv`'s windows; nil for a generated workspace, whose daily.csv has its HRV.
        let windows: SubjectIndex?

        init(_ ws: Workspace, jobs: Int, windows: Bool) throws {
            workouts = try ws.subjectIndex(Workout.self)
            hr = try ws.subjectIndex(HRSample.self, jobs: jobs)
            stated = try ws.subjectIndex(DailyInputRow.self)
            hrvSamples = try ws.subjectIndex(HRVSample.self)
            sleep = try ws.subjectIndex(SleepEpisode.self)
            self.windows = windows ? try ws.subjectIndex(HRVRow.self) : nil
        }

        /// Subjects of any of the tables.
        var subjects: [String] {
            Array([workouts, hr, stated, hrvSamples, sleep, windows].compactMap { $0 }.reduce(into: Set<String>()) { $0.formUnion($1.subjects) })
        }

        /// One subject's rows of every table; `hr.csv`'s are read as they are taken.
        func rows(of subject: String) throws -> DailyTables {
            DailyTables(workouts: try workouts.rows(Workout.self, of: subject), hr: .read(hr, subject: subject),
                        stated: try stated.rows(DailyInputRow.self, of: subject),
                        hrvSamples: try hrvSamples.rows(HRVSample.self, of: subject),
                        hrvWindows: try windows?.rows(HRVRow.self, of: subject) ?? [], sleep: try sleep.rows(SleepEpisode.self, of: subject))
        }
    }

    /// One subject's rows of every output, encoded in its worker, with what the stage
    /// counts over subjects.
    struct SubjectOutputs {
        var daily, receipts, zones, hourly, recoveries, mornings, morningReceipts, nudges, coaching, phases: EncodedRows
        var days: Int
        var overlaps: SourceOverlaps
    }

    /// The tables `daily` writes, each taking the subjects' encoded rows in order.
    final class Writers {
        let daily: TableWriter<DailyRow>, receipts: TableWriter<ReceiptRow>, zones: TableWriter<ZoneDayRow>
        let hourly: TableWriter<StressHourlyRow>, recoveries: TableWriter<HeartRateRecoveryRow>
        let mornings: TableWriter<MorningRecoveryRow>, morningReceipts: TableWriter<MorningReceiptRow>
        let nudges: TableWriter<NudgeRow>, coaching: TableWriter<CoachingRow>, phases: TableWriter<PhaseRow>

        init(_ ws: Workspace) throws {
            daily = try ws.writer(DailyRow.self); receipts = try ws.writer(ReceiptRow.self); zones = try ws.writer(ZoneDayRow.self)
            hourly = try ws.writer(StressHourlyRow.self); recoveries = try ws.writer(HeartRateRecoveryRow.self)
            mornings = try ws.writer(MorningRecoveryRow.self); morningReceipts = try ws.writer(MorningReceiptRow.self)
            nudges = try ws.writer(NudgeRow.self); coaching = try ws.writer(CoachingRow.self); phases = try ws.writer(PhaseRow.self)
        }

        func append(_ o: SubjectOutputs) throws {
            try daily.append(o.daily); try receipts.append(o.receipts); try zones.append(o.zones); try hourly.append(o.hourly)
            try recoveries.append(o.recoveries); try mornings.append(o.mornings); try morningReceipts.append(o.morningReceipts)
            try nudges.append(o.nudges); try coaching.append(o.coaching); try phases.append(o.phases)
        }

        func commit() throws {
            try daily.commit(); try receipts.commit(); try zones.commit(); try hourly.commit(); try recoveries.commit()
            try mornings.commit(); try morningReceipts.commit(); try nudges.commit(); try coaching.commit(); try phases.commit()
        }
    }

    /// Every output row of `subject`'s days (`part`, days ascending): the engines'
    /// assessments and receipts, zones, hourly stress, workout recoveries, mornings
    /// (`inputs`; `offsetMs`: the subject's offset from UTC on a day) and the coaching
    /// rules' tables. Each engine sees one subject's days, so a subject's rows do not
    /// depend on the others.
    static func outputs(_ part: SubjectDays, subject: String, inputs: MorningInputs, offsetMs: (Int) -> Int64, registry: ConstantsRegistry,
                        subjects: DailySubjects) throws -> SubjectOutputs {
        let (snapshots, assessments) = assess(part.days, registry: registry, subjects: subjects)
        var readiness: [String: String] = [:]
        for a in assessments { readiness[a.snapshot.subject + "\u{0}" + a.snapshot.date] = a.readiness?.level.rawValue ?? "" }
        let mornings = MorningRecoveryEngine(constants: registry.morningRecovery)
            .mornings(part.days, readiness: readiness, inputs: [subject: inputs],
                      offsetMs: { offsetMs($1) })
        let coaching = CoachingRules.replay(assessments.map(\.row), constants: registry.coaching)
        return SubjectOutputs(
            daily: try Workspace.encode(assessments.lazy.map(\.row)), receipts: try Workspace.encode(ReceiptRow.daily(assessments)),
            zones: try Workspace.encode(ZoneDistributionEngine(constants: registry.zones).rows(snapshots, heartRate: part.heartRate, subjects: subjects)),
            hourly: try Workspace.encode(StressHourlyRow.rows(assessments, engine: StressEngine(constants: registry.stress))),
            recoveries: try Workspace.encode(part.recoveries), mornings: try Workspace.encode(mornings.lazy.map(\.row)),
            morningReceipts: try Workspace.encode(mornings.lazy.flatMap(\.receipts)), nudges: try Workspace.encode(coaching.nudges),
            coaching: try Workspace.encode(coaching.coaching), phases: try Workspace.encode(coaching.phases),
            days: part.days.count, overlaps: part.overlaps)
    }

    /// The engines' assessments of `snapshots`, with the snapshots as assessed: a day with
    /// an SDNN and no basis (a persona's simulated watch) has the basis `sdnn`.
    static func assess(_ snapshots: [DailySnapshot], registry: ConstantsRegistry,
                       subjects: DailySubjects) -> (snapshots: [DailySnapshot], assessments: [DailyAssessment]) {
        let snapshots = snapshots.map { s -> DailySnapshot in
            var s = s
            if s.hrvBasis.isEmpty, s.hrvSDNNMs != nil { s.hrvBasis = "sdnn" }
            return s
        }
        return (snapshots, DailyEngines.assess(history: snapshots, registry: registry, subjects: subjects))
    }

    /// The subject index of a `daily.csv` that `manifest.json` lists as a source (its
    /// measured columns are the inputs); nil otherwise.
    static func measuredIndex(_ ws: Workspace) throws -> SubjectIndex? {
        guard ws.exists(Manifest.fileName), ws.exists(DailyRow.fileName),
              try Manifest.read(from: ws).sources.contains(where: { $0.path == DailyRow.fileName }) else { return nil }
        return try ws.subjectIndex(DailyRow.self)
    }

    /// Day number (days since 1970-01-01 UTC) of a time (the planted events of the alarm
    /// analysis; `resonance daily` reads local days through `SubjectClock`).
    static func day(_ ms: Int64) -> Int { Int(Timestamp.floorDivMod(ms, 86_400_000).0) }

    /// One subject's rows of the tables `daily` reads.
    struct DailyTables {
        var workouts: [Workout], hr: HeartRateRows, stated: [DailyInputRow], hrvSamples: [HRVSample], hrvWindows: [HRVRow]
        var sleep: [SleepEpisode]
    }

    /// A subject's `hr.csv` rows: read a piece at a time as its days come in time order,
    /// or held (rows whose days go back in time).
    enum HeartRateRows {
        case read(SubjectIndex, subject: String)
        case held([HRSample])

        var inTimeOrder: Bool {
            if case .read = self { return true }
            return false
        }

        func forEach(_ body: (HRSample) throws -> Void) throws {
            switch self {
            case .read(let index, let subject): try index.forEachRow(HRSample.self, of: subject, body)
            case .held(let rows): try rows.forEach(body)
            }
        }
    }

    /// What one subject gives: its days ascending, its workouts' recoveries, its sources'
    /// overlaps, and its workout heart rate.
    struct SubjectDays {
        var days: [DailySnapshot]
        var recoveries: [HeartRateRecoveryRow]
        var overlaps: SourceOverlaps
        var heartRate: WorkoutHeartRate
    }

    /// The snapshots of one subject's days from its rows (the input rules above).
    func subjectSnapshots(_ t: DailyTables, context: StageContext, subjects: DailySubjects, clock: SubjectClock) throws -> SubjectDays {
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
        // Rows read a piece at a time hold one local day: a day is taken when the next one's
        // first sample comes (a day that comes back throws `OutOfOrder`: the rows are then
        // held and every day taken at the end, as grouped).
        var samples: [Key: (times: [Int64], bpm: [Double], sources: [String])] = [:]
        // Local clock hours with a sample, one bit per hour, per subject-day.
        var worn: [Key: UInt32] = [:]
        let inputs = context.registry.dailyInputs
        // Workouts first: the samples around their ends give heart-rate recovery.
        var workouts: [String: [Workout]] = [:]
        for w in t.workouts { workouts[w.subject, default: []].append(w) }
        var heartRate = WorkoutHeartRate(workouts: t.workouts)
        var endsBySubject = workouts.mapValues { $0.map(\.endMs).sorted() }
        var nearEnds: [String: (times: [Int64], bpm: [Double])] = [:]
        func age(_ key: Key) -> Double? { subjects.age(key.subject, day: key.day) }
        var hrByDay: [Key: [Double]] = [:]
        var minuteSums: [Key: [Int64: (sum: Double, n: Int)]] = [:]
        var hrOverlap = HeartRateSources.Overlap()
        /// One local day's samples: the heart-rate source rule, then its values for the
        /// resting HR, its minute means (zones) and its workout heart rate.
        func take(_ key: Key, _ day: (times: [Int64], bpm: [Double], sources: [String])) {
            let rule = HeartRateSources.keep(timesMs: day.times, sources: day.sources)
            hrOverlap = hrOverlap + rule.overlap
            for i in day.times.indices where rule.keep[i] {
                let (t, bpm) = (day.times[i], day.bpm[i])
                hrByDay[key, default: []].append(bpm)
                heartRate.add(subject: key.subject, timeMs: t, bpm: bpm, day: key.day)
                if age(key) != nil {
                    let minute = Timestamp.floorDivMod(t, 60_000).0
                    let old = minuteSums[key, default: [:]][minute] ?? (0, 0)
                    minuteSums[key, default: [:]][minute] = (old.sum + bpm, old.n + 1)
                }
            }
        }
        try t.hr.forEach { s in
            if let ends = endsBySubject[s.subject] {
                let i = HeartRateRecovery.lowerBound(ends, s.timestampMs - 120_000 - Int64(inputs.recoverySampleToleranceSeconds * 1000))
                if i < ends.count, HeartRateRecovery.matters(s.timestampMs, workoutEndMs: ends[i], constants: inputs) {
                    nearEnds[s.subject, default: ([], [])].times.append(s.timestampMs)
                    nearEnds[s.subject]?.bpm.append(s.bpm)
                }
            }
            let c = clock
            let key = Key(subject: s.subject, day: c.day(s.timestampMs))
            worn[key, default: 0] |= 1 << UInt32(c.hour(s.timestampMs))
            if t.hr.inTimeOrder, let open = samples.first, open.key != key {
                guard open.key < key else { throw OutOfOrder() }
                samples = [:]
                take(open.key, open.value)
            }
            samples[key, default: ([], [], [])].times.append(s.timestampMs)
            samples[key]?.bpm.append(s.bpm)
            samples[key]?.sources.append(s.source)
        }
        for (key, day) in samples { take(key, day) }
        samples = [:]
        // The exports' own per-day values, and each subject's age.
        var stated: [Key: [String: Double]] = [:]
        for row in t.stated {
            guard let day = Timestamp.dayNumber(isoDate: row.date) else { continue }
            stated[Key(subject: row.subject, day: day), default: [:]][row.metric] = row.value
        }
        let zoneEngine = HeartRateZoneEngine(constants: ZoneConstants(registry: context.registry))
        // Every day with a heart-rate sample is listed: its wear time is a value.
        for key in worn.keys { update(key.subject, key.day) { _ in } }
        for (key, values) in hrByDay where Double(values.count) >= inputs.minHRSamplesPerDay {
            // A day worn too little gives no resting HR of its own: its few hours (often asleep) would read as calm.
            let lowWear = Double((worn[key] ?? 0).nonzeroBitCount) < inputs.minWearHours
            guard let rest = stated[key]?[DailyMetric.restingHR.rawValue] ?? (lowWear ? nil : Stats.quantile(values, inputs.restingHRQuantile))
            else { continue }
            var zoneMinutes: Double?
            if let age = age(key), let floor = zoneEngine.zones(age: age, restingHRBpm: rest, sex: subjects.sex(key.subject)).dropFirst().first?.lowBpm {
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

        // HRV: wearable SDNN samples, else the reliable windows of hrv.csv, else RMSSD samples converted.
        var sdnn: [Key: [Double]] = [:], rmssd: [Key: [Double]] = [:]
        for row in t.hrvSamples {
            let key = Key(subject: row.subject, day: clock.day(row.timestampMs))
            if let v = row.sdnnMs { sdnn[key, default: []].append(v) }
            if let v = row.rmssdMs { rmssd[key, default: []].append(v) }
        }
        var windowSDNN: [Key: [Double]] = [:]
        for row in t.hrvWindows {
            guard let start = row.windowStartMs, row.reliable, row.time.sdnn.isFinite else { continue }
            windowSDNN[Key(subject: row.subject, day: clock.day(start)), default: []].append(row.time.sdnn)
        }
        for (key, values) in sdnn { update(key.subject, key.day) { $0.hrvSDNNMs = Stats.mean(values); $0.hrvBasis = "sdnn" } }
        for (key, values) in windowSDNN where sdnn[key] == nil {
            update(key.subject, key.day) { $0.hrvSDNNMs = Stats.median(values); $0.hrvBasis = "sdnn" }
        }
        for (key, values) in rmssd {
            let mean = Stats.mean(values)
            update(key.subject, key.day) { snapshot in
                snapshot.hrvRMSSDMs = mean
                if snapshot.hrvSDNNMs == nil {
                    snapshot.hrvSDNNMs = inputs.rmssdToSDNNRatio * mean
                    snapshot.hrvBasis = "rmssd_converted"
                }
            }
        }

        // Sleep and workouts.
        var sleep: [String: [SleepEpisode]] = [:]
        for x in t.sleep { sleep[x.subject, default: []].append(x) }
        var nights: [SleepPeriod] = []
        let sessionConstants = SessionConstants(registry: context.registry)
        for (subject, rows) in sleep {
            for night in SleepLink.periods(rows, constants: sessionConstants) where night.measuredAsleepMs > 0 {
                nights.append(night)
                update(subject, clock.day(night.endMs)) {
                    $0.sleepHours = ($0.sleepHours ?? 0) + Double(night.measuredAsleepMs) / 3_600_000
                }
            }
        }
        endsBySubject = [:]
        var recoveries: [HeartRateRecoveryRow] = []
        for subject in workouts.keys.sorted(by: SubjectOrder.precedes) {
            let near = nearEnds[subject] ?? ([], [])
            let order = near.times.indices.sorted { near.times[$0] != near.times[$1] ? near.times[$0] < near.times[$1] : $0 < $1 }
            let times = order.map { near.times[$0] }, bpm = order.map { near.bpm[$0] }
            for w in (workouts[subject] ?? []).sorted(by: { ($0.startMs, $0.endMs) < ($1.startMs, $1.endMs) }) {
                update(w.subject, clock.day(w.startMs)) { $0.workoutMinutes = ($0.workoutMinutes ?? 0) + Double(w.endMs - w.startMs) / 60_000 }
                let r = HeartRateRecovery.after(workout: w, times: times, bpm: bpm, constants: inputs)
                recoveries.append(r)
                // The day's recovery: the export's own value, else the last workout ending that day with a 1-minute drop.
                let endDay = clock.day(w.endMs)
                guard r.quality == "ok", stated[Key(subject: w.subject, day: endDay)]?[DailyMetric.hrRecovery1m.rawValue] == nil
                else { continue }
                update(w.subject, endDay) { $0.recovery1mBpm = r.drop1mBpm; $0.recovery2mBpm = r.drop2mBpm }
            }
        }
        // Wear time on every day of a subject with heart rate; each day's local-time rule.
        let withHR = Set(worn.keys.map(\.subject))
        for key in days.keys {
            if withHR.contains(key.subject) { days[key]?.wearHours = Double((worn[key] ?? 0).nonzeroBitCount) }
            days[key]?.localTime = clock.basis
        }
        return SubjectDays(days: days.keys.sorted().compactMap { days[$0] }, recoveries: recoveries,
                           overlaps: SourceOverlaps(periods: nights, hr: hrOverlap), heartRate: heartRate)
    }
}
