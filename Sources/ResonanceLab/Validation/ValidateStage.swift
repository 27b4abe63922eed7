import Foundation

/// `resonance validate`: the validation report of a workspace → `validation.md` and
/// `validation.json` in a report folder (outside the workspace).
public struct ValidateStage: Stage {
    public var reportDir: String
    /// Dataset name in the report's title; nil takes the workspace folder's name.
    public var datasetName: String?
    /// Windows of the stress scoring section.
    public var stress: StressScoringOptions

    public init(reportDir: String, datasetName: String? = nil, stress: StressScoringOptions = .init()) {
        self.reportDir = reportDir; self.datasetName = datasetName; self.stress = stress
    }

    public var name: String { "validate" }
    /// 1.1.0: what the workspace can answer first, the lineage last.
    public var version: String { "1.1.0" }
    public var engines: [String] { ["hrv", "rr", "stress", "state", "trend", "readiness"] }
    public var perSubject: Bool { false }
    public var reads: [String] {
        var seen = Set<String>()
        return ([Manifest.fileName, HRSample.fileName, RRInterval.fileName, CombinedRR.fileName, Reject.fileName, LabelInterval.fileName,
         HRVRow.fileName, SessionRow.fileName, SessionPlayRow.fileName, SongEffectRow.fileName, PersonaEffectRow.fileName,
         PlantedEffect.fileName, DailyRow.fileName, HRVSample.fileName] + BreathingAnalysis.reads + DJAnalysis.reads
            + BeatAnalysis.reads + WorkspaceAnswers.reads).filter { seen.insert($0).inserted }
    }
    public var writes: [String] { ["validation.md", "validation.json"] }

    public func run(_ ws: Workspace, _ context: StageContext) throws {
        let name = datasetName ?? ((ws.path as NSString).standardizingPath as NSString).lastPathComponent
        let report = try ValidationReport.build(workspace: ws, name: name, analyses: ValidationReport.standardAnalyses(registry: context.registry, stress: stress, jobs: context.jobs),
                                                registry: context.registry)
        let md = (reportDir as NSString).appendingPathComponent("validation.md")
        try AtomicFile.write(report.markdown, to: md)
        try AtomicFile.write(report.json, to: (reportDir as NSString).appendingPathComponent("validation.json"))
        context.progress.note("validate: wrote \(md) and validation.json")
    }
}
