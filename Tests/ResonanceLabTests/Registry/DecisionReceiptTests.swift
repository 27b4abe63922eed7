import Foundation
import XCTest
@testable import ResonanceLab

/// `receipts.csv`: the stress and readiness decisions of a day with their top drivers,
/// worked by hand.
final class DecisionReceiptTests: XCTestCase {
    /// 28 baseline days of resting HR 59/61 (mean 60 bpm), then a day at 63 bpm after 8 h of sleep.
    var assessments: [DailyAssessment] {
        var days = (0..<28).map { DailySnapshot(subject: "p", day: 20_000 + $0, restingHRBpm: $0 % 2 == 0 ? 59 : 61) }
        days.append(DailySnapshot(subject: "p", day: 20_028, restingHRBpm: 63, sleepHours: 8))
        return DailyEngines.assess(history: days)
    }

    func testStressReceipt() throws {
        let rows = ReceiptRow.daily(assessments).filter { $0.key == "2024-11-01" && $0.engine == "stress" }
        // RHR 5 % above its baseline → 40 + 4·5 = 60 points, the only signal (weight 1):
        // score 100 / (1 + e^(−0.08·(60 − 50))) = 68.9974, elevated (≥ 65).
        XCTAssertEqual(rows.count, 1)
        let r = try XCTUnwrap(rows.first)
        XCTAssertEqual(r.table, "daily.csv")
        XCTAssertEqual(r.subject, "p")
        XCTAssertEqual(r.decision, "elevated")
        XCTAssertEqual(r.value ?? .nan, 68.9974, accuracy: 1e-4)
        // Inputs present: RHR's nominal weight 0.5 of 1.0; 28 of 28 baseline days.
        XCTAssertEqual(r.confidence ?? .nan, 0.5, accuracy: 1e-12)
        XCTAssertEqual(r.rank, 1)
        XCTAssertEqual(r.factor, "resting_hr")
        XCTAssertEqual(r.share ?? .nan, 1, accuracy: 1e-12)
        XCTAssertEqual(r.points ?? .nan, 10, accuracy: 1e-9)
        XCTAssertEqual(r.direction, "raises")
        XCTAssertEqual(r.rawValue, 63)
        XCTAssertEqual(r.unit, "bpm")
        XCTAssertEqual(r.comparedWith, "28-day baseline mean 60.0 bpm")
    }

    func testReadinessReceipt() throws {
        let rows = ReceiptRow.daily(assessments).filter { $0.key == "2024-11-01" && $0.engine == "readiness" }
        // Pillars present: sleep 8 h → 100 (weight 0.25), stress 100 − 68.9974 = 31.0026
        // (weight 0.20); re-normalised 0.5556 / 0.4444: score (25 + 6.2005) / 0.45 = 69.3345.
        XCTAssertEqual(rows.map(\.factor), ["sleep", "stress"])
        XCTAssertEqual(rows.map(\.rank), [1, 2])
        XCTAssertEqual(rows[0].value ?? .nan, 69.3345, accuracy: 1e-4)
        XCTAssertEqual(rows[0].decision, "ready")
        // 0.45 of the nominal weight present; 7 of the 7 days before today have data.
        XCTAssertEqual(rows[0].confidence ?? .nan, 0.45, accuracy: 1e-12)
        // Points: 0.5556·(100 − 50) = 27.78 and 0.4444·(31.0026 − 50) = −8.443.
        XCTAssertEqual(rows[0].points ?? .nan, 27.7778, accuracy: 1e-4)
        XCTAssertEqual(rows[1].points ?? .nan, -8.4433, accuracy: 1e-4)
        XCTAssertEqual(rows.map(\.direction), ["raises", "lowers"])
        // Shares of the weighted score: 25/0.45 / 69.3345 = 0.8013 and 0.1987, summing to 1.
        XCTAssertEqual(rows[0].share ?? .nan, 0.8013, accuracy: 1e-4)
        XCTAssertEqual(rows[1].share ?? .nan, 0.1987, accuracy: 1e-4)
        XCTAssertEqual(rows[1].comparedWith, "the day's stress score")
        XCTAssertEqual(rows[0].rawValue, 8)
    }

    /// At most three drivers per decision, largest effect first; rows round-trip.
    func testTopThreeAndRoundTrip() throws {
        var days = (0..<28).map { DailySnapshot(subject: "q", day: 20_000 + $0, restingHRBpm: 60 + Double($0 % 3),
                                                hrvSDNNMs: 50 + Double($0 % 5), zoneMinutes: 20, sleepHours: 7) }
        days.append(DailySnapshot(subject: "q", day: 20_028, restingHRBpm: 66, hrvSDNNMs: 38, recovery1mBpm: 25,
                                  zoneMinutes: 30, sleepHours: 6))
        let rows = ReceiptRow.daily(DailyEngines.assess(history: days)).filter { $0.key == "2024-11-01" }
        let readiness = rows.filter { $0.engine == "readiness" }
        XCTAssertEqual(readiness.count, 3, "five pillars, three in the receipt")
        let points = readiness.compactMap(\.points).map(abs)
        XCTAssertEqual(points, points.sorted(by: >))
        XCTAssertEqual(rows.filter { $0.engine == "stress" }.count, 3)
        let dir = try makeTempDir()
        let ws = Workspace(path: dir)
        try ws.write(rows)
        XCTAssertEqual(try ws.read(ReceiptRow.self), rows)
    }
}
