import Foundation
import XCTest
@testable import ResonanceLab

/// The preference rule of `rr_combined.csv`, worked by hand.
final class CombinedRRTests: XCTestCase {
    private func device(_ t: Int64, _ rr: Double) -> RRInterval {
        RRInterval(subject: "S", timestampMs: t, rrMs: rr, source: "e4")
    }

    private func detected(_ t: Int64, _ interval: Double?, reliable: Bool = true) -> DetectedBeat {
        DetectedBeat(subject: "S", timestampMs: t, intervalMs: interval, source: "e4:elgendi-foot", channel: "bvp",
                     fiducial: "pulse_onset", quality: 0.99, motionG: nil, reliable: reliable)
    }

    func testDeviceIntervalsFirstAndDetectedOnesWhereNoneOverlapsByMoreThanTenMilliseconds() {
        // rr.csv covers 200–2600 ms; an implausible 3,000-ms interval (7,000–10,000) covers nothing.
        let rr = [device(1000, 800), device(1800, 800), device(2600, 800), device(10_000, 3000)]
        let beats = [
            detected(1000, nil),            // a segment's first beat: no interval
            detected(2590, 2000),           // 590–2590: inside rr.csv's
            detected(2605, 805),            // 1800–2605: overlaps by 800 ms
            detected(3395, 805),            // 2590–3395: overlaps by 10 ms, added
            detected(4200, 811),            // 3389–4200: added (rr.csv ends at 2600)
            detected(5000, 800, reliable: false),
            detected(5611, 611),            // 5000–5611: added
            detected(9000, 800),            // inside the implausible interval only: added
        ]
        let merged = CombinedRR.merge(device: rr, detected: beats, plausible: .defaults)
        XCTAssertEqual(merged.map(\.timestampMs), [1000, 1800, 2600, 3395, 4200, 5611, 9000, 10_000])
        XCTAssertEqual(merged.map(\.rrMs), [800, 800, 800, 805, 811, 611, 800, 3000])
        XCTAssertEqual(merged.map(\.source), ["e4", "e4", "e4", "e4:elgendi-foot", "e4:elgendi-foot", "e4:elgendi-foot",
                                             "e4:elgendi-foot", "e4"])
    }

    func testElevenMillisecondsOfOverlapKeepTheDetectedIntervalOut() {
        let merged = CombinedRR.merge(device: [device(2600, 800)], detected: [detected(3400, 811)], plausible: .defaults)
        XCTAssertEqual(merged.map(\.timestampMs), [2600])
    }

    func testATieInTimeKeepsTheDeviceRowFirst() {
        let merged = CombinedRR.merge(device: [device(5000, 800)], detected: [detected(5000, 4)], plausible: .defaults)
        XCTAssertEqual(merged.map(\.source), ["e4", "e4:elgendi-foot"])
    }
}
