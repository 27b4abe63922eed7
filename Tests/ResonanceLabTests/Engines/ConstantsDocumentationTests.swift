import Foundation
import XCTest
@testable import ResonanceLab

/// The project's docs stay in step with the registry: docs/engines.md has one constants
/// table per engine with every constant's default, unit, range and source, and nothing
/// in the sources or docs points at a document outside the repository.
final class ConstantsDocumentationTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Table cell of a number as the docs write it: integers without a fraction, other
    /// values in Swift's (and Python's) shortest round-trip form.
    static func cell(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)"
    }

    /// The row docs/engines.md must hold for one constant.
    static func row(_ c: ConstantSpec) -> String {
        "| `\(c.name)` | \(cell(c.value)) | \(c.unit) | \(cell(c.range.lowerBound)) – \(cell(c.range.upperBound)) | "
            + c.source.replacingOccurrences(of: "|", with: "\\|") + " |"
    }

    /// Lines of each `### `engine`` section under "## Constants reference".
    static func constantSections(_ text: String) -> [String: [String]] {
        var sections: [String: [String]] = [:]
        var current: String?
        var inReference = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("## ") {
                inReference = line == "## Constants reference"
                current = nil
            } else if inReference, line.hasPrefix("### `"), line.hasSuffix("`") {
                current = String(line.dropFirst(5).dropLast())
                sections[current ?? ""] = []
            } else if let current {
                sections[current, default: []].append(line)
            }
        }
        return sections
    }

    func testEveryEngineConstantIsDocumentedWithItsDefault() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/engines.md"), encoding: .utf8)
        let sections = Self.constantSections(text)
        XCTAssertEqual(Set(sections.keys), Set(ConstantsRegistry.specs.map(\.name)),
                       "docs/engines.md: one `### `engine`` table per registry engine")
        for spec in ConstantsRegistry.specs {
            let lines = sections[spec.name] ?? []
            XCTAssertTrue(lines.contains("Version \(spec.version)."), "docs/engines.md, \(spec.name): version \(spec.version)")
            for c in spec.constants {
                XCTAssertTrue(lines.contains(Self.row(c)), "docs/engines.md, \(spec.name): expected row\n\(Self.row(c))")
            }
            let documented = lines.filter { $0.hasPrefix("| `") }
            XCTAssertEqual(documented.count, spec.constants.count, "docs/engines.md, \(spec.name): rows for constants not in the registry")
        }
    }

    func testRowFormatMatchesTheDocsGenerator() {
        XCTAssertEqual(Self.cell(30), "30")
        XCTAssertEqual(Self.cell(-0.3), "-0.3")
        XCTAssertEqual(Self.cell(1e-6), "1e-06")
        XCTAssertEqual(Self.cell(100_000), "100000")
        XCTAssertEqual(Self.row(ConstantSpec("x", 0.5, unit: "s", range: 0...1, source: "a | b")),
                       "| `x` | 0.5 | s | 0 – 1 | a \\| b |")
    }

    func testNoReferenceLeavesTheRepository() throws {
        let fm = FileManager.default
        var files = [Self.root.appendingPathComponent("README.md")]
        for folder in ["Sources", "docs", "Tests"] {
            let base = Self.root.appendingPathComponent(folder)
            let paths = (fm.enumerator(atPath: base.path)?.allObjects as? [String]) ?? []
            for path in paths where path.hasSuffix(".swift") || path.hasSuffix(".md") {
                files.append(base.appendingPathComponent(path))
            }
        }
        XCTAssertGreaterThan(files.count, 100)
        // Spelled in two pieces so that this file does not match itself.
        let forbidden = ["DESIGN" + " §", "DESIGN" + ".md"]
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for word in forbidden where text.contains(word) {
                XCTFail("\(file.path): refers to \(word), a document outside the repository")
            }
        }
    }
}
