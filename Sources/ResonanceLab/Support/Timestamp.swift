import Foundation

/// Instants are Int64 milliseconds since the Unix epoch (UTC) everywhere in the
/// toolkit; this type converts them to and from the canonical ISO 8601 text.
public enum Timestamp {
    /// Earliest and latest instants the canonical text can hold (years 0000–9999).
    public static let representable: ClosedRange<Int64> =
        Int64(daysFromCivil(0, 1, 1)) * 86_400_000...Int64(daysFromCivil(10_000, 1, 1)) * 86_400_000 - 1

    /// A computed instant (e.g. start + offset read from a file) as epoch ms, or nil when
    /// it is not finite or outside the years 0000–9999 — checked before any conversion,
    /// so an absurd value is a rejected row rather than an overflow.
    public static func instant(ms: Double) -> Int64? {
        guard ms.isFinite, ms >= Double(representable.lowerBound), ms <= Double(representable.upperBound) else {
            return nil
        }
        return Int64(ms.rounded())
    }

    /// Canonical text: `2022-02-07T09:29:00.000Z` (docs/tables.md, Conventions).
    public static func iso(_ ms: Int64) -> String {
        var bytes = [UInt8](repeating: 0, count: 24)
        write(ms, into: &bytes, at: 0)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes the 24-byte canonical form of `ms` at `offset` (buffer must have room).
    public static func write(_ ms: Int64, into bytes: inout [UInt8], at offset: Int) {
        let (days, msOfDay) = floorDivMod(ms, 86_400_000)
        let (y, m, d) = civil(fromDays: days)
        let secondsOfDay = Int(msOfDay / 1000), millis = Int(msOfDay % 1000)
        let h = secondsOfDay / 3600, mi = (secondsOfDay / 60) % 60, s = secondsOfDay % 60
        func put(_ v: Int, _ width: Int, _ at: Int) {
            var v = v
            for i in stride(from: width - 1, through: 0, by: -1) {
                bytes[offset + at + i] = UInt8(48 + v % 10)
                v /= 10
            }
        }
        put(y, 4, 0); bytes[offset + 4] = 45
        put(m, 2, 5); bytes[offset + 7] = 45
        put(d, 2, 8); bytes[offset + 10] = 84
        put(h, 2, 11); bytes[offset + 13] = 58
        put(mi, 2, 14); bytes[offset + 16] = 58
        put(s, 2, 17); bytes[offset + 19] = 46
        put(millis, 3, 20); bytes[offset + 23] = 90
    }

    /// Parses ISO 8601 (`YYYY-MM-DD[T ]hh:mm[:ss[.fff]][Z|±hh[:mm]]`) or a date alone.
    /// Returns the instant assuming UTC when the text carries no zone, and whether
    /// a zone was present, so that callers can apply `--tz` to naive times.
    public static func parseISO(_ text: String) -> (ms: Int64, hasZone: Bool)? {
        var utf8 = Array(text.utf8)
        while let last = utf8.last, last == 0x20 { utf8.removeLast() }
        return utf8.withUnsafeBufferPointer { parseISO(bytes: $0) }
    }

    /// Byte-level ISO 8601 parser (see `parseISO(_:)`).
    public static func parseISO(bytes b: UnsafeBufferPointer<UInt8>) -> (ms: Int64, hasZone: Bool)? {
        if let ms = parseCanonical(b) { return (ms, true) }
        var i = 0
        let n = b.count
        func digits(_ count: Int) -> Int? {
            guard i + count <= n else { return nil }
            var v = 0
            for k in 0..<count {
                let c = b[i + k]
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            i += count
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < n, b[i] == c else { return false }
            i += 1
            return true
        }
        while i < n, b[i] == 0x20 { i += 1 }
        guard let y = digits(4), expect(45), let mo = digits(2), expect(45), let d = digits(2),
              (1...12).contains(mo), d >= 1, d <= daysInMonth(y, mo) else { return nil }
        var h = 0, mi = 0, s = 0, frac: Int64 = 0
        var hasZone = false
        var offsetMinutes = 0
        if i < n {
            guard b[i] == 84 || b[i] == 32 else { return nil }
            i += 1
            guard let hh = digits(2), expect(58), let mm = digits(2), hh < 24, mm < 60 else { return nil }
            h = hh; mi = mm
            if i < n, b[i] == 58 {
                i += 1
                guard let ss = digits(2), ss < 61 else { return nil }
                s = min(ss, 59)
                if i < n, b[i] == 46 || b[i] == 44 {
                    i += 1
                    guard let ms = fractionMs(b, &i) else { return nil }
                    frac = ms
                }
            }
            while i < n, b[i] == 0x20 { i += 1 }
            if i < n {
                if b[i] == 90 {
                    i += 1
                    hasZone = true
                } else if b[i] == 43 || b[i] == 45 {
                    let sign = b[i] == 45 ? -1 : 1
                    i += 1
                    guard let oh = digits(2) else { return nil }
                    var om = 0
                    if i < n {
                        _ = expect(58)
                        guard let m2 = digits(2) else { return nil }
                        om = m2
                    }
                    // Real zone offsets lie within ±14:00 (UTC−12 … UTC+14).
                    guard om < 60, oh * 60 + om <= 14 * 60 else { return nil }
                    offsetMinutes = sign * (oh * 60 + om)
                    hasZone = true
                }
            }
        }
        guard i == n else { return nil }
        let days = Int64(daysFromCivil(y, mo, d))
        let seconds = days * 86_400 + Int64(h * 3600 + mi * 60 + s) - Int64(offsetMinutes * 60)
        let ms = seconds * 1000 + frac
        return representable.contains(ms) ? (ms, hasZone) : nil
    }

    /// The canonical form `YYYY-MM-DDThh:mm:ss.fffZ` that every table is written in,
    /// read at fixed positions with the general parser's checks and arithmetic (so the
    /// result is the one it gives); nil for any other text, which the general parser
    /// then reads. Millions of rows per table make the difference worth having.
    @inline(__always)
    static func parseCanonical(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard b.count == 24, b[4] == 45, b[7] == 45, b[10] == 84, b[13] == 58, b[16] == 58, b[19] == 46,
              b[23] == 90 else { return nil }
        var valid = true
        func number(_ from: Int, _ count: Int) -> Int {
            var v = 0
            for k in from..<(from + count) {
                let c = b[k] &- 48
                valid = valid && c <= 9
                v = v &* 10 &+ Int(c)
            }
            return v
        }
        let y = number(0, 4), mo = number(5, 2), d = number(8, 2)
        let h = number(11, 2), mi = number(14, 2), ss = number(17, 2), frac = number(20, 3)
        guard valid, mo >= 1, mo <= 12, d >= 1, d <= daysInMonth(y, mo), h < 24, mi < 60, ss < 61 else { return nil }
        let seconds = Int64(daysFromCivil(y, mo, d)) * 86_400 + Int64(h * 3600 + mi * 60 + min(ss, 59))
        let ms = seconds * 1000 + Int64(frac)
        return representable.contains(ms) ? ms : nil
    }

    /// Milliseconds of the decimal fraction of a second starting at `i` (after the
    /// separator), advancing `i` past its digits; digits beyond the third are
    /// truncated. Nil when there is no digit.
    @inline(__always)
    public static func fractionMs(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Int64? {
        var ms: Int64 = 0
        var scale: Int64 = 100
        let start = i
        while i < b.count, b[i] >= 48, b[i] <= 57 {
            ms += Int64(b[i] - 48) * scale
            scale /= 10
            i += 1
        }
        return i > start ? ms : nil
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's algorithm).
    public static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Inverse of `daysFromCivil`.
    public static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = Int(days) + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    public static func daysInMonth(_ year: Int, _ month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Floor division and non-negative remainder.
    public static func floorDivMod(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b, r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }

    /// ISO weekday, 1 = Monday … 7 = Sunday, of the UTC day containing `ms`.
    public static func isoWeekday(_ ms: Int64) -> Int {
        let days = floorDivMod(ms, 86_400_000).0
        return Int((days + 3) % 7 + 7) % 7 + 1
    }

    /// Days since 1970-01-01 of a `YYYY-MM-DD` date; nil for any other text.
    public static func dayNumber(isoDate text: String) -> Int? {
        guard text.utf8.count == 10, let t = parseISO(text) else { return nil }
        return Int(floorDivMod(t.ms, 86_400_000).0)
    }

    /// `YYYY-MM-DD` of the UTC day containing `ms`.
    public static func isoDate(_ ms: Int64) -> String {
        String(iso(ms).prefix(10))
    }
}
