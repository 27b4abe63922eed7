import Foundation

/// Streaming reader of a Health Auto Export JSON document,
/// `{"data": {"metrics": [{"name", "units", "data": [point, …]}, …], "workouts": [workout, …]}}`.
/// The file is read in fixed-size chunks by one byte-level tokenizer that checks the whole
/// document is JSON (RFC 8259 structure) and hands over the raw bytes of each data point
/// (an object inside a metric's `data` array) with its metric's name, and of each workout;
/// memory is bounded by the chunk and the largest point or workout, whatever the file size.
/// A metric whose `name` follows its `data` has its points held until its object closes.
struct HealthAutoExportReader {
    let path: String
    var chunkSize = 1 << 16

    enum Item {
        case point(metric: String)
        case workout
    }

    /// Calls `body` with each data point or workout, its bytes (one JSON object) and the
    /// 1-based line it starts on. Malformed JSON throws with file, line, column and byte offset.
    func forEachItem(_ body: (Item, UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws {
        let text = try TextFile(path: path)
        var tokens = Tokenizer(path: path)
        while true {
            let chunk = try text.read(upToCount: chunkSize)
            if chunk.isEmpty { break }
            try chunk.withUnsafeBufferPointer { try tokens.feed($0, body) }
        }
        try tokens.finish()
    }
}

/// The tokenizer's state between chunks (a struct, so that its hot loop runs without
/// dynamic exclusivity checks).
private struct Tokenizer {
    /// Where a container sits in the document.
    enum Role { case root, data, metrics, metric, points, workouts, captured, other }
    /// The keys that decide a child's role.
    enum Key { case none, data, metrics, workouts, name }
    struct Frame {
        var isObject: Bool
        var role: Role
        var key: Key = .none
    }
    enum State { case value, valueOrClose, keyOrClose, key, colon, commaOrClose, scalar, done }

    let path: String
    var stack: [Frame] = []
    var state = State.value
    var inString = false, escaped = false, stringIsKey = false
    var keepText = false         // collecting the current key or metric name
    var text: [UInt8] = []       // that key or name
    /// The number or literal being read: its first byte, length, offset and whether its
    /// bytes so far fit (a literal's letters in order, a number's characters).
    var scalarFirst: UInt8 = 0, scalarLength = 0, scalarAt = 0, scalarFits = true
    var capture: [UInt8] = []    // the point or workout being collected, when it spans chunks
    var capturing = false, captureSpans = false, captureDepth = 0, captureStart = 0, captureLine = 0
    var metricName: String?      // name of the metric being read
    var held: [(bytes: [UInt8], line: Int)] = []  // points seen before their metric's name
    var line = 1, lineStart = 0, offset = 0        // offset: bytes before the current chunk

    init(path: String) {
        self.path = path
        stack.reserveCapacity(16)
    }

    func fail(_ message: String, at byte: Int) -> ImportError {
        .badMetadata(path: path, line: line, column: byte - lineStart + 1,
                     message: "malformed Health Auto Export JSON at byte \(byte): \(message)")
    }

    static func equal(_ bytes: [UInt8], _ s: StaticString) -> Bool {
        bytes.count == s.utf8CodeUnitCount && bytes.withUnsafeBufferPointer {
            memcmp($0.baseAddress!, s.utf8Start, bytes.count) == 0
        }
    }

    /// The literal a scalar starting with `first` must be, nil for a number.
    static func literal(_ first: UInt8) -> StaticString? {
        switch first {
        case 116: "true"
        case 102: "false"
        case 110: "null"
        default: nil
        }
    }

    /// Ends the scalar being read.
    mutating func endScalar() throws {
        if let literal = Tokenizer.literal(scalarFirst) {
            guard scalarFits, scalarLength == literal.utf8CodeUnitCount else { throw fail("unknown literal", at: scalarAt) }
        } else {
            guard scalarFits else { throw fail("malformed number", at: scalarAt) }
        }
        valueEnded()
    }

    /// A value just ended.
    mutating func valueEnded() { state = stack.isEmpty ? .done : .commaOrClose }

    mutating func finish() throws {
        if state == .scalar { try endScalar() }
        guard state == .done, !inString else {
            throw fail(offset == 0 ? "empty file" : "truncated JSON", at: offset)
        }
    }

    /// Reads one chunk.
    mutating func feed(_ b: UnsafeBufferPointer<UInt8>,
                       _ body: (HealthAutoExportReader.Item, UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws {
        let n = b.count
        var i = 0
        while i < n {
            let c = b[i]
            if inString {
                // The bulk of the bytes: run through a string up to its quote or a backslash.
                if !escaped && !keepText {
                    while i < n {
                        let d = b[i]
                        if d == 34 || d == 92 || d < 32 { break }
                        i += 1
                    }
                    if i == n { break }
                }
                let c = b[i]
                if escaped {
                    escaped = false
                } else if c == 92 {
                    escaped = true
                } else if c == 34 {
                    inString = false
                    if stringIsKey {
                        if keepText, let top = stack.indices.last {
                            let role = stack[top].role
                            stack[top].key = Tokenizer.equal(text, "data") ? .data
                                : Tokenizer.equal(text, "metrics") && role == .data ? .metrics
                                : Tokenizer.equal(text, "workouts") && role == .data ? .workouts
                                : Tokenizer.equal(text, "name") && role == .metric ? .name : .none
                        }
                        state = .colon
                    } else {
                        if keepText { metricName = String(decoding: text, as: UTF8.self) }
                        valueEnded()
                    }
                    keepText = false
                } else if c < 32 {
                    throw fail("control character in a string", at: offset + i)
                } else if keepText {
                    text.append(c)
                }
                i += 1
                continue
            }
            if state == .scalar {
                if (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c == 45 || c == 43 || c == 46 {
                    if let literal = Tokenizer.literal(scalarFirst) {
                        if scalarLength >= literal.utf8CodeUnitCount || literal.utf8Start[scalarLength] != c { scalarFits = false }
                    } else if !((c >= 48 && c <= 57) || c == 45 || c == 43 || c == 46 || c == 69 || c == 101) {
                        scalarFits = false
                    }
                    scalarLength += 1
                    i += 1
                    continue
                }
                try endScalar()
            }
            if c == 32 || c == 10 || c == 13 || c == 9 {
                if c == 10 { line += 1; lineStart = offset + i + 1 }
                i += 1
                continue
            }
            switch state {
            case .value, .valueOrClose:
                if c == 93, state == .valueOrClose {  // ] of an empty array
                    try close(c, at: i, in: b, body)
                    i += 1
                    continue
                }
                switch c {
                case 123, 91:  // { [
                    let isObject = c == 123
                    let parent = stack.last
                    var role = Role.other
                    switch (parent?.role, parent?.key, isObject) {
                    case (nil, _, true): role = .root
                    case (nil, _, false): throw fail("the top level is not an object", at: offset + i)
                    case (.root?, .data?, true): role = .data
                    case (.data?, .metrics?, false): role = .metrics
                    case (.data?, .workouts?, false): role = .workouts
                    case (.metrics?, _, true): role = .metric; metricName = nil
                    case (.metric?, .data?, false): role = .points
                    case (.points?, _, true), (.workouts?, _, true):
                        role = .captured
                        capturing = true; captureSpans = false
                        captureDepth = stack.count; captureStart = i; captureLine = line
                    default: role = .other
                    }
                    stack.append(Frame(isObject: isObject, role: role))
                    state = isObject ? .keyOrClose : .valueOrClose
                case 34:
                    inString = true; stringIsKey = false
                    keepText = stack.last?.role == .metric && stack.last?.key == .name
                    if keepText { text.removeAll(keepingCapacity: true) }
                case 45, 48...57, 116, 102, 110:
                    state = .scalar
                    scalarFirst = c; scalarLength = 1; scalarAt = offset + i; scalarFits = true
                default:
                    throw fail(c == 93 || c == 125 ? "a value is missing" : "unexpected character '\(Unicode.Scalar(c))'",
                               at: offset + i)
                }
            case .keyOrClose, .key:
                if c == 34 {
                    inString = true; stringIsKey = true
                    let role = stack.last?.role
                    keepText = role == .root || role == .data || role == .metric
                    if keepText { text.removeAll(keepingCapacity: true) }
                } else if c == 125, state == .keyOrClose {
                    try close(c, at: i, in: b, body)
                } else {
                    throw fail(c == 125 ? "comma after the last member" : "a member name (string) is expected", at: offset + i)
                }
            case .colon:
                guard c == 58 else { throw fail("':' is expected after a member name", at: offset + i) }
                state = .value
            case .commaOrClose:
                if c == 44 {
                    state = stack[stack.count - 1].isObject ? .key : .value
                } else if c == 125 || c == 93 {
                    try close(c, at: i, in: b, body)
                } else {
                    throw fail("',' or a closing bracket is expected", at: offset + i)
                }
            case .done:
                throw fail("text after the top-level object", at: offset + i)
            case .scalar:
                break
            }
            i += 1
        }
        if capturing {
            if !captureSpans { capture.removeAll(keepingCapacity: true); captureSpans = true }
            capture.append(contentsOf: UnsafeBufferPointer(rebasing: b[captureStart..<n]))
            captureStart = 0
        }
        offset += n
    }

    /// Closes the container on top of the stack with `c` (`}` or `]`) at `i` of the chunk.
    private mutating func close(_ c: UInt8, at i: Int, in b: UnsafeBufferPointer<UInt8>,
                                _ body: (HealthAutoExportReader.Item, UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws {
        guard let top = stack.popLast() else { throw fail("unbalanced bracket", at: offset + i) }
        guard top.isObject == (c == 125) else { throw fail("mismatched bracket", at: offset + i) }
        if capturing, stack.count == captureDepth {
            capturing = false
            if captureSpans { capture.append(contentsOf: UnsafeBufferPointer(rebasing: b[captureStart...i])) }
            let bytes = captureSpans ? nil : UnsafeBufferPointer(rebasing: b[captureStart...i])
            if stack.last?.role == .workouts {
                try emit(.workout, bytes, body)
            } else if let metricName {
                try emit(.point(metric: metricName), bytes, body)
            } else {
                held.append((bytes.map(Array.init) ?? capture, captureLine))
            }
        } else if top.role == .metric, !held.isEmpty {
            let name = metricName ?? ""
            for (bytes, at) in held {
                try bytes.withUnsafeBufferPointer { try body(.point(metric: name), $0, at) }
            }
            held.removeAll()
        }
        valueEnded()
    }

    /// Hands over the captured item: `bytes` inside the chunk, else the collected copy.
    private func emit(_ item: HealthAutoExportReader.Item, _ bytes: UnsafeBufferPointer<UInt8>?,
                      _ body: (HealthAutoExportReader.Item, UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws {
        if let bytes { return try body(item, bytes, captureLine) }
        try capture.withUnsafeBufferPointer { try body(item, $0, captureLine) }
    }
}
