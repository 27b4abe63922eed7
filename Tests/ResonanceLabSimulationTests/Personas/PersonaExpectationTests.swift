import XCTest
@testable import ResonanceLab

/// The persona expectations of the heart-health coach's test suite, on generated data
/// run through the daily engines.
final class PersonaExpectationTests: XCTestCase {
    /// Each persona's mean of `value`; fails unless all ten have a finite mean, so that a
    /// missing score (NaN, which `min`/`max` would pass over) cannot satisfy a ranking.
    private func means(_ label: String, _ value: (DailyAssessment) -> Double?,
                       file: StaticString = #filePath, line: UInt = #line) -> [(String, Double)] {
        let out = PersonaProfile.all.map(\.name).map { name in
            (name, Stats.mean(PersonaFixture.assessments.filter { $0.snapshot.subject == name }.compactMap(value)))
        }
        XCTAssertEqual(out.count, 10, file: file, line: line)
        XCTAssertTrue(out.allSatisfy { $0.1.isFinite }, "\(label): \(out)", file: file, line: line)
        print("mean \(label):", out.map { "\($0.0) \(String(format: "%.1f", $0.1))" }.joined(separator: ", "))
        return out
    }

    func testAllTenPersonasAreSimulated() throws {
        // In subject order, the byte order of the names, as every table has them.
        XCTAssertEqual(try PersonaFixture.simulation.get().map(\.profile.name),
                       PersonaProfile.all.map(\.name).sorted(by: SubjectOrder.precedes))
        XCTAssertEqual(PersonaFixture.assessments.count, 10 * 30)
    }

    func testNewMomHasTheLowestMeanReadiness() {
        let readiness = means("readiness") { $0.readiness?.score }
        XCTAssertEqual(readiness.min { $0.1 < $1.1 }?.0, "NewMom")
    }

    func testStressedExecutiveHasTheHighestMeanStress() {
        let stress = means("stress") { $0.stress?.score }
        XCTAssertEqual(stress.max { $0.1 < $1.1 }?.0, "StressedExecutive")
    }

    func testYoungAthleteIsRelaxedOnDay30() throws {
        let days = PersonaFixture.assessments.filter { $0.snapshot.subject == "YoungAthlete" }
        XCTAssertEqual(days.count, 30)
        let last = try XCTUnwrap(days.last?.stress)
        print("YoungAthlete day 30 stress \(last.score)")
        XCTAssertEqual(last.level, .relaxed)
    }

    func testCardiacRehabHasTheLowestHRV() {
        let sdnn = means("SDNN") { $0.snapshot.hrvSDNNMs }
        XCTAssertEqual(sdnn.min { $0.1 < $1.1 }?.0, "CardiacRehab")
    }
}
