import Foundation
import XCTest

/// The docs hold together: every `docs/….md` a source, doc or help text names exists;
/// every Markdown link between the docs reaches a heading of its page; and every citation
/// "docs/<page>.md, Section" in the sources names a section of that page.
final class DocumentReferenceTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    static func matches(_ pattern: String, in content: String, group: Int = 0) throws -> [String] {
        let regex = try NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        return regex.matches(in: content, range: NSRange(content.startIndex..., in: content)).compactMap {
            Range($0.range(at: group), in: content).map { String(content[$0]) }
        }
    }

    /// The repository's text files under `folders` (and README.md, Makefile), with the
    /// suffixes that hold references.
    static func files(in folders: [String], suffixes: [String]) -> [String] {
        var files = ["README.md", "Makefile"]
        for dir in folders {
            let base = root.appendingPathComponent(dir).path
            for case let path as String in FileManager.default.enumerator(atPath: base) ?? NSEnumerator()
                where suffixes.contains(where: path.hasSuffix) {
                files.append(dir + "/" + path)
            }
        }
        return files.sorted()
    }

    // MARK: - Documents

    /// The `docs/….md` paths a text names, in subfolders too (`docs/engines/dj.md`).
    static func documentReferences(in content: String) throws -> [String] {
        try matches("docs/(?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_.-]+\\.md", in: content)
    }

    /// The documents a text names that do not exist in the repository.
    static func missingDocuments(in content: String) throws -> [String] {
        try documentReferences(in: content).filter {
            !FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path)
        }
    }

    func testDocumentReferencesReachSubfoldersAndMissingFilesAreFound() throws {
        XCTAssertEqual(try Self.documentReferences(in: "(docs/engines/dj.md, Ranking) and docs/tables.md; docs/engines/*.md"),
                       ["docs/engines/dj.md", "docs/tables.md"])
        // The missing names are spelled in pieces so that the scan of this file does not find them.
        let missing = ["docs/engines/" + "nowhere.md", "docs/" + "nowhere.md"]
        XCTAssertEqual(try Self.missingDocuments(in: "docs/engines/dj.md docs/engines.md " + missing.joined(separator: " ")), missing)
    }

    /// A doc comment, document or help text that names a `docs/….md` names a file that exists.
    func testEveryReferencedDocumentExists() throws {
        var checked = 0
        for file in Self.files(in: ["Sources", "docs", "Tests", "scripts", "mk", "notebooks-export", "workflow"],
                               suffixes: [".swift", ".md", ".py", ".mk", ".sh", ".yaml", "Snakefile"]) {
            let content = try Self.text(file)
            checked += try Self.documentReferences(in: content).count
            for name in try Self.missingDocuments(in: content) {
                XCTFail("\(file) names \(name), which does not exist")
            }
        }
        XCTAssertGreaterThan(checked, 50)
    }

    // MARK: - Sections

    /// GitHub's anchor of a heading: lower case, punctuation other than `-` and `_`
    /// dropped, each space a hyphen.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().unicodeScalars.filter {
            CharacterSet.alphanumerics.contains($0) || "-_ ".unicodeScalars.contains($0)
        }.map { $0 == " " ? "-" : Character($0) })
    }

    /// A page's sections: its headings, and the bold or italic lead of a paragraph or list
    /// item (`**Local days.** …`), outside fenced code.
    static func sections(of page: String) throws -> [String] {
        var out: [String] = [], fenced = false
        for line in try text(page).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { fenced.toggle() }
            if fenced { continue }
            let line = String(line)
            out += try matches("^#{1,6} (.*)$", in: line, group: 1)
            out += try matches("^(?:- )?(\\*\\*?)([^*]+)\\1", in: line, group: 2).map {
                $0.hasSuffix(".") ? String($0.dropLast()) : $0
            }
        }
        return out
    }

    /// The anchors of a page's headings.
    static func anchors(of page: String) throws -> Set<String> {
        var out = Set<String>(), fenced = false
        for line in try text(page).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { fenced.toggle() }
            if !fenced, let heading = try matches("^#{1,6} (.*)$", in: String(line), group: 1).first {
                out.insert(anchor(heading))
            }
        }
        return out
    }

    /// `relative` (with `..`) read from `folder`, as a path from the repository root.
    static func resolve(_ relative: String, from folder: String) -> String {
        var parts = folder.split(separator: "/").map(String.init)
        for piece in relative.split(separator: "/").map(String.init) where piece != "." {
            if piece == ".." { _ = parts.popLast() } else { parts.append(piece) }
        }
        return parts.joined(separator: "/")
    }

    /// The links `[text](page.md#anchor)` of a Markdown page whose anchor names no heading
    /// of its target: (link, why).
    static func brokenLinks(in page: String) throws -> [(String, String)] {
        var out: [(String, String)] = []
        let folder = page.split(separator: "/").dropLast().joined(separator: "/")
        for target in try matches("\\]\\(([^)\\s]+)\\)", in: text(page), group: 1)
            where !target.contains(":") && target.contains("#") {
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts[0].isEmpty || parts[0].hasSuffix(".md") else { continue }
            let path = parts[0].isEmpty ? page : resolve(parts[0], from: folder)
            guard FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path) else {
                out.append((target, "\(path) does not exist")); continue
            }
            if try !anchors(of: path).contains(parts[1]) { out.append((target, "no heading of \(path) has the anchor #\(parts[1])")) }
        }
        return out
    }

    /// The citations "docs/<page>.md, Section" in a text whose section is not one of the
    /// page's: (page, the cited text). A page that is an index of pages (docs/methods.md)
    /// also offers the sections of the pages it lists. A citation is a page followed by
    /// a capitalised or quoted name; a page followed by words in lower case that are no
    /// section is a sentence, not a citation.
    static func unresolvedCitations(in content: String, sections: [String: [String]]) throws -> [(String, String)] {
        var out: [(String, String)] = []
        let regex = try NSRegularExpression(pattern: "(docs/[A-Za-z0-9_./-]+\\.md), (.{1,160})", options: [.dotMatchesLineSeparators])
        for m in regex.matches(in: content, range: NSRange(content.startIndex..., in: content)) {
            guard let p = Range(m.range(at: 1), in: content), let r = Range(m.range(at: 2), in: content) else { continue }
            let page = String(content[p])
            // A citation wrapped over comment lines reads on as one line.
            let rest = try NSRegularExpression(pattern: "\\s*\\n\\s*(?:///|//|#|\\*)?\\s*").stringByReplacingMatches(
                in: String(content[r]), range: NSRange(location: 0, length: (String(content[r]) as NSString).length), withTemplate: " ")
            guard !rest.hasPrefix("docs/"), let names = sections[page] else { continue }
            let cited = normalised(rest)
            let resolves = names.contains { cited.hasPrefix($0) && !(cited.dropFirst($0.count).first?.isLetter ?? false)
                && !(cited.dropFirst($0.count).first?.isNumber ?? false) }
            if !resolves, let first = rest.first, !first.isLowercase {
                out.append((page, String(rest.prefix { !")(;".contains($0) }.prefix(60))))
            }
        }
        return out
    }

    static func normalised(_ s: String) -> String {
        s.filter { !"`\"*".contains($0) }.lowercased()
    }

    /// Every page's sections (normalised), with those of the pages it lists when it is an
    /// index of them (`sections(including:)`), by path.
    static func citableSections() throws -> [String: [String]] {
        var out: [String: [String]] = [:]
        for page in files(in: ["docs"], suffixes: [".md"]) where page.hasPrefix("docs/") {
            out[page] = try sections(including: page).map(normalised)
        }
        return out
    }

    /// A page's sections, with those of the pages it lists when it is an index of them.
    static func sections(including page: String) throws -> [String] {
        var out = try sections(of: page)
        let folder = String(page.dropLast(3))
        for line in try text(page).split(separator: "\n") {
            if let part = try matches("^- \\[[^]]*\\]\\(([^)#]+\\.md)\\)$", in: String(line), group: 1).first,
               part.hasPrefix(URL(fileURLWithPath: folder).lastPathComponent + "/") {
                out += try sections(of: "docs/" + part)
            }
        }
        return out
    }

    func testAnchorsFollowGitHub() {
        XCTAssertEqual(Self.anchor("Local days, wear time and RMSSD-only days"), "local-days-wear-time-and-rmssd-only-days")
        XCTAssertEqual(Self.anchor("`waveforms.csv` and `waveforms.bin`"), "waveformscsv-and-waveformsbin")
        XCTAssertEqual(Self.anchor("Robustness of the song effects"), "robustness-of-the-song-effects")
    }

    func testABrokenLinkAndAnUnknownSectionAreFound() throws {
        // The wrong names are spelled in pieces so that the scan of this file does not find them.
        let content = "(docs/methods.md, " + "Nowhere at all) (docs/methods.md, Local days) (docs/engines/dj.md, State; x)"
            + " docs/personas.md, in the order every output lists them"
        XCTAssertEqual(try Self.unresolvedCitations(in: content, sections: Self.citableSections()).map(\.1), ["Nowhere at all"])
        XCTAssertTrue(try Self.anchors(of: "docs/methods/hrv.md").contains("hrv"))
        XCTAssertFalse(try Self.anchors(of: "docs/methods/hrv.md").contains("no" + "where"))
    }

    /// Every link with an anchor between the docs (README.md and docs/**) reaches a heading.
    func testEveryLinkBetweenTheDocsReachesItsSection() throws {
        var checked = 0
        for page in Self.files(in: ["docs"], suffixes: [".md"]) where page.hasSuffix(".md") {
            checked += try Self.matches("\\]\\([^)\\s:]*#[^)\\s]+\\)", in: Self.text(page)).count
            for (link, why) in try Self.brokenLinks(in: page) {
                XCTFail("\(page): (\(link)): \(why)")
            }
        }
        XCTAssertGreaterThan(checked, 200)
    }

    /// Every citation "docs/<page>.md, Section" in the sources, scripts, make files and docs
    /// names a section of its page.
    func testEveryCitedSectionExists() throws {
        var checked = 0
        let sections = try Self.citableSections()
        for file in Self.files(in: ["Sources", "docs", "Tests", "scripts", "mk", "notebooks-export", "workflow"],
                               suffixes: [".swift", ".md", ".py", ".mk", ".sh", ".yaml", "Snakefile"])
            where file != "Tests/ResonanceLabTests/Pipeline/DocumentReferenceTests.swift" {
            let content = try Self.text(file)
            checked += try Self.matches("docs/[A-Za-z0-9_./-]+\\.md, ", in: content).count
            for (page, cited) in try Self.unresolvedCitations(in: content, sections: sections) {
                XCTFail("\(file): cites \(page), \(cited), which is no section of \(page)")
            }
        }
        XCTAssertGreaterThan(checked, 150)
    }
}
