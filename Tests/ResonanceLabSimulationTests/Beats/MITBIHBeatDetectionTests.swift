import Foundation
import XCTest
@testable import ResonanceLab

/// The R-peak detector against MIT-BIH record 100's reference beats, scored as
/// ANSI/AAMI EC57 scores a detector (150 ms window, the whole record, lead MLII).
final class MITBIHBeatDetectionTests: XCTestCase {
    func testRecord100SensitivityAndPositivePredictivityAtLeast99Point8() throws {
        let (ws, _) = try importSources([try datasetsRoot() + "/mitdb"])
        let store = try WaveformStore(ws)
        let lead = try XCTUnwrap(store.segments.first { $0.channel == "mlii" })
        let result = ECGPeaks.detect(try store.physical(lead), rateHz: lead.rateHz)
        let reference = try ws.read(ReferenceAnnotation.self).filter(\.beat).map { Double($0.sample) / lead.rateHz }
        let match = BeatMatch.match(detected: result.peaks.map { $0 / lead.rateHz }, reference: reference, window: 0.150)
        XCTAssertEqual(reference.count, 2273)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(match.sensitivity), 0.998, "\(match.falseNegatives) missed")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(match.positivePredictivity), 0.998, "\(match.falsePositives) extra")
        XCTAssertEqual(result.polarity, 1)
        // The R peak lies within a few milliseconds of the reference mark (the median offset).
        let offsets = match.offsets.sorted()
        XCTAssertLessThan(abs(offsets[offsets.count / 2]), 0.005)
    }
}

extension MITBIHBeatDetectionTests {
    /// The beats stage reads record 100 in chunks of 5 minutes on two cores: the same
    /// 2,273 beats at the same times (to the microsecond) as one pass over the record.
    func testChunkedDetectionEqualsOnePassOverTheRecord() throws {
        let (ws, _) = try importSources([try datasetsRoot() + "/mitdb"])
        let store = try WaveformStore(ws)
        let lead = try XCTUnwrap(store.segments.first { $0.channel == "mlii" })
        let whole = ECGPeaks.detect(try store.physical(lead), rateHz: lead.rateHz).peaks
        var timing = DetectionTiming()
        let chunked = try BeatKind.ecg.detect(lead, store: store, registry: .defaults, jobs: 2, timing: &timing)
        XCTAssertEqual(BeatChunks(rateHz: lead.rateHz, constants: .defaults).span, 108_000)
        XCTAssertEqual(chunked.positions.count, 2273)
        XCTAssertEqual(chunked.positions.count, whole.count)
        for (a, b) in zip(chunked.positions, whole) { XCTAssertEqual(a, b, accuracy: 1e-6) }
        XCTAssertEqual(timing.ecgSamples, 650_000)
    }
}
