/// Appends canonical CSV fields to a byte buffer without going through `String`:
/// the import hot path encodes millions of rows. The text is exactly what
/// `CSVWriter` writes (RFC 4180 quoting, `CSVWriter.format` numbers, canonical
/// ISO 8601 timestamps), so tables read back identically whichever wrote them.
public enum LineEncoder {
    /// A text field, quoted only when it contains a comma, quote or line break.
    public static func appendField(_ text: String, to line: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendField(bytes: $0, to: &line) }
    }

    public static func appendField(bytes: UnsafeBufferPointer<UInt8>, to line: inout [UInt8]) {
        let needsQuotes = bytes.contains { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }
        guard needsQuotes else { return line.append(contentsOf: bytes) }
        line.append(34)
        for byte in bytes {
            if byte == 34 { line.append(34) }
            line.append(byte)
        }
        line.append(34)
    }

    /// The 24-byte canonical timestamp `YYYY-MM-DDThh:mm:ss.fffZ`.
    public static func appendTimestamp(_ ms: Int64, to line: inout [UInt8]) {
        let at = line.count
        line.append(contentsOf: repeatElement(0, count: 24))
        Timestamp.write(ms, into: &line, at: at)
    }

    /// `appendTimestamp` for sorted streams: the date part (`YYYY-MM-DDT`) is
    /// cached per UTC day, so consecutive rows only format the time of day.
    public struct TimestampCache {
        private var day: Int64 = .min
        /// `YYYY-MM-DDT` of `day`, held inline (no array to retain per row).
        private var prefix: (UInt64, UInt32) = (0, 0)

        public init() {}

        public mutating func append(_ ms: Int64, to line: inout [UInt8]) {
            let (days, msOfDay) = Timestamp.floorDivMod(ms, 86_400_000)
            if days != day {
                day = days
                let text = Array(Timestamp.iso(ms).utf8.prefix(11)) + [0]
                prefix = text.withUnsafeBytes { ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt32.self)) }
            }
            withUnsafeBytes(of: prefix.0) { line.append(contentsOf: $0) }
            withUnsafeBytes(of: prefix.1) { line.append(contentsOf: $0.prefix(3)) }
            let ms = Int(msOfDay)
            let h = ms / 3_600_000, mi = ms / 60_000 % 60, s = ms / 1000 % 60, f = ms % 1000
            line.append(UInt8(48 + h / 10)); line.append(UInt8(48 + h % 10)); line.append(58)
            line.append(UInt8(48 + mi / 10)); line.append(UInt8(48 + mi % 10)); line.append(58)
            line.append(UInt8(48 + s / 10)); line.append(UInt8(48 + s % 10)); line.append(46)
            line.append(UInt8(48 + f / 100)); line.append(UInt8(48 + f / 10 % 10)); line.append(UInt8(48 + f % 10))
            line.append(90)
        }
    }

    /// `CSVWriter.format(value)` without allocating for the common cases: a value of at
    /// least 1 with at most three decimals (bpm, ms), or one in [0.001, 1) with at most
    /// eight (frequencies on a power-of-two grid: multiples of 1/256 Hz, 0.1 Hz). The
    /// fixed-point text with the fewest decimals that reads back to the same Double is
    /// Swift's shortest round-trip form in those ranges (fixed notation holds down to
    /// 0.0001). Anything else takes the general path.
    public static func appendNumber(_ value: Double, to line: inout [UInt8]) {
        let magnitude = value.magnitude
        let maxDecimals = magnitude >= 1 ? 3 : 8
        if magnitude >= 0.001, magnitude < 1e15 {
            var scale = 1.0
            for decimals in 0...maxDecimals {
                let scaled = (magnitude * scale).rounded()
                if scaled < 9e15, scaled / scale == magnitude {
                    if value < 0 { line.append(45) }
                    appendFixed(UInt64(scaled), decimals: decimals, to: &line)
                    return
                }
                scale *= 10
            }
        }
        line.append(contentsOf: CSVWriter.format(value).utf8)
    }

    /// Digits of `scaled` with a decimal point `decimals` from the right (`.0` when 0).
    private static func appendFixed(_ scaled: UInt64, decimals: Int, to line: inout [UInt8]) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var v = scaled
        withUnsafeMutableBytes(of: &digits) { buf in
            repeat {
                buf[count] = UInt8(48 + v % 10)
                v /= 10
                count += 1
            } while v > 0 || count <= decimals
            for i in stride(from: count - 1, through: 0, by: -1) {
                line.append(buf[i])
                if i == decimals, decimals > 0 { line.append(46) }
            }
        }
        if decimals == 0 { line.append(contentsOf: [46, 48]) }
    }
}
