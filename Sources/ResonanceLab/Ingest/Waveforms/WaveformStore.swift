import Foundation

/// Reads the waveforms of a workspace (`waveforms.csv` and `waveforms.bin`): the
/// segments, and each segment's samples decoded from its byte range.
public struct WaveformStore {
    public let segments: [WaveformSegment]
    private let bytes: Data

    /// The workspace's waveforms; none when it has no `waveforms.csv`.
    public init(_ workspace: Workspace) throws {
        segments = try workspace.readIfPresent(WaveformSegment.self) ?? []
        guard !segments.isEmpty, let path = try workspace.readable(WaveformSink.fileName) else {
            if let first = segments.first {
                throw TableError(path: workspace.file(WaveformSink.fileName), line: 0, column: 0,
                                 message: "missing: waveforms.csv lists \(segments.count) segments (the first of \(first.subject))")
            }
            bytes = Data()
            return
        }
        bytes = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        guard bytes.prefix(WaveformSink.magic.count).elementsEqual(WaveformSink.magic) else {
            throw TableError(path: path, line: 0, column: 0, message: "not a waveform file (it does not start with RLWAVE1)")
        }
        for (i, s) in segments.enumerated() where s.offset < WaveformSink.magic.count || s.bytes > bytes.count - s.offset {
            throw TableError(path: workspace.file(WaveformSegment.fileName), line: i + 2, column: 11,
                             message: "segment bytes \(s.offset)..<\(s.offset + s.bytes) lie outside waveforms.bin (\(bytes.count) bytes)")
        }
    }

    /// Calls `body` with each sample of `segment` as printed (`whole / 10^decimals`, in
    /// stored units: apply `gain` and `baseline` for physical units), in time order.
    public func forEachSample(of segment: WaveformSegment, _ body: (WaveformCodec.Fixed) throws -> Void) throws {
        try bytes.withUnsafeBytes { raw in
            let range = UnsafeRawBufferPointer(rebasing: raw[segment.offset..<segment.offset + segment.bytes])
            var seen = 0
            try WaveformCodec.decode(range) { sample in
                seen += 1
                try body(sample)
            }
            guard seen == segment.samples else {
                throw TableError(path: WaveformSink.fileName, line: 0, column: 0,
                                 message: "segment of \(segment.subject) \(segment.channel) holds \(seen) samples, waveforms.csv says \(segment.samples)")
            }
        }
    }

    /// The samples of `segment` in physical units: `(stored − baseline) / gain`.
    public func physical(_ segment: WaveformSegment) throws -> [Double] {
        var out: [Double] = []
        out.reserveCapacity(segment.samples)
        try forEachSample(of: segment) { out.append(segment.physical($0)) }
        return out
    }
}
