/// The sample encoding of `waveforms.bin` (docs/tables.md, waveforms.bin): a segment's
/// samples as whole numbers at the source's printed precision, in blocks of at most
/// `blockSamples`. A block is its sample count and its decimal places (unsigned LEB128
/// varints), then the first value and each later one's difference from the one before,
/// as zigzag varints. A value is `whole / 10^decimals`: every printed decimal comes back
/// exactly (Clinger's fast path: the whole number is below 2^53 and the power of ten
/// exact, so one division gives the double that parsing the text gives).
public enum WaveformCodec {
    /// Samples per block: a block's decimals are the most of its samples'.
    public static let blockSamples = 4096
    /// Most decimal places a sample keeps; a sample printed with more is rounded to this
    /// many (counted in the segment's `rounded_samples`).
    public static let maxDecimals = 9
    /// Largest whole number a sample may become at its block's decimals (2^53: every
    /// such number is an exact double).
    static let maxWhole: Int64 = 1 << 53

    static let powersOfTen: [Int64] = (0...18).map { k in (0..<k).reduce(Int64(1)) { r, _ in r * 10 } }

    /// A sample as printed: `whole / 10^decimals`.
    public struct Fixed: Equatable, Sendable {
        public var whole: Int64
        public var decimals: Int

        public init(whole: Int64, decimals: Int) { self.whole = whole; self.decimals = decimals }

        public var value: Double { Double(whole) / Double(WaveformCodec.powersOfTen[decimals]) }

        /// The number with exactly `decimals` places (`-0.25`, `12`), as a CSV writes it back.
        public var text: String {
            guard decimals > 0 else { return String(whole) }
            let digits = String(whole.magnitude)
            let padded = String(repeating: "0", count: max(0, decimals + 1 - digits.count)) + digits
            let cut = padded.index(padded.endIndex, offsetBy: -decimals)
            return (whole < 0 ? "-" : "") + padded[..<cut] + "." + padded[cut...]
        }

        /// The same value at `places` ≥ `decimals`, nil past `maxWhole`.
        func scaled(to places: Int) -> Int64? {
            let (v, overflow) = whole.multipliedReportingOverflow(by: WaveformCodec.powersOfTen[places - decimals])
            return overflow || v.magnitude >= UInt64(WaveformCodec.maxWhole) ? nil : v
        }
    }

    /// Parses a decimal field (`NumberParsing`'s grammar: blanks, sign, digits, point,
    /// exponent) into its printed whole number and places. `rounded` when it had more
    /// than `maxDecimals` places, or more digits than a whole number below 2^53 holds,
    /// and was rounded (half away from zero). Nil for text that is not such a number, or
    /// one whose integer part alone reaches 2^53.
    public static func parse(_ text: UnsafePointer<CChar>, length: Int) -> (fixed: Fixed, rounded: Bool)? {
        var i = 0
        func at(_ k: Int) -> UInt8 { k < length ? UInt8(bitPattern: text[k]) : 0 }
        func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
        func blank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }
        while i < length, blank(at(i)) { i += 1 }
        var negative = false
        if at(i) == 43 || at(i) == 45 { negative = at(i) == 45; i += 1 }
        var digits: [UInt8] = []
        var fraction = 0
        while isDigit(at(i)) {
            if !digits.isEmpty || at(i) != 48 { digits.append(at(i) - 48) }
            i += 1
        }
        var sawDigit = i > 0 && isDigit(at(i - 1))
        if at(i) == 46 {
            i += 1
            while isDigit(at(i)) {
                digits.append(at(i) - 48)
                fraction += 1
                sawDigit = true
                i += 1
            }
        }
        guard sawDigit else { return nil }
        var exponent = 0
        if at(i) == 101 || at(i) == 69 {
            i += 1
            var expNegative = false
            if at(i) == 43 || at(i) == 45 { expNegative = at(i) == 45; i += 1 }
            guard isDigit(at(i)) else { return nil }
            while isDigit(at(i)) {
                exponent = min(exponent * 10 + Int(at(i) - 48), 10_000)
                i += 1
            }
            if expNegative { exponent = -exponent }
        }
        while i < length, blank(at(i)) { i += 1 }
        guard i == length else { return nil }
        // The value is digits × 10^-places; leading zeros of the fraction stay in `digits`.
        var places = fraction - exponent
        // Digits dropped from the end: those past `maxDecimals`, then as many as keep the
        // whole number below 2^53 (never into the integer part).
        var drop = max(0, places - maxDecimals)
        func whole(keeping kept: Int) -> Int64? {
            guard kept <= 18 else { return nil }
            var v: Int64 = 0
            for d in digits[..<max(0, kept)] { v = v * 10 + Int64(d) }
            if kept < digits.count, kept >= 0, digits[kept] >= 5 { v += 1 }
            return v < maxWhole ? v : nil
        }
        while whole(keeping: digits.count - drop) == nil {
            guard drop < places else { return nil }
            drop += 1
        }
        let kept = max(0, digits.count - drop)
        var whole = whole(keeping: digits.count - drop) ?? 0
        let rounded = digits[kept...].contains { $0 != 0 }
        places -= drop
        if places < 0 {
            guard -places < powersOfTen.count else { return nil }
            let (m, o) = whole.multipliedReportingOverflow(by: powersOfTen[-places])
            guard !o else { return nil }
            whole = m
            places = 0
        }
        guard whole < maxWhole else { return nil }
        return (Fixed(whole: negative ? -whole : whole, decimals: places), rounded)
    }

    /// Encodes a segment's samples into blocks. A block takes the most decimals of its
    /// samples; a sample that would push a held one past 2^53 there starts a new block.
    public struct Encoder {
        private var pending: [Fixed] = []
        private var places = 0
        /// The largest |whole| held, at `places`.
        private var largest: UInt64 = 0
        public private(set) var bytes: [UInt8] = []

        public init() { pending.reserveCapacity(WaveformCodec.blockSamples) }

        public mutating func append(_ sample: Fixed) {
            let wider = max(places, sample.decimals)
            if !pending.isEmpty, !fits(sample, at: wider) { flush() }
            if pending.isEmpty { places = sample.decimals; largest = 0 }
            let target = max(places, sample.decimals)
            largest = largest * UInt64(WaveformCodec.powersOfTen[target - places])
            places = target
            largest = max(largest, UInt64(sample.scaled(to: places)?.magnitude ?? 0))
            pending.append(sample)
            if pending.count == WaveformCodec.blockSamples { flush() }
        }

        /// Whether the held samples and `sample` all stay below 2^53 at `target` places.
        private func fits(_ sample: Fixed, at target: Int) -> Bool {
            let factor = UInt64(WaveformCodec.powersOfTen[target - places])
            let (held, overflow) = largest.multipliedReportingOverflow(by: factor)
            return !overflow && held < UInt64(WaveformCodec.maxWhole) && sample.scaled(to: target) != nil
        }

        /// Writes the block being filled, if any: the segment's bytes are then complete.
        public mutating func flush() {
            guard !pending.isEmpty else { return }
            WaveformCodec.appendVarint(UInt64(pending.count), to: &bytes)
            WaveformCodec.appendVarint(UInt64(places), to: &bytes)
            var previous: Int64 = 0
            for sample in pending {
                // `fits` kept every held sample below 2^53 at the block's places.
                let v = sample.scaled(to: places) ?? 0
                WaveformCodec.appendVarint(zigzag(v &- previous), to: &bytes)
                previous = v
            }
            pending.removeAll(keepingCapacity: true)
        }

        /// Hands over the bytes of the blocks written so far and keeps encoding.
        public mutating func take() -> [UInt8] {
            defer { bytes.removeAll(keepingCapacity: true) }
            return bytes
        }
    }

    /// Calls `body` with every sample of a segment's bytes in order; throws on bytes
    /// that are not a whole number of blocks.
    public static func decode(_ bytes: UnsafeRawBufferPointer, _ body: (Fixed) throws -> Void) throws {
        var at = 0
        func varint() throws -> UInt64 {
            var v: UInt64 = 0, shift: UInt64 = 0
            while true {
                guard at < bytes.count, shift < 64 else { throw DecodeError(offset: at) }
                let b = bytes[at]
                at += 1
                v |= UInt64(b & 0x7F) << shift
                if b & 0x80 == 0 { return v }
                shift += 7
            }
        }
        while at < bytes.count {
            let count = try varint()
            let places = try varint()
            guard count > 0, count <= UInt64(blockSamples), places <= UInt64(maxDecimals) else { throw DecodeError(offset: at) }
            var value: Int64 = 0
            for _ in 0..<count {
                value = value &+ unzigzag(try varint())
                try body(Fixed(whole: value, decimals: Int(places)))
            }
        }
    }

    public struct DecodeError: Error, CustomStringConvertible {
        public let offset: Int
        public var description: String { "waveform bytes end or break inside a block at byte \(offset) of the segment" }
    }

    static func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
    static func unzigzag(_ u: UInt64) -> Int64 { Int64(bitPattern: u >> 1) ^ -Int64(bitPattern: u & 1) }

    static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }
}
