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

    /// `CSVWriter.format(value)` without allocating for the common cases: a value in
    /// [1, 10¹²) with at most three decimals (bpm, ms), or one in [0.001, 1) with at most
    /// eight (frequencies on a power-of-two grid: multiples of 1/256 Hz, 0.1 Hz). The
    /// fixed-point text with the fewest decimals that reads back to the same Double is
    /// Swift's shortest round-trip form in those ranges (fixed notation holds down to
    /// 0.0001 and up to 2⁵³). Anything else takes the general path.
    ///
    /// One scaling by 10^D (D the most decimals) decides: if x has a d-decimal form
    /// k/10^d (d ≤ D), then x·10^D lies within a quarter of the integer k·10^(D−d) in
    /// these ranges, so rounding it gives that integer, and its trailing zeros give the fewest
    /// decimals; if the rounded value does not read back to x, no d ≤ D does.
    public static func appendNumber(_ value: Double, to line: inout [UInt8]) {
        let magnitude = value.magnitude
        let maxDecimals = magnitude >= 1 ? 3 : 8
        if magnitude >= 0.001, magnitude < 1e12 {
            let scale = magnitude >= 1 ? 1e3 : 1e8
            let scaled = (magnitude * scale).rounded()
            if scaled / scale == magnitude {
                var digits = UInt64(scaled), decimals = maxDecimals
                while decimals > 0, digits % 10 == 0 { digits /= 10; decimals -= 1 }
                if value < 0 { line.append(45) }
                appendFixed(digits, decimals: decimals, to: &line)
                return
            }
        }
        appendShortest(value, to: &line)
    }

    /// `CSVWriter.format(value)`'s text written straight into `line`: a Double writes
    /// its shortest round-trip digits to a text stream from a buffer on the stack,
    /// where `description` first builds a String (on the heap beyond 15 bytes).
    private static func appendShortest(_ value: Double, to line: inout [UInt8]) {
        guard value != 0 else { line.append(48); line.append(46); line.append(48); return }
        var sink = ByteSink()
        swap(&sink.bytes, &line)
        value.write(to: &sink)
        swap(&sink.bytes, &line)
    }

    /// A text stream appending UTF-8 bytes to an array.
    private struct ByteSink: TextOutputStream {
        var bytes: [UInt8] = []

        mutating func write(_ string: String) { bytes.append(contentsOf: string.utf8) }

        /// The standard library's number types write their ASCII text through this
        /// requirement; without it they build a String for `write(_:)`.
        mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: buffer) }
    }

    /// The decimal digits of an integer, as `String(value)` writes them.
    public static func appendInteger(_ value: Int, to line: inout [UInt8]) {
        if value < 0 { line.append(45) }
        appendFixed(UInt64(value.magnitude), decimals: 0, to: &line, pointZero: false)
    }

    /// Digits of `scaled` with a decimal point `decimals` from the right; with no
    /// decimals, `.0` follows when `pointZero` (a Double's text) and nothing otherwise.
    private static func appendFixed(_ scaled: UInt64, decimals: Int, to line: inout [UInt8], pointZero: Bool = true) {
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
        if decimals == 0, pointZero { line.append(46); line.append(48) }
    }
}
