import XCTest
@testable import ResonanceLab

/// Planted health events: drawn deterministically from their own stream, shaped as
/// documented, and carried by the simulated signals into the measured daily values.
final class HealthEventTests: XCTestCase {
    func testPlanIsDeterministicAndKeepsWarmupQuietDaysAndTheSimulationsEnd() {
        var a = SeededRandom(seed: 42), b = SeededRandom(seed: 42), c = SeededRandom(seed: 43)
        let plan = HealthEvent.plan(days: 365, random: &a)
        XCTAssertEqual(plan, HealthEvent.plan(days: 365, random: &b))
        XCTAssertNotEqual(plan, HealthEvent.plan(days: 365, random: &c))
        XCTAssertFalse(plan.isEmpty)
        XCTAssertGreaterThanOrEqual(plan.first?.firstDay ?? 0, HealthEvent.warmupDays)
        XCTAssertLessThan(plan.last?.lastDay ?? 0, 365)
        for (e, next) in zip(plan, plan.dropFirst()) {
            XCTAssertGreaterThan(next.firstDay, e.lastDay + HealthEvent.quietDays, "\(e.id) → \(next.id)")
        }
        // Ids count each kind from 1.
        for kind in HealthEvent.Kind.allCases {
            let ids = plan.filter { $0.kind == kind }.map(\.id)
            XCTAssertEqual(ids, ids.indices.map { "\(kind.rawValue)-\($0 + 1)" })
        }
        for e in plan where e.kind == .illness {
            XCTAssertTrue((3...7).contains(e.lastDay - e.firstDay + 1), e.id)
            XCTAssertTrue((5...8).contains(e.restingHRBpm), e.id)
            XCTAssertTrue((-0.30 ... -0.15).contains(e.hrvFraction), e.id)
        }
        var short = SeededRandom(seed: 42)
        XCTAssertEqual(HealthEvent.plan(days: HealthEvent.warmupDays, random: &short), [], "no event fits the warm-up")
    }

    func testSeverityShapes() {
        // Illness over days 10–14 reached in 2 days: 1/3, 2/3, then full; nothing after.
        let illness = HealthEvent(kind: .illness, id: "illness-1", firstDay: 10, lastDay: 14, restingHRBpm: 6,
                                  hrvFraction: -0.2, recoveryFraction: -0.1, onsetDays: 2)
        XCTAssertEqual((9...15).map { illness.severity(day: $0) }, [0, 1.0 / 3, 2.0 / 3, 1, 1, 1, 0])
        // Regression: 14 days up, 7 held, 7 down (7/8 … 1/8).
        let regression = HealthEvent(kind: .regression, id: "regression-1", firstDay: 0, lastDay: 27, restingHRBpm: 5.6,
                                     hrvFraction: -0.14, recoveryFraction: -0.05)
        XCTAssertEqual(regression.severity(day: 0), 1.0 / 14)
        XCTAssertEqual(regression.severity(day: 20), 1)
        XCTAssertEqual(regression.severity(day: 21), 7.0 / 8)
        XCTAssertEqual(regression.severity(day: 27), 1.0 / 8)
        XCTAssertEqual(regression.severity(day: 28), 0)
        // An improvement is kept after its ramp; the load of an overreaching comes first.
        let improvement = HealthEvent(kind: .improvement, id: "improvement-1", firstDay: 5, lastDay: 25, restingHRBpm: -4,
                                      hrvFraction: 0.1, recoveryFraction: 0.1)
        XCTAssertEqual(improvement.severity(day: 100), 1)
        let over = HealthEvent(kind: .overreaching, id: "overreaching-1", firstDay: 3, lastDay: 19, restingHRBpm: 4,
                               hrvFraction: -0.15, recoveryFraction: -0.2, trainingLoadFraction: 0.5, symptomsFrom: 10)
        XCTAssertEqual([2, 3, 12, 13].map { over.load(day: $0) }, [1, 1.5, 1.5, 1])
        XCTAssertEqual([12, 13, 19, 20].map { over.severity(day: $0) }, [0, 1, 1, 0])
    }

    func testTruthRowsUseTheLongForm() {
        let e = HealthEvent(kind: .illness, id: "illness-2", firstDay: 3, lastDay: 6, restingHRBpm: 6.12345,
                            hrvFraction: -0.2, recoveryFraction: -0.1, sleepLossHours: 1.5, stepsFraction: -1.0 / 3)
        let rows = e.truth(subject: "NewMom", firstDate: Timestamp.daysFromCivil(2026, 1, 5))
        XCTAssertEqual(rows.map(\.metric), ["resting_hr_bpm", "sdnn_pct", "recovery_1m_pct", "sleep_loss_h", "steps_pct"])
        XCTAssertEqual(rows.map(\.value), [6.123, -20, -10, 1.5, -33.333])
        XCTAssertTrue(rows.allSatisfy { $0.kind == .healthEvent && $0.entity == "illness-2" && $0.subject == "NewMom" })
        XCTAssertEqual(rows[0].start, "2026-01-08")
        XCTAssertEqual(rows[0].end, "2026-01-11")
        XCTAssertEqual(PlantedEvent.events(in: rows), [PlantedEvent(subject: "NewMom", id: "illness-2",
                                                                     firstDay: Timestamp.daysFromCivil(2026, 1, 8),
                                                                     lastDay: Timestamp.daysFromCivil(2026, 1, 11))])
    }

    /// An overreaching's symptom rows start after its load block (days 3–12, symptoms
    /// 13–19), its `training_load_pct` row spans the block alone, and the event read back
    /// has its symptoms as its days and the block beside them.
    func testOverreachingTruthSeparatesTheLoadBlock() {
        let over = HealthEvent(kind: .overreaching, id: "overreaching-1", firstDay: 3, lastDay: 19, restingHRBpm: 4,
                               hrvFraction: -0.15, recoveryFraction: -0.2, trainingLoadFraction: 0.5, symptomsFrom: 10)
        let first = Timestamp.daysFromCivil(2026, 1, 5)
        let rows = over.truth(subject: "a", firstDate: first)
        XCTAssertEqual(rows.map(\.metric), ["resting_hr_bpm", "sdnn_pct", "recovery_1m_pct", "training_load_pct"])
        XCTAssertEqual(rows.map(\.start), ["2026-01-18", "2026-01-18", "2026-01-18", "2026-01-08"])
        XCTAssertEqual(rows.map(\.end), ["2026-01-24", "2026-01-24", "2026-01-24", "2026-01-17"])
        XCTAssertEqual(PlantedEvent.events(in: rows), [PlantedEvent(subject: "a", id: "overreaching-1", firstDay: first + 13,
                                                                     lastDay: first + 19, loadBlock: (first + 3)...(first + 12))])
        // The block's days have no symptom: severity 0 up to day 12, 1 from day 13.
        XCTAssertEqual([12, 13].map { over.severity(day: $0) }, [0, 1])
    }

    func testEventsOffDrawNothingAndOnDrawFromTheirOwnStream() throws {
        let p = try XCTUnwrap(PersonaProfile.named("SeniorFit"))
        let off = PersonaGenerator(personas: [p], days: 120, seed: 3)
        var on = off
        on.events = true
        XCTAssertEqual(off.healthEvents(of: p), [])
        var stream = PersonaSimulator.stream("events", seed: on.seed(of: p))
        XCTAssertEqual(on.healthEvents(of: p), HealthEvent.plan(days: 120, random: &stream))
        XCTAssertEqual(off.settings["events"], "none")
        XCTAssertEqual(on.settings["events"], "planned")
        XCTAssertFalse(off.truth().contains { $0.kind == .healthEvent })
        XCTAssertEqual(Set(on.truth().filter { $0.kind == .healthEvent }.map(\.entity)), Set(on.healthEvents(of: p).map(\.id)))
    }

    /// An illness of +8 bpm and −30 % SDNN held over days 12–25 of a 26-day run: the
    /// nightly measured resting HR rises by 8 bpm and SDNN falls to 0.7 of the same
    /// days without the event (means over the 14 days), and a persona without an event
    /// is simulated exactly as before.
    func testAPlantedEventMovesTheMeasuredDailyValuesByItsSize() throws {
        let p = try XCTUnwrap(PersonaProfile.named("MeditationPractitioner"))
        let generator = PersonaGenerator(personas: [p], days: 26, seed: 5)
        let zones = HeartRateZoneEngine()
        func run(_ events: [HealthEvent]) throws -> PersonaRecord {
            try PersonaSimulator.simulate(p, catalogue: generator.catalogue, firstDay: generator.firstDay, days: 26,
                                          seed: generator.seed(of: p), zones: zones, events: events)
        }
        let illness = HealthEvent(kind: .illness, id: "illness-1", firstDay: 12, lastDay: 25, restingHRBpm: 8,
                                  hrvFraction: -0.3, recoveryFraction: 0)
        let base = try run([]), sick = try run([illness])
        XCTAssertEqual(base.hr, try run([]).hr)
        let before = Array(base.days[..<12]), after = Array(sick.days[..<12])
        XCTAssertEqual(before, after, "days before the event are unchanged")
        let rhr = (12..<26).map { (sick.days[$0].restingHRBpm ?? .nan) - (base.days[$0].restingHRBpm ?? .nan) }
        let sdnn = (12..<26).map { (sick.days[$0].hrvSDNNMs ?? .nan) / (base.days[$0].hrvSDNNMs ?? .nan) }
        XCTAssertEqual(Stats.mean(rhr), 8, accuracy: 0.5)
        XCTAssertEqual(Stats.mean(sdnn), 0.7, accuracy: 0.05)
        // Every HR sample of an event day is higher: the whole minute series moved, not only the night.
        let day = Int64(generator.firstDay + 20) * 86_400_000
        let hrOf = { (r: PersonaRecord) in r.hr.filter { $0.timestampMs >= day && $0.timestampMs < day + 86_400_000 }.map(\.bpm) }
        XCTAssertEqual(Stats.mean(hrOf(sick)) - Stats.mean(hrOf(base)), 8, accuracy: 1.5)
    }
}
