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

    /// Adds another subject's part: its rows after these, its counts to these.
    mutating func add(_ other: SessionsOutput) {
        sessions += other.sessions
        plays += other.plays
        cleaning.endBeforeStart += other.cleaning.endBeforeStart
        cleaning.zeroDuration += other.cleaning.zeroDuration
        cleaning.mergedDuplicates += other.cleaning.mergedDuplicates
        droppedShortSessions += other.droppedShortSessions
        overlaps = overlaps + other.overlaps
    }
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
    /// 1.1.0: `avg_listen` and `listen_fraction` empty when the export gives no song length.
    public var version: String { "1.1.0" }
    public var engines: [String] { ["rr", "sessions"] }
    public var perSubject: Bool { true }
    public var reads: [String] {
        [Play.fileName, HRSample.fileName, RRInterval.fileName, CombinedRR.fileName, HRVSample.fileName, SleepEpisode.fileName, Workout.fileName,
         HRVRow.fileName]
    }
    public var writes: [String] { [SessionRow.fileName, SessionPlayRow.fileName] }

    public func run(_ ws: Workspace, _ context: StageContext) throws {
        // The NN series hrv.csv was computed on: its artifact method, from hrv.csv's
        // lineage, else the default.
        let artifacts = HRVOptions.artifactMethod(of: ws.exists(Manifest.fileName) ? try Manifest.read(from: ws) : nil)
        ws.session?.record(setting: HRVOptions.artifactSetting, "\(artifacts.method.rawValue) (\(artifacts.origin))")
        let c = SessionConstants(registry: context.registry), clock = LocalClock(zone: timeZone), plausible = context.registry.rr
        // The tables are indexed two at a time: R-R (the largest) beside the others.
        let (rr, (playIndex, hr, sdnn, sleep, workouts)) = try Parallel.both(jobs: context.jobs, { try ws.analysisRRIndex(jobs: context.jobs) }, {
            (try ws.subjectIndex(Play.self), try ws.subjectIndex(HRSample.self), try ws.subjectIndex(HRVSample.self),
             try ws.subjectIndex(SleepEpisode.self), try ws.subjectIndex(Workout.self))
        })
        // Every subject with plays, heart rate or sleep (the last two for the sources'
        // overlaps), in byte order; each read and computed in its worker, its rows written in
        // order as they complete.
        let subjects = Set(playIndex.subjects).union(hr.subjects).union(sleep.subjects).sorted(by: SubjectOrder.precedes)
        let sessionsTable = try ws.writer(SessionRow.self), playsTable = try ws.writer(SessionPlayRow.self)
        var total = SessionsOutput(sessions: [], plays: [], cleaning: PlayCleaningCounts(), droppedShortSessions: 0)
        var playsRead = 0
        try Parallel.forEach(subjects, jobs: context.jobs, { subject -> (EncodedRows, EncodedRows, SessionsOutput, Int) in
            let listens = playIndex.contains(subject)
            let tables = SubjectTables(
                plays: try playIndex.rows(Play.self, of: subject), sdnn: listens ? try sdnn.rows(HRVSample.self, of: subject) : [],
                sleep: try sleep.rows(SleepEpisode.self, of: subject), workouts: listens ? try workouts.rows(Workout.self, of: subject) : [])
            // Heart rate and R-R are held forward in time as the plays are measured, and
            // each play's row is encoded as it is measured; a subject whose rows go back in
            // time, or whose heart rate has two sources, is read whole.
            func measured(_ held: HeldPhysiology) throws -> (EncodedRows, SessionsOutput) {
                var held = held, out = SessionsOutput(sessions: [], plays: [], cleaning: PlayCleaningCounts(), droppedShortSessions: 0)
                let plays = try Workspace.encode { writer in
                    out = try Self.subject(tables, physiology: &held, constants: c, clock: clock) { row in
                        row.write(to: writer)
                        try writer.endRow()
                    }
                }
                return (plays, out)
            }
            var (plays, out): (EncodedRows, SessionsOutput)
            do {
                (plays, out) = try measured(.streamed(
                    hr: HeartRateStream(hr, subject: subject),
                    nn: listens ? NNStream(rr, subject: subject, method: artifacts.method, plausible: plausible) : nil, sdnn: tables.sdnn))
            } catch is OutOfOrder, is HeartRateStream.SeveralSources {
                (plays, out) = try measured(.whole(
                    hr: try hr.rows(HRSample.self, of: subject),
                    nn: listens ? try rr.nnSeries(of: subject, method: artifacts.method, plausible: plausible) : nil, sdnn: tables.sdnn))
            }
            let parts = (try Workspace.encode(out.sessions), plays)
            out.sessions = []
            return (parts.0, parts.1, out, tables.plays.count)
        }, inOrder: { sessions, plays, out, read in
            try sessionsTable.append(sessions)
            try playsTable.append(plays)
            total.add(out)
            playsRead += read
        })
        try sessionsTable.commit()
        try playsTable.commit()
        ws.session?.overlaps = (name, total.overlaps)
        let k = total.cleaning
        context.progress.note("sessions: \(plural(playsRead, "play")) → \(playsTable.rows) kept (\(k.zeroDuration) zero-duration dropped, "
            + "\(plural(k.mergedDuplicates, "duplicate")) merged, \(plural(k.endBeforeStart, "end")) before start ignored); "
            + "\(plural(sessionsTable.rows, "session")), \(total.droppedShortSessions) shorter than the minimum dropped")
    }

    /// One subject's rows of the tables the stage reads, but for its physiology's.
    struct SubjectTables {
        var plays: [Play] = [], sdnn: [HRVSample] = [], sleep: [SleepEpisode] = [], workouts: [Workout] = []
    }

    /// One subject's part of the stage: its sessions and plays when it has plays, and the
    /// overlaps of its sleep and heart-rate sources.
    /// Its play rows go to `play`, in order, as they are measured (`plays` stays empty).
    static func subject(_ t: SubjectTables, physiology: inout HeldPhysiology, constants c: SessionConstants,
                        clock: LocalClock, play: (SessionPlayRow) throws -> Void) throws -> SessionsOutput {
        let periods = SleepLink.periods(t.sleep, constants: c)
        var out = SessionsOutput(sessions: [], plays: [], cleaning: PlayCleaningCounts(), droppedShortSessions: 0)
        if !t.plays.isEmpty {
            out = try listener(plays: t.plays, physiology: &physiology, sleep: periods,
                               workouts: t.workouts.sorted { $0.startMs < $1.startMs }, constants: c, clock: clock, play: play)
        }
        out.overlaps = SourceOverlaps(periods: periods, hr: try physiology.heartRateOverlap())
        return out
    }

    /// The stage on tables in memory: `nn` holds each subject's cleaned NN series.
    public static func run(plays: [Play], hr: [HRSample], nn: [String: NNSeries], sdnn: [HRVSample],
                           sleep: [SleepEpisode], workouts: [Workout],
                           constants c: SessionConstants, clock: LocalClock = LocalClock(), jobs: Int = 1) throws -> SessionsOutput {
        var tables: [String: SubjectTables] = [:], hrOf: [String: [HRSample]] = [:]
        for x in plays { tables[x.subject, default: SubjectTables()].plays.append(x) }
        for x in hr {
            // A subject with heart rate only still counts its sources' overlaps.
            if tables[x.subject] == nil { tables[x.subject] = SubjectTables() }
            hrOf[x.subject, default: []].append(x)
        }
        for x in sleep { tables[x.subject, default: SubjectTables()].sleep.append(x) }
        for x in sdnn where tables[x.subject]?.plays.isEmpty == false { tables[x.subject]?.sdnn.append(x) }
        for x in workouts where tables[x.subject]?.plays.isEmpty == false { tables[x.subject]?.workouts.append(x) }
        let parts = try Parallel.map(tables.keys.sorted(by: SubjectOrder.precedes), jobs: jobs) { subject in
            let t = tables[subject] ?? SubjectTables()
            var held = HeldPhysiology.whole(hr: hrOf[subject] ?? [], nn: t.plays.isEmpty ? nil : nn[subject], sdnn: t.sdnn)
            var rows: [SessionPlayRow] = []
            var out = try Self.subject(t, physiology: &held, constants: c, clock: clock) { rows.append($0) }
            out.plays = rows
            return out
        }
        var out = SessionsOutput(sessions: [], plays: [], cleaning: PlayCleaningCounts(), droppedShortSessions: 0)
        for p in parts { out.add(p) }
        return out
    }

    /// One listener's sessions and plays, measured in time order: each session just before
    /// its first play, each play in turn, so that `physiology` is held forward in time. The
    /// play rows go to `play` as they are measured.
    static func listener(plays raw: [Play], physiology: inout HeldPhysiology, sleep: [SleepPeriod], workouts: [Workout],
                         constants c: SessionConstants, clock: LocalClock,
                         play: (SessionPlayRow) throws -> Void) throws -> SessionsOutput {
        var cleaning = PlayCleaningCounts()
        let plays = PlayTiming.resolve(raw, counts: &cleaning)
        let (ranges, dropped) = SessionGrouping.group(plays, constants: c)
        // Every window and nearest sample of an interval lies within this of it.
        let margin = max(c.biometricWindowMs, c.playHRNearestMaxMs) + 1000
        func hold(_ a: Int64, _ b: Int64) throws {
            let lo = min(a, b).subtractingReportingOverflow(margin), hi = max(a, b).addingReportingOverflow(margin)
            try physiology.hold(fromMs: lo.overflow ? .min : lo.partialValue, throughMs: hi.overflow ? .max : hi.partialValue)
        }
        var sessionOf = [String](repeating: "", count: plays.count)
        var contextOf = [String](repeating: "", count: plays.count)
        var sessions: [SessionRow] = []
        var nextSession = 0
        for (i, p) in plays.enumerated() {
            if nextSession < ranges.count, ranges[nextSession].lowerBound == i {
                let range = ranges[nextSession]
                nextSession += 1
                let id = "\(raw.first?.subject ?? ""):\(nextSession)"
                try hold(p.play.startedAtMs, plays[range].map(\.endMs).max() ?? p.play.startedAtMs)
                let row = session(id: id, plays: plays[range], physiology: physiology.now, sleep: sleep,
                                  workouts: workouts, constants: c, clock: clock)
                for j in range { sessionOf[j] = id; contextOf[j] = row.context }
                sessions.append(row)
            }
            try hold(p.play.startedAtMs, p.endMs)
            let bio = physiology.now.measure(.play(startMs: p.play.startedAtMs, endMs: p.endMs, constants: c), constants: c)
            let local = clock.localMs(p.play)
            try play(SessionPlayRow(
                subject: p.play.subject, sessionId: sessionOf[i], playId: p.play.playId, songId: p.play.songId,
                biometrics: bio, quality: QualityNotes.join(p.flags + bio.notes), playlist: p.play.playlist,
                startedAtMs: p.play.startedAtMs, endedAtMs: p.endMs, playedS: p.playedS,
                listenFraction: p.lengthKnown ? p.listenFraction : nil, skipped: p.skipped(c),
                context: ListeningContext.of(startMs: p.play.startedAtMs, endMs: p.endMs, localStartMs: local,
                                             workouts: overlapping(workouts, p.play.startedAtMs, p.endMs, c), constants: c).rawValue,
                timeSlot: TimeSlot.of(localMs: local).rawValue, exportSkipped: p.play.skipped, sessionContext: contextOf[i]))
        }
        return SessionsOutput(sessions: sessions, plays: [], cleaning: cleaning, droppedShortSessions: dropped)
    }

    static func session(id: String, plays: ArraySlice<TimedPlay>, physiology: ListenerPhysiology, sleep: [SleepPeriod],
                        workouts: [Workout], constants c: SessionConstants, clock: LocalClock) -> SessionRow {
        let start = plays.first?.play.startedAtMs ?? 0
        let local = plays.first.map { clock.localMs($0.play) } ?? start
        let end = plays.map(\.endMs).max() ?? start
        let skips = plays.filter { $0.skipped(c) }.count
        let skipRate = Double(skips) / Double(max(1, plays.count))
        // The score takes a play of unknown length as heard in full; the table's avg_listen
        // is the mean over the plays whose length is known, empty when none is.
        let scoredListen = plays.map(\.listenFraction).reduce(0, +) / Double(max(1, plays.count))
        let known = plays.filter(\.lengthKnown).map(\.listenFraction)
        let avgListen = known.isEmpty ? nil : known.reduce(0, +) / Double(known.count)
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
            sessionScore: SessionScore.score(skipRate: skipRate, hrvDeltaMs: bio.hrvDelta, avgListen: scoredListen,
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
