import XCTest
@testable import ResonanceLab

final class StressDesignTests: XCTestCase {
    /// A toy session in seconds: baseline 0–600, Stroop 600–900, rest 900–1200, interview
    /// 1200–1500, rest 1500–1800, hyperventilation 1800–1900, rest 1900–2500.
    let session: [StressInterval] = [(0, 600, ""), (600, 900, "stroop"), (900, 1200, ""), (1200, 1500, "interview"),
                                     (1500, 1800, ""), (1800, 1900, "hyperventilation"), (1900, 2500, "")].map {
        StressInterval(startMs: Int64($0.0) * 1000, endMs: Int64($0.1) * 1000, stress: !$0.2.isEmpty, task: $0.2)
    }
    /// Buffer 30 s; 120 s of windows on each side of the Stroop's transitions (3 windows of
    /// 60 s every 30 s), 60 s on each side of the interview's (1 window).
    let toy = StressDesign.Parameters(bufferSeconds: 30, spanSeconds: [120, 60])

    func slots(_ p: StressDesign.Parameters) -> [StressSlot] {
        StressDesign.slots(session, p, windowMs: 60_000, stepMs: 30_000)
    }

    func testTransitionWindowsAreTheHandWorkedOnes() {
        let s = slots(toy)
        let starts = { (stress: Bool) in s.filter { $0.stress == stress }.map { $0.startMs / 1000 }.sorted() }
        // Stroop start 600: before 450, 480, 510 (ending by 570), after 630, 660, 690; Stroop end
        // 900: before 750, 780, 810, after 930, 960, 990; interview start 1200: 1110 | 1230;
        // interview end 1500: 1410 | 1530. Nothing of hyperventilation.
        XCTAssertEqual(starts(true), [630, 660, 690, 750, 780, 810, 1230, 1410])
        XCTAssertEqual(starts(false), [450, 480, 510, 930, 960, 990, 1110, 1530])
        XCTAssertEqual(Set(s.map(\.transition)), ["stroop start", "stroop end", "interview start", "interview end"])
        XCTAssertTrue(s.allSatisfy { $0.endMs - $0.startMs == 60_000 && $0.task != "hyperventilation" })
    }

    func testWindowsOutsideTheirSideIntervalAreDropped() {
        // A 300-s interview span: 9 windows per side, of which only those wholly inside the
        // interview (after its start: 1230…1440) and the rest before it (900…1110) are kept.
        let s = slots(StressDesign.Parameters(bufferSeconds: 30, spanSeconds: [120, 300]))
        let start = s.filter { $0.transition == "interview start" }
        XCTAssertEqual(start.filter(\.stress).map { $0.startMs / 1000 }, Array(stride(from: 1230, through: 1440, by: 30)))
        XCTAssertEqual(start.filter { !$0.stress }.map { $0.startMs / 1000 }, Array(stride(from: 900, through: 1110, by: 30)))
        for w in s {
            XCTAssertTrue(session.contains { $0.startMs <= w.startMs && w.endMs <= $0.endMs && $0.stress == w.stress })
        }
    }

    func testAnyMonotoneDriftScoresOneHalfAndTheMiddleIsHandWorked() {
        let s = slots(toy), y = s.map(\.stress), bounds = (start: Int64(0), end: Int64(2_500_000))
        // Stress windows above baseline windows in time: 9 + 9 (the Stroop's against the
        // first baseline) + 7 + 7 (the interview's against every earlier baseline) of 64 pairs.
        for drift in [{ (t: Double) in t }, { (t: Double) in -exp(t / 300) }, { (t: Double) in log(t) }] {
            let score = s.map { drift(StressDesign.elapsedSeconds($0.startMs, $0.endMs, session: bounds)) }
            XCTAssertEqual(GroupComparison.auc(scores: score, isPositive: y), 0.5, accuracy: 1e-12)
        }
        // Closeness to the middle (1250 s): the Stroop's stress windows beat only the first
        // baseline's (9 + 9), the interview's start window all 8, its end window (190 s from
        // the middle) all but the one at 110 s (7): 33 of 64.
        let middle = s.map { StressDesign.middleCloseness($0.startMs, $0.endMs, session: bounds) }
        XCTAssertEqual(GroupComparison.auc(scores: middle, isPositive: y), 33.0 / 64, accuracy: 1e-12)
        // Two identical sessions: each one's clock, fitted on the other, puts every window in
        // a bin of its own label, AUC 1, while the label-blind controls stay put.
        let c = StressDesign.Controls([(s, bounds), (s, bounds)])
        XCTAssertEqual(c.elapsed, [0.5, 0.5])
        XCTAssertEqual(c.middle, [33.0 / 64, 33.0 / 64])
        XCTAssertEqual(c.clock, [1, 1])
    }

    func testTheFittedClockIsTheOtherSubjectsStressSharePerBin() {
        let subjects: [[(elapsed: Double, stress: Bool)]] = [
            [(0, false), (30, true), (95, true)], [(10, false), (40, true), (50, true)], [(5, true), (35, false)],
        ]
        let clock = StressDesign.fittedClock(subjects)
        // Held out the first: bin 0 holds the others' (10, F), (5, T): ½; bin 1 (40, T),
        // (50, T), (35, F): ⅔; bin 3 is empty: their overall share, 3 of 5.
        XCTAssertEqual(clock[0][0], 0.5, accuracy: 1e-12)
        XCTAssertEqual(clock[0][1], 2.0 / 3, accuracy: 1e-12)
        XCTAssertEqual(clock[0][2], 0.6, accuracy: 1e-12)
        XCTAssertEqual(clock[1], [0.5, 0.5, 0.5])
        // The third subject's labels run against the others' clock: 0 for its stress window, 1 for its baseline one.
        XCTAssertEqual(clock[2], [0, 1])
    }

    func testDetrendRemovesTheLeastSquaresLine() {
        XCTAssertEqual(StressDesign.detrended([2, 5, 8, 11], elapsed: [0, 1, 2, 3]).map { abs($0) }.max() ?? 1, 0, accuracy: 1e-12)
        // Slope 6/5 = 1.2 about (1.5, 2): residuals −0.2, 0.6, −0.6, 0.2.
        let r = StressDesign.detrended([0, 2, 2, 4], elapsed: [0, 1, 2, 3])
        for (a, b) in zip(r, [-0.2, 0.6, -0.6, 0.2]) { XCTAssertEqual(a, b, accuracy: 1e-12) }
        XCTAssertEqual(StressDesign.detrended([1, 3], elapsed: [5, 5]), [-1, 1])
    }
}
