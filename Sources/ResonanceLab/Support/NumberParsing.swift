import Foundation

/// Locale-independent number parsing straight from bytes.
public enum NumberParsing {
    /// Parses a NUL-terminated field of `length` bytes as a finite Double.
    /// Only decimal notation is a number: `[+-]digits[.digits][(e|E)[+-]digits]`
    /// (digits on at least one side of the point), with leading and trailing blanks
    /// allowed. Hexadecimal (`0x3C`), `nan`, `inf` and anything else make it nil.
    public static func double(_ text: UnsafePointer<CChar>, length: Int) -> Double? {
        if let v = plainDecimal(text, length: length) { return v }
        guard isDecimal(text, length: length) else { return nil }
        var end: UnsafeMutablePointer<CChar>?
        let value = strtod(text, &end)
        guard let end else { return nil }
        var p = UnsafePointer(end)
        if p == text { return nil }
        while p < text + length, p.pointee == 0x20 || p.pointee == 0x09 { p += 1 }
        guard p == text + length, value.isFinite else { return nil }
        return value
    }

    /// `[-]digits[.digits]` with at most 15 significant digits, without strtod:
    /// the digits form an integer below 2^53 and 10^k (k ≤ 15) is exact, so one
    /// IEEE division gives the correctly rounded value, the same as strtod's
    /// (Clinger 1990, "How to read floating point numbers accurately", fast path).
    /// Returns nil for anything else, which then takes the general path.
    @inline(__always)
    static func plainDecimal(_ text: UnsafePointer<CChar>, length: Int) -> Double? {
        guard length > 0, length <= 17 else { return nil }
        var i = 0
        let negative = text[0] == 45
        if negative { i = 1 }
        var mantissa: Int64 = 0
        var digits = 0
        var decimals = 0
        var seenPoint = false
        while i < length {
            let c = UInt8(bitPattern: text[i])
            if c >= 48 && c <= 57 {
                mantissa = mantissa * 10 + Int64(c - 48)
                digits += 1
                if seenPoint { decimals += 1 }
            } else if c == 46 && !seenPoint {
                seenPoint = true
            } else {
                return nil
            }
            i += 1
        }
        guard digits > 0, digits <= 15, !(seenPoint && decimals == 0) else { return nil }
        let value = Double(mantissa) / powersOfTen[decimals]
        return negative ? -value : value
    }

    /// Whether the field is blanks, a decimal number in the grammar above, then blanks.
    static func isDecimal(_ text: UnsafePointer<CChar>, length: Int) -> Bool {
        var i = 0
        func at(_ k: Int) -> UInt8 { k < length ? UInt8(bitPattern: text[k]) : 0 }
        func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
        func blank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }
        while i < length, blank(at(i)) { i += 1 }
        if at(i) == 43 || at(i) == 45 { i += 1 }
        var digits = 0
        while isDigit(at(i)) { i += 1; digits += 1 }
        if at(i) == 46 {
            i += 1
            while isDigit(at(i)) { i += 1; digits += 1 }
        }
        guard digits > 0 else { return false }
        if at(i) == 101 || at(i) == 69 {
            i += 1
            if at(i) == 43 || at(i) == 45 { i += 1 }
            guard isDigit(at(i)) else { return false }
            while isDigit(at(i)) { i += 1 }
        }
        while i < length, blank(at(i)) { i += 1 }
        return i == length
    }

    private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

    /// Parses a Swift string as a finite Double (same rules as above).
    public static func double(_ text: String) -> Double? {
        text.withCString { double($0, length: strlen($0)) }
    }
}
