/// Values collected for a quantile when there may be too many to hold: the latest
/// `held` in memory, the rest in an unnamed temporary file (`SpillFile`, 8 bytes each).
/// `quantile` is `Stats.quantile` of them all, to the bit: each order statistic it needs
/// is found by its bit pattern, 16 bits a pass over the values (a radix selection), so
/// finding it holds a table of 65,536 counts, not the values.
struct SpilledValues {
    private let held: Int
    private var values: [Double] = []
    private var spill: SpillFile?
    /// Values appended.
    private(set) var count = 0

    /// `held`: values kept in memory before they move to the file.
    init(held: Int = 1 << 16) {
        self.held = max(1, held)
    }

    /// Appends `value` (not NaN).
    mutating func append(_ value: Double) throws {
        values.append(value)
        count += 1
        guard values.count >= held else { return }
        let file = try spill ?? SpillFile()
        spill = file
        try file.write(values.withUnsafeBytes { Array($0) })
        values.removeAll(keepingCapacity: true)
    }

    /// `Stats.quantile` of every value appended (NaN when there is none).
    func quantile(_ p: Double) throws -> Double {
        guard let spill else { return Stats.quantile(values, p) }
        let h = Double(count - 1) * p
        let lo = Int(h.rounded(.down)), hi = min(lo + 1, count - 1)
        let a = try orderStatistic(lo, spill), b = try orderStatistic(hi, spill)
        return a + (h - Double(lo)) * (b - a)
    }

    /// The value of rank `rank` (0-based) in ascending order.
    private func orderStatistic(_ rank: Int, _ spill: SpillFile) throws -> Double {
        var prefix: UInt64 = 0, rank = rank
        for pass in 0..<4 {
            let shift = UInt64(48 - 16 * pass)
            var counts = [Int](repeating: 0, count: 1 << 16)
            try forEach(spill) { key in
                // Only the values whose higher bits are those chosen so far.
                if pass == 0 || key >> (shift + 16) == prefix { counts[Int((key >> shift) & 0xFFFF)] += 1 }
            }
            var bucket = 0
            while rank >= counts[bucket] {
                rank -= counts[bucket]
                bucket += 1
            }
            prefix = prefix << 16 | UInt64(bucket)
        }
        return Self.value(ofKey: prefix)
    }

    /// Calls `body` with the ordering key of every value (file, then memory).
    private func forEach(_ spill: SpillFile, _ body: (UInt64) -> Void) throws {
        try spill.forEachChunk { chunk in
            chunk.withUnsafeBytes { raw in
                for i in 0..<(raw.count / 8) { body(Self.key(raw.loadUnaligned(fromByteOffset: 8 * i, as: Double.self))) }
            }
        }
        for v in values { body(Self.key(v)) }
    }

    /// A key whose unsigned order is the values' order (the sign bit flipped for
    /// positive values, every bit for negative ones).
    private static func key(_ v: Double) -> UInt64 {
        let bits = v.bitPattern
        return bits >> 63 == 1 ? ~bits : bits | (1 << 63)
    }

    private static func value(ofKey key: UInt64) -> Double {
        Double(bitPattern: key >> 63 == 1 ? key & ~(1 << 63) : ~key)
    }
}
