import XCTest
@testable import ResonanceLab

/// The AI DJ's own test expectations (state engine, learning store, backfill: impact,
/// sessions, context, skips, song learning), each asserted on the toolkit's engine
/// (docs/engines.md, Conformance). Where an expectation contradicts the specification's
/// own formula, the test asserts the formula's value and says so.
final class AIDJConformanceTests: XCTestCase {
    let engine = DJStateEngine()
    let impact = ImpactConstants.defaults
    let learning = SongEffectConstants.defaults
    let sessions = SessionConstants.defaults

    // MARK: State engine (real-time state)

    /// The DJ's state at t = 0 from ten HR samples 30 s apart at `bpm` (a flat trend,
    /// arousal confidence 1) and five SDNN samples a minute apart at `sdnn` (stress
    /// confidence 1), against resting HR 60, an SDNN baseline of 50 ms and `age`.
    func state(hr bpm: Double? = nil, sdnn: Double? = nil, age: Double = 40) -> DJState {
        let hr = bpm.map { v in (0..<10).map { TimedSample(tMs: Int64($0 - 9) * 30_000, value: v) } } ?? []
        let hrv = sdnn.map { v in (0..<5).map { TimedSample(tMs: Int64($0 - 4) * 60_000, value: v) } } ?? []
        return engine.state(at: 0, hr: hr, sdnn: hrv, baseline: PersonalBaseline(restingHRBpm: 60, sdnnMs: 50, age: age),
                            context: .relaxation)
    }

    func testArousalAtRestingHRIsLow() {
        // Expectation: resting 60, max 180, HR 60 → 0.0 (max 180 = 220 − 40): (60 − 60)/120 = 0.
        let s = state(hr: 60)
        XCTAssertEqual(s.arousal, 0, accuracy: 1e-12)
        XCTAssertEqual(s.arousalConfidence, 1, accuracy: 1e-12)
    }

    func testArousalAtMaxHRIsHigh() {
        // (180 − 60)/120 = 1, and half-way, (120 − 60)/120 = 0.5.
        XCTAssertEqual(state(hr: 180).arousal, 1, accuracy: 1e-12)
        XCTAssertEqual(state(hr: 120).arousal, 0.5, accuracy: 1e-12)
    }

    /// The DJ state production runs (DJStateEngine, `dj replay` and `dj simulate`) at age
    /// 70, where max = 220 − age (150) and 208 − 0.7·age (159) differ: resting 60, HR 120
    /// → (120 − 60)/(150 − 60) = 0.667, not 60/99 = 0.606; at HR 150 the top, 1.
    func testProductionArousalUsesTwoTwentyMinusAgeWhereTheFormulasDiffer() throws {
        let b = PersonalBaseline(restingHRBpm: 60, sdnnMs: 50, age: 70)
        func arousal(_ bpm: Double) -> Double { engine.arousal([TimedSample(tMs: 0, value: bpm)][...], baseline: b).value }
        XCTAssertEqual(arousal(120), 60.0 / 90, accuracy: 1e-12)
        XCTAssertEqual(arousal(150), 1, accuracy: 1e-12)
        XCTAssertEqual(arousal(105), 0.5, accuracy: 1e-12)
        XCTAssertEqual(arousal(60), 0, accuracy: 1e-12)
    }

    func testHighHRVGivesLowStress() {
        // Expectation: HRV 80 against a 50 ms baseline reads below 0.3: 1 − 0.6·1.6 = 0.04.
        let s = state(sdnn: 80)
        XCTAssertEqual(s.stress, 0.04, accuracy: 1e-12)
        XCTAssertEqual(s.stressConfidence, 1, accuracy: 1e-12)
    }

    func testStressAtBaselineHRVIs0_4() {
        XCTAssertEqual(state(sdnn: 50).stress, 0.4, accuracy: 1e-12)
    }

    func testStressAtOneAndAHalfTimesBaselineIs0_1() {
        XCTAssertEqual(state(sdnn: 75).stress, 0.1, accuracy: 1e-12)
    }

    func testStressAtHalfBaselineFollowsTheFormulaNotTheComment() {
        // Contradiction: the mapping's comment says ratio 0.5 → 0.8; its formula
        // 1 − 0.6·0.5 gives 0.7. The formula's value is asserted.
        XCTAssertEqual(state(sdnn: 25).stress, 0.7, accuracy: 1e-12)
    }

    func testWorkoutOverlapGivesWorkoutContext() {
        let start = ms("2022-02-08T14:00:00.000Z")  // a Tuesday, work hours by the clock
        let run = Workout(subject: "u", startMs: start - 600_000, endMs: start + 1_800_000, activity: "running")
        XCTAssertEqual(ListeningContext.of(startMs: start, endMs: start + 600_000, localStartMs: start, workouts: [run][...],
                                           constants: sessions), .workout)
    }

    // MARK: Learning store

    /// A kept play of 200 s heard for `fraction`, with its HR and HRV (RMSSD of R-R)
    /// at the start and the end, as the sessions stage writes it.
    func keptPlay(heard fraction: Double, skipped: Bool = false, hr: (Double, Double)? = nil, hrv: (Double, Double)? = nil) -> SessionPlayRow {
        SessionPlayRow(subject: "u", sessionId: "u-1", playId: "p", songId: "a",
                       biometrics: WindowBiometrics(hrStart: hr?.0, hrEnd: hr?.1, hrvStart: hrv?.0, hrvEnd: hrv?.1,
                                                    hrvSource: hrv == nil ? "" : "rr", notes: []),
                       quality: "ok", playlist: "", startedAtMs: 0, endedAtMs: 200_000, playedS: 200 * fraction,
                       listenFraction: fraction, skipped: skipped, context: "relaxation", timeSlot: "evening")
    }

    /// What the product's learner holds for the song after `plays`, in order.
    func learned(_ plays: [SessionPlayRow]) throws -> EMAState {
        var learner = SongLearner(constants: learning, contexts: 1)
        for p in plays { learner.learn(LearnedPlay(p, impact: impact), song: 0, context: 0) }
        return try XCTUnwrap(learner.state(song: 0, context: 0))
    }

    func testSkippedPlayDecreasesCalm() throws {
        // A full listen with ΔHRV +10 first takes calm from 0.5 to 0.7 (next test). Then
        // a skip at 20 % heard with ΔHRV −5, HRV only, a late skip:
        // calm = 0.5 + 0.8·(−0.5) + (0.2 − 0.5)·0.2 − 0.15 = −0.11 → 0; EMA 0.7 → 0.7 − 0.4·0.7 = 0.42.
        let st = try learned([keptPlay(heard: 0.95, hrv: (40, 50)), keptPlay(heard: 0.2, skipped: true, hrv: (40, 35))])
        XCTAssertEqual(st.scores.calm, 0.42, accuracy: 1e-12)
        XCTAssertEqual(st.plays, 2)
    }

    func testFullListenWithRisingHRVIncreasesCalm() throws {
        // 95 % heard, ΔHRV +10: calm = 0.5 + 0.8·1 + 0.09 = 1.39 → 1; EMA 0.5 → 0.7. The
        // toolkit's EMA of the raw ΔRMSSD beside it, from 0: 0.4·10 = 4.
        let st = try learned([keptPlay(heard: 0.95, hrv: (40, 50))])
        XCTAssertEqual(st.scores.calm, 0.7, accuracy: 1e-12)
        XCTAssertEqual(st.rmssdDelta, 4, accuracy: 1e-12)
    }

    // MARK: Backfill: impact score

    func testMoodLiftCombinesUnclampedScores() {
        let s = Impact.of(hrDeltaBpm: -5, hrvDeltaMs: 6, listenFraction: 1, skipped: false, constants: impact)
        XCTAssertEqual(s.moodLift, 0.735, accuracy: 1e-12)
    }

    func testZeroDeltaMeansNoBiometricData() {
        XCTAssertFalse(Impact.hasBiometrics(hrDeltaBpm: 0, hrvDeltaMs: 0, constants: impact))
        // ΔHR 0 with ΔHRV: the HRV-only branch (calm 0.5 + 0.8·0.3 = 0.74 at 50 % heard).
        XCTAssertEqual(Impact.of(hrDeltaBpm: 0, hrvDeltaMs: 3, listenFraction: 0.5, skipped: false, constants: impact).calm,
                       0.74, accuracy: 1e-12)
    }

    func testEarlySkipIsPenalisedHarderThanLateSkip() {
        let early = Impact.of(hrDeltaBpm: nil, hrvDeltaMs: nil, listenFraction: 0.1, skipped: true, constants: impact)
        let late = Impact.of(hrDeltaBpm: nil, hrvDeltaMs: nil, listenFraction: 0.2, skipped: true, constants: impact)
        // 0.5 − 0.08 − 0.3 = 0.12 and 0.5 − 0.06 − 0.15 = 0.29.
        XCTAssertEqual(early.calm, 0.12, accuracy: 1e-12)
        XCTAssertEqual(late.calm, 0.29, accuracy: 1e-12)
    }

    func testAllScoresStayWithinZeroAndOne() {
        for hr in [-40.0, 0, 40] { for hrv in [-60.0, 0, 60] { for f in [0.0, 0.5, 1] {
            let s = Impact.of(hrDeltaBpm: hr, hrvDeltaMs: hrv, listenFraction: f, skipped: f < 0.3, constants: impact)
            for v in [s.calm, s.energy, s.focus, s.moodLift] { XCTAssertTrue((0...1).contains(v)) }
        } } }
    }

    // MARK: Skips

    func testPlayHeardBelowThirtyPercentIsSkipped() {
        var counts = PlayCleaningCounts()
        let p = PlayTiming.resolve([play("a", "2022-02-07T20:00:00.000Z", "2022-02-07T20:00:59.000Z", media: 200, played: 59)],
                                   counts: &counts)[0]
        XCTAssertTrue(p.skipped(sessions))
    }

    func testCompletedPlayHasListenFractionOne() {
        var counts = PlayCleaningCounts()
        let p = PlayTiming.resolve([play("a", "2022-02-07T20:00:00.000Z", "2022-02-07T20:03:20.000Z", media: 200, played: 200)],
                                   counts: &counts)[0]
        XCTAssertEqual(p.listenFraction, 1)
        XCTAssertFalse(p.skipped(sessions))
    }

    func testLateSkipPressFollowsTheFormulaNotTheVerificationList() {
        // Contradiction: the verification list has a skip press set the flag; the formula
        // (heard < 30 %) does not make a press at 90 % a skip. The formula is asserted.
        var counts = PlayCleaningCounts()
        let p = PlayTiming.resolve([play("a", "2022-02-07T20:00:00.000Z", "2022-02-07T20:03:00.000Z", media: 200, played: 180,
                                         skipped: true)], counts: &counts)[0]
        XCTAssertFalse(p.skipped(sessions))
    }

    // MARK: Sessions and context

    func testGapOverThirtyMinutesStartsANewSession() {
        let plays = [play("a", "2022-02-07T20:00:00.000Z", "2022-02-07T20:10:00.000Z"),
                     play("b", "2022-02-07T20:40:00.000Z", "2022-02-07T20:50:00.000Z"),
                     play("c", "2022-02-07T21:20:01.000Z", "2022-02-07T21:30:00.000Z")]
        var counts = PlayCleaningCounts()
        let (kept, dropped) = SessionGrouping.group(PlayTiming.resolve(plays, counts: &counts), constants: sessions)
        XCTAssertEqual(kept, [0..<2, 2..<3]); XCTAssertEqual(dropped, 0)
    }

    func testSessionsShorterThanFiveMinutesAreDropped() {
        let plays = [play("a", "2022-02-07T20:00:00.000Z", "2022-02-07T20:04:59.000Z")]
        var counts = PlayCleaningCounts()
        let (kept, dropped) = SessionGrouping.group(PlayTiming.resolve(plays, counts: &counts), constants: sessions)
        XCTAssertEqual(kept, []); XCTAssertEqual(dropped, 1)
    }

    func testContextByHourAndWeekend() {
        func context(_ iso: String) -> ListeningContext {
            ListeningContext.of(startMs: ms(iso), endMs: ms(iso), localStartMs: ms(iso), workouts: [], constants: sessions)
        }
        // 2022-02-07 is a Monday, 2022-02-12 a Saturday.
        XCTAssertEqual(context("2022-02-07T06:00:00.000Z"), .morning)
        XCTAssertEqual(context("2022-02-07T08:00:00.000Z"), .commute)
        XCTAssertEqual(context("2022-02-12T08:00:00.000Z"), .morning)
        XCTAssertEqual(context("2022-02-07T10:00:00.000Z"), .work)
        XCTAssertEqual(context("2022-02-12T10:00:00.000Z"), .relaxation)
        XCTAssertEqual(context("2022-02-07T18:00:00.000Z"), .commute)
        XCTAssertEqual(context("2022-02-12T18:00:00.000Z"), .relaxation)
        XCTAssertEqual(context("2022-02-07T20:00:00.000Z"), .relaxation)
        XCTAssertEqual(context("2022-02-07T23:00:00.000Z"), .preSleep)
        XCTAssertEqual(context("2022-02-07T03:00:00.000Z"), .preSleep)
    }

    func testSessionScoreWithUnknownSleepUsesHalf() {
        // 0.25·(1 − 0.25) + 0.30·clamp(0.5 + 4/20) + 0.25·0.8 + 0.20·0.5 = 0.1875 + 0.21 + 0.2 + 0.1 = 0.6975.
        XCTAssertEqual(SessionScore.score(skipRate: 0.25, hrvDeltaMs: 4, avgListen: 0.8, sleepScore: nil, constants: sessions),
                       0.6975, accuracy: 1e-12)
    }

    func testSleepScoreOfEightHoursWithQuarterDeepIsOne() {
        let night = SleepPeriod(startMs: 0, endMs: 8 * 3_600_000, asleepMs: 8 * 3_600_000, deepMs: 2 * 3_600_000)
        XCTAssertEqual(night.score(sessions), 1, accuracy: 1e-12)
        // 6 h with 10 % deep: 0.75·0.6 + 0.4·0.4 = 0.61.
        let short = SleepPeriod(startMs: 0, endMs: 6 * 3_600_000, asleepMs: 6 * 3_600_000, deepMs: 36 * 60_000)
        XCTAssertEqual(short.score(sessions), 0.61, accuracy: 1e-12)
    }

    func testNapsShorterThanThreeHoursAreNotTheNextNight() {
        let end = ms("2022-02-07T14:00:00.000Z")
        let nap = SleepPeriod(startMs: end + 3_600_000, endMs: end + 2 * 3_600_000, asleepMs: 3_600_000, deepMs: nil)
        let night = SleepPeriod(startMs: end + 9 * 3_600_000, endMs: end + 17 * 3_600_000, asleepMs: 8 * 3_600_000, deepMs: nil)
        XCTAssertEqual(SleepLink.nextNight(after: end, in: [nap, night], constants: sessions), night)
    }

    // MARK: Song learning

    func testAlphaIs0_4ForTheFirstFivePlaysThen0_2() {
        XCTAssertEqual((0..<7).map { EMALearner.alpha(after: $0, constants: learning) }, [0.4, 0.4, 0.4, 0.4, 0.4, 0.2, 0.2])
    }

    func testConfidenceCappedAt0_7WithoutBiometrics() throws {
        // Twenty full listens whose HR does not change (ΔHR exactly 0) and without HRV:
        // no biometric signal, so confidence stops at 0.7.
        let st = try learned(Array(repeating: keptPlay(heard: 1, hr: (70, 70)), count: 20))
        XCTAssertEqual(st.confidence, 0.7, accuracy: 1e-12)
        XCTAssertEqual(st.plays, 20)
    }

    func testEffectsStartAtHalf() {
        let st = EMAState(constants: learning)
        XCTAssertEqual([st.scores.calm, st.scores.energy, st.scores.focus, st.scores.moodLift], [0.5, 0.5, 0.5, 0.5])
    }
}
