import XCTest
@testable import ResonanceLab

/// A recording measured window by window: the engine's `window_input` picks the device's
/// heart rate or the detected beats for every window and reference tile.
final class StressRecordingTests: XCTestCase {
    /// 1-Hz HR of 60 bpm for 10 min, and reliable beats every 800 ms (75 bpm) over the same time.
    func recording(input: Double) throws -> StressRecording {
        let hr = MeasurementSeries(subject: "S", timestampsMs: (0..<600).map { Int64($0) * 1000 },
                                   values: Array(repeating: 60, count: 600))
        var channels = StressChannelSeries()
        channels.pulseBeats = (1...750).map { StressBeat(tMs: Int64($0) * 800, rrMs: 800) }
        let stress = StressConstants(registry: try ConstantsRegistry.defaults.replacing("stress", with: ["window_input": input]))
        return StressRecording(subject: "S", hr: hr, rr: nil, options: StressScoringOptions(), stress: stress, channels: channels)
    }

    func testWindowInputPicksTheDeviceHeartRateOrTheBeats() throws {
        let device = try recording(input: 0), beats = try recording(input: 1)
        let slot = StressSlot(startMs: 300_000, endMs: 360_000, stress: true, task: "stroop", transition: "start")
        let a = device.scored(slot), b = beats.scored(slot)
        XCTAssertEqual(a.signals.hrBpm ?? 0, 60, accuracy: 1e-12)
        XCTAssertNil(a.signals.sdnnMs, "no R-R: no SDNN from the device")
        XCTAssertEqual(b.signals.hrBpm ?? 0, 75, accuracy: 1e-12)
        XCTAssertEqual(b.signals.sdnnMs ?? -1, 0, accuracy: 1e-12)
        // Both carry the beats' signals beside the engine's input.
        XCTAssertEqual(a.beatSignals, b.signals)
        // The rolling reference and the reference tiles follow the same input.
        XCTAssertEqual(b.rolling.windows.compactMap(\.hrBpm).first ?? 0, 75, accuracy: 1e-12)
        XCTAssertEqual(device.tiles(from: 0, until: 180_000).map(\.hrBpm), [60, 60, 60])
        XCTAssertEqual(device.tiles(from: 0, until: 180_000, beats: true).map(\.hrBpm), [75, 75, 75])
    }
}
