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
    public var reads: [String] { [RRInterval.fileName, BreathingInterval.fileName] }
    public var writes: [String] { [AssessmentRow.fileName, ResonanceChoiceRow.fileName] }

    public func run(_ ws: Workspace, _ context: StageContext) throws {
        ws.session?.record(setting: "artifacts", artifactMethod.rawValue)
        let paced = Dictionary(grouping: try ws.readIfPresent(BreathingInterval.self) ?? [], by: \.subject)
        guard !paced.isEmpty else {
            throw TableError(path: ws.file(BreathingInterval.fileName), line: 0, column: 0,
                             message: "no paced intervals; write them with `resonance breathing paced`")
        }
        let assessment = BreathingAssessment(coherence: context.registry.coherence, pacer: context.registry.pacer)
        let subjects = try NNCache.series(ws, method: artifactMethod, context: context, label: name)
            .filter { paced[$0.subject] != nil }
        let results = try Parallel.map(subjects, jobs: context.jobs) { s -> ([AssessmentRow], [ResonanceChoiceRow]) in
            let trials = assessment.trials(subject: s.subject, series: s.series, intervals: paced[s.subject] ?? [])
            return (trials, BreathingAssessment.choose(trials) + BreathingAssessment.pacerLocks(trials, pacer: assessment.pacer))
        }
        try ws.write(results.flatMap(\.0))
        try ws.write(results.flatMap(\.1))
        context.progress.note("breathing assess: \(results.count) subject(s), \(results.reduce(0) { $0 + $1.0.count }) trial(s)")
    }
}
