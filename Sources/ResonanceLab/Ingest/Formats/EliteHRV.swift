import Foundation

/// Elite HRV R-R export: one file per recording, named by the recording's local start
/// time `YYYY-MM-DD HH-MM-SS.txt`, holding one R-R interval (ms) per line and no header
/// (docs/import.md, Elite HRV).
///
/// The name's wall-clock time is read in `--tz` (else as UTC, with a warning) and
/// anchors the recording: the first beat closes the first interval after it and each
/// later beat the next, as for PhysioNet text. The trials of one session, each its own
/// file, so fall on one clock and can be imported as one subject (`--subject`).
/// `--start` does not apply: the name gives the start.
enum EliteHRV: FormatAdapter {
    static let source = SourceFormat.eliteHRV.rawValue

    /// The wall-clock start a file name gives, as epoch-style ms without a zone; nil
    /// unless the name is exactly `YYYY-MM-DD HH-MM-SS.txt` (extension in any case)
    /// with a valid date and time.
    static func localStartMs(fileName: String) -> Int64? {
        let b = Array(fileName.utf8)
        guard b.count == 23, String(decoding: b[19...], as: UTF8.self).lowercased() == ".txt",
              b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: " "),
              b[13] == UInt8(ascii: "-"), b[16] == UInt8(ascii: "-") else { return nil }
        func number(_ digits: Range<Int>) -> Int? {
            var value = 0
            for i in digits {
                let d = Int(b[i]) - 48
                guard (0...9).contains(d) else { return nil }
                value = value * 10 + d
            }
            return value
        }
        guard let y = number(0..<4), let mo = number(5..<7), let d = number(8..<10),
              let h = number(11..<13), let mi = number(14..<16), let s = number(17..<19),
              (1...12).contains(mo), d >= 1, d <= Timestamp.daysInMonth(y, mo), h < 24, mi < 60, s < 60 else { return nil }
        return (Int64(Timestamp.daysFromCivil(y, mo, d)) * 86_400 + Int64(h * 3600 + mi * 60 + s)) * 1000
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let name = (input.path as NSString).lastPathComponent
        guard let localMs = localStartMs(fileName: name) else {
            throw ImportError.formatMismatch(path: input.display, format: source, expected: FormatLayout.expected(.eliteHRV),
                                             found: "found the file name '\(name)'")
        }
        let zone = input.times.zone
        guard let startMs = input.times.instant(fromNaive: localMs) else {
            throw ImportError.badOption(message: "\(input.display): the start time in the file name, read in "
                + "\(zone?.identifier ?? "UTC"), lies outside the years 0000–9999")
        }
        let read = zone.map { "read in \($0.identifier) (--tz)" } ?? "read as UTC (no --tz given)"
        if zone == nil {
            sink.warn(input.file, "start time in the file name read as UTC (no --tz given); "
                + "give --tz with the zone the recording was made in")
        }
        try PhysioNetRR.read(input, into: sink, source: source, startMs: startMs,
                             clockNote: "recording start \(Timestamp.iso(startMs)): the file name's local time \(read); "
                                + "beat times are that start plus the cumulative sum of all parsable values, rejected ones included")
    }
}
