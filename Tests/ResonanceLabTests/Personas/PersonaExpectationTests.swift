import XCTest
@testable import ResonanceLab

/// The persona expectations of the heart-health coach's test suite, on generated data
/// run through the daily engines.
final class PersonaExpectationTests: XCTestCase {
    private func mean(_ name: String, _ value: (DailyAssessment) -> Double?) -> Double {
        Stats.mean(PersonaFixture.assessments.filter { $0.snapshot.subject == name }.compactMap(value))
    }

    private var names: [String] { PersonaProfile.all.map(\.name) }

    func testNewMomHasTheLowestMeanReadiness() {
        let readiness = names.map { ($0, mean($0) { $0.readiness?.score }) }
        print("mean readiness:", readiness.map { "\($0.0) \(String(format: "%.1f", $0.1))" }.joined(separator: ", "))
        XCTAssertEqual(readiness.min { $0.1 < $1.1 }?.0, "NewMom")
    }

    func testStressedExecutiveHasTheHighestMeanStress() {
        let stress = names.map { ($0, mean($0) { $0.stress?.score }) }
        print("mean stress:", stress.map { "\($0.0) \(String(format: "%.1f", $0.1))" }.joined(separator: ", "))
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
        let sdnn = names.map { ($0, mean($0) { $0.snapshot.hrvSDNNMs }) }
        XCTAssertEqual(sdnn.min { $0.1 < $1.1 }?.0, "CardiacRehab")
    }
}
