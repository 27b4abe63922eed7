import Foundation

/// Generates the synthetic persona workspace (docs/personas.md): the canonical tables a real
/// import writes, plus `daily.csv` (the daily engines over each persona's measured
/// days) and `truth.csv` (every planted effect).
///
/// Determinism: every random draw comes from `SeededRandom` streams seeded by djb2 of
/// the persona's name and age mixed with `seed` (+ the replica), and outputs are
/// written in subject order, then time order; no wall clock, hash order or system
/// randomness is used, so the same arguments give byte-identical files on any machine.
///
/// Memory: subjects are simulated `jobs` at a time, and no more than `jobs` are
/// simulated or waiting to be written. A worker encodes every row of its subject
/// (`SimulatedSubject`): the `rr.csv` rows span by span as the beats are made, which are
/// then let go, and past a MiB the text waits on disk. The rows are written to the
/// tables in subject order as soon as every subject before it is; what is kept of a
/// subject is its time range, so the peak is a few subjects' simulations (about 15
/// bytes per simulated minute, plus the sessions' plays; docs/scaling.md) whatever the
/// cohort's size.
public struct PersonaGenerator: Sendable {
    public static let catalogueSize = 200

    public var personas: [PersonaProfile]
    public var days: Int
    public var seed: UInt64
    /// Copies of the personas (`--replicas`): replica k simulates every persona with seed
    /// `seed + k` (modulo 2^64), hearing the one catalogue of `seed`; with more than one,
    /// subject `Persona` of replica k is named `Persona-k` (`subjectName`).
    public var replicas: Int
    /// First simulated date, in days since 1970-01-01.
    public var firstDay: Int
    public var registry: ConstantsRegistry
    /// Whether health events (`HealthEvent`) are planted. Off, every output is what it
    /// was before events existed: they draw from their own stream.
    public var events: Bool
    /// How listeners respond to music (`ResponseLaw`). Any law but the standard one
    /// draws from its own streams (`response-law` of the catalogue and of each
    /// persona), so the standard law's outputs are what they were before laws existed.
    public var law: ResponseLaw
    /// When set, `song_features.csv` for the catalogue: BPM, energy and valence related to
    /// the planted effects as in that world of the DJ simulation (docs/dj.md, Worlds;
    /// the planted world at relation 0.5), drawn from their own `song-features` stream, so
    /// every other table is what it is without them. Worlds that change effects
    /// (non-linear, taste) are not offered: the effects are the catalogue's.
    public var songFeatures: DJWorld?

    public init(personas: [PersonaProfile] = PersonaProfile.all, days: Int = 30, seed: UInt64 = 0, replicas: Int = 1,
                firstDay: Int = Timestamp.daysFromCivil(2026, 1, 5), registry: ConstantsRegistry = .defaults,
                events: Bool = false, law: ResponseLaw = ResponseLaw(.standard), songFeatures: DJWorld? = nil) {
        self.personas = personas; self.days = days; self.seed = seed; self.replicas = replicas; self.firstDay = firstDay
        self.registry = registry; self.events = events; self.law = law; self.songFeatures = songFeatures
    }

    /// `song_features.csv` rows of the catalogue in world `world` (`songFeatures`).
    public func songFeatureRows(_ world: DJWorld) -> [SongFeatureRow] {
        let catalogue = self.catalogue
        var random = SeededRandom(seed: mixedSeed() ^ SeededRandom.djb2("song-features"))
        let features = SimulatedWorld.features(world, catalogue: catalogue, rho: 0.5, random: &random)
        return zip(catalogue.songs, features).map { song, f in
            SongFeatureRow(songId: song.songId, title: song.title, artist: song.artist, bpm: f.bpm, energy: f.energy,
                           valence: f.valence, genre: SongCatalogue.genres[song.genre], source: "simulated \(world.rawValue)")
        }
    }

    /// The tables this generator writes.
    var tables: [String] { Self.tables + (songFeatures == nil ? [] : [SongFeatureRow.fileName]) }

    /// The seed of replica `replica` (`seed + replica`, modulo 2^64) spread over 64 bits
    /// (one SplitMix64 step), so that nearby seeds give unrelated streams.
    func mixedSeed(replica: Int = 0) -> UInt64 {
        var r = SeededRandom(seed: seed &+ UInt64(replica))
        return r.next()
    }

    /// The catalogue of `seed`, which every replica hears.
    public var catalogue: SongCatalogue {
        var random = SeededRandom(seed: mixedSeed() ^ SeededRandom.djb2("catalogue"))
        return SongCatalogue.generate(count: Self.catalogueSize, random: &random)
    }

    /// Seed of one persona in one replica: djb2 of name and age, mixed with the replica's seed.
    public func seed(of p: PersonaProfile, replica: Int = 0) -> UInt64 {
        SeededRandom.djb2(p.name + String(p.age)) ^ mixedSeed(replica: replica)
    }

    /// The subject name of persona `p` in replica `replica`: the persona's name alone
    /// when there is one replica, else `Persona-k` with k zero-padded to the digits of
    /// `replicas − 1` (`NewMom-07` among 10 to 99 replicas), so that the names sort in
    /// replica order.
    public func subjectName(_ p: PersonaProfile, replica: Int) -> String {
        guard replicas > 1 else { return p.name }
        let k = String(replica), digits = String(replicas - 1).count
        return p.name + "-" + String(repeating: "0", count: digits - k.count) + k
    }

    /// Every simulated subject, each persona in each replica, in byte order of the
    /// subject names like every table's subjects.
    public var subjects: [PersonaSubject] {
        (0..<replicas).flatMap { k in personas.map { PersonaSubject(persona: $0, replica: k, name: subjectName($0, replica: k)) } }
            .sorted { SubjectOrder.precedes($0.name, $1.name) }
    }

    /// The health events planted in persona `p` of replica `replica` (none unless
    /// `events`), drawn from the persona's own `events` stream.
    public func healthEvents(of p: PersonaProfile, replica: Int = 0) -> [HealthEvent] {
        guard events else { return [] }
        var random = PersonaSimulator.stream("events", seed: seed(of: p, replica: replica))
        return HealthEvent.plan(days: days, random: &random)
    }

    /// Each catalogue song's drift under `law` (0 unless the law drifts), from the
    /// catalogue's own `response-law` stream.
    public var driftSlopes: [Double] {
        var random = SeededRandom(seed: mixedSeed() ^ SeededRandom.djb2("response-law"))
        return law.driftSlopes(count: Self.catalogueSize, random: &random)
    }

    /// The law as persona `p` of replica `replica` realises it (its onset, release or
    /// threshold, its interactions with each song, its noise factor).
    func listenerLaw(of p: PersonaProfile, replica: Int = 0) -> ListenerLaw {
        var random = PersonaSimulator.stream("response-law", seed: seed(of: p, replica: replica))
        return PersonaSimulator.listenerLaw(law, songs: Self.catalogueSize, drift: driftSlopes, firstDay: firstDay, days: days,
                                            random: &random)
    }

    /// Simulates every subject, `jobs` at a time; results in subject order.
    public func simulate(jobs: Int) throws -> [PersonaRecord] {
        let simulate = simulator
        return try Parallel.map(subjects, jobs: jobs) { try simulate($0, nil) }
    }

    /// Simulates one subject, handing over its R-R spans as they are made when given
    /// somewhere to put them (`PersonaSimulator.simulate`): the catalogue, drift and zones
    /// computed once.
    var simulator: @Sendable (PersonaSubject, ((RRSpan) throws -> Void)?) throws -> PersonaRecord {
        let catalogue = self.catalogue, drift = driftSlopes
        let zones = HeartRateZoneEngine(constants: ZoneConstants(registry: registry))
        return { [self] s, handOver in
            try PersonaSimulator.simulate(s.profile, catalogue: catalogue, firstDay: firstDay, days: days,
                                          seed: seed(of: s.persona, replica: s.replica), zones: zones,
                                          events: healthEvents(of: s.persona, replica: s.replica), law: law, drift: drift,
                                          handOver: handOver)
        }
    }

    /// Every planted effect: the catalogue's song effects, then each subject's
    /// sensitivity (once per metric) and health events, subjects in byte order of their
    /// names like every table's subjects.
    public func truth() -> [PlantedEffect] {
        var rows: [PlantedEffect] = []
        for song in catalogue.songs {
            rows.append(PlantedEffect(kind: .songEffect, subject: "", entity: song.songId,
                                      metric: PlantedEffect.metrics[0], value: song.deltaHRBpm))
            rows.append(PlantedEffect(kind: .songEffect, subject: "", entity: song.songId,
                                      metric: PlantedEffect.metrics[1], value: song.deltaRMSSDMs))
        }
        for s in subjects {
            for metric in PlantedEffect.metrics {
                rows.append(PlantedEffect(kind: .personaSensitivity, subject: s.name, entity: "", metric: metric,
                                          value: s.persona.sensitivity))
            }
            rows += healthEvents(of: s.persona, replica: s.replica).flatMap { $0.truth(subject: s.name, firstDate: firstDay) }
        }
        return rows + lawTruth()
    }

    /// The response law's rows of truth.csv (none for the standard law): the law's
    /// parameters (kind `response_law`, entity its label); per persona its realised
    /// onset, release and threshold (s) and noise factor; each song's drift a (kind
    /// `song_effect_drift`: the effect of a play at time t is value × (1 + a·(2t/T − 1)),
    /// T the study, so `song_effect` stays the study average); each listener × song
    /// interaction (kind `listener_song_interaction`, added to song effect × sensitivity).
    func lawTruth() -> [PlantedEffect] {
        guard !law.isStandard else { return [] }
        var rows = law.parameters.map {
            PlantedEffect(kind: .responseLaw, subject: "", entity: law.label, metric: $0.0, value: $0.1)
        }
        let songs = catalogue.songs
        for s in subjects {
            let l = listenerLaw(of: s.persona, replica: s.replica)
            for (metric, value) in [("onset_s", l.shape.onsetS), ("release_s", l.shape.releaseS),
                                    ("threshold_s", l.shape.thresholdS), ("noise_scale", l.noiseScale)] {
                rows.append(PlantedEffect(kind: .responseLaw, subject: s.name, entity: law.label, metric: metric, value: value))
            }
            for (i, x) in l.interactions.enumerated() {
                rows.append(PlantedEffect(kind: .listenerSongInteraction, subject: s.name, entity: songs[i].songId,
                                          metric: PlantedEffect.metrics[0], value: x.hr))
                rows.append(PlantedEffect(kind: .listenerSongInteraction, subject: s.name, entity: songs[i].songId,
                                          metric: PlantedEffect.metrics[1], value: x.rmssd))
            }
        }
        if law.drift > 0 {
            for (song, a) in zip(songs, driftSlopes) {
                for metric in PlantedEffect.metrics {
                    rows.append(PlantedEffect(kind: .songEffectDrift, subject: "", entity: song.songId, metric: metric, value: a))
                }
            }
        }
        return rows
    }

    /// Simulates and writes the whole workspace, committed as one (`WorkspaceSession`).
    public func generate(into ws: Workspace, jobs: Int, progress: (String) -> Void = { _ in },
                         warning: @escaping (String) -> Void = { _ in }) throws {
        guard ws.session != nil else {
            let session = try WorkspaceSession(path: ws.path, reads: [], writes: tables, creating: true, note: warning)
            try generate(into: Workspace(path: ws.path, session: session), jobs: jobs, progress: progress)
            return try session.commit()
        }
        // Canonical tables are ordered by subject (byte order), then time, as an import writes them.
        let hr = try ws.writer(HRSample.self), rr = try ws.writer(RRInterval.self), plays = try ws.writer(Play.self)
        let sleep = try ws.writer(SleepEpisode.self), workouts = try ws.writer(Workout.self)
        let daily = try ws.writer(DailyRow.self), receipts = try ws.writer(ReceiptRow.self), zones = try ws.writer(ZoneDayRow.self)
        var ranges: [SubjectInfo] = []
        let subjectRows = subjectRows(self.subjects.map(\.profile)), dailySubjects = DailySubjects(subjectRows)
        // A subject is simulated and its rows encoded in a worker; at most `jobs`
        // subjects are simulated or waiting to be written.
        let simulate = simulator, registry = registry
        try Parallel.forEach(subjects, jobs: jobs, window: jobs, {
            try SimulatedSubject($0, simulate, registry: registry, subjects: dailySubjects)
        }, inOrder: { s in
            try hr.append(s.hr); try rr.append(s.rr); try plays.append(s.plays); try sleep.append(s.sleep)
            try workouts.append(s.workouts); try daily.append(s.daily); try receipts.append(s.receipts); try zones.append(s.zones)
            // The study's days for a subject without heart rate.
            ranges.append(SubjectInfo(subject: s.name, group: "persona",
                                      start: Timestamp.iso(s.firstMs ?? Int64(firstDay) * 86_400_000),
                                      end: Timestamp.iso(s.lastMs ?? Int64(firstDay + days) * 86_400_000)))
        })
        let written = [(HRSample.fileName, hr.rows), (RRInterval.fileName, rr.rows), (Play.fileName, plays.rows),
                       (SleepEpisode.fileName, sleep.rows), (Workout.fileName, workouts.rows)]
        let dailyRows = daily.rows
        for table in [hr.commit, rr.commit, plays.commit, sleep.commit, workouts.commit, daily.commit, receipts.commit,
                      zones.commit] { try table() }
        progress("personas: simulated \(ranges.count) personas × \(days) days")
        try ws.write([LabelInterval]())
        try ws.write([Reject]())
        try ws.write(subjectRows)
        try ws.write(truth())
        if let world = songFeatures { try ws.write(songFeatureRows(world)) }
        try writeManifest(ranges, rows: written + [(SubjectRow.fileName, subjectRows.count), (DailyRow.fileName, dailyRows)],
                          to: ws)
        progress("personas: wrote \(ws.path)")
    }

    /// `subjects.csv` of the personas: the birth year that gives the profile's age in the
    /// first simulated day's year, sex, weight, and as height the product's average for
    /// the sex (the profiles give none).
    func subjectRows(_ profiles: [PersonaProfile]) -> [SubjectRow] {
        let year = Timestamp.civil(fromDays: Int64(firstDay)).year
        return profiles.map { p in
            SubjectRow(subject: p.name, birthYear: year - p.age, sex: p.sex.rawValue,
                       heightCm: 100 * (p.sex == .female ? registry.bioAge.heightFemaleM : registry.bioAge.heightMaleM),
                       weightKg: p.weightKg, source: PersonaSimulator.source)
        }
    }

    /// manifest.json: one source per generated table (digest and row count, `rows` for
    /// those up to `daily.csv`; nothing is rejected), the generator's parameters and the
    /// constants in force, and the subjects with the time ranges of their heart rate.
    func writeManifest(_ subjects: [SubjectInfo], rows: [(String, Int)], to ws: Workspace) throws {
        let counts = rows + [(PlantedEffect.fileName, truth().count)]
            + (songFeatures == nil ? [] : [(SongFeatureRow.fileName, Self.catalogueSize)])
        let notes = [
            "generator: resonance personas generate --seed \(seed) --days \(days) --start-date \(Timestamp.isoDate(Int64(firstDay) * 86_400_000)) --personas \(personas.map(\.name).joined(separator: ","))"
                + (replicas > 1 ? " --replicas \(replicas)" : "")
                + (events ? " --events planned" : "")
                + (law.isStandard ? "" : " --response-law \(law.name.rawValue) --law-strength \(law.strength.rawValue)")
                + (songFeatures.map { " --song-features \($0.rawValue)" } ?? ""),
            "song catalogue: \(Self.catalogueSize) songs; song effects and sensitivities in truth.csv",
        ]
        var sources: [SourceFile] = []
        for (name, rows) in counts {
            let digest = try WorkspaceSession.digest(ofFile: try ws.output(name))
            sources.append(SourceFile(path: name, sha256: digest, format: PersonaSimulator.source,
                                      rowsRead: rows, accepted: rows, notes: notes))
        }
        ws.session?.replacement = Manifest(sources: sources, subjects: subjects)
        ws.session?.tableLineage = lineage
    }

    /// The generator's settings, recorded in the lineage of every table it writes;
    /// `response_law` only for a law other than the standard one (whose outputs, and
    /// lineage, are what they were before laws existed), `replicas` only for more than one.
    public var settings: [String: String] {
        var out = ["seed": String(seed), "days": String(days), "start_date": Timestamp.isoDate(Int64(firstDay) * 86_400_000),
                   "personas": personas.map(\.name).joined(separator: ","), "catalogue_songs": String(Self.catalogueSize),
                   "events": events ? "planned" : "none"]
        if replicas > 1 { out["replicas"] = String(replicas) }
        if !law.isStandard { out["response_law"] = law.label }
        if let world = songFeatures { out["song_features"] = world.rawValue }
        return out
    }

    /// Lineage of each generated table: the generator's version and settings, the zone
    /// constants its simulated wearable measures zone minutes with, and for `daily.csv`
    /// and `receipts.csv` the daily engines (`resonance daily` over the measured days).
    var lineage: [String: TableLineage] {
        var out: [String: TableLineage] = [:]
        for name in tables {
            let engines = [DailyRow.fileName, ReceiptRow.fileName].contains(name) ? DailyEngines.engines + ["zones"]
                : name == SubjectRow.fileName ? ["bio_age"] : ["zones"]
            out[name] = TableLineage(command: "personas generate", stageVersion: Self.version,
                                     engines: EngineIdentity.of(engines, in: registry), settings: settings)
        }
        return out
    }

    /// The generator's version in lineage: a minor bump when the same settings give other tables
    /// (1.1.0: VO2 max, zone minutes and body mass measured from the signals; an
    /// overreaching's truth rows dated by the metric).
    public static let version = "1.1.0"

    /// The tables a generated workspace has (besides manifest.json).
    static let tables = [HRSample.fileName, RRInterval.fileName, Play.fileName, SleepEpisode.fileName, Workout.fileName,
                         LabelInterval.fileName, Reject.fileName, SubjectRow.fileName, DailyRow.fileName, ReceiptRow.fileName,
                         ZoneDayRow.fileName, PlantedEffect.fileName]
}

/// One subject simulated in a worker, with its rows encoded there (`Workspace.encode`,
/// on disk past a MiB): each R-R span's beats as the span is made, then the heart rate,
/// plays, sleep and workouts, and the daily engines over its days (`daily.csv`,
/// `receipts.csv`, `zones.csv`; each engine sees one subject's days, as `resonance
/// daily` runs them). What waits to be written keeps no row.
struct SimulatedSubject {
    var name: String
    var hr, rr, plays, sleep, workouts, daily, receipts, zones: EncodedRows
    /// Times of the first and last `hr.csv` rows (ms), if any.
    var firstMs: Int64?
    var lastMs: Int64?

    init(_ subject: PersonaSubject, _ simulate: (PersonaSubject, ((RRSpan) throws -> Void)?) throws -> PersonaRecord,
         registry: ConstantsRegistry, subjects: DailySubjects) throws {
        name = subject.name
        let rrRows = CSVWriter(spillingAfter: Workspace.encodedBytesHeld)
        let record = try simulate(subject) { span in
            for beat in span.rows(subject: subject.name) {
                beat.write(to: rrRows)
                try rrRows.endRow()
            }
        }
        rr = rrRows.part
        var workoutHR = WorkoutHeartRate(workouts: record.workouts)
        var first: Int64?, last: Int64?
        hr = try Workspace.encode(rowsOf: { (row: (HRSample) throws -> Void) in
            for sample in record.heartRate.samples(subject: subject.name) {
                try row(sample)
                workoutHR.add(subject: subject.name, timeMs: sample.timestampMs, bpm: sample.bpm)
                first = first ?? sample.timestampMs
                last = sample.timestampMs
            }
        })
        firstMs = first
        lastMs = last
        plays = try Workspace.encode(record.playRows)
        sleep = try Workspace.encode(record.sleep)
        workouts = try Workspace.encode(record.workouts)
        let (days, assessments) = DailyStage.assess(record.days, registry: registry, subjects: subjects)
        daily = try Workspace.encode(assessments.lazy.map(\.row))
        receipts = try Workspace.encode(ReceiptRow.daily(assessments))
        zones = try Workspace.encode(ZoneDistributionEngine(constants: registry.zones).rows(days, heartRate: workoutHR, subjects: subjects))
        Allocator.releaseFreePages()
    }
}

/// One subject of a generated cohort: a persona in one replica, under its subject name.
public struct PersonaSubject: Sendable {
    public var persona: PersonaProfile
    public var replica: Int
    public var name: String

    /// The profile as the subject is simulated: the persona under the subject's name
    /// (its rows, play ids and snapshots carry it; its seed is the persona's).
    var profile: PersonaProfile {
        var p = persona
        p.name = name
        return p
    }
}
