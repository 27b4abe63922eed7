import Foundation
import XCTest
@testable import ResonanceLab

final class BreathingAnalysisTests: XCTestCase {
    func testNoSectionWithoutPacedRowsOrASimulation() throws {
        XCTAssertNil(try BreathingAnalysis.section(Workspace(path: try makeTempDir())))
    }

    func testTheSimulationSectionReportsEveryStrategyWithItsInterval() throws {
        let dir = try makeTempDir()
        let simulation = BreathingSimulation(personas: [try XCTUnwrap(PersonaProfile.named("NewMom"))], seeds: 2,
                                             strategies: [.sweep, .amplitude])
        try SimulationStage(simulation: simulation).runCommitted(Workspace(path: dir), StageContext())
        let section = try XCTUnwrap(try BreathingAnalysis.section(Workspace(path: dir)))
        XCTAssertEqual(section.key, "breathing")
        XCTAssertTrue(section.markdown.contains("| sweep | 2 | "), section.markdown)
        XCTAssertTrue(section.markdown.contains("| amplitude | 2 | "), section.markdown)
        let summary = try Workspace.readTable(SimulationSummaryRow.self, path: dir + "/" + SimulationSummaryRow.fileName)
        let within = try XCTUnwrap(summary.first { $0.strategy == "amplitude" && $0.metric == "abs_error_bpm" })
        XCTAssertTrue(section.markdown.contains(String(format: "%.2f [%.2f, %.2f]", within.mean, within.ciLow, within.ciHigh)))
        guard case let .object(json) = section.json, case let .array(rows)? = json["pacer_simulation"] else {
            return XCTFail("no pacer_simulation array")
        }
        XCTAssertEqual(rows.count, 2)
        XCTAssertNil(json["paced_intervals"])
        // The world and, per judged metric, the best strategy against the runner-up as
        // breathing_sim_wins.csv has them.
        XCTAssertTrue(section.markdown.contains("closed loop in the `standard` world"), section.markdown)
        XCTAssertEqual(json["pacer_world"], .string("standard"))
        let wins = try Workspace.readTable(SimulationWinRow.self, path: dir + "/" + SimulationWinRow.fileName)
        XCTAssertEqual(wins.map(\.metric), ["abs_error_bpm", "within_0_5", "lock_s", "coherence_reached", "amplitude_share"])
        let error = try XCTUnwrap(wins.first)
        let cells = String(format: "%.3f [%.3f, %.3f]", error.difference, error.ciLow, error.ciHigh)
        XCTAssertTrue(section.markdown.contains("| abs_error_bpm | \(error.best) | \(error.runnerUp) | \(cells) | "
                                                + (error.wins ? "yes" : "no") + " |"), section.markdown)
        guard case let .array(winRows)? = json["pacer_wins"] else { return XCTFail("no pacer_wins array") }
        XCTAssertEqual(winRows.count, 5)
        // The stored session record beside what it promises, per strategy: the means of its rows.
        let records = try Workspace.readTable(SessionRecordRow.self, path: dir + "/" + SessionRecordRow.fileName)
            .filter { $0.strategy == "sweep" }
        XCTAssertEqual(records.count, 2)
        let stored = (records[0].recordedAverageRMSSDMs + records[1].recordedAverageRMSSDMs) / 2
        let promised = (records[0].meanRMSSDMs + records[1].meanRMSSDMs) / 2
        let peak = (records[0].recordedPeakCoherence + records[1].recordedPeakCoherence) / 2
        XCTAssertTrue(section.markdown.contains(String(format: "| sweep | 2 | %.1f | %.1f | %.3f | 1.000 | ", stored, promised, peak)),
                      section.markdown)
        guard case let .array(recordRows)? = json["session_record"] else { return XCTFail("no session_record array") }
        XCTAssertEqual(recordRows.count, 2)
    }

    func testThePacedSectionListsEachCriterionsChoice() throws {
        let dir = try makeTempDir()
        let ws = Workspace(path: dir)
        let (series, intervals) = BreathingAssessmentTests.session(planted: 5.5)
        let assessment = BreathingAssessment(coherence: ConstantsRegistry.defaults.coherence, pacer: ConstantsRegistry.defaults.pacer)
        try ws.write(intervals)
        try ws.write(BreathingAssessment.choose(try assessment.trials(subject: "S", series: series, intervals: intervals)))
        let section = try XCTUnwrap(try BreathingAnalysis.section(ws))
        XCTAssertTrue(section.markdown.hasPrefix("Paced intervals: 5 for 1 subject, rates 4.5, 5.0, 5.5, 6.0, 6.5 breaths/min."))
        XCTAssertTrue(section.markdown.contains("| S | combined | 5.5 | "), section.markdown)
        XCTAssertFalse(section.markdown.contains("Adaptive pacer"))
    }
}
