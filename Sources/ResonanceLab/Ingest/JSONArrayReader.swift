import Foundation

/// Streaming reader of a JSON file whose top level is an array of objects (Spotify
/// and Fitbit exports): the file is read in fixed-size chunks and each top-level
/// object is decoded on its own, so memory is bounded by the chunk and the largest
/// object, whatever the file size. The array itself is read strictly (RFC 8259):
/// only white space around it, elements separated by single commas, no trailing
/// comma, and every element an object. With `member`, the top level is an object and
/// the array read is the value of its member of that name (Oura's `{"data": [...]}`);
/// the members after the array are not read. The bytes become text by the import's one
/// rule (`TextFile`).
struct JSONArrayReader {
    let path: String
    var chunkSize = 1 << 20
    var member: String? = nil

    /// Calls `body` with each element object and the 1-based line it starts on.
    /// Elements that are not objects, or not valid JSON, and anything but white space
    /// and commas between them throw with file and line.
    func forEachObject(_ body: ([String: Any], Int) throws -> Void) throws {
        let text = try TextFile(path: path)
        var line = 1
        if let member {
            let start: Int
            (start, line) = try arrayStart(of: member)
            var left = start
            while left > 0 {
                let skipped = try text.read(upToCount: min(left, chunkSize)).count
                guard skipped > 0 else { break }
                left -= skipped
            }
        }
        var pending: [UInt8] = []   // bytes of the element being collected
        var depth = 0               // nesting depth, the top-level array is 1
        var inString = false, escaped = false, sawArray = false
        /// Inside the top-level array, between elements: a comma was the last token
        /// (an element must follow), or an element was (a comma or `]` must follow).
        var afterComma = false, afterElement = false
        var elementLine = line
        while true {
            let chunk = try text.read(upToCount: chunkSize)
            if chunk.isEmpty { break }
            for byte in chunk {
                if byte == 10 { line += 1 }
                if inString {
                    pending.append(byte)
                    if escaped { escaped = false } else if byte == 92 { escaped = true } else if byte == 34 { inString = false }
                    continue
                }
                if depth <= 1, byte == 32 || byte == 9 || byte == 10 || byte == 13 { continue }
                if depth == 0 {
                    if sawArray, member != nil { return }
                    guard byte == 91, !sawArray else {
                        throw bad(sawArray ? "text after the top-level array" : "the top level is not an array", line)
                    }
                    sawArray = true
                    depth = 1
                    continue
                }
                if depth == 1 {
                    switch byte {
                    case 44:  // ,
                        guard afterElement else { throw bad("comma without an element before it", line) }
                        afterElement = false; afterComma = true
                        continue
                    case 93:  // ]
                        guard !afterComma else { throw bad("comma after the last element", line) }
                        depth = 0
                        continue
                    case 91, 123:  // [ {
                        guard !afterElement else { throw bad("elements not separated by a comma", line) }
                        elementLine = line
                        pending.removeAll(keepingCapacity: true)
                    default:
                        throw bad("element is not a JSON object", line)
                    }
                }
                pending.append(byte)
                switch byte {
                case 34: inString = true
                case 91, 123: depth += 1
                case 93, 125:
                    depth -= 1
                    if depth == 1 {
                        guard let object = try? JSONSerialization.jsonObject(with: Data(pending)) as? [String: Any] else {
                            throw bad("element is not a JSON object", elementLine)
                        }
                        try body(object, elementLine)
                        pending.removeAll(keepingCapacity: true)
                        afterElement = true; afterComma = false
                    }
                default: break
                }
            }
        }
        guard sawArray else { throw bad("no JSON array", line) }
        guard depth == 0, !inString else { throw bad("truncated JSON", line) }
    }

    /// The offset (in bytes of the file's text) and line of the `[` that opens the value
    /// of the top-level object's member `name`.
    private func arrayStart(of name: String) throws -> (offset: Int, line: Int) {
        let file = try TextFile(path: path)
        let key = Array(name.utf8)
        var depth = 0, offset = 0, line = 1
        var inString = false, escaped = false, afterColon = false
        var text: [UInt8] = []      // the string being read at depth 1
        var lastString: [UInt8]?    // the last string closed at depth 1, a key when ':' follows
        var valueKey: [UInt8]?      // the key whose value comes next
        while true {
            let chunk = try file.read(upToCount: chunkSize)
            if chunk.isEmpty { break }
            for byte in chunk {
                defer { offset += 1 }
                if byte == 10 { line += 1 }
                if inString {
                    if escaped { escaped = false } else if byte == 92 { escaped = true } else if byte == 34 {
                        inString = false
                        if depth == 1 { lastString = text }
                        continue
                    }
                    if depth == 1 { text.append(byte) }
                    continue
                }
                if byte == 32 || byte == 9 || byte == 10 || byte == 13 { continue }
                if depth == 0 {
                    guard byte == 123 else { throw bad("the top level is not an object", line) }
                    depth = 1
                    continue
                }
                if depth == 1, afterColon {
                    afterColon = false
                    if valueKey == key {
                        guard byte == 91 else { throw bad("'\(name)' is not an array", line) }
                        return (offset, line)
                    }
                }
                switch byte {
                case 34: inString = true; text.removeAll(keepingCapacity: true)
                case 58 where depth == 1: valueKey = lastString; afterColon = true
                case 44 where depth == 1: lastString = nil; valueKey = nil
                case 91, 123: depth += 1
                case 93, 125:
                    depth -= 1
                    if depth == 0 { throw bad("no '\(name)' array", line) }
                default: break
                }
            }
        }
        throw bad("no '\(name)' array", line)
    }

    private func bad(_ message: String, _ line: Int) -> ImportError {
        .badMetadata(path: path, line: line, column: 0, message: message)
    }
}
