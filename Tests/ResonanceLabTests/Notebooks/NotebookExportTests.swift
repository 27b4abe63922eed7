import XCTest
@testable import ResonanceLab

final class NotebookExportTests: XCTestCase {
    let source = """
        # %% [markdown]
        # # Title
        #
        # Text.

        # %% tags=["parameters"]
        WORKSPACE = "ws"

        # %%
        print(WORKSPACE)

        """

    func testPercentFormatCells() throws {
        let cells = try NotebookExport.cells(percentSource: source, path: "x.py")
        XCTAssertEqual(cells, [
            NotebookCell(kind: .markdown, source: "# Title\n\nText."),
            NotebookCell(kind: .code, source: "WORKSPACE = \"ws\"", tags: ["parameters"]),
            NotebookCell(kind: .code, source: "print(WORKSPACE)"),
        ])
    }

    func testRejectsTextBeforeTheFirstCellAndUncommentedMarkdown() {
        XCTAssertThrowsError(try NotebookExport.cells(percentSource: "x = 1\n# %%\n", path: "a.py")) { error in
            XCTAssertEqual("\(error)", "a.py:1:1: text before the first '# %%' cell marker")
        }
        XCTAssertThrowsError(try NotebookExport.cells(percentSource: "# %% [markdown]\n# ok\nplain\n", path: "b.py")) { error in
            XCTAssertEqual("\(error)", "b.py:3:1: Markdown cell line is not a '# ' comment")
        }
    }

    func testNotebookInjectsParametersThenCommonCells() throws {
        let kind = try NotebookExport.cells(percentSource: source, path: "x.py")
        let common = [NotebookCell(kind: .code, source: "import json")]
        let text = NotebookExport.notebook(kind: kind, common: common, parameters: [("WORKSPACE", "/w \"q\"")])
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(json["nbformat"] as? Int, 4)
        XCTAssertEqual(json["nbformat_minor"] as? Int, 5)
        let cells = try XCTUnwrap(json["cells"] as? [[String: Any]])
        XCTAssertEqual(cells.map { $0["id"] as? String }, ["cell-0", "cell-1", "cell-2", "cell-3", "cell-4"])
        XCTAssertEqual(cells.map { ($0["source"] as? [String])?.joined() }, [
            "# Title\n\nText.", "WORKSPACE = \"ws\"",
            "# Parameters bound by `resonance export-notebook`\nWORKSPACE = \"/w \\\"q\\\"\"",
            "import json", "print(WORKSPACE)",
        ])
        XCTAssertEqual((cells[2]["metadata"] as? [String: Any])?["tags"] as? [String], ["injected-parameters"])
        XCTAssertNil(cells[0]["outputs"])
        XCTAssertEqual((cells[4]["outputs"] as? [Any])?.count, 0)
        // Source lines keep their newline except the last, as Jupyter stores them.
        XCTAssertEqual(cells[0]["source"] as? [String], ["# Title\n", "\n", "Text."])
    }

    func testLocatesTheSourcesAboveAStartFolder() throws {
        let root = try makeTempDir()
        let sources = (root as NSString).appendingPathComponent("notebooks-export")
        _ = try writeFixture("# %%\n", to: (sources as NSString).appendingPathComponent("common.py"))
        let deep = (root as NSString).appendingPathComponent(".build/x86_64/release")
        try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: true)
        XCTAssertEqual(NotebookExport.locateSources(from: ["/nonexistent-start", deep]), sources)
    }
}
