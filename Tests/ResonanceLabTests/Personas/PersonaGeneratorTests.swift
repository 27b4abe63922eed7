import XCTest
@testable import ResonanceLab

/// The generator's cohort: replicas named, seeded and ordered as documented, and the
/// signals' rows made from the record in time order.
final class PersonaGeneratorReplicaTests: XCTestCase {
    /// One replica keeps the personas' names; among N, `Persona-k` with k padded to the
    /// digits of N − 1, so that the names sort in replica order.
    func testSubjectNamesArePaddedToTheLastReplica() throws {
        let p = try XCTUnwrap(PersonaProfile.named("NewMom"))
        XCTAssertEqual(PersonaGenerator(personas: [p]).subjectName(p, replica: 0), "NewMom")
        let eleven = PersonaGenerator(personas: [p], replicas: 11)
        XCTAssertEqual([0, 7, 10].map { eleven.subjectName(p, replica: $0) }, ["NewMom-00", "NewMom-07", "NewMom-10"])
        XCTAssertEqual(eleven.subjects.map(\.name), (0..<11).map { eleven.subjectName(p, replica: $0) })
        XCTAssertEqual(PersonaGenerator(personas: [p], replicas: 10).subjectName(p, replica: 9), "NewMom-9")
    }

    /// Replica k is the persona with seed `seed + k`: its seed, and so its planted
    /// events, are those of a generator run with that seed; subjects are in byte order.
    func testReplicaKIsThePersonaWithSeedPlusK() throws {
        let names = ["SeniorFit", "CardiacRehab"].compactMap(PersonaProfile.named)
        let cohort = PersonaGenerator(personas: names, days: 120, seed: 5, replicas: 3, events: true)
        XCTAssertEqual(cohort.subjects.map(\.name), ["CardiacRehab-0", "CardiacRehab-1", "CardiacRehab-2",
                                                     "SeniorFit-0", "SeniorFit-1", "SeniorFit-2"])
        for s in cohort.subjects {
            let alone = PersonaGenerator(personas: names, days: 120, seed: 5 + UInt64(s.replica), events: true)
            XCTAssertEqual(cohort.seed(of: s.persona, replica: s.replica), alone.seed(of: s.persona), s.name)
            XCTAssertEqual(cohort.healthEvents(of: s.persona, replica: s.replica), alone.healthEvents(of: s.persona), s.name)
        }
        // The truth: the one catalogue's songs once, then every subject's sensitivity and events.
        let truth = cohort.truth()
        XCTAssertEqual(truth.filter { $0.kind == .songEffect }.count, 2 * PersonaGenerator.catalogueSize)
        XCTAssertEqual(truth.filter { $0.kind == .personaSensitivity }.map(\.subject),
                       cohort.subjects.flatMap { [$0.name, $0.name] })
        let events = truth.filter { $0.kind == .healthEvent }
        XCTAssertEqual(Set(events.map(\.subject)).count, 6, "120 days plant events in every subject")
    }

    /// hr.csv of a record: strictly increasing times; inside each R-R span (and the 5 s
    /// after it) only the span's own samples, one per `hrStepMs`; outside, one per minute.
    func testHeartRateRowsMergeMinuteAndSpanSamplesInTimeOrder() throws {
        let p = try XCTUnwrap(PersonaProfile.named("RemoteDeveloper"))
        let r = try XCTUnwrap(try PersonaGenerator(personas: [p], days: 2).simulate(jobs: 1).first)
        let hr = r.hr, spans = r.heartRate.beats.spans
        XCTAssertFalse(spans.isEmpty)
        XCTAssertTrue(zip(hr, hr.dropFirst()).allSatisfy { $0.timestampMs < $1.timestampMs })
        var fromSpans = 0
        for span in spans {
            let inside = hr.filter { span.startMs <= $0.timestampMs && $0.timestampMs <= span.endMs + 5000 }
            XCTAssertEqual(inside.map(\.timestampMs), span.hrSamples.map(\.0))
            XCTAssertEqual(inside.map(\.bpm), span.hrSamples.map(\.1))
            fromSpans += inside.count
        }
        let outside = hr.filter { s in !spans.contains { $0.startMs <= s.timestampMs && s.timestampMs <= $0.endMs + 5000 } }
        XCTAssertEqual(hr.count, fromSpans + outside.count)
        XCTAssertTrue(outside.allSatisfy { ($0.timestampMs - r.heartRate.startMs) % 60_000 == 0 })
        XCTAssertGreaterThan(outside.count, 2 * 1440 - 600)
        XCTAssertEqual(outside.first?.timestampMs, Int64(PersonaGenerator().firstDay) * 86_400_000)
    }

    /// A subject as `personas generate` simulates it, each span's beats encoded and let go
    /// as the span is made, gives the rows of the record that keeps every beat: the same
    /// `rr.csv` and `hr.csv` text (past a MiB, partly from the temporary file), plays and
    /// sleep, and the same first and last heart-rate times.
    func testASubjectWhoseBeatsAreLetGoGivesTheRowsOfTheKeptRecord() throws {
        let p = try XCTUnwrap(PersonaProfile.named("RemoteDeveloper"))
        let generator = PersonaGenerator(personas: [p], days: 4)
        let kept = try XCTUnwrap(try generator.simulate(jobs: 1).first)
        let subject = try XCTUnwrap(generator.subjects.first)
        let simulated = try SimulatedSubject(subject, generator.simulator, registry: generator.registry,
                                             subjects: DailySubjects(generator.subjectRows([p])))
        XCTAssertNotNil(simulated.rr.spilled, "over a MiB of R-R rows")
        XCTAssertGreaterThan(kept.rr.count, 10_000)
        XCTAssertEqual(try simulated.rr.text(), try Workspace.encode(kept.rr).text())
        XCTAssertEqual(try simulated.hr.text(), try Workspace.encode(kept.hr).text())
        XCTAssertEqual(try simulated.plays.text(), try Workspace.encode(kept.plays).text())
        XCTAssertEqual(try simulated.sleep.text(), try Workspace.encode(kept.sleep).text())
        XCTAssertEqual(simulated.firstMs, kept.hr.first?.timestampMs)
        XCTAssertEqual(simulated.lastMs, kept.hr.last?.timestampMs)
    }
}
