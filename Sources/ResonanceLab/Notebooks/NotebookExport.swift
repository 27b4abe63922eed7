import Foundation

/// The kinds of notebook in `notebooks-export/`, one per kind of report.
public enum NotebookKind: String, CaseIterable, Sendable {
    case validation, persona, tuning
}

/// One cell of a notebook: Markdown or Python code, with its Jupyter tags.
public struct NotebookCell: Equatable, Sendable {
    public enum Kind: String, Sendable { case markdown, code }
    public var kind: Kind
    public var source: String
    public var tags: [String]

    public init(kind: Kind, source: String, tags: [String] = []) {
        self.kind = kind; self.source = source; self.tags = tags
    }
}

/// A line of a notebook source that the percent format cannot read.
public struct NotebookSourceError: Error, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var message: String
    public var description: String { "\(path):\(line):1: \(message)" }
}

/// Turns the plain-text notebook sources of `notebooks-export/` into `.ipynb` files.
///
/// Sources use jupytext's "percent" format (https://jupytext.readthedocs.io/en/latest/formats-scripts.html):
/// a line `# %%` opens a code cell, `# %% [markdown]` a Markdown cell whose lines are
/// comments (`# text`), and `tags=["parameters"]` after the marker tags the cell. Blank
/// lines around a cell's text belong to no cell. The output is nbformat 4.5 JSON
/// (https://nbformat.readthedocs.io/en/latest/format_description.html) with cell ids
/// numbered in order, so the same sources and parameters give the same bytes.
public enum NotebookExport {
    /// The shared helper cells, inserted into every notebook after its parameters.
    public static let commonFile = "common.py"

    /// The cells of one percent-format source.
    public static func cells(percentSource text: String, path: String) throws -> [NotebookCell] {
        var cells: [NotebookCell] = []
        var current: NotebookCell?
        var lines: [String] = []
        func close() {
            guard var cell = current else { return }
            while lines.first?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeFirst() }
            while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
            cell.source = lines.joined(separator: "\n")
            cells.append(cell)
            lines = []
        }
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(line)
            if line == "# %%" || line.hasPrefix("# %% ") {
                close()
                let rest = line.dropFirst(4)
                current = NotebookCell(kind: rest.contains("[markdown]") ? .markdown : .code, source: "",
                                       tags: try tags(String(rest), path: path, line: i + 1))
                continue
            }
            guard current != nil else {
                guard line.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw NotebookSourceError(path: path, line: i + 1, message: "text before the first '# %%' cell marker")
                }
                continue
            }
            if current?.kind == .markdown {
                if line == "#" { lines.append(""); continue }
                if line.hasPrefix("# ") { lines.append(String(line.dropFirst(2))); continue }
                guard line.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw NotebookSourceError(path: path, line: i + 1, message: "Markdown cell line is not a '# ' comment")
                }
            }
            lines.append(line)
        }
        close()
        return cells
    }

    /// `tags=["a", "b"]` on a cell marker line.
    static func tags(_ marker: String, path: String, line: Int) throws -> [String] {
        guard let range = marker.range(of: "tags=[") else { return [] }
        guard let end = marker[range.upperBound...].firstIndex(of: "]") else {
            throw NotebookSourceError(path: path, line: line, message: "unterminated tags=[…]")
        }
        return marker[range.upperBound..<end].split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        }
    }

    /// The notebook of `kind` bound to a workspace and report folder: the kind's cells with,
    /// after its `parameters` cell, an `injected-parameters` cell (as papermill writes one)
    /// and then the common helper cells.
    public static func notebook(kind: [NotebookCell], common: [NotebookCell], parameters: [(String, String)]) -> String {
        let injected = NotebookCell(
            kind: .code,
            source: "# Parameters bound by `resonance export-notebook`\n"
                + parameters.map { "\($0.0) = \(JSONValue.quote($0.1))" }.joined(separator: "\n"),
            tags: ["injected-parameters"])
        var all: [NotebookCell] = []
        var inserted = false
        for cell in kind {
            all.append(cell)
            if !inserted && cell.tags.contains("parameters") {
                all.append(injected); all += common; inserted = true
            }
        }
        if !inserted { all = [injected] + common + kind }
        let cells: [JSONValue] = all.enumerated().map { i, cell in
            var fields: [String: JSONValue] = [
                "cell_type": .string(cell.kind.rawValue),
                "id": .string("cell-\(i)"),
                "metadata": cell.tags.isEmpty ? .object([:]) : .object(["tags": .array(cell.tags.map(JSONValue.string))]),
                "source": .array(sourceLines(cell.source).map(JSONValue.string)),
            ]
            if cell.kind == .code {
                fields["execution_count"] = .null
                fields["outputs"] = .array([])
            }
            return .object(fields)
        }
        return JSONValue.object([
            "cells": .array(cells),
            "metadata": .object([
                "kernelspec": .object(["display_name": .string("Python 3"), "language": .string("python"),
                                       "name": .string("python3")]),
                "language_info": .object(["name": .string("python")]),
            ]),
            "nbformat": .int(4),
            "nbformat_minor": .int(5),
        ]).render()
    }

    /// A cell's text as Jupyter stores it: lines keeping their newline, the last without.
    static func sourceLines(_ text: String) -> [String] {
        guard !text.isEmpty else { return [] }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.enumerated().map { i, l in i + 1 < lines.count ? l + "\n" : String(l) }
    }

    /// Reads `DIR/<kind>.py` and `DIR/common.py` and returns the bound notebook.
    public static func export(kind: NotebookKind, sources dir: String, workspace: String, reportDir: String) throws -> String {
        func load(_ name: String) throws -> [NotebookCell] {
            let path = (dir as NSString).appendingPathComponent(name)
            guard let text = FileManager.default.contents(atPath: path).flatMap({ String(data: $0, encoding: .utf8) }) else {
                throw NotebookSourceError(path: path, line: 0, message: "cannot read the notebook source")
            }
            return try cells(percentSource: text, path: path)
        }
        return notebook(kind: try load(kind.rawValue + ".py"), common: try load(commonFile),
                        parameters: [("WORKSPACE", workspace), ("REPORT_DIR", reportDir)])
    }

    /// The `notebooks-export` folder: the first found walking up from each of `starts`
    /// (the executable's folder, then the working directory), so that a build under
    /// `.build/` finds the sources of its own checkout.
    public static func locateSources(from starts: [String]) -> String? {
        for start in starts {
            var dir = (start as NSString).standardizingPath
            while true {
                let candidate = (dir as NSString).appendingPathComponent("notebooks-export")
                var isDir: ObjCBool = false
                if FileManager.default.fileExists(atPath: (candidate as NSString).appendingPathComponent(commonFile), isDirectory: &isDir),
                   !isDir.boolValue {
                    return candidate
                }
                let parent = (dir as NSString).deletingLastPathComponent
                if parent == dir || parent.isEmpty { break }
                dir = parent
            }
        }
        return nil
    }
}
