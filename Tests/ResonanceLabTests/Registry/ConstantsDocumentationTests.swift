import Foundation
import XCTest
@testable import ResonanceLab

/// The project's docs stay in step with the registry: every engine's constants table is
/// a generated block (`<!-- BEGIN generated constants:NAME -->`, scripts/lib/docs_blocks.py)
/// on the page of its product under docs/engines/, with every constant's default, unit,
/// range and source; and nothing in the sources or docs points at a document outside the
/// repository.
final class ConstantsDocumentationTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The page under docs/engines/ of each registry engine's product (docs/engines.md, Index).
    static let page: [String: String] = [
        "hr": "toolkit.md", "rr": "toolkit.md", "hrv": "toolkit.md", "daily_inputs": "toolkit.md",
        "sessions": "toolkit.md", "impact": "toolkit.md", "song_effect": "toolkit.md", "mixed_model": "toolkit.md",
        "ecg_beats": "toolkit.md", "ppg_beats": "toolkit.md", "beat_quality": "toolkit.md",
        "state": "dj.md", "ranking": "dj.md", "ope": "dj.md", "dj_learning": "dj.md",
        "coherence": "breathing.md", "pacer": "breathing.md",
        "stress": "heart-coach.md", "readiness": "heart-coach.md", "trend": "heart-coach.md", "zones": "heart-coach.md",
        "bio_age": "heart-coach.md", "coaching": "heart-coach.md",
        "morning_recovery": "health-platform.md",
    ]

    /// Table cell of a number as the docs write it: integers without a fraction, other
    /// values in Swift's (and Python's) shortest round-trip form.
    static func cell(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)"
    }

    /// The row a constants block must hold for one constant.
    static func row(_ c: ConstantSpec) -> String {
        "| `\(c.name)` | \(cell(c.value)) | \(c.unit) | \(cell(c.range.lowerBound)) – \(cell(c.range.upperBound)) | "
            + c.source.replacingOccurrences(of: "|", with: "\\|") + " |"
    }

    /// One generated block of a page: its kind, its argument and the lines between its markers.
    struct Block: Equatable {
        let kind: String
        let name: String
        let lines: [String]
    }

    /// The generated blocks of a page, and a message for each marker that has no pair.
    static func blocks(_ text: String) -> (blocks: [Block], unpaired: [String]) {
        var blocks: [Block] = [], unpaired: [String] = []
        var open: (kind: String, name: String, lines: [String])?
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).enumerated() {
            for (prefix, begins) in [("<!-- BEGIN generated ", true), ("<!-- END generated ", false)]
            where line.hasPrefix(prefix) && line.hasSuffix(" -->") {
                let key = line.dropFirst(prefix.count).dropLast(4).split(separator: ":", maxSplits: 1).map(String.init)
                guard key.count == 2 else { unpaired.append("line \(i + 1): malformed marker"); continue }
                if begins {
                    if let open { unpaired.append("line \(i + 1): BEGIN inside \(open.kind):\(open.name)") }
                    open = (key[0], key[1], [])
                } else if let current = open, current.kind == key[0], current.name == key[1] {
                    blocks.append(Block(kind: current.kind, name: current.name, lines: current.lines))
                    open = nil
                } else {
                    unpaired.append("line \(i + 1): END \(key[0]):\(key[1]) without its BEGIN")
                    open = nil
                }
            }
            if !line.hasPrefix("<!-- BEGIN generated "), !line.hasPrefix("<!-- END generated ") {
                open?.lines.append(line)
            }
        }
        if let open { unpaired.append("BEGIN \(open.kind):\(open.name) without its END") }
        return (blocks, unpaired)
    }

    /// Every registry engine has exactly one constants block, on its product's page, with
    /// its version and one row per constant holding the default, unit, range and source.
    func testEveryEngineConstantIsDocumentedWithItsDefault() throws {
        XCTAssertEqual(Set(Self.page.keys), Set(ConstantsRegistry.specs.map(\.name)),
                       "the test's map names the product page of every registry engine, and no other")
        let folder = Self.root.appendingPathComponent("docs/engines")
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }.sorted()
        var found: [String: [(page: String, block: Block)]] = [:]
        for page in pages {
            let (blocks, unpaired) = Self.blocks(try String(contentsOf: folder.appendingPathComponent(page), encoding: .utf8))
            XCTAssertEqual(unpaired, [], "docs/engines/\(page): markers without their pair")
            for block in blocks where block.kind == "constants" {
                found[block.name, default: []].append((page, block))
            }
        }
        XCTAssertEqual(Set(found.keys), Set(ConstantsRegistry.specs.map(\.name)),
                       "docs/engines/*.md: a constants block for every registry engine and for no other")
        for spec in ConstantsRegistry.specs {
            let place = "docs/engines/*.md, constants:\(spec.name)"
            let blocks = found[spec.name] ?? []
            XCTAssertEqual(blocks.count, 1, "\(place): exactly one block, found on \(blocks.map(\.page))")
            guard let first = blocks.first else { continue }
            let (page, block) = first
            XCTAssertEqual(page, Self.page[spec.name], "\(place): on the page of its product")
            XCTAssertTrue(block.lines.contains("Version \(spec.version)."), "\(place): version \(spec.version)")
            for c in spec.constants {
                XCTAssertTrue(block.lines.contains(Self.row(c)), "\(place): expected row\n\(Self.row(c))")
            }
            let documented = block.lines.filter { $0.hasPrefix("| `") }
            XCTAssertEqual(documented.count, spec.constants.count, "\(place): rows for constants not in the registry")
        }
    }

    func testBlockMarkersArePaired() {
        let page = """
            <!-- BEGIN generated constants:a -->
            Version 1.0.0.
            <!-- END generated constants:a -->
            <!-- BEGIN generated constants:b -->
            <!-- END generated constants:c -->
            <!-- BEGIN generated constants:d -->
            """
        let (blocks, unpaired) = Self.blocks(page)
        XCTAssertEqual(blocks, [Block(kind: "constants", name: "a", lines: ["Version 1.0.0."])])
        XCTAssertEqual(unpaired.count, 2)
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
        // Recursive: docs/ with its subfolders (docs/engines/), every source and test folder.
        for folder in ["Sources", "docs", "Tests", "scripts", "mk"] {
            let base = Self.root.appendingPathComponent(folder)
            let paths = (fm.enumerator(atPath: base.path)?.allObjects as? [String]) ?? []
            for path in paths where [".swift", ".md", ".py", ".mk"].contains(where: path.hasSuffix) {
                files.append(base.appendingPathComponent(path))
            }
        }
        XCTAssertGreaterThan(files.count, 100)
        XCTAssertTrue(files.contains { $0.path.hasSuffix("docs/engines/dj.md") }, "the docs' subfolders are read")
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
