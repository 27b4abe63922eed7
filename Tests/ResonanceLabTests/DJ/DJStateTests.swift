import XCTest
@testable import ResonanceLab

/// Known answers of the DJ's state engine: windows, trends, confidences, energy blend,
/// focus, need rules, the reference variant and baselines.
final class DJStateTests: XCTestCase {
    let engine = DJStateEngine()
    let reference = DJStateEngine(variant: .reference)
    let fallback = PersonalBaseline.fallback(.defaults)
    let now: Int64 = 1_000_000_000

    func sample(_ secondsBefore: Double, _ value: Double) -> TimedSample {
        TimedSample(tMs: now - Int64(secondsBefore * 1000), value: value)
    }

    func testSpecificationsMappingExamples() {
        // HR at rest → 0, at the maximum → 1 (rest 60, max 180 = 220 − 40).
        let b = PersonalBaseline(restingHRBpm: 60, sdnnMs: 50, age: 40)
        XCTAssertEqual(engine.arousal([sample(0, 60)][...], baseline: b).value, 0, accuracy: 1e-12)
        XCTAssertEqual(engine.arousal([sample(0, 180)][...], baseline: b).value, 1, accuracy: 1e-12)
        // HRV 80 ms on a 50 ms baseline: 1 − 0.6·1.6 = 0.04.
        XCTAssertEqual(engine.stress([sample(0, 80)][...], baseline: b).value, 0.04, accuracy: 1e-12)
    }

    func testHR95AndSDNN35GiveMaintainAtAbout103BPM() {
        // Fallbacks rest 60, max 190, baseline 50: arousal 35/130, stress 1 − 0.6·0.7 = 0.58,
        // energy 0.6·0.26923 + 0.4·0.42 = 0.32954: no rule fires → maintain.
        let s = engine.state(at: now, hr: [sample(10, 95)], sdnn: [sample(10, 35)], baseline: fallback, context: .relaxation)
        XCTAssertEqual(s.arousal, 35.0 / 130, accuracy: 1e-12)
        XCTAssertEqual(s.stress, 0.58, accuracy: 1e-12)
        XCTAssertEqual(s.energy, 0.6 * 35 / 130 + 0.4 * 0.42, accuracy: 1e-12)
        XCTAssertEqual(s.need, .maintain)
        XCTAssertEqual(RankingEngine().targetBPM(s, hour: 14), 90 + 40 * (0.6 * 35 / 130 + 0.4 * 0.42), accuracy: 1e-9)
        XCTAssertEqual(RankingEngine().targetBPM(s, hour: 14), 103.18, accuracy: 0.01)
        // Confidences: one sample each → (0.1 + 0.2)/2.
        XCTAssertEqual(s.confidence, 0.15, accuracy: 1e-12)
        let r = reference.state(at: now, hr: [sample(10, 95)], sdnn: [sample(10, 35)], baseline: fallback, context: .relaxation)
        XCTAssertEqual(r.need, .maintain)
        XCTAssertEqual(r.confidence, 1, accuracy: 1e-12)
    }

    func testTrendsAreSlopesPerMinute() {
        // HR 60, 66, 72 one minute apart: slope 6 bpm/min; (72 − 60)/130 + 0.1·6.
        let hr = [sample(120, 60), sample(60, 66), sample(0, 72)]
        let a = engine.arousal(hr[...], baseline: fallback)
        XCTAssertEqual(a.value, 12.0 / 130 + 0.6, accuracy: 1e-12)
        XCTAssertEqual(a.confidence, 0.3, accuracy: 1e-12)
        // Two samples: no trend.
        XCTAssertEqual(engine.arousal(hr[1...], baseline: fallback).value, 12.0 / 130, accuracy: 1e-12)
        // SDNN 40, 45, 50: slope 5 ms/min; 1 − 0.6 − 0.05·5 = 0.15, confidence 3/5.
        let s = engine.stress([sample(120, 40), sample(60, 45), sample(0, 50)][...], baseline: fallback)
        XCTAssertEqual(s.value, 0.15, accuracy: 1e-12)
        XCTAssertEqual(s.confidence, 0.6, accuracy: 1e-12)
        // The trend result is clamped: a steep rise cannot push arousal past 1.
        XCTAssertEqual(engine.arousal([sample(120, 60), sample(60, 120), sample(0, 180)][...], baseline: fallback).value, 1)
        // The reference variant has no trend.
        XCTAssertEqual(reference.arousal(hr[...], baseline: fallback).value, 12.0 / 130, accuracy: 1e-12)
    }

    func testWindowsAreFiveAndTenMinutesEndingNow() {
        let hr = [sample(300, 200), sample(299, 80), sample(-1, 200)]
        let w = DJStateEngine.window(hr, endingAt: now, seconds: 300)
        XCTAssertEqual(w.map(\.value), [80], "(now − 300 s, now]: the sample at exactly 300 s and a later one are out")
        let empty = engine.state(at: now, hr: [sample(301, 90)], sdnn: [sample(601, 20)], baseline: fallback, context: .work)
        XCTAssertEqual(empty.arousal, 0.5); XCTAssertEqual(empty.stress, 0.5)
        XCTAssertEqual(empty.confidence, 0)
        XCTAssertEqual(empty.hrSamples, 0); XCTAssertEqual(empty.sdnnSamples, 0)
        // Reference variant: HR 72 and SDNN 50 when nothing is recent, confidence 0.
        let r = reference.state(at: now, hr: [], sdnn: [], baseline: fallback, context: .work)
        XCTAssertEqual(r.arousal, 12.0 / 130, accuracy: 1e-12)
        XCTAssertEqual(r.stress, 0.4, accuracy: 1e-12)
        XCTAssertEqual(r.confidence, 0)
    }

    func testConfidenceUsesSampleQuality() {
        let hr = (0..<20).map { TimedSample(tMs: now - Int64($0) * 5000, value: 70, quality: 0.5) }.reversed()
        XCTAssertEqual(engine.arousal(Array(hr)[...], baseline: fallback).confidence, 0.5, accuracy: 1e-12)
    }

    func testBeatSDNNWinsOverTheLatestSample() {
        let s = engine.stress([sample(10, 10)][...], beatSDNNMs: 50, baseline: fallback)
        XCTAssertEqual(s.value, 0.4, accuracy: 1e-12)
    }

    /// Stress confidence counts SDNN samples (min(1, n/5)): beats without a sample give
    /// the stress with confidence 0, not 1/5. The reference variant's 0.5 needs a recent
    /// SDNN sample too.
    func testStressConfidenceCountsSDNNSamplesOnly() {
        let beatsOnly = engine.stress([][...], beatSDNNMs: 50, baseline: fallback)
        XCTAssertEqual(beatsOnly.value, 0.4, accuracy: 1e-12)
        XCTAssertEqual(beatsOnly.confidence, 0)
        XCTAssertEqual(engine.stress([sample(10, 40), sample(20, 40)][...], beatSDNNMs: 50, baseline: fallback).confidence, 0.4,
                       accuracy: 1e-12)
        let referenceBeatsOnly = reference.stress([][...], beatSDNNMs: 50, baseline: fallback)
        XCTAssertEqual(referenceBeatsOnly.value, 0.4, accuracy: 1e-12)
        XCTAssertEqual(referenceBeatsOnly.confidence, 0)
        XCTAssertEqual(reference.stress([sample(10, 40)][...], beatSDNNMs: 50, baseline: fallback).confidence, 0.5)
    }

    func testEnergyBlendsTowardTheUsualEnergy() {
        let plain = engine.state(at: now, hr: [sample(10, 95)], sdnn: [sample(10, 35)], baseline: fallback, context: .relaxation)
        let blended = engine.state(at: now, hr: [sample(10, 95)], sdnn: [sample(10, 35)], baseline: fallback, context: .relaxation,
                                   usualEnergy: 0.8)
        XCTAssertEqual(blended.energy, 0.8 * plain.energy + 0.2 * 0.8, accuracy: 1e-12)
        let ref = reference.state(at: now, hr: [sample(10, 95)], sdnn: [sample(10, 35)], baseline: fallback, context: .relaxation,
                                  usualEnergy: 0.8)
        XCTAssertEqual(ref.energy, plain.energy, accuracy: 1e-12, "the reference variant has no pattern blend")
    }

    func testFocusAndValenceByContext() {
        func state(_ c: DJContext) -> DJState {
            engine.state(at: now, hr: [sample(10, 95)], sdnn: [sample(10, 35)], baseline: fallback, context: c)
        }
        XCTAssertEqual(state(.deepWork).focus, 0.8 - 0.3 * 0.58, accuracy: 1e-12)
        XCTAssertEqual(state(.workout).focus, 0.3, accuracy: 1e-12)
        // Arousal 0.269 < 0.4: + 0.1.
        XCTAssertEqual(state(.work).focus, 0.5 - 0.2 * 0.58 + 0.1, accuracy: 1e-12)
        XCTAssertEqual(state(.work).valence, 0.5 - 0.3 * 0.58, accuracy: 1e-12)
    }

    func make(_ context: DJContext, arousal: Double = 0.5, stress: Double = 0.4, energy: Double = 0.5, focus: Double = 0.5,
              at t: Int64 = 0) -> DJState {
        DJState(tMs: t, arousal: arousal, stress: stress, energy: energy, focus: focus, valence: 0.5, arousalConfidence: 1,
                stressConfidence: 1, confidence: 1, context: context, need: .maintain, hrSamples: 10, sdnnSamples: 5)
    }

    func testNeedRulesInTheSpecificationsOrder() {
        XCTAssertEqual(engine.need(make(.workout, energy: 0.49), previous: nil), .energize)
        XCTAssertEqual(engine.need(make(.workout, stress: 0.9, energy: 0.5), previous: nil), .maintain, "workout wins over stress")
        XCTAssertEqual(engine.need(make(.postWorkout), previous: nil), .calm)
        XCTAssertEqual(engine.need(make(.preSleep, stress: 0), previous: nil), .calm)
        XCTAssertEqual(engine.need(make(.deepWork, stress: 0.9), previous: nil), .focus)
        XCTAssertEqual(engine.need(make(.relaxation, stress: 0.71), previous: nil), .calm)
        XCTAssertEqual(engine.need(make(.relaxation, stress: 0.7), previous: nil), .maintain, "stress must exceed 0.7")
        XCTAssertEqual(engine.need(make(.relaxation, arousal: 0.39, energy: 0.29), previous: nil), .energize)
        XCTAssertEqual(engine.need(make(.relaxation, arousal: 0.4, energy: 0.29), previous: nil), .maintain)
        XCTAssertEqual(engine.need(make(.work, focus: 0.61), previous: nil), .focus)
        XCTAssertEqual(engine.need(make(.commute, focus: 0.61), previous: nil), .maintain)
        // Transition: energy moved 0.25 within 10 minutes; not after 11.
        let before = make(.relaxation, energy: 0.3, at: 0)
        XCTAssertEqual(engine.need(make(.relaxation, energy: 0.55, at: 600_000), previous: before), .transition)
        XCTAssertEqual(engine.need(make(.relaxation, energy: 0.55, at: 660_000), previous: before), .maintain)
        XCTAssertEqual(engine.need(make(.relaxation, energy: 0.45, at: 60_000), previous: before), .maintain)
    }

    func testReferenceNeedOrder() {
        XCTAssertEqual(reference.need(make(.workout, energy: 0.4), previous: nil), .energize)
        XCTAssertEqual(reference.need(make(.workout, stress: 0.8, energy: 0.6), previous: nil), .calm, "stress before maintain")
        XCTAssertEqual(reference.need(make(.postWorkout), previous: nil), .maintain)
        XCTAssertEqual(reference.need(make(.preSleep), previous: nil), .maintain)
        XCTAssertEqual(reference.need(make(.deepWork, stress: 0.8), previous: nil), .calm, "stress before deep work")
        XCTAssertEqual(reference.need(make(.relaxation, arousal: 0.1, energy: 0.1), previous: nil), .maintain)
    }

    func testContextFromWorkoutsAndClock() {
        // 2026-01-05 is a Monday; 10:00 is work.
        let day: Int64 = 20458 * 86_400_000, ten = day + 10 * 3_600_000
        let c = StateConstants.defaults, s = SessionConstants.defaults
        let workout = (startMs: ten - 3_600_000, endMs: ten - 600_000)
        XCTAssertEqual(DJStateEngine.context(at: ten - 1_800_000, localMs: ten - 1_800_000, workouts: [workout], state: c, sessions: s), .workout)
        XCTAssertEqual(DJStateEngine.context(at: ten, localMs: ten, workouts: [workout], state: c, sessions: s), .postWorkout)
        XCTAssertEqual(DJStateEngine.context(at: ten + 360_000, localMs: ten + 360_000, workouts: [workout], state: c, sessions: s), .work)
        XCTAssertEqual(DJStateEngine.context(at: day + 23 * 3_600_000, localMs: day + 23 * 3_600_000, workouts: [], state: c, sessions: s),
                       .preSleep)
    }

    func testBaselinesFromOwnDaysOnceThereAreThree() {
        let c = StateConstants.defaults
        XCTAssertEqual(PersonalBaseline.from(dailyRestingHR: [50, 52], dailySDNN: [40, 44], age: nil, constants: c),
                       PersonalBaseline(restingHRBpm: 60, sdnnMs: 50, age: 30))
        XCTAssertEqual(PersonalBaseline.from(dailyRestingHR: [50, 58, 52], dailySDNN: [40, 44, 90], age: 45, constants: c),
                       PersonalBaseline(restingHRBpm: 52, sdnnMs: 44, age: 45))
        // Only the last 14 days count.
        let old = [Double](repeating: 90, count: 20) + [Double](repeating: 55, count: 14)
        XCTAssertEqual(PersonalBaseline.from(dailyRestingHR: old, dailySDNN: old, age: nil, constants: c).restingHRBpm, 55)
    }

    func testPersonalInputMethodKeepsTheFormulasOnTheOwnReference() throws {
        let personal = DJStateEngine(constants: try StateConstants(registry: ConstantsRegistry.defaults.replacing("state", with: ["input_method": 1])))
        // 25 min of HR at 80 bpm, 1 Hz: the reference (the 20 min before the 5-min HR window)
        // is 80 bpm, so arousal = (80 − 80)/(190 − 80) = 0 and stress = 1 − 0.6·(80/80) = 0.4,
        // the specification's value at baseline HRV. The specification's inputs read rest 60:
        // arousal 20/130, and without an SDNN sample no stress (0.5).
        let hr = (0..<1500).map { sample(Double($0), 80) }.reversed().map { $0 }
        let p = personal.state(at: now, hr: hr, sdnn: [], baseline: fallback, context: .relaxation)
        XCTAssertEqual(p.arousal, 0, accuracy: 1e-12)
        XCTAssertEqual(p.stress, 0.4, accuracy: 1e-12)
        let s = engine.state(at: now, hr: hr, sdnn: [], baseline: fallback, context: .relaxation)
        XCTAssertEqual(s.arousal, 20.0 / 130, accuracy: 1e-12)
        XCTAssertEqual(s.stress, 0.5, accuracy: 1e-12)
        // HR 100 now over the 80-bpm reference: stress 1 − 0.6·0.8 = 0.52, arousal 20/110 (+ the trend term).
        let rising = hr.dropLast() + [sample(0, 100)]
        let q = personal.state(at: now, hr: Array(rising), sdnn: [], baseline: fallback, context: .relaxation)
        XCTAssertEqual(q.stress, 0.52, accuracy: 1e-12)
        let slope = DJStateEngine.slopePerMinute(DJStateEngine.window(Array(rising), endingAt: now, seconds: 300))
        XCTAssertEqual(q.arousal, 20.0 / 110 + 0.1 * slope, accuracy: 1e-12)
        // Under 3 min of reference (personal_min_samples 180): the specification's inputs.
        let short = Array(hr.suffix(400))
        XCTAssertEqual(personal.state(at: now, hr: short, sdnn: [], baseline: fallback, context: .relaxation).arousal, 20.0 / 130, accuracy: 1e-12)
    }
}
