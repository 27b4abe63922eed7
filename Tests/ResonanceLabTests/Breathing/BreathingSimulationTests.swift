import Foundation
import XCTest
@testable import ResonanceLab

/// The simulated breathers' difficulties (docs/methods.md, Breathing, "Simulated breathers").
final class BreathingSimulationTests: XCTestCase {
    let registry = ConstantsRegistry.defaults

    func world(_ shape: ResonanceCurveShape = .gaussian, parameter: Double = 0, height: Double = 0,
               _ change: (inout ResonanceWorldAssumptions) -> Void = { _ in }) -> ResonanceWorld {
        var a = ResonanceWorldAssumptions.standard
        change(&a)
        return ResonanceWorld(persona: "P", plantedRateBpm: 6, peakAmplitudeBpm: 6, baseHRBpm: 65, assumptions: a,
                              shape: shape, shapeParameter: parameter, secondHeight: height)
    }

    /// The standard world draws nothing new: seed 1's NewMom session of the amplitude
    /// sweep is what it was before the difficulties existed (the values of that version's
    /// breathing_sim_sessions.csv, the coherence reached since re-measured with calibration
    /// lasting through 120 s), so the difficulties' streams leave it alone.
    func testTheStandardWorldIsUnchanged() throws {
        let simulation = BreathingSimulation(personas: [try XCTUnwrap(PersonaProfile.named("NewMom"))], seeds: 1, firstSeed: 1,
                                             strategies: [.sweep, .amplitude])
        let rows = try simulation.run(registry: registry, jobs: 1).0
        XCTAssertEqual(rows.map(\.plantedRateBpm), [5.106583524656003, 5.106583524656003])
        XCTAssertEqual(rows.map(\.lockedRateBpm), [4.5, 4.9])
        XCTAssertEqual(rows.map(\.coherenceReached), [0.963200128836425, 0.9506722169489322])
    }

    /// Every world but `standard` changes something, and `all` turns every difficulty on.
    func testEachWorldTurnsOnItsDifficulty() {
        XCTAssertEqual(BreathingWorld.standard.assumptions, .standard)
        XCTAssertEqual(BreathingWorld.transient.assumptions.buildUpSeconds, 20)
        XCTAssertEqual(BreathingWorld.adherence.assumptions.adherenceSDBpm, 0.3)
        XCTAssertTrue(BreathingWorld.phaseLag.assumptions.phaseLag)
        XCTAssertEqual(BreathingWorld.doublePeak.assumptions.curveShapes, [.double])
        XCTAssertEqual(BreathingWorld.driftEctopic.assumptions.ectopicPerMin, 0.5)
        XCTAssertEqual(BreathingWorld.outside.assumptions.plantedRange, 3.5...8.0)
        let all = BreathingWorld.all.assumptions
        XCTAssertEqual(all.curveShapes, [.skewed, .flat, .double])
        XCTAssertTrue(all.buildUpSeconds > 0 && all.adherenceSDBpm > 0 && all.phaseLag && all.slowDriftBpm > 0
                      && all.ectopicPerMin > 0 && all.plantedRange == 3.5...8.0)
        for w in BreathingWorld.allCases where w != .standard { XCTAssertNotEqual(w.assumptions, .standard, "\(w)") }
    }

    /// Worked answers of each curve shape at the planted 6/min, SD 0.85/min.
    func testCurveShapes() {
        let g = world()
        XCTAssertEqual(g.amplitude(at: 6.85), 6 * exp(-0.5), accuracy: 1e-12)
        // Skewed, k = 1.5 wide above: one width above falls as an SD of 1.275, below as 0.567.
        let s = world(.skewed, parameter: 1.5)
        XCTAssertEqual(s.amplitude(at: 6), 6, accuracy: 1e-12)
        XCTAssertEqual(s.amplitude(at: 7.275), 6 * exp(-0.5), accuracy: 1e-12)
        XCTAssertEqual(s.amplitude(at: 6 - 0.85 / 1.5), 6 * exp(-0.5), accuracy: 1e-12)
        XCTAssertEqual(world(.skewed, parameter: -1.5).amplitude(at: 4.725), 6 * exp(-0.5), accuracy: 1e-12)
        // Flat within 0.4/min, then the Gaussian fall.
        let f = world(.flat, parameter: 0.4)
        XCTAssertEqual(f.amplitude(at: 5.65), 6, accuracy: 1e-12)
        XCTAssertEqual(f.amplitude(at: 6.4), 6, accuracy: 1e-12)
        XCTAssertEqual(f.amplitude(at: 7.25), 6 * exp(-0.5), accuracy: 1e-12)
        // A second peak 1.5/min below at 0.8 of the first: the larger of the two Gaussians.
        let d = world(.double, parameter: -1.5, height: 0.8)
        XCTAssertEqual(d.amplitude(at: 4.5), 4.8, accuracy: 1e-3)
        XCTAssertEqual(d.amplitude(at: 6), 6, accuracy: 1e-12)
        XCTAssertLessThan(d.amplitude(at: 5.25), d.amplitude(at: 4.5))
    }

    /// In phase at resonance, 45° one width (0.85/min) away, lagging above, leading below.
    func testPhaseLagDependsOnTheRate() {
        let w = world { $0.phaseLag = true }
        XCTAssertEqual(w.phaseLag(at: 6), 0, accuracy: 1e-12)
        XCTAssertEqual(w.phaseLag(at: 6.85), 1.0 / 8, accuracy: 1e-12)
        XCTAssertEqual(w.phaseLag(at: 5.15), -1.0 / 8, accuracy: 1e-12)
        XCTAssertEqual(world().phaseLag(at: 6.85), 0)
    }

    /// Build-up: noiseless, at the calibration's end (120 s) the pacer moves 5.5 → 4.5/min
    /// for a 30 s dwell. At once, the second 4.5/min breath (13.3–26.7 s after the change)
    /// swings 2·6·e^(−½(1.5/0.85)²) = 2.53 bpm; with a 20 s build-up the amplitude is still
    /// coming down from 5.5/min's 10.1 bpm, so that breath's peak-to-trough lies between
    /// the first-order values at its ends, 2.53 + 7.57·e^(−26.7/20) = 4.5 and
    /// 2.53 + 7.57·e^(−13.3/20) = 6.4 bpm.
    func testTheOscillationBuildsUpAfterARateChange() {
        let instant = SimulatedSession.run(world(), strategy: .amplitude, registry: registry, noise: 1, noiseless: true)
        let slow = SimulatedSession.run(world { $0.buildUpSeconds = 20 }, strategy: .amplitude, registry: registry, noise: 1,
                                        noiseless: true)
        let start = 120 * 4, cycle = Int((60 / 4.5 * 4).rounded())
        func ptt(_ s: SimulatedSession) -> Double {
            PeakToTrough.perBreath(s.hr[(start + cycle)..<(start + 2 * cycle)], cycleSamples: cycle)[0]
        }
        let a55 = 2 * 6 * exp(-0.5 * (0.5 / 0.85) * (0.5 / 0.85)), a45 = 2 * 6 * exp(-0.5 * (1.5 / 0.85) * (1.5 / 0.85))
        XCTAssertEqual(instant.rates[start + cycle], 4.5)
        XCTAssertEqual(ptt(instant), a45, accuracy: 0.2)
        XCTAssertGreaterThan(ptt(slow), a45 + (a55 - a45) * exp(-2 * Double(cycle) / 4 / 20) - 0.3)
        XCTAssertLessThan(ptt(slow), a45 + (a55 - a45) * exp(-Double(cycle) / 4 / 20) + 0.3)
    }

    /// Adherence, slow drift and ectopic beats draw on streams of their own: the white
    /// noise and drift of the standard world are untouched, so with ectopic beats on the
    /// HR differs only where a beat is premature or the pause follows (HR/0.65 or /1.35)
    /// — until the lock at 300.25 s, after which the locks may differ.
    func testEctopicBeatsChangeOnlyTheirOwnSamples() {
        let plain = SimulatedSession.run(world(), strategy: .amplitude, registry: registry, noise: 7)
        let ectopic = SimulatedSession.run(world { $0.ectopicPerMin = 0.5 }, strategy: .amplitude, registry: registry, noise: 7)
        XCTAssertEqual(plain.hr.count, ectopic.hr.count)
        XCTAssertEqual(plain.lockSeconds, 300.25)
        let changed = plain.hr.indices.filter { $0 < 300 * 4 && plain.hr[$0] != ectopic.hr[$0] }
        XCTAssertFalse(changed.isEmpty)
        for i in changed {
            let ratio = ectopic.hr[i] / plain.hr[i]
            XCTAssertTrue(abs(ratio - 1 / 0.65) < 1e-9 || abs(ratio - 1 / 1.35) < 1e-9, "sample \(i): ratio \(ratio)")
        }
        // About 0.5 beats a minute over the 5 min before the lock.
        let premature = changed.filter { ectopic.hr[$0] > plain.hr[$0] * 1.2 && ($0 == 0 || !changed.contains($0 - 1)) }
        XCTAssertTrue((1...8).contains(premature.count), "\(premature.count) ectopic beats")
    }

    /// The robust strategy's parabola: exact on a parabola, and its median score ignores
    /// one spoiled breath that moves the mean.
    func testRobustFitAndMedian() throws {
        let x = [-1.0, -0.5, 0, 0.5, 1.0], y = x.map { 3 + 0.4 * $0 - 2 * $0 * $0 }
        let (b, a) = try XCTUnwrap(AdaptivePacer.parabola(x, y))
        XCTAssertEqual(b, 0.4, accuracy: 1e-9)
        XCTAssertEqual(a, -2, accuracy: 1e-9)
        XCTAssertNil(AdaptivePacer.parabola([1, 1, 1], [1, 2, 3]))
        let breaths = PeakToTrough.perBreath([0, 4, 0, 4, 0, 30, 0, 4, 0, 4][...], cycleSamples: 2)
        XCTAssertEqual(breaths, [4, 4, 30, 4, 4])
        XCTAssertEqual(Stats.median(breaths), 4)
        XCTAssertEqual(PeakToTrough.mean([0, 4, 0, 4, 0, 30, 0, 4, 0, 4][...], cycleSamples: 2), 9.2, accuracy: 1e-12)
    }

    /// A locked rate's error is its distance to the nearest rate of peak amplitude: on a
    /// flat curve (plateau 5.6–6.4/min) 0 anywhere on the plateau and measured from its
    /// nearer edge outside it; on the other shapes locked − planted.
    func testErrorIsTheDistanceToThePeakRates() {
        let f = world(.flat, parameter: 0.4)
        XCTAssertEqual(f.peakRates.lowerBound, 5.6, accuracy: 1e-12)
        XCTAssertEqual(f.peakRates.upperBound, 6.4, accuracy: 1e-12)
        XCTAssertEqual(f.error(locked: 6), 0)
        XCTAssertEqual(f.error(locked: 5.7), 0)
        XCTAssertEqual(f.error(locked: 6.3), 0)
        XCTAssertEqual(f.error(locked: 6.9), 0.5, accuracy: 1e-12)
        XCTAssertEqual(f.error(locked: 5.0), -0.6, accuracy: 1e-12)
        XCTAssertEqual(world().error(locked: 6.3), 0.3, accuracy: 1e-12)
        XCTAssertEqual(world(.skewed, parameter: 1.5).error(locked: 5.5), -0.5, accuracy: 1e-12)
        XCTAssertEqual(world(.double, parameter: 1.2, height: 0.8).error(locked: 7.2), 1.2, accuracy: 1e-12)
    }

    /// On noiseless Gaussian and flat-topped curves the robust sweep locks within
    /// 0.2/min of the peak (the plateau's centre). A skewed curve (k = 1.6) pulls its
    /// parabola toward the wide side: locked up to 0.4/min from the peak on that side.
    func testRobustStrategyLocksNearANoiselessPeak() {
        for (shape, parameter) in [(ResonanceCurveShape.gaussian, 0.0), (.flat, 0.3), (.skewed, 1.6), (.skewed, -1.6)] {
            for planted in [4.8, 5.6, 6.7] {
                var w = world(shape, parameter: parameter)
                w.plantedRateBpm = planted
                let error = SimulatedSession.run(w, strategy: .robust, registry: registry, noise: 1, noiseless: true)
                    .lockedRateBpm - planted
                let label = "\(shape) \(parameter), planted \(planted)"
                if shape == .skewed {
                    XCTAssertTrue((-1e-9...0.4 + 1e-9).contains(error * (parameter > 0 ? 1 : -1)), "\(label): \(error)")
                } else {
                    XCTAssertEqual(error, 0, accuracy: 0.2 + 1e-9, label)
                }
            }
        }
    }

    /// Wins, worked: over three seeds A's |error| is 0.1 below B's on each (A wins, the
    /// interval is [−0.1, −0.1]); within ±0.5 A is ahead on one seed and level on two, so
    /// the interval reaches 0 and nobody wins; B's amplitude share is 0.02 above A's on
    /// each seed, so B wins it although A wins on |error|.
    func testWinsNeedAnIntervalThatExcludesZero() {
        func row(_ seed: Int, _ strategy: String, _ error: Double) -> SimulatedSessionRow {
            SimulatedSessionRow(seed: seed, persona: "P", strategy: strategy, plantedRateBpm: 6, lockedRateBpm: 6 + error,
                                errorBpm: error, lockSeconds: 300, coherenceReached: 0.9,
                                amplitudeShare: strategy == "A" ? 0.97 : 0.99, recordedPeakCoherence: 0.9, maxCoherence: 1)
        }
        let rows = [row(0, "A", 0.2), row(0, "B", 0.3), row(1, "A", 0.45), row(1, "B", 0.55), row(2, "A", 0.6), row(2, "B", 0.7)]
        let wins = BreathingSimulation.wins(rows)
        let error = wins.first { $0.metric == "abs_error_bpm" }
        XCTAssertEqual(error?.best, "A")
        XCTAssertEqual(error?.runnerUp, "B")
        XCTAssertEqual(error?.difference ?? 0, -0.1, accuracy: 1e-12)
        XCTAssertEqual(error?.wins, true)
        let within = wins.first { $0.metric == "within_0_5" }
        XCTAssertEqual(within?.best, "A")
        XCTAssertEqual(within?.difference ?? 0, 1.0 / 3, accuracy: 1e-12)
        XCTAssertEqual(within?.ciLow, 0)
        XCTAssertEqual(within?.wins, false)
        XCTAssertEqual(wins.first { $0.metric == "lock_s" }?.wins, false)
        let share = wins.first { $0.metric == "amplitude_share" }
        XCTAssertEqual(share?.best, "B")
        XCTAssertEqual(share?.runnerUp, "A")
        XCTAssertEqual(share?.difference ?? 0, 0.02, accuracy: 1e-12)
        XCTAssertEqual(share?.wins, true)
        XCTAssertTrue(BreathingSimulation.wins(rows.filter { $0.strategy == "A" }).isEmpty)
    }

    /// The world is in the lineage, and the tuner replays the sessions in it: in the
    /// `all` world the planted rates (3.5–8/min) differ from the standard world's, which
    /// the tuner's check of the recorded planted rate would refuse.
    func testTheWorldIsRecordedAndReplayedByTheTuner() throws {
        let dir = try makeTempDir()
        let simulation = BreathingSimulation(personas: [try XCTUnwrap(PersonaProfile.named("NewMom"))], seeds: 2,
                                             strategies: [.robust], world: .all)
        try SimulationStage(simulation: simulation).runCommitted(Workspace(path: dir), StageContext())
        XCTAssertEqual(try BreathingSimulation.world(of: Workspace(path: dir)), .all)
        let rows = try Workspace.readTable(SimulatedSessionRow.self, path: dir + "/" + SimulatedSessionRow.fileName)
        let problem = try PacerTuningData(workspaces: [("sim", Workspace(path: dir))])
        XCTAssertEqual(problem.value(.lockedRateError, registry, on: [0]), Stats.mean(rows.map { abs($0.errorBpm) }),
                       accuracy: 1e-12)
    }
}
