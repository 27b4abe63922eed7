import XCTest
@testable import ResonanceLab

/// The validate section comparing the morning recovery with readiness, counted by hand.
final class MorningAgreementTests: XCTestCase {
    func row(_ subject: String, _ agreement: String, _ driver: String = "") -> MorningRecoveryRow {
        MorningRecoveryRow(subject: subject, date: "2024-03-01", hrvSDNNMs: nil, hrvWindow: "", sleepHours: nil, restingHRBpm: nil,
                           restingHRBaselineBpm: nil, score: MorningRecoveryEngine.Score(hrv: nil, sleep: nil, restingHR: nil, overall: nil),
                           planned: false, withPlan: nil, withoutPlan: nil, readinessLevel: "", sleepDebtHours: nil, strainIndex: nil,
                           agreement: agreement, driver: driver)
    }

    func testTallyPerSubjectAndPooled() {
        let rows = [row("b", "both_rest"), row("b", "morning_rest", "hrv"), row("b", "morning_rest", "sleep"),
                    row("b", "morning_rest", "hrv"), row("a", "both_train"), row("a", "readiness_rest", "sleep"), row("a", ""),
                    row("a", "both_train")]
        let b = MorningAgreement(Array(rows[0..<4]))
        XCTAssertEqual([b.compared, b.bothRest, b.bothTrain, b.morningRest, b.readinessRest], [4, 1, 0, 3, 0])
        XCTAssertEqual(b.agreement, 0.25)
        XCTAssertEqual(b.drivers, ["morning_rest:hrv": 2, "morning_rest:sleep": 1])
        let section = MorningAgreement.section(rows)
        XCTAssertTrue(section.markdown.contains("| a | 3 | 0 | 2 | 0 | – | 1 | sleep 1 | 0.67 |"), section.markdown)
        XCTAssertTrue(section.markdown.contains("| b | 4 | 1 | 0 | 3 | hrv 2, sleep 1 | 0 | – | 0.25 |"), section.markdown)
        XCTAssertTrue(section.markdown.contains("| all | 7 | 1 | 2 | 3 | hrv 2, sleep 1 | 1 | sleep 1 | 0.43 |"), section.markdown)
        XCTAssertNil(MorningAgreement([row("c", "")]).agreement, "no morning compared")
    }
}
