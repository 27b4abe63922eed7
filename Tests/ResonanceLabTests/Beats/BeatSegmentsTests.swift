import Foundation
import XCTest
@testable import ResonanceLab

/// A segment's summary: coverage and the ultra-short indices, worked by hand.
final class BeatSegmentsTests: XCTestCase {
    /// A 30-s watch ECG at 512 Hz starting 2 s into its recording.
    private let segment = WaveformSegment(
        subject: "P1", channel: "ecg", unit: "µV", source: "apple-health-ecg", startMs: 1_700_000_000_000, firstSample: 1024,
        rateHz: 512, samples: 15_360, gain: 1, baseline: 0, offset: 8, bytes: 100, zeroSamples: 0, flatSamples: 0,
        clippedSamples: 0, roundedSamples: 0, file: "ecg_2024-03-01.csv")

    private func beats(_ intervals: [Double?], reliable: [Bool]) -> [DetectedBeat] {
        var t: Int64 = 1_700_000_002_500
        return zip(intervals, reliable).map { interval, ok in
            t += Int64(interval ?? 0)
            return DetectedBeat(subject: "P1", timestampMs: t, intervalMs: interval, source: "apple-health-ecg:pan-tompkins",
                                channel: "ecg", fiducial: "r_peak", quality: 0.99, motionG: nil, reliable: ok)
        }
    }

    func testMeanHeartRateRMSSDAndCoverageOfTheReliableIntervals() {
        // Reliable intervals 800, 810, 790, 800, 820, 800 ms: mean 803.33 ms (74.689 bpm);
        // successive differences 10, −20, 10, 20, −20: RMSSD √(1400 / 5) = 16.733 ms;
        // 4.82 s of 30 s covered.
        let rows = beats([nil, 800, 810, 790, 800, 820, 800], reliable: [false] + Array(repeating: true, count: 6))
        let s = BeatSegment.summary(of: segment, source: "apple-health-ecg:pan-tompkins", beats: rows[...], constants: .defaults)
        XCTAssertEqual(s.startMs, 1_700_000_002_000)
        XCTAssertEqual(s.durationS, 30)
        XCTAssertEqual(s.beats, 7)
        XCTAssertEqual(s.reliableIntervals, 6)
        XCTAssertEqual(s.coverage, 0.161)
        XCTAssertEqual(s.meanHRBpm, 74.689)
        XCTAssertEqual(s.rmssdMs, 16.733)
    }

    /// An unreliable interval in the middle leaves 4 successive differences: below the
    /// 5 `summary_min_intervals` asks for, so no RMSSD; the mean heart rate stays.
    func testTooFewSuccessiveDifferencesGiveNoRMSSD() {
        let rows = beats([nil, 800, 810, 1500, 800, 820, 800, 790], reliable: [false, true, true, false, true, true, true, true])
        let s = BeatSegment.summary(of: segment, source: "x", beats: rows[...], constants: .defaults)
        XCTAssertEqual(s.reliableIntervals, 6)
        XCTAssertNotNil(s.meanHRBpm)
        XCTAssertNil(s.rmssdMs)
    }
}
