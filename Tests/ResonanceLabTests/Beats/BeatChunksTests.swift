import Foundation
import XCTest
@testable import ResonanceLab

/// A segment read in overlapping chunks, and beats found chunk by chunk.
final class BeatChunksTests: XCTestCase {
    /// A 1-Hz E4 channel whose samples are their own indices, imported.
    private func counting(_ n: Int) throws -> (WaveformStore, WaveformSegment) {
        let dir = try makeTempDir() + "/S01"
        try writeFixture("1700000000\n1\n" + (0..<n).map(String.init).joined(separator: "\n") + "\n", to: dir + "/BVP.csv")
        let (ws, _) = try importSources([dir])
        let store = try WaveformStore(ws)
        return (store, try XCTUnwrap(store.segments.first))
    }

    /// Spans of 60 samples, a lead of 15 and a tail of 5 over 123 samples: chunk 1 ends
    /// at the last sample, and chunk 2 (3 samples owned) ends there too.
    func testChunksOverlapByTheLeadAndTailAndTheShortLastOneIsKept() throws {
        let (store, segment) = try counting(123)
        var seen: [(first: Int, count: Int, owned: Range<Int>)] = []
        var batches: [Int] = []
        try BeatChunks(span: 60, lead: 15, tail: 5).forEachBatch(of: segment, store: store, batch: 2) { batch in
            batches.append(batch.count)
            for c in batch {
                XCTAssertEqual(c.samples, (c.first..<c.first + c.samples.count).map(Double.init))
                seen.append((c.first, c.samples.count, c.owned))
            }
        }
        XCTAssertEqual(seen.map(\.first), [0, 45, 105])
        XCTAssertEqual(seen.map(\.count), [65, 78, 18])
        XCTAssertEqual(seen.map(\.owned), [0..<60, 60..<120, 120..<123])
        XCTAssertEqual(batches, [2, 1])
    }

    func testASegmentOfWholeSpansEndsWithItsLastSpan() throws {
        let (store, segment) = try counting(120)
        var owned: [Range<Int>] = []
        try BeatChunks(span: 60, lead: 15, tail: 5).forEachBatch(of: segment, store: store, batch: 4) { owned += $0.map(\.owned) }
        XCTAssertEqual(owned, [0..<60, 60..<120])
    }

    /// Twenty minutes of pulse wave at 64 Hz (four chunks): the onsets found chunk by
    /// chunk are those of one pass over the recording, for one core or two.
    func testPulseOnsetsChunkByChunkEqualOnePass() throws {
        let onsets = SyntheticBeats.times(seconds: 1200, from: 1, seed: 9)
        let x = SyntheticBeats.pulseWave(onsets, seconds: 1200, rateHz: 64)
        let dir = try makeTempDir() + "/S01"
        try writeFixture("1700000000\n64\n" + x.map { String(format: "%.4f", 100 * $0) }.joined(separator: "\n") + "\n",
                         to: dir + "/BVP.csv")
        let (ws, _) = try importSources([dir])
        let store = try WaveformStore(ws)
        let segment = try XCTUnwrap(store.segments.first)
        let whole = PPGOnsets.detect(try store.physical(segment), rateHz: 64).onsets
        XCTAssertGreaterThan(whole.count, 1000)
        for jobs in [1, 2] {
            var timing = DetectionTiming()
            let chunked = try BeatKind.pulse.detect(segment, store: store, registry: .defaults, jobs: jobs, timing: &timing)
            XCTAssertEqual(chunked.positions.count, whole.count)
            for (a, b) in zip(chunked.positions, whole) { XCTAssertEqual(a, b, accuracy: 1e-9) }
            XCTAssertEqual(timing.ppgSamples, 1200 * 64)
        }
    }
}
