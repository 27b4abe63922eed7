import Foundation
import XCTest
import ResonanceLab

/// `resonance daily` replays the coaching rules into `nudges.csv`, `coaching.csv` and
/// `phases.csv`.
final class CoachingCommandTests: XCTestCase {
    func testDailyWritesNudgesCoachingAndPhasesForNewMom() throws {
        let dir = try makeTempDir(), ws = dir + "/ws"
        let generate = try resonance("personas", "generate", "--out", ws, "--days", "15", "--personas", "NewMom", "--quiet")
        XCTAssertEqual(generate.status, ExitStatus.success, generate.stderr)
        let daily = try resonance("daily", ws, "--quiet")
        XCTAssertEqual(daily.status, ExitStatus.success, daily.stderr)

        let workspace = Workspace(path: ws)
        let days = try workspace.read(DailyRow.self)
        XCTAssertEqual(days.count, 15)
        let nudges = try workspace.read(NudgeRow.self)
        XCTAssertEqual(Set(nudges.filter { $0.rank == 1 }.map(\.date)), Set(days.map(\.snapshot.date)), "a primary nudge every day")
        XCTAssertTrue(Dictionary(grouping: nudges, by: \.date).values.allSatisfy { $0.count <= 3 })
        for n in nudges where n.gate == "recovering" {
            XCTAssertTrue(["rest", "breathing"].contains(n.category), "\(n)")
            XCTAssertLessThan(try XCTUnwrap(n.readiness), 40)
        }

        let coaching = try workspace.read(CoachingRow.self)
        let recommendations = coaching.filter { $0.kind == "recommendation" }
        XCTAssertTrue(Dictionary(grouping: recommendations, by: \.date).values.allSatisfy { $0.count <= 4 && Set($0.map(\.category)).count == $0.count })
        let fired = Set(recommendations.map(\.id))
        XCTAssertTrue(fired.isSuperset(of: ["activity_pattern", "sleep_pattern"]), "\(fired)")
        XCTAssertEqual(coaching.filter { $0.kind == "assessment" }.count, 15)
        XCTAssertEqual(coaching.filter { $0.kind == "schedule" }.count, 30)
        XCTAssertEqual(Set(coaching.filter { $0.kind == "weekly_report" }.map(\.date)), ["2026-01-18", "2026-01-19"],
                       "Sundays and the last day, once there is a week before")

        let phases = try workspace.read(PhaseRow.self)
        XCTAssertEqual(phases.map(\.phase), Array(repeating: "baseline", count: 13) + ["adaptation", "adaptation"])
        XCTAssertEqual(phases[13].phaseRule, "baseline_complete: 14 data days ≥ 14")

        // A second run writes the same bytes.
        let first = try Data(contentsOf: URL(fileURLWithPath: ws + "/coaching.csv"))
        XCTAssertEqual(try resonance("daily", ws, "--quiet", "--jobs", "1").status, ExitStatus.success)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: ws + "/coaching.csv")), first)
    }
}
