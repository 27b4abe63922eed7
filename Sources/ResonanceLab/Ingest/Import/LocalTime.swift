import Foundation

/// Turns naive local wall-clock times into UTC instants for one IANA zone
/// (`--tz`), using Foundation's zone database. Offsets are cached per local hour,
/// so the hot path costs a dictionary lookup.
final class LocalTime {
    let zone: TimeZone
    private var offsetByHour: [Int64: Int64] = [:]

    init(zone: TimeZone) {
        self.zone = zone
    }

    /// The instant whose wall-clock time in `zone` reads `localMs` (epoch-style).
    /// In the skipped hour of a DST change the pre-change offset applies; in the
    /// repeated hour, the first occurrence.
    func utc(fromLocal localMs: Int64) -> Int64 {
        let hour = Timestamp.floorDivMod(localMs, 3_600_000).0
        if let offset = offsetByHour[hour] { return localMs - offset }
        // Two steps: the offset at the naive guess, then at the corrected instant.
        let first = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(localMs) / 1000))) * 1000
        let second = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(localMs - first) / 1000))) * 1000
        offsetByHour[hour] = second
        return localMs - second
    }
}

/// Parses the time fields of imported rows: ISO 8601 (with or without zone) or
/// unix seconds / milliseconds. Naive ISO times are local time in `--tz`, or UTC.
final class TimeFieldParser {
    private let local: LocalTime?
    /// `--time-format`: a Unicode date pattern read in `--tz` (or UTC).
    private let custom: DateFormatter?
    /// The zone naive times are read in (`--tz`); nil reads them as UTC.
    var zone: TimeZone? { local?.zone }
    /// The `--time-format` pattern `custom` reads.
    private let format: String?
    /// True once a naive (zone-less) time has been read.
    private(set) var sawNaive = false

    init(local: LocalTime?, format: String? = nil) {
        self.local = local
        self.format = format
        custom = format.map { pattern in
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.timeZone = local?.zone ?? TimeZone(identifier: "UTC")
            f.dateFormat = pattern
            return f
        }
    }

    /// Unix time unit: explicit from a header, else by magnitude per value
    /// (≥ 1e11 can only be milliseconds: 1e11 s is the year 5138).
    enum UnixUnit { case seconds, milliseconds, byMagnitude }

    /// A parser reading times as this one does, with caches and a `sawNaive` of its own:
    /// one per range of a file read in parallel, `absorb`ed in file order.
    func copy() -> TimeFieldParser {
        TimeFieldParser(local: local.map { LocalTime(zone: $0.zone) }, format: format)
    }

    /// Takes in what a `copy()` read: whether it met a naive time.
    func absorb(_ other: TimeFieldParser) {
        if other.sawNaive { sawNaive = true }
    }

    /// Epoch milliseconds of field `i`, or nil when it is not a time.
    func parse(_ record: CSVRecord, _ i: Int, unix: UnixUnit = .byMagnitude) -> Int64? {
        guard i < record.count else { return nil }
        if let custom {
            sawNaive = true
            return custom.date(from: record.trimmed(i)).flatMap { Timestamp.instant(ms: $0.timeIntervalSince1970 * 1000) }
        }
        let bytes = record.bytes(i)
        if bytes.count >= 10, bytes[4] == 45 {
            guard let (ms, hasZone) = canonicalISO(bytes) ?? Timestamp.parseISO(bytes: bytes) else { return nil }
            if hasZone { return ms }
            // A wall-clock time near either end of the years 0000–9999 can leave them
            // after the zone's offset is applied; such a row is rejected.
            return instant(fromNaive: ms)
        }
        guard let value = record.double(i) else { return nil }
        let ms: Double
        switch unix {
        case .seconds: ms = value * 1000
        case .milliseconds: ms = value
        case .byMagnitude: ms = value.magnitude >= 1e11 ? value : value * 1000
        }
        return Timestamp.instant(ms: ms)
    }

    /// The instant of a zone-less wall-clock time `localMs` (epoch-style) read by a
    /// format's own parser (Fitbit's `MM/dd/yy HH:mm:ss`): in `--tz`, else UTC.
    func instant(fromNaive localMs: Int64) -> Int64? {
        sawNaive = true
        guard let local else { return localMs }
        let utc = local.utc(fromLocal: localMs)
        return Timestamp.representable.contains(utc) ? utc : nil
    }

    private var cachedDate = -1
    private var cachedDays: Int64 = 0

    /// Fast path for the common `YYYY-MM-DDThh:mm:ss[.fff][Z]` shape with a
    /// per-day cache; nil for any other shape (then `Timestamp.parseISO` decides).
    private func canonicalISO(_ b: UnsafeBufferPointer<UInt8>) -> (ms: Int64, hasZone: Bool)? {
        let n = b.count
        guard n >= 19, b[7] == 45, b[10] == 84, b[13] == 58, b[16] == 58 else { return nil }
        @inline(__always) func two(_ at: Int) -> Int? {
            let x = Int(b[at]) - 48, y = Int(b[at + 1]) - 48
            guard x >= 0, x <= 9, y >= 0, y <= 9 else { return nil }
            return x * 10 + y
        }
        guard let c = two(0), let yy = two(2), let mo = two(5), let d = two(8),
              let h = two(11), let mi = two(14), let s = two(17), h < 24, mi < 60, s < 60 else { return nil }
        var i = 19
        var frac: Int64 = 0
        if i < n, b[i] == 46 {
            i += 1
            guard let ms = Timestamp.fractionMs(b, &i) else { return nil }
            frac = ms
        }
        var hasZone = false
        if i < n, b[i] == 90 { hasZone = true; i += 1 }
        guard i == n else { return nil }
        let date = (c * 100 + yy) * 10_000 + mo * 100 + d
        if date != cachedDate {
            let year = c * 100 + yy
            guard mo >= 1, mo <= 12, d >= 1, d <= Timestamp.daysInMonth(year, mo) else { return nil }
            cachedDate = date
            cachedDays = Int64(Timestamp.daysFromCivil(year, mo, d))
        }
        let seconds = cachedDays * 86_400 + Int64(h * 3600 + mi * 60 + s)
        return (seconds * 1000 + frac, hasZone)
    }

    /// The manifest note of a file whose zone-less times were read as UTC (no --tz).
    static let utcNote = "naive local times read as UTC (no --tz given)"

    /// Manifest note on how zone-less times were read, when there were any.
    func zoneNote() -> String? {
        guard sawNaive else { return nil }
        if let local { return "naive local times read in \(local.zone.identifier) (--tz)" }
        return Self.utcNote
    }
}

/// A UTC offset written as exports write a row's zone: `UTC+0100`, `UTC-05:00`, `UTC+1`,
/// `UTCZ`, `UTC`, `+01:00`, `Z`.
enum UTCOffset {
    /// The offset in minutes east of UTC, or nil for any other text (beyond ±14:00 included).
    static func minutes(_ text: String) -> Int? {
        var t = Substring(text.trimmingCharacters(in: .whitespaces))
        if t.uppercased().hasPrefix("UTC") { t = t.dropFirst(3) } else if t.uppercased().hasPrefix("GMT") { t = t.dropFirst(3) }
        if t.isEmpty || t == "Z" || t == "z" { return 0 }
        guard let sign = t.first, sign == "+" || sign == "-" else { return nil }
        let digits = t.dropFirst().filter { $0 != ":" }
        guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy(\.isASCII), let value = Int(digits) else { return nil }
        let (h, m) = digits.count <= 2 ? (value, 0) : (value / 100, value % 100)
        guard m < 60, h * 60 + m <= 14 * 60 else { return nil }
        return (sign == "-" ? -1 : 1) * (h * 60 + m)
    }
}
