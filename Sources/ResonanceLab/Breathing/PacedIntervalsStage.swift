/// `resonance breathing paced WS --from FILE`: the paced rates of a CSV of intervals
/// (`subject,started_at,ended_at,rate_bpm,source`, the columns of `breathing.csv`)
/// checked row by row and written as the workspace's `breathing.csv`, in subject order
/// (docs/tables.md, breathing.csv). A bad row stops it with its file, line and column.
public struct PacedIntervalsStage: Stage {
    public var path: String

    public init(path: String) {
        self.path = path
    }

    public var name: String { "breathing-paced" }
    public var version: String { "1.0.0" }
    public var engines: [String] { [] }
    public var perSubject: Bool { true }
    public var reads: [String] { [] }
    public var writes: [String] { [BreathingInterval.fileName] }

    public func run(_ ws: Workspace, _ context: StageContext) throws {
        let rows = try Workspace.readTable(BreathingInterval.self, path: path).enumerated().sorted { a, b in
            a.element.subject != b.element.subject ? SubjectOrder.precedes(a.element.subject, b.element.subject) : a.offset < b.offset
        }.map(\.element)
        // The intervals file is this stage's input: its lineage names it with its digest.
        ws.session?.lineage?.inputs = [.source(path, sha256: try WorkspaceSession.digest(ofFile: path))]
        try ws.write(rows)
        context.progress.note("breathing paced: \(plural(rows.count, "interval")) to \(ws.file(BreathingInterval.fileName))")
    }
}
