import XCTest
@testable import ResonanceLab

final class BuddyRecommendationsTests: XCTestCase {
    typealias F = CoachingFixtures
    typealias R = BuddyRecommendations.Recommendation

    func testDeduplicationKeepsTheHighestPriorityOfEachCategory() {
        let recs = [R(id: "a", category: "rest", priority: .high, rule: ""), R(id: "b", category: "rest", priority: .critical, rule: ""),
                    R(id: "c", category: "sleep", priority: .medium, rule: ""), R(id: "d", category: "rest", priority: .medium, rule: ""),
                    R(id: "e", category: "sleep", priority: .medium, rule: "")]
        XCTAssertEqual(BuddyRecommendations.deduplicateByCategory(recs).map(\.id), ["b", "c"], "c before e: the earlier rule on a tie")
    }

    func testPriorityOrderDedupeAndTheCapOfFour() {
        let d = F.monday
        let rows = [F.row(d, steps: 3000, sleep: 5), F.row(d + 1, steps: 3000, sleep: 5),
                    F.row(d + 2, steps: 3000, sleep: 5, stress: 70, readiness: 30, flags: ["regression", "consecutive_elevation"])]
        let s = F.signals(rows)
        let all = BuddyRecommendations.candidates(rows[2], s, constants: F.c).map(\.id)
        XCTAssertEqual(all, ["rest_elevated_rhr", "stress_relief", "regression_recovery", "missing_activity", "activity_pattern",
                             "sleep_pattern", "readiness_recovery", "general_wellness"])
        let kept = BuddyRecommendations.recommend(rows[2], s, constants: F.c)
        XCTAssertEqual(kept.map(\.id), ["rest_elevated_rhr", "stress_relief", "regression_recovery", "missing_activity"])
        XCTAssertEqual(kept.map(\.priority), [.critical, .high, .high, .medium])
    }

    func testNewMomsPatternsFireOnLowStepsAndShortNights() {
        let d = F.monday
        let rows = [F.row(d, steps: 2100, sleep: 4.6), F.row(d + 1, steps: 3900, workout: 35, sleep: 5.1),
                    F.row(d + 2, steps: 2050, sleep: 4.9)]
        let ids = BuddyRecommendations.recommend(rows[2], F.signals(rows), constants: F.c).map(\.id)
        XCTAssertTrue(ids.contains("activity_pattern"), "\(ids)")
        XCTAssertTrue(ids.contains("sleep_pattern"), "\(ids)")
        let rested = [F.row(d, steps: 6000, sleep: 7.5), F.row(d + 1, steps: 6000, sleep: 5.1), F.row(d + 2, steps: 3000, sleep: 7)]
        XCTAssertEqual(BuddyRecommendations.recommend(rested[2], F.signals(rested), constants: F.c).map(\.id), ["general_wellness"])
    }
}
