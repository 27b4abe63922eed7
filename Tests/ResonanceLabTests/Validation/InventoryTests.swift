import XCTest
@testable import ResonanceLab

final class InventoryTests: XCTestCase {
    /// Subject A: HR at 0, 60 s, 460 s (a 400 s gap > 5 min) and 470 s; one bpm
    /// rejected twice-over reasons; labels cover 0–235 s stress (235 s of a 470 s
    /// span = 50 %). Subject B: RR only, no labels.
    private func workspace() throws -> Workspace {
        let dir = try makeTempDir()
        let hr = try writeFixture("""
            subject,time,bpm
            A,1709280000,60
            A,1709280060,61
            A,1709280460,62
            A,1709280470,63
            A,1709280480,999
            A,1709280490,998
            A,1709280500,x

            """, to: dir + "/hr.csv")
        let rr = try writeFixture("subject,time,rr_ms\nB,1709280000,800\nB,1709280001,810\n", to: dir + "/rr.csv")
        let labels = try writeFixture("Participant,HR,respr,Time(sec),Label\n", to: dir + "/labels.csv")
        let (ws, _) = try importSources([hr, rr, labels])
        // Labels for A written directly: one 235 s interval and one zero-length mark.
        try ws.write([LabelInterval(subject: "A", startMs: 1_709_280_000_000, endMs: 1_709_280_235_000, label: "stress"),
                      LabelInterval(subject: "A", startMs: 1_709_280_100_000, endMs: 1_709_280_100_000, label: "e4_tag")])
        return ws
    }

    func testInventoryNumbers() throws {
        let section = try XCTUnwrap(try Inventory.section(try workspace()))
        guard case let .object(json) = section.json else { return XCTFail("not an object") }
        guard case let .array(gaps)? = json["gaps"], case let .object(gap)? = gaps.first else { return XCTFail("no gaps") }
        XCTAssertEqual(gaps.count, 1)
        XCTAssertEqual(gap["subject"], .string("A"))
        XCTAssertEqual(gap["series"], .string("hr"))
        XCTAssertEqual(gap["longest_gap_s"], .number(400))
        guard case let .array(labels)? = json["labels"] else { return XCTFail("no labels") }
        XCTAssertEqual(labels.count, 2)
        guard case let .object(stress) = labels[1] else { return XCTFail() }
        XCTAssertEqual(stress["label"], .string("stress"))
        XCTAssertEqual(stress["coverage"], .number(0.5), "235 s of the 470 s span")
        XCTAssertEqual(json["unlabelled_subjects"], .array([.string("B")]))
        guard case let .array(files)? = json["files"], case let .object(hrFile) = files[0],
              case let .array(top)? = hrFile["top_reasons"] else { return XCTFail("no files") }
        XCTAssertEqual(hrFile["rejected"], .number(3))
        XCTAssertEqual(top, [.object(["reason": .string("bpm outside 20–250"), "rows": .number(2)]),
                             .object(["reason": .string("unparsable bpm"), "rows": .number(1)])])
        XCTAssertTrue(section.markdown.contains("| A | hr | 1 | 0.11 | 6.67 | 2024-03-01T08:07:40.000Z |"), section.markdown)
    }

    func testReportIsByteIdenticalBetweenRuns() throws {
        let ws = try workspace()
        let a = try ValidationReport.build(workspace: ws, name: "x", analyses: ValidationReport.standardAnalyses())
        let b = try ValidationReport.build(workspace: ws, name: "x", analyses: ValidationReport.standardAnalyses())
        XCTAssertEqual(a.markdown, b.markdown)
        XCTAssertEqual(a.json, b.json)
        XCTAssertTrue(a.markdown.contains("## Data inventory"))
    }
}
