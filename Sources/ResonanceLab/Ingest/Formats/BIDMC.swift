import Foundation

/// The BIDMC PPG and Respiration Dataset's CSV release (Pimentel et al. 2017,
/// `bidmc_NN_Signals.csv`): a header `Time [s], RESP, PLETH, V, AVR, II`, then one row
/// per sample of impedance respiration, the fingertip pulse wave and three ECG leads,
/// normalised (arbitrary units). The time column is rounded to five significant digits
/// (4.992e+02 for 499.2 s), so sample times come from the rate and the row: the rate is
/// the first two rows' step, and the last row's time is checked against it.
enum BIDMC: FormatAdapter {
    static let source = "bidmc"

    /// Whether a header is this layout: a `Time [s]` column first, a `PLETH` column.
    static func matches(header: [String]) -> Bool {
        let names = header.map(ColumnName.normalized)
        return names.first == "time_s" && names.contains("pleth")
    }

    /// The subject of `bidmc_01_Signals.csv`: the name without `_Signals` (`bidmc_01`).
    static func subject(fileName: String) -> String {
        let stem = (fileName as NSString).deletingPathExtension
        return stem.hasSuffix("_Signals") ? String(stem.dropLast("_Signals".count)) : stem
    }

    static func read(_ input: SourceInput, into sink: ImportSink) throws {
        let file = input.file
        let subject = sink.subject(input.subject, group: input.group)
        var times: [Double] = []
        try input.peek(3) { record in if record.line > 1 { times.append(record.double(0) ?? .nan) } }
        guard times.count == 2, times[1] > times[0] else {
            throw ImportError.badMetadata(path: input.path, line: 2, column: 1,
                                          message: "BIDMC signals need two rows with increasing times to give the rate")
        }
        // The step is printed exactly at the start (0.008 s): the rate to the millihertz.
        let rateHz = (1 / (times[1] - times[0]) * 1000).rounded() / 1000
        guard WaveformSink.rateRangeHz.contains(rateHz) else {
            throw ImportError.badMetadata(path: input.path, line: 3, column: 1,
                                          message: "BIDMC signals: the first step gives a rate outside \(WaveformSink.rateRangeText)")
        }
        let start = input.settings.startMs ?? 0
        var channels: [String] = []
        var rows: SampleRows?
        var recording: WaveformSink.Recording?
        var lastTime: (line: Int, seconds: Double, frame: Int)?
        let read = try input.forEachRow(headerLines: 1, header: { record, _ in
            guard record.count >= 2 else {
                throw ImportError.badMetadata(path: input.path, line: record.line, column: 2,
                                              message: "BIDMC signals need a column after the time column")
            }
            channels = (1..<record.count).map { ColumnName.normalized(record.string($0)) }
            let started = sink.waveforms.begin(subject: sink.subjectName(subject), source: source, startMs: start, rateHz: rateHz,
                                               file: input.display, channels: channels.map { WaveformSink.Channel(name: $0, unit: "a.u.") })
            recording = started
            // A row wider than the header is rejected as a gap, so later samples keep their times.
            rows = SampleRows(recording: started, file: file, fields: Array(1...channels.count), width: record.count)
        }) { record in
            if let t = record.double(0), let frame = recording?.frames { lastTime = (record.line, t, frame) }
            try rows?.row(record, into: sink)
        }
        try rows?.flushRejected(into: sink)
        guard let recording else { throw ImportError.emptyFile(path: input.path) }
        try sink.endRecording(recording, subject: subject)
        sink.note(file, "BIDMC signals (\(channels.joined(separator: ", "))) at \(CSVWriter.format(rateHz)) Hz from the first rows' "
            + "step; sample k at start + k / rate (the time column is rounded, so it is not used)")
        sink.note(file, ClocklessRR.note(startMs: input.settings.startMs, what: "sample k at start + k / rate"))
        if let last = lastTime {
            // Five significant digits: the printed time is within half a unit of its last digit.
            let expected = Double(last.frame) / rateHz
            let tolerance = max(0.5 / rateHz, 0.5 * pow10(digitExponent(last.seconds) - 4))
            if abs(expected - last.seconds) > tolerance {
                sink.warn(file, "line \(last.line): the time column says \(last.seconds) s where the rate gives "
                    + "\(CSVWriter.format(expected)) s: samples may be missing or the rate may change")
            }
        }
        try sink.endSource(input, rowsRead: read)
    }

    /// The power of ten of a number's leading digit (499.2 → 2).
    private static func digitExponent(_ v: Double) -> Int {
        v == 0 ? 0 : Int((log10(abs(v))).rounded(.down))
    }

    private static func pow10(_ k: Int) -> Double { (0..<abs(k)).reduce(1.0) { r, _ in k < 0 ? r / 10 : r * 10 } }
}
