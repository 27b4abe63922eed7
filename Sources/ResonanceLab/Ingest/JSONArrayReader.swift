import Foundation

/// Streaming reader of a JSON file whose top level is an array of objects (Spotify
/// and Fitbit exports): the file is read in fixed-size chunks and each top-level
/// object is decoded on its own, so memory is bounded by the chunk and the largest
/// object, whatever the file size.
struct JSONArrayReader {
    let path: String
    var chunkSize = 1 << 20

    /// Calls `body` with each element object and the 1-based line it starts on.
    /// Elements that are not objects, or not valid JSON, throw with file and line.
    func forEachObject(_ body: ([String: Any], Int) throws -> Void) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CSVError.cannotOpen(path: path, reason: "cannot open")
        }
        defer { try? handle.close() }
        var pending: [UInt8] = []   // bytes of the element being collected
        var depth = 0               // nesting depth, the top-level array is 1
        var inString = false, escaped = false, sawArray = false
        var line = 1, elementLine = 1
        while true {
            let chunk = try handle.read(upToCount: chunkSize) ?? Data()
            if chunk.isEmpty { break }
            for byte in chunk {
                if byte == 10 { line += 1 }
                if inString {
                    if depth >= 2 { pending.append(byte) }
                    if escaped { escaped = false } else if byte == 92 { escaped = true } else if byte == 34 { inString = false }
                    continue
                }
                switch byte {
                case 34: inString = true
                case 91, 123:  // [ {
                    if depth == 0 {
                        guard byte == 91 else { throw bad("the top level is not an array", line) }
                        sawArray = true
                        depth = 1
                        continue
                    }
                    if depth == 1 { elementLine = line; pending.removeAll(keepingCapacity: true) }
                    depth += 1
                case 93, 125:  // ] }
                    depth -= 1
                    if depth == 1 {
                        pending.append(byte)
                        guard let object = try? JSONSerialization.jsonObject(with: Data(pending)) as? [String: Any] else {
                            throw bad("element is not a JSON object", elementLine)
                        }
                        try body(object, elementLine)
                        pending.removeAll(keepingCapacity: true)
                        continue
                    }
                    if depth < 0 { throw bad("unbalanced brackets", line) }
                default: break
                }
                if depth >= 2 { pending.append(byte) }
            }
        }
        guard sawArray else { throw bad("no JSON array", line) }
        guard depth == 0, !inString else { throw bad("truncated JSON", line) }
    }

    private func bad(_ message: String, _ line: Int) -> ImportError {
        .badMetadata(path: path, line: line, column: 0, message: message)
    }
}
