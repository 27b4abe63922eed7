import Foundation

/// Streaming reader of a JSON Lines file (one JSON value per line, ListenBrainz's
/// `listens/<year>/<month>.jsonl`): read in fixed-size chunks, one line decoded at a
/// time, so memory is bounded by the chunk and the longest line. Lines holding only
/// white space are not records. The bytes become text by the import's one rule (`TextFile`).
struct JSONLinesReader {
    let path: String
    var chunkSize = 1 << 20

    /// Calls `body` with each non-blank line's object (nil when the line is not a JSON
    /// object), its text and its 1-based line number; returns the number of such lines.
    @discardableResult
    func forEachLine(_ body: ([String: Any]?, String, Int) throws -> Void) throws -> Int {
        let text = try TextFile(path: path)
        var pending: [UInt8] = []
        var line = 0, records = 0
        func flush() throws {
            line += 1
            defer { pending.removeAll(keepingCapacity: true) }
            let bytes = pending[...]
            guard bytes.contains(where: { !($0 == 32 || $0 == 9 || $0 == 13) }) else { return }
            records += 1
            let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
            try body(object, String(decoding: bytes, as: UTF8.self), line)
        }
        while true {
            let chunk = try text.read(upToCount: chunkSize)
            if chunk.isEmpty { break }
            for byte in chunk {
                if byte == 10 { try flush() } else { pending.append(byte) }
            }
        }
        if !pending.isEmpty { try flush() }
        return records
    }
}
