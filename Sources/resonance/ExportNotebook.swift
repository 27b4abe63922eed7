import ArgumentParser
import Foundation
import ResonanceLab

extension NotebookKind: ExpressibleByArgument {}

/// `resonance export-notebook WS --out DIR`: a ready-to-run notebook bound to a workspace.
struct ExportNotebook: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-notebook",
        abstract: "Write a ready-to-run Jupyter notebook (.ipynb) bound to a workspace.",
        discussion: """
            Generated from the plain-text (jupytext percent-format) sources in notebooks-export/: \
            <kind>.py plus the helper cells of common.py, with a cell binding WORKSPACE and \
            REPORT_DIR to absolute paths. The notebook reads the workspace's tables and the \
            report folder's validation.json, and saves its figures to REPORT_DIR/figures \
            (PNG at 150 dpi and SVG). The sources are found with --sources, else in the \
            nearest notebooks-export/ above the resonance executable (its real path, however \
            PATH or a symlink named it), else above the working directory. Writes DIR/<kind>.ipynb; the same inputs give the same bytes.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Workspace folder the notebook reads.", valueName: "workspace"))
    var workspace: String

    @Option(help: ArgumentHelp("Folder for the notebook (created if missing).", valueName: "dir"))
    var out: String

    @Option(help: "Kind of report: validation (any workspace), persona (a persona workspace) or tuning.")
    var kind: NotebookKind = .validation

    @Option(help: ArgumentHelp("Report folder the notebook reads validation.json from and writes figures/ into (default: --out).",
                               valueName: "dir"))
    var reportDir: String?

    @Option(help: ArgumentHelp("Folder of the notebook sources (default: the nearest notebooks-export/).", valueName: "dir"))
    var sources: String?

    func validate() throws {
        try global.reject(verify: true, command: "export-notebook")
        try WorkspaceFolder.requireExisting(workspace)
    }

    func run() throws {
        do {
            // The file the system ran, whatever PATH entry or symlink named it; argument 0
            // where /proc is not mounted.
            let running = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
            let executable = URL(fileURLWithPath: running).resolvingSymlinksInPath().deletingLastPathComponent().path
            let cwd = FileManager.default.currentDirectoryPath
            guard let dir = sources ?? NotebookExport.locateSources(from: [executable, cwd]) else {
                throw ValidationError("no notebooks-export/ folder above \(executable) or \(cwd); pass --sources DIR")
            }
            let absolute = { (p: String) in URL(fileURLWithPath: p, relativeTo: URL(fileURLWithPath: cwd)).standardizedFileURL.path }
            let text = try NotebookExport.export(kind: kind, sources: dir, workspace: absolute(workspace),
                                                 reportDir: absolute(reportDir ?? out))
            let path = (out as NSString).appendingPathComponent(kind.rawValue + ".ipynb")
            try AtomicFile.write(text, to: path)
            global.reporter.note("wrote \(path)")
        }
    }
}
