import XCTest
@testable import ResonanceLab

/// Alarm counting on hand-built days: episodes, true and false alarms, sensitivity,
/// delay and the false-alarm exposure.
final class AlarmAnalysisTests: XCTestCase {
    /// Days 0–29 without day 5; an illness on days 10–13 (window 10–16 with the 3-day
    /// grace), an improvement on days 20–25 (not a deterioration: flags in it are false).
    /// Flags on days 2–4 and 6 (two false episodes: day 5 is missing, so 4 and 6 are not
    /// consecutive), 12–14 (true, the illness found 2 days after it began), 16–17 (true:
    /// day 16 is in the grace), 22 (false) → 2 true, 3 false; quiet days: 29 measured − 7
    /// in the window = 22, i.e. 3 / (22 / 30.4375) = 4.151 false alarms per person-month.
    func testHandBuiltCase() {
        let flagged: Set<Int> = [2, 3, 4, 6, 12, 13, 14, 16, 17, 22]
        let days = (0..<30).filter { $0 != 5 }.map { (day: $0, on: flagged.contains($0)) }
        let events = [PlantedEvent(subject: "p", id: "illness-1", firstDay: 10, lastDay: 13),
                      PlantedEvent(subject: "p", id: "improvement-1", firstDay: 20, lastDay: 25)]
        let t = AlarmCounting.tally(days: days, events: events)
        XCTAssertEqual(t.trueEpisodes, 2)
        XCTAssertEqual(t.falseEpisodes, 3)
        XCTAssertEqual(t.quietDays, 22)
        XCTAssertEqual(t.events, ["illness": 1])
        XCTAssertEqual(t.detected, ["illness": 1])
        XCTAssertEqual(t.delays, ["illness": [2]])
        XCTAssertEqual(t.sensitivity("illness"), 1)
        XCTAssertEqual(t.precision, 2.0 / 5)
        XCTAssertEqual(t.falseAlarmsPerMonth, 3 / (22 / 30.4375), accuracy: 1e-12)
        XCTAssertEqual(t.falseAlarmsPerMonth, 4.151, accuracy: 0.001)
    }

    /// A flag only after the grace misses the event; a flag that began before it and
    /// runs into it finds it with delay 0 and is one true episode.
    func testMissAndEpisodeRunningIntoTheEvent() {
        let event = [PlantedEvent(subject: "p", id: "regression-1", firstDay: 5, lastDay: 8)]
        let late = AlarmCounting.tally(days: (0..<20).map { (day: $0, on: $0 == 12) }, events: event)
        XCTAssertEqual(late.detected, [:])
        XCTAssertEqual(late.sensitivity(), 0)
        XCTAssertEqual(late.falseEpisodes, 1)
        XCTAssertTrue(late.meanDelay().isNaN)
        let early = AlarmCounting.tally(days: (0..<20).map { (day: $0, on: (3...6).contains($0)) }, events: event)
        XCTAssertEqual(early.delays, ["regression": [0]])
        XCTAssertEqual(early.trueEpisodes, 1)
        XCTAssertEqual(early.falseEpisodes, 0)
        // Pooling adds counts: 1 of 2 regressions found.
        XCTAssertEqual((late + early).sensitivity("regression"), 0.5)
        XCTAssertEqual((late + early).quietDays, 2 * (20 - 7))
    }

    /// An overreaching with its load block on days 5–13 and symptoms on days 14–20
    /// (window 14–23). Flags on days 8–9 (only in the block: a load-block episode, neither
    /// true nor false), 12–15 (runs into the symptoms: true, found on day 14, delay 0) and
    /// 26 (false). Quiet days: 30 − 9 in the block − 10 in the window = 11. A flag in the
    /// block alone finds nothing: the event is missed, the block flagged.
    func testLoadBlockIsNeitherSymptomNorQuiet() {
        let event = [PlantedEvent(subject: "p", id: "overreaching-1", firstDay: 14, lastDay: 20, loadBlock: 5...13)]
        let flagged: Set<Int> = [8, 9, 12, 13, 14, 15, 26]
        let t = AlarmCounting.tally(days: (0..<30).map { (day: $0, on: flagged.contains($0)) }, events: event)
        XCTAssertEqual(t.loadBlockEpisodes, 1)
        XCTAssertEqual(t.trueEpisodes, 1)
        XCTAssertEqual(t.falseEpisodes, 1)
        XCTAssertEqual(t.quietDays, 11)
        XCTAssertEqual(t.delays, ["overreaching": [0]])
        XCTAssertEqual([t.loadBlocks, t.loadBlocksFlagged], [1, 1])
        let blockOnly = AlarmCounting.tally(days: (0..<30).map { (day: $0, on: $0 == 8) }, events: event)
        XCTAssertEqual(blockOnly.detected, [:])
        XCTAssertEqual(blockOnly.sensitivity(), 0)
        XCTAssertEqual([blockOnly.trueEpisodes, blockOnly.falseEpisodes, blockOnly.loadBlockEpisodes], [0, 0, 1])
        XCTAssertEqual([blockOnly.loadBlocks, blockOnly.loadBlocksFlagged], [1, 1])
    }

    /// The analysis reads the flags as `daily.csv` holds them, per subject.
    func testSignalsReadDailyRows() {
        func row(_ day: Int, flags: [String], stress: String = "") -> DailyRow {
            DailyRow(snapshot: DailySnapshot(subject: "a", day: day), stress: nil, stressLevel: stress, readiness: nil,
                     readinessLevel: "", anomaly: nil, flags: flags)
        }
        let rows = [row(0, flags: ["regression"]), row(1, flags: ["anomaly"], stress: "elevated"), row(2, flags: ["consecutive_elevation"])]
        let events = [PlantedEvent(subject: "a", id: "illness-1", firstDay: 2, lastDay: 2)]
        let shown = AlarmAnalysis.tallies(rows, events: events, signal: AlarmSignal.all[0])
        XCTAssertEqual(shown.map(\.subject), ["a"])
        // Day 0 alone is one episode (day 1 has no shown flag), day 2 a second one.
        XCTAssertEqual(shown[0].tally.falseEpisodes, 1)
        XCTAssertEqual(shown[0].tally.trueEpisodes, 1)
        let stress = AlarmAnalysis.tallies(rows, events: events, signal: AlarmSignal.all.first { $0.name == "stress elevated" }!)
        XCTAssertEqual(stress[0].tally.falseEpisodes, 1)
        XCTAssertEqual(stress[0].tally.detected, [:])
    }

    /// The coach's flags replayed from the rows. 28 steady days (resting HR 60, SDNN 50,
    /// 8 h sleep), then 3 days at resting HR 67 (+7 bpm) with SDNN 40 (0.8 × 50): the
    /// overtraining scenario fires on the third. Not on the fourth: its run's baseline (the
    /// mean of the 28 days before it) holds one day at 67, 60.25 bpm, so the run's first day
    /// rises only 6.75 bpm. The morning rests (no plan) on the days
    /// whose score is 50 or less: SDNN 40 scores (40 − 30) / 30 = 1/3 on HRV, sleep 8 h
    /// scores 1, resting HR 7 bpm above its baseline scores 1 − 7/10 = 0.3, i.e.
    /// 100 × (0.4/3 + 0.4 + 0.2 × 0.3) = 59.3 → a session is suggested; on the steady days
    /// SDNN 50 gives 100 × (0.4 × 2/3 + 0.4 + 0.2) = 86.7. A fourth day at SDNN 25 and 4 h
    /// of sleep scores 0 on both and 0 on resting HR → rest.
    func testCoachSignalsReplayTheRows() throws {
        func row(_ day: Int, rhr: Double, hrv: Double, sleep: Double) -> DailyRow {
            DailyRow(snapshot: DailySnapshot(subject: "a", day: day, restingHRBpm: rhr, hrvSDNNMs: hrv, sleepHours: sleep),
                     stress: nil, stressLevel: "", readiness: nil, readinessLevel: "", anomaly: nil, flags: [])
        }
        let rows = (0..<28).map { row($0, rhr: 60, hrv: 50, sleep: 8) } + (28..<31).map { row($0, rhr: 67, hrv: 40, sleep: 8) }
            + [row(31, rhr: 70, hrv: 25, sleep: 4)]
        let signals = AlarmSignal.coach(rows, registry: .defaults)
        XCTAssertEqual(signals.map(\.name), ["overtraining scenario", "morning rest"])
        XCTAssertEqual(rows.filter(signals[0].isOn).map(\.snapshot.day), [30])
        XCTAssertEqual(rows.filter(signals[1].isOn).map(\.snapshot.day), [31])
    }
}
