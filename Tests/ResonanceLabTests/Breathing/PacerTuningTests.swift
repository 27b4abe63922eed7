import Foundation
import XCTest
@testable import ResonanceLab

final class PacerTuningTests: XCTestCase {
    /// The tuning problem replays each recorded session on the same person and noise: with
    /// the default constants it locks where the simulation did, so its objective is the
    /// table's mean |error|.
    func testReplayWithTheDefaultsReproducesTheSimulation() throws {
        let dir = try makeTempDir()
        let simulation = BreathingSimulation(personas: [try XCTUnwrap(PersonaProfile.named("NewMom")),
                                                        try XCTUnwrap(PersonaProfile.named("SeniorFit"))],
                                             seeds: 1, firstSeed: 3, strategies: [.hill, .amplitude])
        try SimulationStage(simulation: simulation).runCommitted(Workspace(path: dir), StageContext())
        let rows = try Workspace.readTable(SimulatedSessionRow.self, path: dir + "/" + SimulatedSessionRow.fileName)
        XCTAssertEqual(rows.count, 4)
        let problem = try PacerTuningData(workspaces: [("sim", Workspace(path: dir))])
        XCTAssertEqual(problem.units.map { String($0) }, ["sim/NewMom", "sim/SeniorFit"])
        XCTAssertEqual(problem.inputs.first?.files.map(\.name), [SimulatedSessionRow.fileName])
        let all = problem.value(.lockedRateError, .defaults, on: problem.select([1, 0]))
        XCTAssertEqual(all, Stats.mean(rows.map { abs($0.errorBpm) }), accuracy: 1e-12)
        let newMom = problem.value(.lockedRateError, .defaults, on: problem.select([0]))
        XCTAssertEqual(newMom, Stats.mean(rows.filter { $0.persona == "NewMom" }.map { abs($0.errorBpm) }), accuracy: 1e-12)
        XCTAssertTrue(problem.value(.correlation, .defaults, on: [0]).isNaN)
        // A candidate's constants reach the replay: with 60 s hill dwells the hill climber
        // can only lock at the end of a dwell, 180.25, 240.25 or 300.25 s into the session
        // (exploration starts at the first step after 120 s).
        let slow = try ConstantsRegistry.defaults.replacing("pacer", with: ["hill_dwell_seconds": 60])
        XCTAssertTrue(problem.value(.lockedRateError, slow, on: [0, 1]).isFinite)
        var errors: [Double] = []
        for session in problem.sessions.joined() {
            let s = SimulatedSession.run(session.world, strategy: session.strategy, registry: slow, noise: session.noise)
            if session.strategy == .hill { XCTAssertTrue([180.25, 240.25, 300.25].contains(s.lockSeconds), "\(s.lockSeconds)") }
            errors.append(abs(s.lockedRateBpm - session.world.plantedRateBpm))
        }
        // The candidate's objective is the mean |error| of the sessions re-run under it.
        XCTAssertEqual(problem.value(.lockedRateError, slow, on: [0, 1]), Stats.mean(errors), accuracy: 1e-12)
    }

    func testAWorkspaceWithoutSimulatedSessionsIsRefused() throws {
        let dir = try makeTempDir()
        XCTAssertThrowsError(try PacerTuningData(workspaces: [("x", Workspace(path: dir))])) { error in
            XCTAssertTrue("\(error)".contains("breathing_sim_sessions.csv: missing"), "\(error)")
        }
    }
}
