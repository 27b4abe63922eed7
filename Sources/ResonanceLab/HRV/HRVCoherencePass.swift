/// `hrv` and the windowed `coherence` in one pass over each subject's R-R, where
/// `resonance run` schedules one right after the other with the same artifact method:
/// a worker reads and cleans the subject's R-R once, hands its NN beats to the HRV
/// windows as they are read, keeps them as they pass (`KeptBeats`), then scores coherence
/// on them. Each stage keeps its own session, lineage and tables, committed in pipeline
/// order, with the bytes of running the two one after the other (the coherence windows
/// give the same rows however their beats are handed over).
struct HRVCoherencePass {
    let hrv: HRVStage
    let coherence: CoherenceStage

    /// The pass for `first` then `second` when they are `hrv` and a windowed `coherence`
    /// cleaning R-R the same way under `registry`; nil otherwise.
    init?(_ first: any Stage, _ second: any Stage, registry: ConstantsRegistry) {
        guard let hrv = first as? HRVStage, let coherence = second as? CoherenceStage else { return nil }
        let options = coherence.options(registry)
        guard options.method == .windowed, options.artifactMethod == hrv.options.artifactMethod else { return nil }
        self.hrv = hrv
        self.coherence = coherence
    }

    func runCommitted(_ ws: Workspace, _ context: StageContext) throws {
        let hrvSession = try hrv.openSession(ws, context)
        let coherenceSession = try coherence.openSession(ws, context)
        let hrvTables = try HRVStage.Tables(hrv, Workspace(path: ws.path, session: hrvSession), context)
        let coherenceTables = try CoherenceStage.Tables(coherence, Workspace(path: ws.path, session: coherenceSession), context,
                                                        rr: hrvTables.rr)
        if hrvTables.rr.subjects.elementsEqual(coherenceTables.subjects.filter(hrvTables.rr.contains)) {
            try together(hrvTables, coherenceTables, context)
        } else {
            // The two tables list their subjects in different orders: each is written by its own loop.
            try hrvTables.writeEach()
            try coherenceTables.writeEach()
        }
        try hrvTables.commit()
        try hrvSession.commit()
        try coherenceTables.commit()
        try coherenceSession.commit()
    }

    /// Every subject of either table once, in coherence's order (that of hrv's subjects too).
    private func together(_ hrvTables: HRVStage.Tables, _ coherenceTables: CoherenceStage.Tables,
                          _ context: StageContext) throws {
        let counter = context.progress.counter("hrv + coherence", total: coherenceTables.subjects.count)
        try Parallel.forEach(coherenceTables.subjects, jobs: context.jobs, { subject in
            defer { counter.tick() }
            return try Self.subject(subject, hrvTables, coherenceTables)
        }, inOrder: { out in
            try hrvTables.append(out.hrv)
            try coherenceTables.append(out.coherence)
        })
    }

    /// Both stages' output for `subject`: its NN beats read once for both, unless its R-R
    /// rows go back in time (then each stage reads them whole and sorted, as it would alone)
    /// or it has none (coherence then reads `hr.csv`).
    private static func subject(_ subject: String, _ hrvTables: HRVStage.Tables, _ coherenceTables: CoherenceStage.Tables)
        throws -> (hrv: HRVStage.SubjectOutput?, coherence: CoherenceStage.SubjectRows?) {
        guard hrvTables.rr.contains(subject) else { return (nil, try coherenceTables.rows(subject)) }
        let kept = KeptBeats()
        let beats = hrvTables.stream(subject)
        let hrv: HRVStage.SubjectOutput
        do {
            hrv = try hrvTables.streamed(subject, beats, passing: { try kept.append($0) })
        } catch is OutOfOrder {
            return (try hrvTables.whole(subject), try coherenceTables.rows(subject, streaming: false))
        }
        let options = coherenceTables.options
        guard kept.count > 0 || beats.anyKept else {
            return (hrv, try CoherenceStage.windowed(subject, hr: coherenceTables.hr, options: options))
        }
        var reader = KeptBeats.Reader(kept)
        return (hrv, try CoherenceStage.windowed(subject, options: options, beats: { try reader.next() }))
    }
}
