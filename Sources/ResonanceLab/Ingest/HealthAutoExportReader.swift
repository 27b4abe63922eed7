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

    enum Item: Equatable {
        case point(metric: String)
        case workout
    }

    /// Where a container sits in the document.
    private enum Role { case root, data, metrics, metric, points, workouts, captured, other }
    /// The keys that decide a child's role.
    private enum Key { case none, data, metrics, workouts, name }
    private struct Frame {
        var isObject: Bool
        var role: Role
        var key: Key = .none
    }
    private enum State { case value, valueOrClose, keyOrClose, key, colon, commaOrClose, scalar, done }

    /// Calls `body` with each data point or workout, its bytes (one JSON object) and the
    /// 1-based line it starts on. Malformed JSON throws with file, line, column and byte offset.
    func forEachItem(_ body: (Item, UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CSVError.cannotOpen(path: path, reason: "cannot open")
        }
        defer { try? handle.close() }
        var stack: [Frame] = []
        stack.reserveCapacity(16)
        var state = State.value
        var inString = false, escaped = false, stringIsKey = false
        var keepText = false         // collecting the current key or metric name
        var text: [UInt8] = []       // that key or name
        var scalar: [UInt8] = []     // the number or literal being read
        var capture: [UInt8] = []    // the point or workout being collected
        var capturing = false, captureDepth = 0, captureStart = 0, captureLine = 0
        var metricName: String?      // name of the metric being read
        var held: [(bytes: [UInt8], line: Int)] = []  // points seen before their metric's name
        var line = 1, lineStart = 0, offset = 0        // offset: bytes before the current chunk
        var position = 0             // absolute offset of the byte being read

        var scalarAt = 0             // offset of the scalar's first byte
        /// The error at the current byte, or at `at` (on the current line).
        func fail(_ message: String, at: Int? = nil) -> ImportError {
            let byte = at ?? position
            return .badMetadata(path: path, line: line, column: byte - lineStart + 1,
                                message: "malformed Health Auto Export JSON at byte \(byte): \(message)")
        }
        func equal(_ bytes: [UInt8], _ s: StaticString) -> Bool {
            bytes.count == s.utf8CodeUnitCount && bytes.withUnsafeBufferPointer {
                memcmp($0.baseAddress!, s.utf8Start, bytes.count) == 0
            }
        }
        func checkScalar() throws {
            guard let first = scalar.first else { return }
            if first == 116 || first == 102 || first == 110 {  // t f n
                guard equal(scalar, "true") || equal(scalar, "false") || equal(scalar, "null") else {
                    throw fail("unknown literal", at: scalarAt)
                }
            } else {
                for b in scalar where !((b >= 48 && b <= 57) || b == 45 || b == 43 || b == 46 || b == 69 || b == 101) {
                    throw fail("malformed number", at: scalarAt)
                }
            }
            scalar.removeAll(keepingCapacity: true)
        }
        /// A value just ended at the current byte.
        func valueEnded() { state = stack.isEmpty ? .done : .commaOrClose }

        var first = true
        while true {
            let chunk = try handle.read(upToCount: chunkSize) ?? Data()
            if chunk.isEmpty { break }
            try chunk.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
                let b = raw.bindMemory(to: UInt8.self)
                var i = 0
                let n = b.count
                if first {
                    first = false
                    if n >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { i = 3 }
                }
                /// Closes the container on top of the stack with `c` (`}` or `]`) at `i`.
                func close(_ c: UInt8) throws {
                    guard let top = stack.popLast() else { throw fail("unbalanced bracket") }
                    guard top.isObject == (c == 125) else { throw fail("mismatched bracket") }
                    if capturing, stack.count == captureDepth {
                        capturing = false
                        capture.append(contentsOf: UnsafeBufferPointer(rebasing: b[captureStart...i]))
                        if stack.last?.role == .workouts {
                            try capture.withUnsafeBufferPointer { try body(.workout, $0, captureLine) }
                        } else if let metricName {
                            try capture.withUnsafeBufferPointer { try body(.point(metric: metricName), $0, captureLine) }
                        } else {
                            held.append((capture, captureLine))
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
                while i < n {
                    let c = b[i]
                    position = offset + i
                    if inString {
                        if escaped {
                            escaped = false
                        } else if c == 92 {
                            escaped = true
                        } else if c == 34 {
                            inString = false
                            if stringIsKey {
                                if keepText, let top = stack.indices.last {
                                    let role = stack[top].role
                                    stack[top].key = equal(text, "data") ? .data
                                        : equal(text, "metrics") && role == .data ? .metrics
                                        : equal(text, "workouts") && role == .data ? .workouts
                                        : equal(text, "name") && role == .metric ? .name : .none
                                }
                                state = .colon
                            } else {
                                if keepText { metricName = String(decoding: text, as: UTF8.self) }
                                valueEnded()
                            }
                            keepText = false
                        } else if c < 32 {
                            throw fail("control character in a string")
                        } else if keepText {
                            text.append(c)
                        }
                        i += 1
                        continue
                    }
                    if state == .scalar {
                        if (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c == 45 || c == 43 || c == 46 {
                            scalar.append(c)
                            i += 1
                            continue
                        }
                        try checkScalar()
                        valueEnded()
                    }
                    if c == 32 || c == 10 || c == 13 || c == 9 {
                        if c == 10 { line += 1; lineStart = offset + i + 1 }
                        i += 1
                        continue
                    }
                    switch state {
                    case .value, .valueOrClose:
                        if c == 93, state == .valueOrClose {  // ] of an empty array
                            try close(c)
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
                            case (nil, _, false): throw fail("the top level is not an object")
                            case (.root?, .data?, true): role = .data
                            case (.data?, .metrics?, false): role = .metrics
                            case (.data?, .workouts?, false): role = .workouts
                            case (.metrics?, _, true): role = .metric; metricName = nil
                            case (.metric?, .data?, false): role = .points
                            case (.points?, _, true), (.workouts?, _, true):
                                if !capturing {
                                    role = .captured
                                    capturing = true; captureDepth = stack.count
                                    captureStart = i; captureLine = line
                                    capture.removeAll(keepingCapacity: true)
                                }
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
                            scalarAt = position
                            scalar.append(c)
                        default:
                            throw fail(c == 93 || c == 125 ? "a value is missing" : "unexpected character '\(Unicode.Scalar(c))'")
                        }
                    case .keyOrClose, .key:
                        if c == 34 {
                            inString = true; stringIsKey = true
                            let role = stack.last?.role
                            keepText = role == .root || role == .data || role == .metric
                            if keepText { text.removeAll(keepingCapacity: true) }
                        } else if c == 125, state == .keyOrClose {
                            try close(c)
                        } else {
                            throw fail(c == 125 ? "comma after the last member" : "a member name (string) is expected")
                        }
                    case .colon:
                        guard c == 58 else { throw fail("':' is expected after a member name") }
                        state = .value
                    case .commaOrClose:
                        if c == 44 {
                            state = stack.last!.isObject ? .key : .value
                        } else if c == 125 || c == 93 {
                            try close(c)
                        } else {
                            throw fail("',' or a closing bracket is expected")
                        }
                    case .done:
                        throw fail("text after the top-level object")
                    case .scalar:
                        break
                    }
                    i += 1
                }
                if capturing {
                    capture.append(contentsOf: UnsafeBufferPointer(rebasing: b[captureStart..<n]))
                    captureStart = 0
                }

            }
            offset += chunk.count
        }
        position = offset
        if state == .scalar { try checkScalar(); valueEnded() }
        guard state == .done, !inString else {
            throw fail(offset == 0 ? "empty file" : "truncated JSON")
        }
    }
}
