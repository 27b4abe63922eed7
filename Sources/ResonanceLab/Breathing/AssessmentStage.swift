/// `resonance breathing assess`: each subject's paced trials (`breathing.csv`) scored
/// from its cleaned R-R → `breathing_assessment.csv` (one row per trial) and
/// `breathing_resonance.csv` (the rate each criterion picks, and each pacer strategy's lock).
public struct AssessmentStage: Stage {
    public var artifactMethod: ArtifactMethod

    public init(artifactMethod: ArtifactMethod = .lipponen) {
        self.artifactMethod = artifactMethod
    }

    public var name: String { "breathing-assess" }
    public var version: String { "1.1.0" }
    public var engines: [String] { ["coherence", "pacer", "rr"] }
    public var perSubject: Bool { true }
    public var reads: [String] { [RRInterval.fileName, CombinedRR.fileName, BreathingInterval.fileName] }
    public var writes: [String] { [AssessmentRow.fileName, ResonanceChoiceRow.fileName] }

    public func run(_ ws: Workspace, _ context: StageContext) throws {
        ws.session?.record(setting: "artifacts", artifactMethod.rawValue)
        let paced = Dictionary(grouping: try ws.readIfPresent(BreathingInterval.self) ?? [], by: \.subject)
        guard !paced.isEmpty else {
            throw TableError(path: ws.file(BreathingInterval.fileName), line: 0, column: 0,
                             message: "no paced intervals; write them with `resonance breathing paced`")
        }
        let assessment = BreathingAssessment(coherence: context.registry.coherence, pacer: context.registry.pacer)
        let rr = try ws.analysisRRIndex(jobs: context.jobs)
        let plausible = context.registry.rr
        // Subjects in order of first appearance in rr.csv, each read and scored in its worker.
        let trialsTable = try ws.writer(AssessmentRow.self), choices = try ws.writer(ResonanceChoiceRow.self)
        var subjects = 0
        try Parallel.forEach(rr.subjects.filter { paced[$0] != nil }, jobs: context.jobs, { subject -> (EncodedRows, EncodedRows)? in
            // Trials with both ends are scored walking the recording (one trial's beats held);
            // a subject with a trial open at an end, or whose rows go back in time, is read whole.
            let intervals = paced[subject] ?? []
            func whole() throws -> [AssessmentRow]? {
                try rr.nnSeries(of: subject, method: artifactMethod, plausible: plausible).map {
                    try assessment.trials(subject: subject, series: $0, intervals: intervals)
                }
            }
            var trials: [AssessmentRow]?
            if intervals.allSatisfy({ $0.startedAtMs != nil && $0.endedAtMs != nil }) {
                do {
                    let stream = NNStream(rr, subject: subject, method: artifactMethod, plausible: plausible)
                    trials = try assessment.trials(subject: subject, stream: stream, intervals: intervals)
                } catch is OutOfOrder {
                    trials = try whole()
                }
            } else {
                trials = try whole()
            }
            guard let trials else { return nil }
            return (try Workspace.encode(trials),
                    try Workspace.encode(BreathingAssessment.choose(trials) + BreathingAssessment.pacerLocks(trials, pacer: assessment.pacer)))
        }, inOrder: { out in
            guard let (trials, chosen) = out else { return }
            try trialsTable.append(trials)
            try choices.append(chosen)
            subjects += 1
        })
        try trialsTable.commit()
        try choices.commit()
        context.progress.note("breathing assess: \(plural(subjects, "subject")), \(plural(trialsTable.rows, "trial"))")
    }
}
