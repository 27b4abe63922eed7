import Foundation

/// `resonance import`: reads raw exports into the canonical tables of a workspace
/// (docs/import.md, docs/tables.md), with `manifest.json` and `rejects.csv`.
public enum Importer {
    public struct Options {
        /// Forces one format for every file instead of detecting it.
        public var format: SourceFormat?
        /// Zone of naive local timestamps; nil reads them as UTC.
        public var timeZone: TimeZone?
        /// Subject of single-subject files (default: the containing folder's name).
        public var subject: String?
        /// Constants recorded in the manifest's provenance.
        public var registry: ConstantsRegistry
        public var progress: (String) -> Void

        public init(format: SourceFormat? = nil, timeZone: TimeZone? = nil, subject: String? = nil,
                    registry: ConstantsRegistry = .defaults, progress: @escaping (String) -> Void = { _ in }) {
            self.format = format; self.timeZone = timeZone; self.subject = subject
            self.registry = registry; self.progress = progress
        }
    }

    /// Imports every source (files or dataset folders) into `workspace`; all tables
    /// are renamed into place only after every source was read.
    @discardableResult
    public static func run(sources: [String], workspace: Workspace, options: Options = Options()) throws -> Manifest {
        let layout = DatasetLayout(forcedFormat: options.format, subject: options.subject, progress: options.progress)
        var planned: [PlannedFile] = []
        for source in sources { planned += try layout.plan(source) }
        let sink = try ImportSink(workspace: workspace)
        let local = options.timeZone.map(LocalTime.init(zone:))
        for plan in planned {
            let file = sink.beginSource(path: plan.path, display: plan.display, format: plan.format)
            let input = SourceInput(path: plan.path, display: plan.display, subject: plan.subject ?? "",
                                    group: plan.group, file: file, times: TimeFieldParser(local: local))
            try adapter(plan.format).read(input, into: sink)
            let s = sink.sources[Int(file)]
            options.progress("\(plan.display): \(plan.format.rawValue), \(s.rowsRead) rows, \(s.rejected) rejected")
        }
        let manifest = try sink.finish(timezone: options.timeZone?.identifier ?? "UTC", registry: options.registry)
        try sink.commit(manifest)
        return manifest
    }

    static func adapter(_ format: SourceFormat) -> FormatAdapter.Type {
        switch format {
        case .genericCSV: return GenericCSV.self
        case .e4HR: return E4.HR.self
        case .e4IBI: return E4.IBI.self
        case .e4Tags: return E4.Tags.self
        case .physionetRR: return PhysioNetRR.self
        case .appleMusic: return AppleMusic.self
        case .appleHealth: return AppleHealth.self
        case .stressPredictLabels: return StressPredictLabels.self
        case .canonical: return CanonicalTable.self
        }
    }
}
