import XCTest
@testable import ResonanceLab

/// The morning recovery composite and decision, worked by hand.
final class MorningRecoveryTests: XCTestCase {
    let engine = MorningRecoveryEngine(constants: ConstantsRegistry.defaults.morningRecovery)

    func testComponentsAtTheirThresholds() {
        XCTAssertEqual([25, 30, 45, 60, 80].map { engine.hrvScore(sdnnMs: $0) }, [0, 0, 0.5, 1, 1])
        XCTAssertEqual([3, 4, 5.5, 7, 9].map { engine.sleepScore(hours: $0) }, [0, 0, 0.5, 1, 1])
        XCTAssertEqual([50, 55, 60, 65, 70].map { engine.restingHRScore(bpm: $0, baselineBpm: 55) }, [1, 1, 0.5, 0, 0])
    }

    func testCompositeIsTruncatedAndRenormalisedOverWhatIsPresent() {
        // 0.4·0.5 + 0.4·0.5 + 0.2·0.5 = 0.5 → 50.
        XCTAssertEqual(engine.score(sdnnMs: 45, sleepHours: 5.5, restingHRBpm: 60, baselineBpm: 55).overall, 50)
        // HRV 40 ms: 1/3; sleep 6 h: 2/3; RHR 56 vs 55: 0.9 → 0.4/3 + 0.8/3 + 0.18 = 0.58 → 58.
        let s = engine.score(sdnnMs: 40, sleepHours: 6, restingHRBpm: 56, baselineBpm: 55)
        XCTAssertEqual([s.hrv, s.sleep, s.restingHR].compactMap { $0 }, [1.0 / 3, 2.0 / 3, 0.9], accuracy: 1e-12)
        XCTAssertEqual(s.overall, 58)
        // Truncation, not rounding: HRV 45 ms and sleep 5.5 h score 0.5, RHR 0.05 bpm above the baseline 0.995 → 59.9 → 59.
        XCTAssertEqual(engine.score(sdnnMs: 45, sleepHours: 5.5, restingHRBpm: 55.05, baselineBpm: 55).overall, 59)
        // Without a baseline the resting-HR component is missing: (0.4·1 + 0.4·0) / 0.8 = 0.5.
        let partial = engine.score(sdnnMs: 70, sleepHours: 3, restingHRBpm: 60, baselineBpm: nil)
        XCTAssertNil(partial.restingHR)
        XCTAssertEqual(partial.overall, 50)
        XCTAssertNil(engine.score(sdnnMs: nil, sleepHours: nil, restingHRBpm: 60, baselineBpm: nil).overall)
    }

    func testDecisionAtEachBoundary() {
        func d(_ score: Int, _ planned: Bool) -> String {
            let x = engine.decide(overall: score, plannedWorkout: planned)
            return x.intensity.isEmpty ? x.action : "\(x.action)/\(x.intensity)"
        }
        XCTAssertEqual([39, 40, 80, 81].map { d($0, true) }, ["light/light", "confirm/moderate", "confirm/moderate", "confirm/high"])
        XCTAssertEqual([50, 51, 80, 81].map { d($0, false) }, ["rest", "suggest/moderate", "suggest/moderate", "suggest/high"])
    }

    func testBaselineNeedsThreeEarlierDaysWithinThirty() {
        func day(_ d: Int, _ rhr: Double?) -> DailySnapshot { DailySnapshot(subject: "u", day: d, restingHRBpm: rhr) }
        let history = [day(1, 50), day(40, 60), day(41, 62), day(42, nil), day(43, 58), day(44, 70)]
        XCTAssertNil(engine.baseline(before: 43, history: history), "day 1 is more than 30 days before; 2 days remain")
        XCTAssertEqual(engine.baseline(before: 44, history: history), 60, "median of 60, 62, 58")
    }

    func testMorningsCarryBothBranchesAndTheReadinessLevel() {
        let days = [DailySnapshot(subject: "u", day: 100, restingHRBpm: 55, hrvSDNNMs: 60, sleepHours: 8),
                    DailySnapshot(subject: "u", day: 101, restingHRBpm: 55, hrvSDNNMs: 60, sleepHours: 8),
                    DailySnapshot(subject: "u", day: 102, restingHRBpm: 55, hrvSDNNMs: 60, sleepHours: 8),
                    DailySnapshot(subject: "u", day: 103, restingHRBpm: 65, hrvSDNNMs: 30, workoutMinutes: 30, sleepHours: 4)]
        let date = DailySnapshot(subject: "u", day: 103).date
        let rows = engine.mornings(days, readiness: ["u\u{0}" + date: "recovering"]).map(\.row)
        XCTAssertEqual(rows.map { $0.score.overall }, [100, 100, 100, 0], "days 100–102 without a baseline: HRV and sleep only")
        XCTAssertEqual(rows[3].restingHRBaselineBpm, 55)
        XCTAssertTrue(rows[3].planned)
        XCTAssertEqual(rows[3].withPlan?.action, "light")
        XCTAssertEqual(rows[3].withoutPlan?.action, "rest")
        XCTAssertEqual(rows[3].readinessLevel, "recovering")
        XCTAssertEqual(rows[0].withoutPlan, MorningRecoveryEngine.Decision(action: "suggest", intensity: "high"))
    }

    func testOvernightWindowRunsFromNinePMToTheWakeElseTheNoonCutoff() {
        let midnight: Int64 = 100 * 86_400_000, hour: Int64 = 3_600_000
        let start = midnight - 3 * hour, cutoff = midnight + 12 * hour
        let w = engine.overnightWindow(day: 100, sleepEndsMs: [start - hour, midnight + 6 * hour + hour / 2, midnight + 13 * hour])
        XCTAssertEqual([w.startMs, w.endMs], [start, midnight + 6 * hour + hour / 2])
        XCTAssertTrue(w.fromSleep)
        XCTAssertEqual(engine.overnightWindow(day: 100, sleepEndsMs: [cutoff]).endMs, cutoff, "a sleep ending at the cut-off is the wake")
        for ends in [[], [start], [cutoff + 1]] {
            let none = engine.overnightWindow(day: 100, sleepEndsMs: ends)
            XCTAssertEqual([none.startMs, none.endMs], [start, cutoff], "\(ends): no sleep ends inside (9 PM, noon]")
            XCTAssertFalse(none.fromSleep)
        }
    }

    /// A subject two hours ahead of UTC (e.g. Helsinki in winter): 9 PM local is 19:00 UTC
    /// the day before, noon local 10:00 UTC; through `mornings`, a sample at 19:30 UTC lies
    /// in that subject's window and not in a UTC subject's.
    func testOvernightWindowIsOnTheSubjectsClock() {
        let midnight: Int64 = 100 * 86_400_000, hour: Int64 = 3_600_000
        let w = engine.overnightWindow(day: 100, sleepEndsMs: [], offsetMs: 2 * hour)
        XCTAssertEqual([w.startMs, w.endMs], [midnight - 5 * hour, midnight + 10 * hour])
        var inputs = MorningInputs()
        inputs.hrvTimesMs = [midnight - 4 * hour - hour / 2]
        inputs.hrvSDNNMs = [60]
        let day = DailySnapshot(subject: "u", day: 100, hrvSDNNMs: 20)
        let ahead = engine.mornings([day], readiness: [:], inputs: ["u": inputs], offsetMs: { _, _ in 2 * hour })[0]
        XCTAssertEqual(ahead.row.hrvSDNNMs, 60)
        XCTAssertEqual(ahead.row.hrvWindow, "overnight")
        let utc = engine.mornings([day], readiness: [:], inputs: ["u": inputs])[0]
        XCTAssertEqual(utc.row.hrvSDNNMs, 20)
        XCTAssertEqual(utc.row.hrvWindow, "24h")
    }

    func testOvernightHRVReplacesTheDaysWhenTheWindowHasSamples() {
        let midnight: Int64 = 100 * 86_400_000, hour: Int64 = 3_600_000
        var inputs = MorningInputs()
        inputs.sleepEndsMs = [midnight + 6 * hour]
        inputs.hrvTimesMs = [midnight - 3 * hour - 1, midnight - 3 * hour, midnight + 5 * hour, midnight + 6 * hour + 1]
        inputs.hrvSDNNMs = [100, 40, 50, 90]
        let day = DailySnapshot(subject: "u", day: 100, hrvSDNNMs: 20)
        let a = engine.mornings([day], readiness: [:], inputs: ["u": inputs])[0]
        // Only the samples at 21:00 and 05:00 lie in [21:00, wake 06:00]: mean 45 ms → HRV 0.5 → 50.
        XCTAssertEqual(a.row.hrvSDNNMs, 45)
        XCTAssertEqual(a.row.hrvWindow, "overnight")
        XCTAssertEqual(a.row.score.overall, 50)
        let r = a.receipts[0]
        XCTAssertEqual(r.metric, .recoveryScore)
        XCTAssertEqual([r.derived.windowStartMs, r.derived.windowEndMs], [midnight - 3 * hour, midnight + 6 * hour])
        XCTAssertEqual(r.derived.windowRule, "overnight")
        XCTAssertEqual(r.derived.confidence, 0.4, accuracy: 1e-12, "HRV alone: 0.4 of the composite's weight")
        XCTAssertEqual(r.derived.inputDigest, String(SHA256.hex("hrv=45.0;sleep=;resting_hr=;baseline=").prefix(16)))
        // Without overnight samples the day's 24-hour HRV is read.
        let day24 = engine.mornings([day], readiness: [:])[0]
        XCTAssertEqual(day24.row.hrvSDNNMs, 20)
        XCTAssertEqual(day24.row.hrvWindow, "24h")
        XCTAssertEqual(day24.receipts[0].derived.windowStartMs, midnight)
        XCTAssertEqual(day24.receipts[0].derived.windowEndMs, midnight + 24 * hour)
    }

    func testSleepDebtSumsShortfallsFromEightHoursOverSevenNights() throws {
        let debt = try XCTUnwrap(engine.sleepDebt(day: 10, sleepHours: [3: 2, 4: 6, 5: 8, 6: 9, 10: 5]))
        // Nights to days 4–10: (8 − 6) + 0 + 0 (9 h repays nothing) + (8 − 5) = 5 h; the night to day 3 is outside.
        XCTAssertEqual(debt.value, 5)
        XCTAssertEqual(debt.confidence, 4.0 / 7, accuracy: 1e-12)
        XCTAssertEqual(debt.inputCount, 4)
        XCTAssertEqual(Timestamp.iso(debt.windowStartMs), "1970-01-04T21:00:00.000Z")
        XCTAssertEqual(Timestamp.iso(debt.windowEndMs), "1970-01-11T12:00:00.000Z")
        XCTAssertEqual(debt.windowRule, "7d")
        XCTAssertNil(engine.sleepDebt(day: 10, sleepHours: [3: 2, 11: 4]))
    }

    func testStrainIsTheMeanDailyLoadOfTheFourteenDaysBefore() throws {
        XCTAssertNil(engine.strainPoints(exerciseMinutes: nil, workoutMinutes: nil, activeEnergyKcal: nil))
        // max(30, 45) min + 200 kcal / 10 = 65 points.
        XCTAssertEqual(engine.strainPoints(exerciseMinutes: 30, workoutMinutes: 45, activeEnergyKcal: 200), 65)
        let strain = try XCTUnwrap(engine.strain(day: 20, points: [
            19: (30, 46, 200), 18: (nil, nil, 100), 5: (1000, nil, nil), 20: (nil, 500, nil),
        ]))
        // Days 6–19 only: (max(30, 46) + 20 + 100 / 10) / 2.
        XCTAssertEqual(strain.value, 38)
        XCTAssertEqual(strain.confidence, 2.0 / 14, accuracy: 1e-12)
        XCTAssertEqual([strain.windowStartMs, strain.windowEndMs], [6 * 86_400_000, 20 * 86_400_000])
        XCTAssertEqual(strain.explanation, "2 of 14 days with activity; per day 15 exercise min, 23 workout min, 150 kcal active energy")
        XCTAssertNil(engine.strain(day: 20, points: [5: (10, nil, nil)]))
    }

    func testAgreementWithReadinessAndTheComponentBehindADisagreement() {
        let low = engine.score(sdnnMs: 30, sleepHours: 8, restingHRBpm: nil, baselineBpm: nil)  // (0 + 0.4) / 0.8 → 50: rest
        XCTAssertEqual(low.overall, 50)
        XCTAssertTrue(engine.compare(low, morningRests: true, readinessLevel: "ready") == ("morning_rest", "hrv"))
        XCTAssertTrue(engine.compare(low, morningRests: true, readinessLevel: "recovering") == ("both_rest", ""))
        let high = engine.score(sdnnMs: 40, sleepHours: 8, restingHRBpm: 55, baselineBpm: 55)  // sleep weighs most (0.4 · 1)
        XCTAssertTrue(engine.compare(high, morningRests: false, readinessLevel: "recovering") == ("readiness_rest", "sleep"))
        XCTAssertTrue(engine.compare(high, morningRests: false, readinessLevel: "moderate") == ("both_train", ""))
        XCTAssertTrue(engine.compare(high, morningRests: false, readinessLevel: "") == ("", ""))
        XCTAssertTrue(engine.compare(high, morningRests: nil, readinessLevel: "ready") == ("", ""))
    }

    func testMorningTablesRoundTripThroughTheirCSV() throws {
        let days = (0..<9).map { d in
            DailySnapshot(subject: "u", day: 100 + d, restingHRBpm: 55 + Double(d), hrvSDNNMs: 40, workoutMinutes: d == 8 ? 20 : nil,
                          sleepHours: 6.5)
        }
        let assessed = engine.mornings(days, readiness: ["u\u{0}" + days[8].date: "recovering"])
        let ws = Workspace(path: try makeTempDir())
        try ws.write(assessed.map(\.row))
        try ws.write(assessed.flatMap(\.receipts))
        XCTAssertEqual(try ws.read(MorningRecoveryRow.self), assessed.map(\.row))
        let receipts = assessed.flatMap(\.receipts)
        XCTAssertEqual(try ws.read(MorningReceiptRow.self), receipts)
        // Each of the 9 mornings has a score and a sleep debt; none has strain (the only workout is on the last morning's own day).
        XCTAssertEqual(receipts.filter { $0.metric == .strainIndex }.count, 0)
        XCTAssertEqual(receipts.count, 18)
        // 1.5 h short of 8 h each night, over the window's 7 nights.
        XCTAssertEqual(assessed[8].row.sleepDebtHours, 10.5)
        // Day 108: HRV 1/3, sleep 5/6, RHR 63 vs the median 58.5 → 0.55: 0.4/3 + 0.4·5/6 + 0.2·0.55 = 0.577 → 57, a session;
        // readiness rests alone, and sleep (0.4·5/6) is the morning's strongest component.
        XCTAssertEqual(assessed[8].row.score.overall, 57)
        XCTAssertEqual([assessed[8].row.agreement, assessed[8].row.driver], ["readiness_rest", "sleep"])
    }
}
