import Foundation

/// Locale-independent number parsing straight from bytes.
public enum NumberParsing {
    /// Parses a NUL-terminated field of `length` bytes as a finite Double.
    /// Leading and trailing blanks are allowed; anything else makes it nil.
    public static func double(_ text: UnsafePointer<CChar>, length: Int) -> Double? {
        var end: UnsafeMutablePointer<CChar>?
        let value = strtod(text, &end)
        guard let end else { return nil }
        var p = UnsafePointer(end)
        if p == text { return nil }
        while p < text + length, p.pointee == 0x20 || p.pointee == 0x09 { p += 1 }
        guard p == text + length, value.isFinite else { return nil }
        return value
    }

    /// Parses a Swift string as a finite Double (same rules as above).
    public static func double(_ text: String) -> Double? {
        text.withCString { double($0, length: strlen($0)) }
    }
}
