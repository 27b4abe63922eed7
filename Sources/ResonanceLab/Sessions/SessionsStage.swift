import Foundation

/// What `resonance sessions` produces.
public struct SessionsOutput: Sendable {
    public var sessions: [SessionRow]
    public var plays: [SessionPlayRow]
    public var cleaning: PlayCleaningCounts
    /// Sessions shorter than `min_session_minutes`, dropped.
    public var droppedShortSessions: Int
    /// Sleep and heart rate of several sources over the same time, resolved.
    public var overlaps = SourceOverlaps()
}

/// Listening sessions and per-play physiology from the canonical tables
/// (docs/engines/toolkit.md, Sessions): a pure function of the tables and the constants.
public struct SessionsStage: Stage {
    /// The listener's zone for plays whose export carries no UTC offset; nil is UTC.
    public var timeZone: TimeZone?

    public init(timeZone: TimeZone? = nil) {
        self.timeZone = timeZone
    }

    public var name: String { "sessions" }
    public var version: String { "1.0.0" }
    public var engines: [String] { ["rr", "sessions"] }
    public var perSubject: Bool { true }
    public var reads: [String] {
        [Play.fileName, HRSample.fileName, RRInterval.fileName, HRVSample.fileName, SleepEpisode.fileName, Workout.fileName,
         HRVRow.fileName]
    }
    public var writes: [String] { [SessionRow.fileName, SessionPlayRow.fileName] }

    public func run(_ ws: Workspace, _ context: StageContext) throws {
        let plays = try ws.read(Play.self)
        // The NN series hrv.csv was computed on (shared with hrv in `resonance run`): its
        // artifact method, from hrv.csv's lineage, else the default.
        let artifacts = HRVOptions.artifactMethod(of: ws.exists(Manifest.fileName) ? try Manifest.read(from: ws) : nil)
        ws.session?.record(setting: HRVOptions.artifactSetting, "\(artifacts.method.rawValue) (\(artifacts.origin))")
        let nn = try NNCache.series(ws, method: artifacts.method, context: context, label: name)
        let out = try Self.run(
            plays: plays, hr: try ws.read(HRSample.self), nn: Dictionary(uniqueKeysWithValues: nn.map { ($0.subject, $0.series) }),
            sdnn: try ws.read(HRVSample.self), sleep: try ws.read(SleepEpisode.self),
            workouts: try ws.read(Workout.self), constants: SessionConstants(registry: context.registry),
            clock: LocalClock(zone: timeZone), jobs: context.jobs)
        try ws.write(out.sessions)
        try ws.write(out.plays)
        ws.session?.overlaps = (name, out.overlaps)
        let c = out.cleaning
        context.progress.note("sessions: \(plays.count) plays → \(out.plays.count) kept (\(c.zeroDuration) zero-duration dropped, "
            + "\(c.mergedDuplicates) duplicates merged, \(c.endBeforeStart) ends before start ignored); "
            + "\(out.sessions.count) sessions, \(out.droppedShortSessions) shorter than the minimum dropped")
    }

    /// `nn`: each subject's cleaned NN series (`NNCache.series`).
    public static func run(plays: [Play], hr: [HRSample], nn: [String: NNSeries], sdnn: [HRVSample],
                           sleep: [SleepEpisode], workouts: [Workout],
                           constants c: SessionConstants, clock: LocalClock = LocalClock(), jobs: Int = 1) throws -> SessionsOutput {
        let playsBySubject = Dictionary(grouping: plays, by: \.subject)
        let (kept, hrOverlap) = HeartRateSources.resolve(hr)
        let physiology = ListenerPhysiology.bySubject(hr: kept, nn: nn, sdnn: sdnn)
        let sleepBySubject = Dictionary(grouping: sleep, by: \.subject).mapValues { SleepLink.periods($0, constants: c) }
        let workoutsBySubject = Dictionary(grouping: workouts, by: \.subject).mapValues { $0.sorted { $0.startMs < $1.startMs } }
        let empty = ListenerPhysiology(hr: TimeSeries([]), nn: .empty, sdnn: TimeSeries([]))
        // Listeners in byte order of their ids, as in every table (not Swift's String
        // order, which compares canonically equivalent forms as equal).
        let parts = try Parallel.map(playsBySubject.keys.sorted(by: SubjectOrder.precedes), jobs: jobs) { subject in
            listener(plays: playsBySubject[subject] ?? [], physiology: physiology[subject] ?? empty,
                     sleep: sleepBySubject[subject] ?? [],
                     workouts: workoutsBySubject[subject] ?? [], constants: c, clock: clock)
        }
        var out = SessionsOutput(sessions: [], plays: [], cleaning: PlayCleaningCounts(), droppedShortSessions: 0,
                                 overlaps: SourceOverlaps(periods: sleepBySubject.values.flatMap { $0 }, hr: hrOverlap))
        for p in parts {
            out.sessions += p.sessions
            out.plays += p.plays
            out.cleaning.endBeforeStart += p.cleaning.endBeforeStart
            out.cleaning.zeroDuration += p.cleaning.zeroDuration
            out.cleaning.mergedDuplicates += p.cleaning.mergedDuplicates
            out.droppedShortSessions += p.droppedShortSessions
        }
        return out
    }

    /// One listener's sessions and plays.
    static func listener(plays raw: [Play], physiology: ListenerPhysiology, sleep: [SleepPeriod],
                         workouts: [Workout], constants c: SessionConstants, clock: LocalClock) -> SessionsOutput {
        var cleaning = PlayCleaningCounts()
        let plays = PlayTiming.resolve(raw, counts: &cleaning)
        let (ranges, dropped) = SessionGrouping.group(plays, constants: c)
        var sessionOf = [String](repeating: "", count: plays.count)
        var contextOf = [String](repeating: "", count: plays.count)
        var sessions: [SessionRow] = []
        for (n, range) in ranges.enumerated() {
            let id = "\(raw.first?.subject ?? ""):\(n + 1)"
            let row = session(id: id, plays: plays[range], physiology: physiology, sleep: sleep,
                              workouts: workouts, constants: c, clock: clock)
            for i in range { sessionOf[i] = id; contextOf[i] = row.context }
            sessions.append(row)
        }
        let rows = plays.enumerated().map { i, p in
            let bio = physiology.measure(.play(startMs: p.play.startedAtMs, endMs: p.endMs, constants: c), constants: c)
            let local = clock.localMs(p.play)
            return SessionPlayRow(
                subject: p.play.subject, sessionId: sessionOf[i], playId: p.play.playId, songId: p.play.songId,
                biometrics: bio, quality: QualityNotes.join(p.flags + bio.notes), playlist: p.play.playlist,
                startedAtMs: p.play.startedAtMs, endedAtMs: p.endMs, playedS: p.playedS,
                listenFraction: p.listenFraction, skipped: p.skipped(c),
                context: ListeningContext.of(startMs: p.play.startedAtMs, endMs: p.endMs, localStartMs: local,
                                             workouts: overlapping(workouts, p.play.startedAtMs, p.endMs, c), constants: c).rawValue,
                timeSlot: TimeSlot.of(localMs: local).rawValue, exportSkipped: p.play.skipped, sessionContext: contextOf[i])
        }
        return SessionsOutput(sessions: sessions, plays: rows, cleaning: cleaning, droppedShortSessions: dropped)
    }

    static func session(id: String, plays: ArraySlice<TimedPlay>, physiology: ListenerPhysiology, sleep: [SleepPeriod],
                        workouts: [Workout], constants c: SessionConstants, clock: LocalClock) -> SessionRow {
        let start = plays.first?.play.startedAtMs ?? 0
        let local = plays.first.map { clock.localMs($0.play) } ?? start
        let end = plays.map(\.endMs).max() ?? start
        let skips = plays.filter { $0.skipped(c) }.count
        let skipRate = Double(skips) / Double(max(1, plays.count))
        let avgListen = plays.map(\.listenFraction).reduce(0, +) / Double(max(1, plays.count))
        let bio = physiology.measure(.session(startMs: start, endMs: end, constants: c), constants: c)
        let w = c.biometricWindowMs
        let hr = physiology.hr.values(fromMs: start - w, throughMs: end + w)
        let sleepScore = SleepLink.nextNight(after: end, in: sleep, constants: c)?.score(c)
        return SessionRow(
            subject: plays.first?.play.subject ?? "", sessionId: id, startMs: start, endMs: end,
            context: ListeningContext.of(startMs: start, endMs: end, localStartMs: local,
                                         workouts: overlapping(workouts, start, end, c), constants: c).rawValue,
            timeSlot: TimeSlot.of(localMs: local).rawValue, plays: plays.count, skips: skips, skipRate: skipRate,
            avgListen: avgListen, biometrics: bio, sleepScore: sleepScore,
            sessionScore: SessionScore.score(skipRate: skipRate, hrvDeltaMs: bio.hrvDelta, avgListen: avgListen,
                                             sleepScore: sleepScore, constants: c),
            hrAvg: hr.isEmpty ? nil : hr.reduce(0, +) / Double(hr.count), hrMin: hr.min(), hrMax: hr.max())
    }

    /// Workouts (sorted by start) that start no later than `end` + the workout margin:
    /// the only ones that can overlap the interval.
    static func overlapping(_ workouts: [Workout], _ startMs: Int64, _ endMs: Int64, _ c: SessionConstants) -> ArraySlice<Workout> {
        let limit = endMs + c.workoutOverlapMs
        return workouts[..<workouts.partitionIndex { $0.startMs <= limit }]
    }
}
