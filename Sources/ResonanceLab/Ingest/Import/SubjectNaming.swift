import Foundation

/// Where a file's subject comes from when its rows do not name one: `--subject`,
/// else the first capture group of a file-name pattern (`--subject-from-name`, or
/// the default below), else the containing folder.
public struct SubjectNaming {
    /// Default pattern, matched against the file name without its extension:
    /// per-participant logger exports such as `session_RR_0001CTRL.csv` → `0001CTRL`.
    public static let defaultPattern = "(?i)_rr_([A-Za-z0-9-]+)$"

    let pattern: NSRegularExpression
    /// True for a pattern given with `--subject-from-name`.
    let explicit: Bool

    init(pattern: String?) throws {
        explicit = pattern != nil
        do {
            self.pattern = try NSRegularExpression(pattern: pattern ?? SubjectNaming.defaultPattern)
        } catch {
            throw ImportError.badOption(message: "--subject-from-name: invalid regular expression '\(pattern ?? "")'")
        }
        guard self.pattern.numberOfCaptureGroups >= 1 else {
            throw ImportError.badOption(message: "--subject-from-name needs one capture group, e.g. '_(P[0-9]+)$'")
        }
    }

    /// The subject a file name names, or nil when the pattern does not match.
    func subject(fileName: String) -> String? {
        let stem = (fileName as NSString).deletingPathExtension
        let range = NSRange(stem.startIndex..., in: stem)
        guard let match = pattern.firstMatch(in: stem, range: range),
              let group = Range(match.range(at: 1), in: stem), !stem[group].isEmpty else { return nil }
        return String(stem[group])
    }
}

/// Text of an id field: UTF-8 when valid, else Latin-1 (ISO 8859-1, one byte per
/// character), so two ids that differ only in bytes that are not UTF-8 stay two ids
/// instead of both becoming U+FFFD. Returns whether Latin-1 was used.
enum IdText {
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> (text: String, latin1: Bool) {
        if let text = String(validating: bytes, as: UTF8.self) {
            return (text.trimmingCharacters(in: .whitespaces), false)
        }
        let scalars = bytes.map { Character(Unicode.Scalar($0)) }
        return (String(scalars).trimmingCharacters(in: .whitespaces), true)
    }

    static let latin1Note = "ids that are not valid UTF-8 decoded as Latin-1 (ISO 8859-1)"
}
