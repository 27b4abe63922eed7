import Foundation

/// A segment read in overlapping chunks (docs/methods.md, Beats in chunks): chunk k holds
/// the samples from k·C − lead to (k + 1)·C + tail, cut at the segment's ends, and owns
/// the beats it places in k·C ..< (k + 1)·C. The lead lets the detector learn its levels
/// and the quality template fill before the first beat a chunk owns; the tail lets it
/// finish the last one. Memory stays a few chunks whatever the recording's length, and
/// the chunks of a batch run on every core; the chunks, not the cores, fix the result.
struct BeatChunks {
    /// C, the lead and the tail, samples.
    let span, lead, tail: Int

    /// Chunks decoded and then detected together on `jobs` cores: four a core, so that a
    /// half-hour record (six chunks) is one batch and the cores wait on each other once.
    static func batch(jobs: Int) -> Int { 4 * max(1, jobs) }

    struct Chunk {
        /// The segment's sample index of `samples[0]`.
        let first: Int
        /// Physical units.
        let samples: [Double]
        /// The segment's sample indices whose beats this chunk owns.
        let owned: Range<Int>
    }

    /// Calls `body` with the chunks of `segment` in order, `batch` of them at a time (the
    /// last batch may hold fewer), decoding the samples as it goes.
    func forEachBatch(of segment: WaveformSegment, store: WaveformStore, batch: Int,
                      _ body: ([Chunk]) throws -> Void) throws {
        let n = segment.samples
        var buffer: [Double] = []
        var bufferFirst = 0
        var next = 0
        var pending: [Chunk] = []
        func end(of k: Int) -> Int { min((k + 1) * span + tail, n) }
        let gain = segment.gain, baseline = segment.baseline
        try store.forEachSample(of: segment) { sample in
            buffer.append(WaveformSegment.physical(sample, gain: gain, baseline: baseline))
            // A short last chunk can end where the one before it does.
            while next * span < n, bufferFirst + buffer.count == end(of: next) {
                let first = max(0, next * span - lead)
                pending.append(Chunk(first: first, samples: Array(buffer[(first - bufferFirst)...]),
                                     owned: next * span..<min((next + 1) * span, n)))
                next += 1
                let keep = min(max(0, next * span - lead), bufferFirst + buffer.count)
                buffer.removeFirst(keep - bufferFirst)
                bufferFirst = keep
                if pending.count == batch || next * span >= n {
                    try body(pending)
                    pending = []
                }
            }
        }
    }
}

extension BeatChunks {
    /// The chunks `constants` give at `rateHz`.
    init(rateHz: Double, constants c: BeatQualityConstants) {
        func samples(_ s: Double) -> Int { max(1, Int((s * rateHz).rounded())) }
        self.init(span: samples(c.chunkS), lead: samples(c.chunkLeadS), tail: samples(c.chunkTailS))
    }
}
