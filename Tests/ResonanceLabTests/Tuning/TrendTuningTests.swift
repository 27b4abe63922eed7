import XCTest
@testable import ResonanceLab

/// The trend engine's tuning problem on hand-built days: every subject a unit, the
/// objective sensitivity − false alarms per person-month above 1.
final class TrendTuningTests: XCTestCase {
    /// Two persons, 40 days of resting HR alternating 60/62 bpm; "a" has an illness on
    /// days 30–33 at 70 bpm.
    func problem() -> TrendTuningData {
        let days = ["a", "b"].flatMap { s in
            (0..<40).map { d in
                DailySnapshot(subject: s, day: d, restingHRBpm: s == "a" && (30...33).contains(d) ? 70 : Double(60 + 2 * (d % 2)))
            }
        }
        return TrendTuningData(parts: [(name: "ws", days: days, events: [PlantedEvent(subject: "a", id: "illness-1", firstDay: 30, lastDay: 33)])])
    }

    func registry(_ values: [String: Double]) throws -> ConstantsRegistry {
        try ConstantsRegistry.defaults.replacing("trend", with: values)
    }

    func testUnitsAndObjectiveAtTheExtremes() throws {
        let p = problem()
        XCTAssertEqual(p.units, ["ws/a", "ws/b"])
        // No shown flag can fire: nothing found, no false alarm → 0.
        let silent = try registry(["rhr_slope_threshold": 100, "hrv_slope_threshold": -100, "pattern_rhr_z": 100,
                                   "elevation_sd": 100])
        XCTAssertEqual(p.value(.alarmSensitivity, silent, on: [0, 1]), 0)
        // The regression flag fires on every day from the 4th (slope > −100 bpm/day): one
        // episode per person; a's overlaps the illness (found on day 30, delay 0), b's is
        // one false alarm in 40 quiet days = 0.761 per person-month, under the limit of 1.
        let always = try registry(["rhr_slope_threshold": -100])
        let t = p.tally(always, on: [0, 1])
        XCTAssertEqual(t.detected, ["illness": 1])
        XCTAssertEqual(t.delays, ["illness": [0]])
        XCTAssertEqual(t.trueEpisodes, 1)
        XCTAssertEqual(t.falseEpisodes, 1)
        XCTAssertEqual(t.quietDays, 40 + 40 - 7)
        XCTAssertEqual(p.value(.alarmSensitivity, always, on: [0, 1]), 1)
        // On b alone there is no event: sensitivity undefined, the objective too.
        XCTAssertTrue(p.value(.alarmSensitivity, always, on: [1]).isNaN)
        XCTAssertTrue(p.value(.auc, always, on: [0, 1]).isNaN)
    }

    /// The constraint bites: c's illness (days 10–13) is found by one long episode; d,
    /// without an event, has one false episode. Quiet days: c 17 − 7 in the window, d 10
    /// → 1 false alarm in 20 days = 1.5219 per person-month → 1 − 0.5219 = 0.4781.
    func testFalseAlarmsAboveOneAMonthArePenalised() throws {
        let days = (0..<17).map { DailySnapshot(subject: "c", day: $0, restingHRBpm: 60) }
            + (0..<10).map { DailySnapshot(subject: "d", day: $0, restingHRBpm: 60) }
        let p = TrendTuningData(parts: [(name: "w", days: days, events: [PlantedEvent(subject: "c", id: "illness-1", firstDay: 10, lastDay: 13)])])
        let always = try registry(["rhr_slope_threshold": -100])
        let t = p.tally(always, on: [0, 1])
        XCTAssertEqual(t.quietDays, 20)
        XCTAssertEqual(t.falseEpisodes, 1)
        XCTAssertEqual(p.value(.alarmSensitivity, always, on: [0, 1]), 1 - (1 / (20 / 30.4375) - 1), accuracy: 1e-12)
        XCTAssertEqual(p.value(.alarmSensitivity, always, on: [0, 1]), 0.4781, accuracy: 1e-4)
    }
}
