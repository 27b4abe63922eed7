import XCTest
@testable import ResonanceLab

/// The state engine against labels: ticks every 30 s inside labelled intervals, scores
/// from the samples before each tick, AUCs pooled and per subject.
final class StateLabelsTests: XCTestCase {
    /// HR 65 bpm through the 10-minute baseline (its last tick included), 100 bpm in the
    /// 10-minute stress interval that follows.
    func subject(shift: Double = 0) -> (values: [[Double]], stressed: [Bool]) {
        let t0: Int64 = 1_000_020_000_000
        let hr = (0..<240).map { i in TimedSample(tMs: t0 + Int64(i) * 5000, value: (i <= 120 ? 65 : 100) + shift) }
        let labels = [LabelInterval(subject: "S", startMs: t0, endMs: t0 + 600_000, label: "baseline"),
                      LabelInterval(subject: "S", startMs: t0 + 600_000, endMs: t0 + 1_200_000, label: "stress"),
                      LabelInterval(subject: "S", startMs: t0 + 1_200_000, endMs: t0 + 1_300_000, label: "recovery")]
        return StateLabelScoring.ticks(hr: hr, sdnn: [], rr: [], labels: labels, state: .defaults)
    }

    func testTicksEveryThirtySecondsInsideStressAndBaseline() {
        let s = subject()
        // (t0, t0 + 600 s]: ticks at +30 … +600 s (20), then +630 … +1200 s (20); recovery ignored.
        XCTAssertEqual(s.stressed.count, 40)
        XCTAssertEqual(s.stressed.filter { $0 }.count, 20)
        let hr = s.values[StateLabelScoring.scores.firstIndex(of: "raw_hr") ?? 0]
        XCTAssertEqual(hr.first, 65)
        XCTAssertEqual(hr[20], 100, "the tick at +630 s reads the stress HR")
        // No HRV anywhere: stress is the empty 0.5 for every tick.
        XCTAssertTrue(s.values[0].allSatisfy { $0 == 0.5 })
    }

    func testRawHRSeparatesPerfectlyAndEmptyStressNotAtAll() {
        let rows = StateLabelScoring.rows([subject(), subject(shift: 5), subject(shift: -3)])
        func auc(_ score: String, _ scope: String) -> Double? { rows.first { $0.score == score && $0.scope == scope }?.auc }
        XCTAssertEqual(auc("raw_hr", "pooled"), 1)
        XCTAssertEqual(auc("raw_hr", "subject_median"), 1)
        XCTAssertEqual(auc("reference_arousal", "subject_median"), 1)
        XCTAssertEqual(auc("stress", "pooled"), 0.5, "all ties")
        XCTAssertEqual(rows.first?.subjects, 3)
        XCTAssertEqual(rows.first?.ticks, 120)
        XCTAssertEqual(rows.count, StateLabelScoring.scores.count * 2)
    }

    /// `hr_input` 1: the reliable detected beats become a heart-rate sample of 60 000 /
    /// interval and an R-R sample at each beat, in time order; unreliable beats, a segment's
    /// first beat (no interval) and other subjects are left out; no SDNN samples.
    func testBeatSeriesFromReliableBeats() {
        func beat(_ subject: String, _ t: Int64, _ rr: Double?, reliable: Bool = true) -> DetectedBeat {
            DetectedBeat(subject: subject, timestampMs: t, intervalMs: rr, source: "e4:elgendi-foot", channel: "bvp",
                         fiducial: "pulse_onset", quality: 0.9, motionG: nil, reliable: reliable)
        }
        let beats = [beat("S1", 3000, 750), beat("S1", 1000, nil), beat("S1", 2250, 800), beat("S1", 4000, 1000, reliable: false),
                     beat("S2", 5000, 600), beat("S9", 1000, 500)]
        let series = StateLabelScoring.beatSeries(beats, subjects: ["S1", "S2"])
        XCTAssertEqual(Set(series.keys), ["S1", "S2"])
        XCTAssertEqual(series["S1"]?.hr.map(\.tMs), [2250, 3000])
        XCTAssertEqual(series["S1"]?.hr.map(\.value), [75, 80])
        XCTAssertEqual(series["S1"]?.rr.map(\.value), [800, 750])
        XCTAssertEqual(series["S1"]?.sdnn.count, 0)
        XCTAssertEqual(series["S2"]?.hr.map(\.value), [100])
    }
}

