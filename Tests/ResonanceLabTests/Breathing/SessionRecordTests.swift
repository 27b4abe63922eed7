import Foundation
import XCTest
@testable import ResonanceLab

/// The product's session record replayed: beats from the simulated heart rate, the
/// watch's repeated readings, and each stored field beside what its name promises.
final class SessionRecordTests: XCTestCase {
    /// A beat each time the integral of HR/60 reaches a whole number: 120 bpm for 0.5 s
    /// gives one beat at 0.5 s, then 60 bpm for 1 s the next at 1.5 s.
    func testPulseFrequencyModulationBeats() {
        XCTAssertEqual(PulseFrequencyModulation.beats(hr: [120, 120, 60, 60, 60, 60], hz: 4), [0.5, 1.5])
        XCTAssertEqual(PulseFrequencyModulation.beats(hr: Array(repeating: 60, count: 10), hz: 4), [1, 2])
        // A zero reading is no heart rate: the phase waits.
        XCTAssertEqual(PulseFrequencyModulation.beats(hr: [0, 0, 0, 0, 120, 120], hz: 4), [1.5])
    }

    /// The watch appends its latest reading every 0.25 s; a tick whose latest reading is 0
    /// appends nothing.
    func testWatchDropsZeroReadings() {
        XCTAssertEqual(HRSampling.repeatLatest.grid(timeMs: [0, 500, 1000], bpm: [60, 0, 70], hz: 4), [60, 60, 70])
    }

    /// The product's 30-s RMSSD: intervals arrived at 1, 2, 3 s of 1000, 1010, 990 ms give
    /// √((10² + 20²)/2) = 15.81 ms; at 41 s only those at 40 and 41 s count: |980 − 1000| = 20.
    func testSlidingRMSSDOfTheLast30Seconds() throws {
        let times = [1.0, 2, 3, 40, 41], rr = [1000.0, 1010, 990, 980, 1000]
        XCTAssertEqual(try XCTUnwrap(SessionRecord.rmssd(at: 3, times: times, rrMs: rr, windowSeconds: 30)), 250.0.squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(SessionRecord.rmssd(at: 20, times: times, rrMs: rr, windowSeconds: 30)), 250.0.squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(SessionRecord.rmssd(at: 41, times: times, rrMs: rr, windowSeconds: 30), 20)
        XCTAssertNil(SessionRecord.rmssd(at: 35, times: times, rrMs: rr, windowSeconds: 30))
        // At 2 s two intervals have arrived: |1010 − 1000| = 10; at 1 s only one.
        XCTAssertEqual(SessionRecord.rmssd(at: 2, times: times, rrMs: rr, windowSeconds: 30), 10)
        XCTAssertNil(SessionRecord.rmssd(at: 1, times: times, rrMs: rr, windowSeconds: 30))
    }

    /// HR alternating 1 s at 60 bpm and 0.5 s at 120 bpm beats at 1.0, 1.5, 2.5, 3.0, …:
    /// intervals of 500 and 1000 ms in turn, so every 30-s RMSSD, the stored one and their
    /// mean, is 500 ms. The stored coherence and rate are the session's last; beside them
    /// its highest coherence and the planted rate.
    func testReplayOfASessionWithAlternatingIntervals() {
        let hr = (0..<240).map { $0 % 6 < 4 ? 60.0 : 120.0 }
        let session = SimulatedSession(lockedRateBpm: 5.5, lockSeconds: 30, coherenceReached: 0.9, lastCoherence: 0.82,
                                       maxCoherence: 1, trace: [], dwells: [], hr: hr, rates: Array(repeating: 6, count: 240))
        let world = ResonanceWorld(persona: "P", plantedRateBpm: 6.3, peakAmplitudeBpm: 6, baseHRBpm: 65, assumptions: .standard)
        let r = SessionRecord.replay(session, world: world, seed: 3, strategy: .sweep, product: ProductCoherence(),
                                     pacer: ConstantsRegistry.defaults.pacer)
        XCTAssertEqual(r.durationSeconds, 60)
        XCTAssertEqual(r.recordedAverageRMSSDMs, 500, accuracy: 1e-9)
        XCTAssertEqual(r.meanRMSSDMs, 500, accuracy: 1e-9)
        XCTAssertEqual([r.recordedPeakCoherence, r.peakCoherence, r.recordedResonanceRateBpm, r.resonanceRateBpm],
                       [0.82, 1, 5.5, 6.3])
        XCTAssertEqual([r.persona, r.strategy], ["P", "sweep"])
        for c in [r.watchCoherence, r.rrCoherence] { XCTAssertTrue((0...1).contains(c), "\(c)") }
        // Mean |a − b| ≥ |mean a − mean b|.
        XCTAssertGreaterThanOrEqual(r.coherenceMeanAbsDifference, abs(r.watchCoherence - r.rrCoherence) - 1e-12)
    }

    /// The record's coherences are scored at the paced rate of each moment: HR swinging
    /// ±6 bpm at 6/min for 3 minutes scores high (both the watch's and the spline's series)
    /// when the pacer said 6/min and low when it said 10/min; the watch and the spline
    /// series of a smooth swing hardly differ.
    func testRecordCoherenceIsScoredAtThePacedRate() {
        let hz = 4.0
        let hr = (0..<720).map { 65 + 6 * sin(2 * Double.pi * 0.1 * Double($0) / hz) }
        let world = ResonanceWorld(persona: "P", plantedRateBpm: 6, peakAmplitudeBpm: 6, baseHRBpm: 65, assumptions: .standard)
        func record(pacedAt rate: Double) -> SessionRecordRow {
            let session = SimulatedSession(lockedRateBpm: rate, lockSeconds: 30, coherenceReached: 0.9, lastCoherence: 0.8,
                                           maxCoherence: 0.9, trace: [], dwells: [], hr: hr, rates: Array(repeating: rate, count: hr.count))
            return SessionRecord.replay(session, world: world, seed: 1, strategy: .sweep, product: ProductCoherence(),
                                        pacer: ConstantsRegistry.defaults.pacer)
        }
        let matched = record(pacedAt: 6), mismatched = record(pacedAt: 10)
        XCTAssertGreaterThan(matched.rrCoherence, 0.5)
        XCTAssertGreaterThan(matched.watchCoherence, 0.5)
        XCTAssertGreaterThan(matched.rrCoherence - mismatched.rrCoherence, 0.3)
        XCTAssertGreaterThan(matched.watchCoherence - mismatched.watchCoherence, 0.3)
        XCTAssertLessThan(matched.coherenceMeanAbsDifference, 0.1)
    }

    /// On simulated sessions the record stores what the session rows say it does, and the
    /// session ends `lock_seconds` after the lock.
    func testRecordsOfASimulationMatchItsSessions() throws {
        let registry = ConstantsRegistry.defaults
        let out = try BreathingSimulation(personas: Array(PersonaProfile.all.prefix(2)), seeds: 1)
            .runWithReceipts(registry: registry, jobs: 2)
        XCTAssertEqual(out.records.count, out.sessions.count)
        for (record, session) in zip(out.records, out.sessions) {
            XCTAssertEqual([record.persona, record.strategy], [session.persona, session.strategy])
            XCTAssertEqual(record.recordedPeakCoherence, session.recordedPeakCoherence)
            XCTAssertEqual(record.peakCoherence, session.maxCoherence)
            XCTAssertEqual(record.recordedResonanceRateBpm, session.lockedRateBpm)
            XCTAssertEqual(record.resonanceRateBpm, session.plantedRateBpm)
            XCTAssertEqual(record.durationSeconds, session.lockSeconds + registry.pacer.lockSeconds, accuracy: 0.25)
            XCTAssertTrue(record.recordedAverageRMSSDMs > 0 && record.meanRMSSDMs > 0, "\(record)")
            // The stored "peak" is the last score; the session's highest is at least it.
            XCTAssertGreaterThanOrEqual(record.peakCoherence, record.recordedPeakCoherence)
            XCTAssertTrue((4.5...7.0).contains(record.resonanceRateBpm))
        }
    }
}
