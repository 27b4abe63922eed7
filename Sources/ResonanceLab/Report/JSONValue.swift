/// A JSON document with deterministic text: object keys sorted, numbers in Swift's
/// shortest round-trip form, two-space indentation. Reports built from it are
/// byte-identical between runs.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Non-finite numbers become `null` (JSON has no NaN).
    public static func num(_ value: Double?) -> JSONValue {
        guard let value, value.isFinite else { return .null }
        return .number(value)
    }

    public static func int(_ value: Int) -> JSONValue { .number(Double(value)) }

    public func render() -> String {
        var out = ""
        render(into: &out, indent: 0)
        out.append("\n")
        return out
    }

    private func render(into out: inout String, indent: Int) {
        let pad = String(repeating: " ", count: indent + 2)
        switch self {
        case .null: out += "null"
        case let .bool(b): out += b ? "true" : "false"
        case let .number(n):
            out += n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : n.description
        case let .string(s): out += JSONValue.quote(s)
        case let .array(items):
            guard !items.isEmpty else { out += "[]"; return }
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += pad
                item.render(into: &out, indent: indent + 2)
                out += i + 1 < items.count ? ",\n" : "\n"
            }
            out += String(repeating: " ", count: indent) + "]"
        case let .object(fields):
            guard !fields.isEmpty else { out += "{}"; return }
            out += "{\n"
            let sorted = fields.sorted { $0.key < $1.key }
            for (i, (key, value)) in sorted.enumerated() {
                out += pad + JSONValue.quote(key) + ": "
                value.render(into: &out, indent: indent + 2)
                out += i + 1 < sorted.count ? ",\n" : "\n"
            }
            out += String(repeating: " ", count: indent) + "}"
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
